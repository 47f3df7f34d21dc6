#!/usr/bin/env python3
"""GUI test: quitting GIMP while River Erosion's result is made in a thread, in real gimp-3
under Xvfb (live.py says how GIMP is driven).

On a 4096² GRAY u16 layer (an Infinite Field) River Erosion is put as an effect; the canvas
shows its look while the result is made in a thread (src/gegl/later.h). As soon as the
render log says so, Ctrl+Q (the image is clean: GIMP asks nothing). Once quitting, the
module cancels the render, waits for its thread and lets go of what it held
(terrain_later_quit); it once left the thread running and a layer's buffer held, and GEGL
printed "gegl_tile_cache_destroy: runtime check failed" and "1 GeglBuffers leaked" at every
such quit. Checks:
  - the result was under way when GIMP quit (the render log: cancelled, in a thread), else
    the test proves nothing;
  - GIMP quit within 2 s of Ctrl+Q, exit status 0;
  - GIMP's log has no GEGL warning and no warning of its session's own.

usage: test-quit.py PLUGIN_BINARY GEGL_MODULE WORKDIR
"""
import os
import sys
import time

import live as live_driver
from checks import Checks
from gimp_warnings import not_gimps_own
from live import Live

plugin, module, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
checks = Checks("gimp-quit")
live_driver.SIZE = 4096  # a result that takes seconds on two cores

SCRIPT = r"""
layer.append_filter(Gimp.DrawableFilter.new(layer, "terrain:river-erosion", ""))
Gimp.displays_flush()
image.clean_all()  # quitting asks nothing
flag("effect-0")
"""


def result_started(live, seconds=120):
    """Waits until the render log says River Erosion's result is being made in a thread."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and live.gimp.poll() is None:
        if os.path.exists(live.render_log) and \
                "making its result, in a thread" in open(live.render_log).read():
            return True
        time.sleep(0.05)
    return False


live = Live(plugin, module, workdir, [], script=SCRIPT)
quit_seconds = None
try:
    if live.image_window() and live.wait_file("effect-0") and result_started(live):
        pressed = time.monotonic()
        live.keys("ctrl+q")
        try:
            live.gimp.wait(timeout=60)
            quit_seconds = time.monotonic() - pressed
        except Exception:
            pass
finally:
    code = live.finish()

render_log = open(live.render_log).read() if os.path.exists(live.render_log) else ""
checks.check("cancelled, in a thread" in render_log,
             "River Erosion's result was not under way when GIMP quit: %s" %
             [l for l in render_log.splitlines() if "in a thread" in l][-3:])
checks.check(quit_seconds is not None and quit_seconds <= 2.0,
             "GIMP quit %s s after Ctrl+Q (at most 2 s)" %
             ("never" if quit_seconds is None else "%.2f" % quit_seconds))
gimp_log = open(os.path.join(workdir, "gimp.log")).read()
gegl = [l for l in gimp_log.splitlines()
        if "leaked" in l or "runtime check failed" in l or "still being made" in l]
checks.check(not gegl, "GEGL's or the module's warnings at the quit: %s" % gegl[:5])
warnings = not_gimps_own(os.path.join(workdir, "gimp.log"))
checks.check(not warnings, "GIMP printed warnings of its session's own: %s" % warnings[:5])
checks.check(code == 0, "gimp exited %s" % code)
print("GIMP quit %s s after Ctrl+Q, River Erosion's result under way" %
      ("-" if quit_seconds is None else "%.2f" % quit_seconds))
checks.done()
