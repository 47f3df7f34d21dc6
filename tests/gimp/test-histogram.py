#!/usr/bin/env python3
"""GUI test: GIMP's Histogram dock, shown beside a layer under River Erosion, neither freezes
GIMP nor keeps a wrong histogram, in real gimp-3 under Xvfb (live.py says how GIMP is driven).

The Histogram computes the histogram of the layer, its effects included, in its view's draw
handler, from GTK's frame clock (src/gegl/render-source.h). It once got an exact render
there: while River Erosion's result was made in a thread after a stroke, the dock waited for
it on GIMP's main thread (0.3-0.5 s at 1024², 4-5 s at 4096²). Now it is a display reader:
it is shown what the canvas shows, and the result once it is there.

On a 1024² GRAY u16 layer (an Infinite Field) with River Erosion as an effect and the
Histogram dock shown, two Paintbrush strokes, each followed by a wait until GIMP is done:
  - the dock read the effect from the frame clock (else this test proves nothing), and no
    such read computed the result or waited for one (the render log: each is answered with
    a look or a kept result);
  - once GIMP is done, the dock shows the histogram of the merged result: its picture
    (histogram and figures) is the same before and after the effect is merged into the
    layer (histogram-live.png, histogram-merged.png);
  - the longest main-loop stall after mouse up is printed (benchmarks hold the bounds).

usage: test-histogram.py PLUGIN_BINARY GEGL_MODULE WORKDIR
"""
import os
import re
import subprocess
import sys
import time

from checks import Checks
from gimp_warnings import not_gimps_own
from live import Live

plugin, module, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
checks = Checks("gimp-histogram")
# The Histogram dock's view and figures on the 1600x1000 screen (live.HISTOGRAM_SESSIONRC).
HISTOGRAM_CROP = "250x420+1338+95"
FRAME_CLOCK = "from a timeout of priority 120"

SCRIPT = r"""
layer.append_filter(Gimp.DrawableFilter.new(layer, "terrain:river-erosion", ""))
Gimp.displays_flush()
flag("effect-0")
wait_flag("change-0")
layer.merge_filters()
Gimp.displays_flush()
flag("changed-0")
wait_flag("next-0")
image.clean_all()
flag("finished")
"""


def histogram(live, name):
    """The dock's pixels once its update (a 200 ms timeout, then a redraw) has run."""
    time.sleep(1.5)
    path = os.path.join(live.workdir, name)
    subprocess.run(["import", "-window", "root", "-crop", HISTOGRAM_CROP, path], env=live.env,
                   check=False)
    return subprocess.run(["convert", path, "rgb:-"], env=live.env, capture_output=True).stdout


def frame_clock_reads(render_log):
    """[(ask, answer)] of the effect's renders asked from GTK's frame clock. The result
    thread's own lines (", in a thread") answer no ask, and may be written between an ask and
    its answer (once on 3.0.4: "computed, in a thread" there, "reused" the line after)."""
    lines = [l.split(" ", 1)[1] for l in open(render_log).read().splitlines()
             if "terrain:river-erosion" in l and not l.endswith(", in a thread")]
    return [(ask, lines[i + 1] if i + 1 < len(lines) else "")
            for i, ask in enumerate(lines) if FRAME_CLOCK in ask]


live = Live(plugin, module, workdir, [], script=SCRIPT, histogram=True)
stalls = []
try:
    if live.image_window() and live.wait_file("effect-0"):
        live.settle(0)
        live.keys("p")  # the Paintbrush
        for k in range(2):
            down, up = live.stroke(k)
            checks.check(live.settle(down), "stroke %d: GIMP never settled" % k)
            stalls.append(live.measure(down, up)["longest stall after"])
        shown = histogram(live, "histogram-live.png")
        live.flag("change-0")
        if live.wait_file("changed-0", 120):
            live.settle(time.monotonic())
        merged = histogram(live, "histogram-merged.png")
        live.shoot("histogram.png")
        checks.check(shown and shown == merged,
                     "the Histogram dock once GIMP was done is not the merged result's "
                     "(histogram-live.png, histogram-merged.png)")
    live.flag("next-0")
finally:
    code = live.finish()

reads = frame_clock_reads(live.render_log)
checks.check(reads, "the Histogram dock never read the effect from GTK's frame clock")
waited = [(ask, answer) for ask, answer in reads
          if not re.search(r": (looked at|reused)", answer)]
checks.check(not waited, "the Histogram dock's reads computed the result or waited for it: %s"
             % waited[:3])
print("%d reads from the Histogram dock; longest main-loop stall after mouse up: %s ms" % (
    len(reads), ", ".join("%.0f" % s for s in stalls)))
warnings = not_gimps_own(os.path.join(workdir, "gimp.log"))
checks.check(not warnings, "GIMP printed warnings of its session's own: %s" % warnings[:5])
checks.check(code == 0, "gimp exited %s" % code)
checks.done()
