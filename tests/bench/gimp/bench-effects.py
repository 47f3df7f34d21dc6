#!/usr/bin/env python3
"""The filters as effects in GIMP's process: what an artist waits for, GIMP frozen.

One gimp-console-3 session with gimp-terrain's GEGL module, on a GRAY 16-bit layer holding
an Infinite Field at each size. For each filter operation (terrain:smooth, thermal-erosion,
hydraulic-erosion, river-erosion, at their defaults) and GIMP's Plasma, round after round
(the order reversed every other round, medians of the rounds after a warm-up round):
  - "first":  the effect on a layer whose pixels differ from every earlier round (one pixel
    changed), merged: a full render, as after a paint stroke or a settings change;
  - "again":  the same effect on a copy of that layer (same pixels, same settings), merged:
    what GIMP asks again after OK, undo and redo, or on a second layer with these pixels;
    target <= 10 % of "first";
and each "first" against Plasma on the same layer (the issue's ratio). References: GIMP's
own Invert (gegl:invert-gamma, a point filter: a merge that reads, converts and writes the
layer) and, with --floor-op, two floors (floor-op.c): the floor of a merge that writes the
layer (terrain-bench:floor: in its own format, reading nothing), and the least any merge
costs (terrain-bench:pass: the layer handed back untouched). "Again" shares its kept
pixels with the output, so it is the pass's time, plus reading the layer to know it is the
same: "again" at most 10 % of "first" needs a "first" of about ten passes and that reading.
At 1024² also, through the procedures (so with the plug-in's start, about 55 ms), the slow
River Erosion settings an artist paints under: growing ranges from the layer (uplift
"layer", age 200, diffusion 3) and the river-valleys landscape preset, against the same
Plasma.

usage: bench-effects.py PLUGIN GEGL_MODULE WORKDIR [--sizes 1024,4096] [--rounds N]
                        [--only NAME,...] [--floor-op terrain-bench-floor-op.so]
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gimp"))
from gimpsession import PYTHON_FU_HELPERS, GimpSession, error_excerpt  # noqa: E402

FILTERS = ["smooth", "thermal-erosion", "hydraulic-erosion", "river-erosion"]
PLASMA = "gegl:plasma"
POINT_FILTER = "gegl:invert-gamma"
MERGE_FLOOR = "terrain-bench:floor"
MERGE_PASS = "terrain-bench:pass"
# (label, procedure, arguments): timed at 1024² only. A seed of None is the round's: a
# generator's result depends on its settings only, and the module would serve it again.
PROCEDURES = [
    ("River Erosion growing ranges (procedure: uplift layer, age 200, diffusion 3)",
     "plug-in-terrain-river-erosion", {"uplift": "layer", "age": 200.0, "diffusion": 3.0}),
    ("Landscape river-valleys preset (procedure)", "plug-in-terrain-landscape",
     {"preset": "river-valleys", "seed": None}),
]
PROCEDURE_SIZE = 1024

SCRIPT = r"""
import json, time
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl
""" + PYTHON_FU_HELPERS.replace("%", "%%") + r"""

OPS, SIZES, ROUNDS, OUT = %(ops)r, %(sizes)r, %(rounds)d, %(out)r
PROCEDURES, PROCEDURE_SIZE = %(procedures)r, %(procedure_size)d

def merge(layer, op, size):
    f = Gimp.DrawableFilter.new(layer, op, "")
    if f is None:
        return False
    if op == "gegl:plasma":
        c = f.get_config()
        c.set_property("width", size)
        c.set_property("height", size)
    layer.merge_filter(f)
    return True

def timed(layer, op, size):
    t0 = time.perf_counter()
    ok = merge(layer, op, size)
    return time.perf_counter() - t0, ok

results = {"times": {}, "failed": []}
for size in SIZES:
    image = Gimp.Image.new_with_precision(size, size, Gimp.ImageBaseType.GRAY,
                                          Gimp.Precision.U16_NON_LINEAR)
    base = Gimp.Layer.new(image, "h", size, size, Gimp.ImageType.GRAY_IMAGE, 100,
                          Gimp.LayerMode.NORMAL)
    image.insert_layer(base, None, 0)
    merge(base, "terrain:field", size)
    times = {}
    for r in range(ROUNDS + 1):
        # New pixels this round: nothing kept from an earlier round applies.
        buffer = base.get_buffer()
        buffer.set(Gegl.Rectangle.new(r, 0, 1, 1), "Y' u16", bytes([r & 255, 128]))
        buffer.flush()
        order = OPS if r %% 2 == 0 else OPS[::-1]
        for op in order:
            first = base.copy()
            image.insert_layer(first, None, 0)
            t_first, ok = timed(first, op, size)
            second = base.copy()
            image.insert_layer(second, None, 0)
            t_again, ok2 = timed(second, op, size)
            if not (ok and ok2):
                results["failed"].append(op)
            image.remove_layer(first)
            image.remove_layer(second)
            if r > 0:
                times.setdefault(op, {"first": [], "again": []})
                times[op]["first"].append(t_first)
                times[op]["again"].append(t_again)
        for label, name, args in (PROCEDURES if size == PROCEDURE_SIZE else []):
            layer = base.copy()
            image.insert_layer(layer, None, 0)
            t0 = time.perf_counter()
            if not run_procedure(name, image, layer,
                                 **{k: r + 1 if v is None else v for k, v in args.items()}):
                results["failed"].append(name)
            t = time.perf_counter() - t0
            image.remove_layer(layer)
            if r > 0:
                times.setdefault(label, {"first": [], "again": []})["first"].append(t)
    results["times"][str(size)] = times
    image.delete()
with open(OUT, "w") as f:
    json.dump(results, f)
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("plugin")
    parser.add_argument("module")
    parser.add_argument("workdir")
    parser.add_argument("--sizes", default="1024,4096")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default=",".join(FILTERS))
    parser.add_argument("--floor-op", help="terrain-bench-floor-op.so: time the floor of a merge")
    a = parser.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    ops = (["terrain:" + name for name in a.only.split(",")] + [PLASMA, POINT_FILTER] +
           ([MERGE_FLOOR, MERGE_PASS] if a.floor_op else []))
    os.makedirs(a.workdir, exist_ok=True)
    out = os.path.join(a.workdir, "effects.json")
    if os.path.exists(out):
        os.remove(out)
    session = GimpSession(a.plugin, os.path.join(a.workdir, "gimp"), extra_plugins=("python-eval",),
                          modules=(a.module,) + ((a.floor_op,) if a.floor_op else ()))
    result = session.run_python(SCRIPT % dict(ops=ops, sizes=sizes, rounds=a.rounds, out=out,
                                              procedures=PROCEDURES,
                                              procedure_size=PROCEDURE_SIZE),
                                timeout=7200)
    if not os.path.exists(out):
        sys.exit("bench-effects: the session gave no results (exit %d):\n%s"
                 % (result.returncode, error_excerpt(result.stderr)))
    results = json.load(open(out))
    print("| effect, GRAY u16, GIMP's process | size | first (s) | x Plasma | again (ms) | "
          "again / first | first / floor of a merge |")
    print("|---|---|---|---|---|---|---|")
    for size in sizes:
        times = results["times"][str(size)]
        plasma = statistics.median(times[PLASMA]["first"])
        floor = statistics.median(times[MERGE_FLOOR]["first"]) if a.floor_op else None
        for op in ops:
            first = statistics.median(times[op]["first"])
            again = statistics.median(times[op]["again"])
            print("| %s | %d² | %.3f | %.1f | %.1f | %.0f %% | %s |"
                  % (op, size, first, first / plasma, 1000 * again, 100 * again / first,
                     "%.0f" % (first / floor) if floor else "-"))
        for label in (label for label, _, _ in PROCEDURES if label in times):
            first = statistics.median(times[label]["first"])
            print("| %s | %d² | %.3f | %.1f | | | |" % (label, size, first, first / plasma))
    print("Medians of %d rounds (after a warm-up round), one session." % a.rounds)
    if results["failed"]:
        sys.exit("bench-effects: failed: %s" % sorted(set(results["failed"])))


main()
