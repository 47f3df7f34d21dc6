#!/usr/bin/env python3
"""Paint strokes on a layer that carries an effect, in the real GIMP 3 GUI (issues 22, 23).

One gimp-3 session under Xvfb with gimp-terrain's GEGL module (tests/gimp/live.py says how
it is driven and measured): a 1024² GRAY u16 image (SIZE² with --size) holding an Infinite
Field; first the River
Erosion dialog, OK once its preview is on the canvas; then for each effect, alone on the
layer at its defaults, STROKES Paintbrush strokes with the mouse, each measured once GIMP is
done with it:
  - "render done": mouse up -> the module's last whole-layer render of the stroke finished
    (the canvas shows it after GIMP's projection has drawn it);
  - "loop free": mouse up -> GIMP's main loop is no longer blocked (the end of the last
    stall that began before that render was done);
  - "stall": the longest gap between the main-loop probe's 2 ms ticks from mouse down on
    (how long GIMP took no input and drew nothing);
  - "renders": whole-layer renders computed during the stroke and after mouse up;
  - "looks": renders that showed a filter's look (src/gegl/stroke.h: River Erosion's while the
    stroke is painted), the longest stall that began while the stroke was painted, and the
    longest that began after mouse up (the render that ends the stroke: its look while the
    result is made in a thread, src/gegl/later.h, or the filter's result).
River Erosion also gets a stroke timed on the screen (the canvas grabbed until it stays),
and every effect Ctrl+Z and Ctrl+Y after its strokes: what the module computed for them.
References in the same session: the layer with no effect, and GIMP's own Gaussian Blur
(gegl:gaussian-blur) as an effect. GIMP's Plasma is no reference here: as an effect it does
not read the layer, so a stroke does not render it again.

With --stack NAME+NAME,..., each such stack of effects also gets its strokes, the effects
appended in that order: "render done" is then the last whole-layer render of any of them
(the canvas settled).

With --histogram, GIMP's Histogram dock is shown at the top right (it reads the active layer,
its effects included, after every change).

With --precision NAME, the image has that Gimp.Precision (FLOAT_LINEAR, U8_NON_LINEAR, ...),
not 16-bit perceptual integers.

usage: bench-live.py PLUGIN GEGL_MODULE WORKDIR [--strokes N] [--only NAME,...] [--size SIZE]
                     [--precision NAME] [--json FILE] [--histogram] [--stack NAME+NAME,...]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gimp"))
import live as live_module  # noqa: E402
from live import Live, median, paint, press_ok_after_preview  # noqa: E402

FILTERS = ["smooth", "thermal-erosion", "hydraulic-erosion", "river-erosion"]
REFERENCES = ["", "gegl:gaussian-blur"]
CONFIRM = "terrain:river-erosion"


def ms(seconds):
    return "-" if seconds is None else "%.0f" % (seconds * 1000)


def table(results):
    print("| effect, %d² GRAY %s | strokes | mouse up -> render done (ms) | mouse up -> "
          "main loop free (ms) | longest main-loop stall, median / max (ms) | longest stall "
          "begun while painting / after mouse up, median (ms) | renders computed during / after "
          "the stroke (median) | looks a stroke (median) | Ctrl+Z, Ctrl+Y |"
          % (live_module.SIZE, live_module.PRECISION))
    print("|---|---|---|---|---|---|---|---|---|")
    for op, result in results.items():
        rows = result["strokes"]
        stalls = [r["longest stall"] for r in rows]
        print("| %s | %d | %s | %s | %s / %s | %.0f / %.0f | %s / %s | %s | %s, %s |" % (
            op or "(no effect)", len(rows), ms(median(r["render done"] for r in rows)),
            ms(median(r["loop free"] for r in rows)), "%.0f" % median(stalls), "%.0f" % max(stalls),
            median(r["longest stall painting"] for r in rows),
            median(r["longest stall after"] for r in rows),
            median(r["computed during"] for r in rows), median(r["computed after"] for r in rows),
            median(r["looks"] for r in rows),
            "/".join(result.get("undo", [])) or "-", "/".join(result.get("redo", [])) or "-"))


def shoot_first(live, op, k):
    """The screen after each effect's first stroke: WORKDIR/stroke-<effect>.png."""
    if not os.path.exists(os.path.join(live.workdir, "stroke-%s.png" % (op or "none").replace(":", "-"))):
        live.shoot("stroke-%s.png" % (op or "none").replace(":", "-"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("plugin")
    parser.add_argument("module")
    parser.add_argument("workdir")
    parser.add_argument("--strokes", type=int, default=5)
    parser.add_argument("--only", default=",".join(FILTERS))
    parser.add_argument("--size", type=int, default=live_module.SIZE)
    parser.add_argument("--precision", default=live_module.PRECISION,
                        help="the image's, a Gimp.Precision's name (FLOAT_LINEAR, ...)")
    parser.add_argument("--json")
    parser.add_argument("--histogram", action="store_true",
                        help="with GIMP's Histogram dock shown (it reads the layer and its effects)")
    parser.add_argument("--stack", default="",
                        help="stacks of effects too, e.g. river-erosion+hydraulic-erosion")
    a = parser.parse_args()
    live_module.SIZE = a.size
    live_module.PRECISION = a.precision
    effects = ["terrain:" + name for name in a.only.split(",") if name]
    effects += ["+".join("terrain:" + name for name in stack.split("+"))
                for stack in a.stack.split(",") if stack]
    effects += REFERENCES
    # The dialog leaves River Erosion on the layer: go on with it first.
    if CONFIRM in effects:
        effects.remove(CONFIRM)
        effects.insert(0, CONFIRM)
    live = Live(a.plugin, a.module, os.path.abspath(a.workdir), effects, dialog=CONFIRM in effects,
                histogram=a.histogram)
    try:
        dialog = press_ok_after_preview(live) if CONFIRM in effects else (None, "")
        results = paint(live, effects, a.strokes, confirm=(CONFIRM,), on_stroke=shoot_first)
        live.shoot("last-stroke.png")
    finally:
        code = live.finish()
    table(results)
    if dialog[0] is not None:
        print("\nRiver Erosion dialog, OK after its canvas preview: the module logged %s; the "
              "script saw %s" % ([r[1] for r in dialog[0]] or "nothing", dialog[1]))
    screen = results.get(CONFIRM, {}).get("screen")
    if screen:
        print("One more River Erosion stroke timed on the screen: mouse up -> render done %s ms, "
              "-> main loop free %s ms, -> the canvas as it stays %s ms (canvas changed: %s)"
              % (ms(screen["render done"]), ms(screen["loop free"]), ms(screen["screen"]), screen["changed"]))
    print("GIMP exited %s; logs and screenshots in %s" % (code, a.workdir))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"results": results, "dialog": [dialog[0], dialog[1]]}, f, indent=1)


main()
