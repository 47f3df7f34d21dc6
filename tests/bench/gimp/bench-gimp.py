#!/usr/bin/env python3
"""End-to-end benchmark in real GIMP (issue 5): in one gimp-console-3.0 session, on new
GRAY 16-bit images, times in turn, round after round, our plug-in-terrain-diamond-square and
plug-in-terrain-field, GIMP's Plasma (gegl:plasma, width and height set to the layer),
GIMP's Solid Noise (gegl:noise-solid, detail 1) and our transfer floor (the
terrain-bench-floor plug-in: our own glue writing a constant). Prints the median seconds of
each and the ratios: how many times faster than Plasma, and how far above the floor.

With --big it also renders plug-in-terrain-field into a 32768 x 32768 GRAY u16 layer and
reports the plug-in's and GIMP's peak resident memory (VmHWM), sampled while it runs.

usage: bench-gimp.py PLUGIN FLOOR_PLUGIN WORKDIR [--sizes 1024,4096] [--rounds N]
                     [--big] [--markdown FILE]
The thread count of our plug-in follows TERRAIN_THREADS (default: the machine's CPUs).
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gimp"))
from gimpsession import PYTHON_FU_HELPERS, GimpSession  # noqa: E402

# What is timed: (label, kind, name); kind "pdb" calls a procedure, "gegl" merges a filter.
METHODS = [
    ("diamond-square", "pdb", "plug-in-terrain-diamond-square"),
    ("field", "pdb", "plug-in-terrain-field"),
    ("Plasma", "gegl", "gegl:plasma"),
    ("Solid Noise", "gegl", "gegl:noise-solid"),
    ("transfer floor", "pdb", "plug-in-terrain-bench-transfer-floor"),
]

# Runs inside GIMP (python-fu-eval). Results go to a JSON file: the eval plug-in's stdout
# is not reliably GIMP's.
SCRIPT = r"""
import json, os, threading, time
import gi
gi.require_version("Gimp", "3.0")
from gi.repository import Gimp

METHODS, SIZES, ROUNDS, BIG, OUT = %(methods)r, %(sizes)r, %(rounds)d, %(big)r, %(out)r
pdb = Gimp.get_pdb()

def new_layer(size):
    image = Gimp.Image.new_with_precision(size, size, Gimp.ImageBaseType.GRAY,
                                          Gimp.Precision.U16_NON_LINEAR)
    layer = Gimp.Layer.new(image, "h", size, size, Gimp.ImageType.GRAY_IMAGE, 100,
                           Gimp.LayerMode.NORMAL)
    image.insert_layer(layer, None, 0)
    return image, layer

def call(kind, name, image, layer, size, seed):
    if kind == "gegl":
        f = Gimp.DrawableFilter.new(layer, name, "")
        c = f.get_config()
        c.set_property("seed", seed)
        c.set_property("width", size)
        c.set_property("height", size)
        if name == "gegl:noise-solid":
            c.set_property("detail", 1)
        layer.merge_filter(f)
        return True
    seeded = pdb.lookup_procedure(name).find_argument("seed")  # the floor has no seed
    return run_procedure(name, image, layer, **({"seed": seed} if seeded else {}))

def peak_kib(pid):
    try:
        with open("/proc/%%d/status" %% pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0

%(helpers)s

results = {"times": {}, "ok": True}
for size in SIZES:
    image, layer = new_layer(size)
    times = {m[0]: [] for m in METHODS}
    for r in range(ROUNDS + 1):  # round 0 warms up caches and loads every plug-in once
        order = METHODS if r %% 2 == 0 else METHODS[::-1]
        for label, kind, name in order:
            t0 = time.perf_counter()
            ok = call(kind, name, image, layer, size, r + 1)
            t = time.perf_counter() - t0
            results["ok"] = results["ok"] and ok
            if r > 0:
                times[label].append(t)
    results["times"][str(size)] = times
    image.delete()

if BIG:
    size = 32768
    image, layer = new_layer(size)
    peak = {"plugin": 0}
    done = threading.Event()
    def sample():
        while not done.is_set():
            for pid in terrain_pids():
                peak["plugin"] = max(peak["plugin"], peak_kib(pid))
            time.sleep(0.05)
    sampler = threading.Thread(target=sample)
    sampler.start()
    t0 = time.perf_counter()
    ok = call("pdb", "plug-in-terrain-field", image, layer, size, 1)
    results["big"] = {"seconds": time.perf_counter() - t0, "ok": ok,
                      "plugin_kib": 0, "gimp_kib": peak_kib(os.getppid())}
    done.set()
    sampler.join()
    results["big"]["plugin_kib"] = peak["plugin"]
    image.delete()

with open(OUT, "w") as f:
    json.dump(results, f)
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plugin")
    ap.add_argument("floor_plugin")
    ap.add_argument("workdir")
    ap.add_argument("--sizes", default="1024,4096")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--markdown", help="also write the table as Markdown to this file")
    args = ap.parse_args()

    workdir = os.path.abspath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    session = GimpSession(args.plugin, os.path.join(workdir, "gimp"), extra_plugins=("python-eval",))
    floor_dir = os.path.join(session.workdir, "plug-ins", "terrain-bench-floor")
    os.makedirs(floor_dir, exist_ok=True)
    link = os.path.join(floor_dir, "terrain-bench-floor")
    if not os.path.lexists(link):
        os.symlink(os.path.abspath(args.floor_plugin), link)

    out = os.path.join(workdir, "results.json")
    if os.path.exists(out):
        os.remove(out)
    sizes = [int(s) for s in args.sizes.split(",")]
    script = SCRIPT % dict(methods=METHODS, sizes=sizes, rounds=args.rounds, big=args.big, out=out,
                          helpers=PYTHON_FU_HELPERS)
    result = session.run_python(script, timeout=3600)
    if result.returncode != 0 or not os.path.exists(out):
        sys.exit("GIMP session failed (exit %d):\n%s" % (result.returncode, result.stderr[-3000:]))
    with open(out) as f:
        data = json.load(f)

    threads = os.environ.get("TERRAIN_THREADS", "all CPUs (%d)" % os.cpu_count())
    lines = ["GIMP end to end, GRAY u16, medians of %d rounds (s); our plug-in's threads: %s"
             % (args.rounds, threads), ""]
    lines += ["| Size | Method | Median (s) | Plasma / this | this / transfer floor |",
              "|---|---|---|---|---|"]
    for size in sizes:
        times = data["times"][str(size)]
        med = {label: statistics.median(t) for label, t in times.items()}
        for label, _, _ in METHODS:
            lines.append("| %d² | %s | %.3f | %.1f× | %.2f× |" % (
                size, label, med[label], med["Plasma"] / med[label], med[label] / med["transfer floor"]))
    if "big" in data:
        b = data["big"]
        lines += ["", "Field into 32768² GRAY u16: %s in %.1f s; peak resident memory: plug-in %.0f MiB, "
                  "GIMP %.0f MiB" % ("completed" if b["ok"] else "FAILED", b["seconds"],
                                     b["plugin_kib"] / 1024, b["gimp_kib"] / 1024)]
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    if not data["ok"]:
        sys.exit("a procedure call failed")


if __name__ == "__main__":
    main()
