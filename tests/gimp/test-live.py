#!/usr/bin/env python3
"""GUI test: paint strokes on a layer with a terrain effect, in real gimp-3 under Xvfb
(live.py says how it is driven), the light variant of tests/bench/gimp/bench-live.py.

Checks, with River Erosion, Smooth Heightmap and Hydraulic Erosion as effects on a 1024²
GRAY u16 layer:
  - the main-loop probe runs in GIMP's process, in its main thread, and ticks;
  - OK in the River Erosion dialog once its preview is on the canvas leaves the effect and
    computes nothing again (the module's kept result);
  - every stroke leads to a new render ("computed"), and a River Erosion stroke changes the
    canvas on the screen;
  - while a stroke is painted, River Erosion's and Hydraulic Erosion's renders are their
    looks (src/gegl/stroke.h: reduced, and the paint alone), Smooth Heightmap's its own
    result (it has no look); Hydraulic Erosion's of the rectangles GIMP asks for, smaller
    than the layer (src/gegl/operation.c: paint_look_here); River Erosion's base's look made
    ahead, between the strokes, for at least one stroke (not by its first look); the canvas's
    render after mouse up served the stroke's last look again (same layer, settings and
    base: src/gegl/operation.c, look_again) for at least one stroke; and every
    stroke ends on the
    effect's own result: the stroke's last render is "computed" or "reused", not a look
    (GEGL's cache of the last look was dropped, and GIMP rendered the layer again), also
    after a stroke whose mouse stayed still before going up (the last look then had the same
    input as the render after mouse up; Smooth Heightmap then has nothing left to render);
  - after a stroke (from GIMP's canvas render that ends it), River Erosion's and Hydraulic
    Erosion's full results are made in a thread of their own while the canvas shows their
    look, and GIMP is told to draw the layer again once they are there (src/gegl/later.h):
    for at least one stroke each, and the stroke still ends on the effect's result;
  - a setting of River Erosion and of Hydraulic Erosion changed by a script (the effect's
    config, updated) shows the last result (a stale look) while the new one is made in a
    thread, and ends on the new result;
  - the canvas's asks again for a look while its result is made do not read the layer, but
    the first after a pixel of the layer changed meanwhile (by the script, while the changed
    setting's result is made) reads it, and a result is made for it; once it is there, what
    the canvas shows (Copy Visible) is the effect merged, byte for byte; the canvas's asks
    for a result it was shown are served it without reading the layer too;
  - Ctrl+Z and Ctrl+Y of a stroke compute nothing (kept results);
  - Hydraulic Erosion put on the layer (with a setting whose result is not kept yet) and
    merged by a script 0.2 s later, while the canvas shows its look, merges its result: the
    same pixels as a twin layer that merged it;
  - GIMP quits cleanly.
The times (mouse up to the render, the longest main-loop stall) are printed, not checked:
they vary too much on a loaded machine.

usage: test-live.py PLUGIN_BINARY GEGL_MODULE WORKDIR
"""
import os
import re
import sys

from checks import Checks
from live import Live, paint, press_ok_after_preview

plugin, module, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
checks = Checks("gimp-live")
RIVER, SMOOTH, HYDRAULIC = "terrain:river-erosion", "terrain:smooth", "terrain:hydraulic-erosion"

# River Erosion's change is to age 2 (5 eroded the stroked layer down to its floor: all black,
# against which the comparison of the canvas with the effect merged could not fail). A change
# must differ from the default, or no result is made (Hydraulic Erosion's erosion is 0.5).
CHANGES = {RIVER: ("age", 2.0), HYDRAULIC: ("erosion", 0.3)}
live = Live(plugin, module, workdir, [RIVER, SMOOTH, HYDRAULIC], dialog=True, changes=CHANGES,
            merge=(HYDRAULIC, "erosion", 0.4))
try:
    after_ok, seen = press_ok_after_preview(live)
    # The second stroke stays still before mouse up: GIMP paints and renders all of it then,
    # so the render after mouse up has the same input as the stroke's last look.
    results = paint(live, [RIVER, SMOOTH, HYDRAULIC], 2, confirm=(RIVER,), holds=(0.0, 0.8),
                    change=tuple(CHANGES))
    live.shoot("after-strokes.png")
    ticks = live.ticks()
finally:
    code = live.finish()
merged = os.path.join(workdir, "merged")
checks.check(os.path.exists(merged) and open(merged).read() == "the same",
             "an effect merged while the canvas showed its look merged %s" %
             (open(merged).read() if os.path.exists(merged) else "nothing"))

log = open(live.mainloop_log).read() if os.path.exists(live.mainloop_log) else ""
checks.check(re.search(r"pid %d first tick, in the main thread" % live.gimp.pid, log),
             "the probe did not tick in GIMP's main thread:\n" + log[:500])
checks.check(len(ticks) >= 3 and max(n for _, n in ticks) >= 50,
             "the probe hardly ticked: %s" % ticks[:10])
checks.check(seen == "True ['%s']" % RIVER, "OK in the dialog left: %s" % seen)
checks.check(after_ok is not None and "computed" not in [r[1] for r in after_ok],
             "OK after the canvas preview computed again: %s" % after_ok)
for op in (RIVER, SMOOTH, HYDRAULIC):
    result = results.get(op, {})
    strokes = result.get("strokes", []) + ([result["screen"]] if "screen" in result else [])
    checks.check(len(strokes) >= 2, "%s: %d strokes measured" % (op, len(strokes)))
    looks = sum(stroke["looks"] for stroke in strokes)
    checks.check(looks == 0 if op == SMOOTH else looks >= 1,
                 "%s: %d looks while the strokes were painted" % (op, looks))
    for i, stroke in enumerate(strokes):
        checks.check(stroke["computed during"] + stroke["computed after"] >= 1,
                     "%s: stroke %d led to no new render: %s" % (op, i + 1, stroke))
        checks.check(stroke["last result"] in ("computed", "reused"),
                     "%s: stroke %d did not end on the effect's result: %s" % (op, i + 1, stroke))
        print("%s stroke %d: mouse up -> render done %s s, -> main loop free %.3f s; longest stall "
              "%.0f ms (%.0f ms begun while painting, %.0f ms after); computed during / after: "
              "%d / %d; looks %d" % (
                  op, i + 1, "-" if stroke["render done"] is None else "%.3f" % stroke["render done"],
                  stroke["loop free"], stroke["longest stall"], stroke["longest stall painting"],
                  stroke["longest stall after"], stroke["computed during"],
                  stroke["computed after"], stroke["looks"]))
    for name in ("undo", "redo"):
        checks.check("reused" in result.get(name, []) and "computed" not in result.get(name, []),
                     "%s: %s gave %s, not the kept result" % (op, name, result.get(name)))
render_log = open(live.render_log).read().splitlines()
for op in CHANGES:
    threaded = [line for line in render_log if "%s 1024x1024: computed, in a thread" % op in line]
    checks.check(len(threaded) >= 2,
                 "%s: %d full results made in a thread (a stroke's and the change's), not >= 2"
                 % (op, len(threaded)))
    change = results.get(op, {}).get("change", {})
    checks.check(change.get("last result") in ("computed", "reused") and
                 change.get("computed during", 0) + change.get("computed after", 0) >= 1,
                 "%s: the changed setting did not end on a new result: %s" % (op, change))
    print("%s, setting changed: -> render done %s s, longest stall %.0f ms, renders %s" % (
        op, "-" if change.get("render done") is None else "%.3f" % change["render done"],
        change.get("longest stall", 0.0), change.get("results after")))
for i, op in enumerate((RIVER, SMOOTH, HYDRAULIC)):
    if op not in CHANGES:
        continue
    edited_file = os.path.join(workdir, "edited-%d" % i)
    edited = float(open(edited_file).read()) if os.path.exists(edited_file) else float("inf")
    renders = [(float(t), what) for t, name, what in
               (line.split(" ", 2) for line in render_log if " %s 1024x1024: " % op in line)]
    before = [what for t, what in renders if t <= edited and what.endswith(", in a thread")]
    checks.check(before and before[-1].endswith("making its result, in a thread"),
                 "%s: the pixel changed when no result was under way: %s" % (op, before[-2:]))
    after = [(t, what) for t, what in renders if t > edited]
    # The canvas's renders, not the thread's own lines ("making its result, in a thread").
    canvas = [entry for entry in after if not entry[1].endswith(", in a thread")]
    checks.check(canvas and "the layer not read" not in canvas[0][1],
                 "%s: the first render after a pixel changed did not read the layer: %s"
                 % (op, canvas[:3]))
    checks.check(any(what.endswith("computed, in a thread") for _, what in after),
                 "%s: no result made after a pixel changed: %s" % (op, after[:6]))
    shown_file = os.path.join(workdir, "shown-%d" % i)
    shown = open(shown_file).read() if os.path.exists(shown_file) else "not compared"
    checks.check(shown == "the same",
                 "%s: once the changed setting's result was there, the canvas (Copy Visible) and "
                 "the effect merged were %s" % (op, shown))
checks.check(any("the layer not read" in line for line in render_log),
             "no ask again for a look was served without reading the layer")
checks.check(any("reused, again, the layer not read" in line for line in render_log),
             "no ask of the canvas, chunk by chunk, was served the result it was shown without "
             "reading the layer (src/gegl/operation.c: canvas_chunks)")
stale = [line for line in render_log if "stale, while its result is made in a thread" in line]
checks.check(any(RIVER in line for line in stale) and any(HYDRAULIC in line for line in stale),
             "no stale look while a changed setting's result was made: %s" % stale)
looks = [line for line in render_log if "looked at" in line]
rectangles = [tuple(map(int, m.groups())) for m in
              (re.search(r"%s \d+x\d+: looked at at 1/1, for a stroke, in (\d+)x(\d+) at" % HYDRAULIC, line)
               for line in looks) if m]
checks.check(rectangles and max(w * h for w, h in rectangles) < 1024 * 1024,
             "Hydraulic Erosion's paint looks were not of rectangles smaller than the layer: %s"
             % rectangles[:5])
river_looks = [line for line in looks if RIVER in line]
made = sum(1 for line in river_looks if "and the base's look" in line)
river_strokes = len(results.get(RIVER, {}).get("strokes", [])) + ("screen" in results.get(RIVER, {}))
checks.check(river_looks and made < river_strokes,
             "River Erosion: %d of %d strokes' looks had to make the base's look too (none made "
             "ahead)" % (made, river_strokes))
checks.check(any("the last look again" in line for line in river_looks),
             "River Erosion: no render after mouse up served the stroke's last look again (the "
             "second stroke stays still before it goes up: its last look is of the same layer)")
screen = results.get(RIVER, {}).get("screen", {})
checks.check(screen.get("changed"), "a River Erosion stroke did not change the canvas")
checks.check(code == 0, "gimp exited %s" % code)
checks.done()
