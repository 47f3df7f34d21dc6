#!/usr/bin/env python3
"""End-to-end benchmark in real GIMP (issues 5 and "Native GIMP 3 filters" 6).

Two gimp-console-3 sessions, on new GRAY 16-bit images, methods interleaved round after
round (the order reversed every other round), medians of the rounds after a warm-up round:

Session 1, with gimp-terrain's GEGL module (and the benchmark's floor operation) loaded:
  - every generator through its procedure, plug-in-terrain-NAME: the plug-in applies the
    operation terrain:NAME in GIMP's process (checked: a fallback is reported as an error);
  - every generator's operation applied directly as a drawable filter (Gimp.DrawableFilter
    + merge_filter), no plug-in involved;
  - GIMP's Plasma (gegl:plasma, width and height set to the layer), gegl:color (a source
    operation), the in-process floor (terrain-bench:floor, floor-op.c: a threaded filter
    operation writing a constant in the layer's own format), the transfer floor (the
    terrain-bench-floor plug-in: our own glue writing a constant over the pipe) and the
    plug-in's fixed cost per call: a procedure call refused at once (no drawable), i.e.
    process start, libgimp's handshake and the return.
Session 2, without the module: every generator's procedure through the plug-in's own write
path (the fallback, pixels over the pipe), with Plasma and the transfer floor again.

The generators are diamond-square, field, fault, circles, particles and landscape, plus any
other procedure terrain-docs lists whose name is no smoothing or erosion filter; all run at
their defaults (seed = round number). A generator's own compute time in GIMP is defined as
(its operation applied directly) - (the in-process floor). Prints the table and the
project's targets, met or missed (the exit status ignores them).

With --big it also renders plug-in-terrain-field into a 32768 x 32768 GRAY u16 layer in
both sessions and reports the plug-in's and GIMP's peak resident memory (VmHWM; GIMP's is
its peak over the whole session).

usage: bench-gimp.py PLUGIN FLOOR_PLUGIN WORKDIR [--module gimp-terrain.so]
                     [--floor-op terrain-bench-floor-op.so] [--docs terrain-docs]
                     [--sizes 1024,4096] [--rounds N] [--big] [--markdown FILE]
--module defaults to the module built beside PLUGIN, --floor-op to the one beside
FLOOR_PLUGIN, --docs to the build tree's src/cli/terrain-docs. The thread count of our
plug-in follows TERRAIN_THREADS (default: the machine's CPUs); in GIMP the operations run
on GEGL's threads.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gimp"))
from gimpsession import PYTHON_FU_HELPERS, GimpSession, error_excerpt, gegl_module, link  # noqa: E402

GENERATORS = ["diamond-square", "field", "fault", "circles", "particles", "landscape"]
TITLES = {"diamond-square": "Diamond-Square", "field": "Infinite Field"}
PLASMA, COLOR, FLOOR, TRANSFER = "Plasma", "gegl:color", "in-process floor", "transfer floor"
START = "plug-in start (a call refused at once)"
FLOOR_OP = "terrain-bench:floor"

# The project's targets (informational).
PLASMA_TARGET_PROCEDURE = {4096: 10.0, 1024: 2.0}  # Diamond-Square and Field, procedure
PLASMA_TARGET_FILTER = 10.0                         # the same, operation applied directly
FLOOR_TARGET = 1.5  # procedure within 1.5x of (in-process floor + own compute)

# Runs inside GIMP (python-fu-eval). Results go to a JSON file: the eval plug-in's stdout
# is not reliably GIMP's.
SCRIPT = r"""
import json, os, threading, time
import gi
gi.require_version("Gimp", "3.0")
from gi.repository import Gimp

METHODS, SIZES, ROUNDS, BIG, OUT = %(methods)r, %(sizes)r, %(rounds)d, %(big)r, %(out)r
FALLBACK = "gimp-terrain-renders-in-plug-in"  # src/plugin/native.c: set when it falls back
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
        try:
            f = Gimp.DrawableFilter.new(layer, name, "")
        except TypeError:  # GIMP 3.2.6 refuses filters it hides (gegl:color): not timed
            return None
        if f is None:
            return False
        c = f.get_config()
        if c.find_property("seed"):
            c.set_property("seed", seed)
        if name == "gegl:plasma":
            c.set_property("width", size)
            c.set_property("height", size)
        layer.merge_filter(f)
        return True
    if kind == "start":  # the procedure refuses at once (no drawable): its start and return
        proc = pdb.lookup_procedure(name)
        config = proc.create_config()
        config.set_property("run-mode", Gimp.RunMode.NONINTERACTIVE)
        config.set_property("image", image)
        config.set_core_object_array("drawables", [])
        return proc.run(config).index(0) == Gimp.PDBStatusType.CALLING_ERROR
    seeded = pdb.lookup_procedure(name).find_argument("seed")  # the floor has no seed
    return run_procedure(name, image, layer, **({"seed": seed} if seeded else {}))

def fell_back():
    # Whether a terrain procedure rendered in the plug-in since the last call; resets.
    said = Gimp.get_parasite(FALLBACK)
    if said is not None:
        Gimp.detach_parasite(FALLBACK)
    return said is not None

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

results = {"times": {}, "ok": True, "failed": [], "plugin_path": {}}
for size in SIZES:
    image, layer = new_layer(size)
    times = {m[0]: [] for m in METHODS}
    for r in range(ROUNDS + 1):  # round 0 warms up caches and loads every plug-in once
        order = METHODS if r %% 2 == 0 else METHODS[::-1]
        for label, kind, name in order:
            if r == 0 and kind == "pdb":
                fell_back()
            t0 = time.perf_counter()
            ok = call(kind, name, image, layer, size, r + 1)
            t = time.perf_counter() - t0
            if ok is None:
                continue
            if not ok:
                results["ok"] = False
                results["failed"].append(label)
            if r == 0 and kind == "pdb":  # outside the timings: which path it took
                results["plugin_path"].setdefault(label, []).append(fell_back())
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
    results["ok"] = results["ok"] and ok
    image.delete()

with open(OUT, "w") as f:
    json.dump(results, f)
"""


def generators(docs):
    """The fixed six, plus any other procedure terrain-docs lists that is no filter (no
    smoothing or erosion); their menu labels become the table's names."""
    names = list(GENERATORS)
    if docs and os.path.exists(docs):
        text = subprocess.run([docs], check=True, capture_output=True, text=True).stdout
        for name, title in re.findall(r'^### plug-in-terrain-([a-z0-9-]+): "([^"]*)"', text,
                                      flags=re.M):
            TITLES.setdefault(name, title.rstrip(".…"))
            if name not in names and "smooth" not in name and "erosion" not in name:
                names.append(name)
    return names


def procedure_label(name):
    return "%s, procedure" % TITLES.get(name, name)


def filter_label(name):
    return "%s, operation as a filter" % TITLES.get(name, name)


def run_session(session, methods, sizes, rounds, big, out):
    if os.path.exists(out):
        os.remove(out)
    script = SCRIPT % dict(methods=methods, sizes=sizes, rounds=rounds, big=big, out=out,
                          helpers=PYTHON_FU_HELPERS)
    result = session.run_python(script, timeout=7200)
    if result.returncode != 0 or not os.path.exists(out):
        sys.exit("GIMP session failed (exit %d):\n%s" % (result.returncode, error_excerpt(result.stderr)))
    with open(out) as f:
        data = json.load(f)
    data["stderr"] = result.stderr
    return data


def link_plugin(session, name, binary):
    folder = os.path.join(session.workdir, "plug-ins", name)
    os.makedirs(folder, exist_ok=True)
    link(binary, os.path.join(folder, name))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plugin")
    ap.add_argument("floor_plugin")
    ap.add_argument("workdir")
    ap.add_argument("--module", help="gimp-terrain's GEGL module (default: beside PLUGIN)")
    ap.add_argument("--floor-op", help="terrain-bench-floor-op.so (default: beside FLOOR_PLUGIN)")
    ap.add_argument("--docs", help="terrain-docs, to find new generators")
    ap.add_argument("--sizes", default="1024,4096")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--markdown", help="also write the table as Markdown to this file")
    args = ap.parse_args()

    module = args.module or gegl_module(args.plugin)
    floor_op = args.floor_op or os.path.join(os.path.dirname(os.path.abspath(args.floor_plugin)),
                                             "terrain-bench-floor-op.so")
    build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(args.plugin))))
    docs = args.docs or os.path.join(build, "src", "cli", "terrain-docs")
    for what, path in (("GEGL module", module), ("floor operation", floor_op)):
        if not path or not os.path.exists(path):
            sys.exit("bench-gimp: no %s (%s): build it first" % (what, path))

    workdir = os.path.abspath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    sizes = [int(s) for s in args.sizes.split(",")]
    names = generators(docs)

    # Session 1: in GIMP's process.
    native = [(procedure_label(n), "pdb", "plug-in-terrain-" + n) for n in names]
    native += [(filter_label(n), "gegl", "terrain:" + n) for n in names]
    native += [(PLASMA, "gegl", "gegl:plasma"), (COLOR, "gegl", "gegl:color"),
               (FLOOR, "gegl", FLOOR_OP), (TRANSFER, "pdb", "plug-in-terrain-bench-transfer-floor"),
               (START, "start", "plug-in-terrain-" + names[0])]
    session = GimpSession(args.plugin, os.path.join(workdir, "gimp-module"),
                          extra_plugins=("python-eval",), modules=[module, floor_op])
    link_plugin(session, "terrain-bench-floor", args.floor_plugin)
    print("bench-gimp: session 1 of 2 (module loaded): %d methods, sizes %s, %d rounds"
          % (len(native), args.sizes, args.rounds), file=sys.stderr)
    a = run_session(session, native, sizes, args.rounds, args.big,
                    os.path.join(workdir, "results-module.json"))

    # Session 2: the plug-in's own write path, without the module.
    piped = [(procedure_label(n), "pdb", "plug-in-terrain-" + n) for n in names]
    piped += [(PLASMA, "gegl", "gegl:plasma"), (TRANSFER, "pdb", "plug-in-terrain-bench-transfer-floor")]
    session = GimpSession(args.plugin, os.path.join(workdir, "gimp-plugin"),
                          extra_plugins=("python-eval",))
    link_plugin(session, "terrain-bench-floor", args.floor_plugin)
    print("bench-gimp: session 2 of 2 (no module): %d methods" % len(piped), file=sys.stderr)
    b = run_session(session, piped, sizes, args.rounds, args.big,
                    os.path.join(workdir, "results-plugin.json"))

    # Which path each procedure took: in GIMP's process with the module, the pipe without.
    problems = []
    for n in names:
        label = procedure_label(n)
        if any(a["plugin_path"].get(label, [True])):
            problems.append("%s rendered in the plug-in although the module was loaded" % label)
        if not all(b["plugin_path"].get(label, [False])):
            problems.append("%s did not render in the plug-in without the module" % label)
    for data in (a, b):
        problems += ["%s failed" % label for label in sorted(set(data["failed"]))]

    threads = os.environ.get("TERRAIN_THREADS", "all CPUs (%d)" % os.cpu_count())
    lines = ["GIMP end to end, GRAY u16, medians of %d rounds (s), methods interleaved; our "
             "plug-in's threads: %s; in GIMP, GEGL's. Generators at their defaults. "
             "\"In GIMP\": session 1, gimp-terrain's GEGL module loaded; \"plug-in path\": "
             "session 2, no module (pixels over the pipe), its Plasma and transfer floor "
             "from that session, its floor ratio against session 1's in-process floor."
             % (args.rounds, threads), ""]
    lines += ["| Size | Method | Median (s) | Range (s) | Plasma / this | this / in-process floor |",
              "|---|---|---|---|---|---|"]
    med = {}
    for size in sizes:
        ta, tb = a["times"][str(size)], b["times"][str(size)]
        ma = {label: statistics.median(t) for label, t in ta.items() if t}
        mb = {label: statistics.median(t) for label, t in tb.items() if t}
        med[size] = (ma, mb)
        rows = [("%s (in GIMP)" % procedure_label(n), ta, ma, procedure_label(n)) for n in names]
        rows += [(filter_label(n), ta, ma, filter_label(n)) for n in names]
        rows += [(label, ta, ma, label) for label in (PLASMA, COLOR, FLOOR, TRANSFER, START)]
        rows += [("%s (plug-in path)" % procedure_label(n), tb, mb, procedure_label(n))
                 for n in names]
        rows += [("%s (plug-in path session)" % label, tb, mb, label) for label in (PLASMA, TRANSFER)]
        for shown, times, m, label in rows:
            if label not in m:  # a filter this GIMP refuses (see call)
                lines.append("| %d² | %s | refused by this GIMP | | | |" % (size, shown))
                continue
            lines.append("| %d² | %s | %.3f | %.3f–%.3f | %.1f× | %.2f× |" % (
                size, shown, m[label], min(times[label]), max(times[label]),
                m[PLASMA] / m[label], m[label] / ma[FLOOR]))

    lines += ["", "Own compute in GIMP = operation applied directly - in-process floor "
              "(medians); procedure bound = %.1f × (in-process floor + own compute)." % FLOOR_TARGET,
              "Procedure - start: the procedure's median less the plug-in start's (a call refused "
              "at once).",
              "", "| Size | Generator | Own compute (s) | Procedure (s) | Procedure - start (s) | "
              "Bound (s) | Procedure / (floor + compute) |", "|---|---|---|---|---|---|---|"]
    verdicts = []
    for size in sizes:
        ma, mb = med[size]
        for n in names:
            proc, direct = ma[procedure_label(n)], ma[filter_label(n)]
            compute = max(0.0, direct - ma[FLOOR])
            base = ma[FLOOR] + compute
            lines.append("| %d² | %s | %.3f | %.3f | %.3f | %.3f | %.2f× |" % (
                size, TITLES.get(n, n), compute, proc, proc - ma[START], FLOOR_TARGET * base,
                proc / base))
            verdicts.append(("%s through the procedure within %.1f× of in-process floor + own "
                             "compute at %d²: %.3f s vs %.3f s + %.3f s (%.2f×)"
                             % (TITLES.get(n, n), FLOOR_TARGET, size, proc, ma[FLOOR], compute,
                                proc / base), proc <= FLOOR_TARGET * base))
        for n in ("diamond-square", "field"):
            if n not in names:
                continue
            if size in PLASMA_TARGET_PROCEDURE:
                goal, x = PLASMA_TARGET_PROCEDURE[size], ma[PLASMA] / ma[procedure_label(n)]
                verdicts.append(("%s through the procedure ≥ %.0f× Plasma at %d²: %.1f× (%.3f s, "
                                 "Plasma %.3f s)" % (TITLES[n], goal, size, x,
                                                     ma[procedure_label(n)], ma[PLASMA]), x >= goal))
            x = ma[PLASMA] / ma[filter_label(n)]
            verdicts.append(("%s applied directly as a filter ≥ %.0f× Plasma at %d²: %.1f× "
                             "(%.3f s, Plasma %.3f s)" % (TITLES[n], PLASMA_TARGET_FILTER, size, x,
                                                          ma[filter_label(n)], ma[PLASMA]),
                             x >= PLASMA_TARGET_FILTER))
    lines += ["", "Targets:", ""]
    lines += ["- %s: %s" % ("met" if ok else "**missed**", text) for text, ok in verdicts]

    for tag, data in (("in GIMP's process", a), ("plug-in path", b)):
        if "big" in data:
            big = data["big"]
            lines += ["", "Field into 32768² GRAY u16, %s: %s in %.1f s; peak resident memory: "
                      "plug-in %.0f MiB, GIMP %.0f MiB (its session peak)"
                      % (tag, "completed" if big["ok"] else "FAILED", big["seconds"],
                         big["plugin_kib"] / 1024, big["gimp_kib"] / 1024)]
    if problems:
        lines += [""] + ["PROBLEM: %s" % p for p in problems]
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    if problems:
        sys.exit("bench-gimp: %d problem(s), see above" % len(problems))


if __name__ == "__main__":
    main()
