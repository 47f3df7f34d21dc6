#!/usr/bin/env python3
"""What GIMP asks of an effect while the canvas shows a large layer zoomed out.

Starts real gimp-3 under Xvfb with the GEGL module, makes a SIZE x SIZE GRAY u16 image with
an Infinite Field, shows it (a new display fits the image to the screen: zoomed out), puts
a River Erosion effect on the layer (non-destructive), waits for the canvas, then zooms to
100 % and waits again. The module logs every call GIMP's process makes to the operation
(TERRAIN_RENDER_LOG: the rectangle and mipmap level asked for, and every whole-layer render);
the probe prints that log. It is evidence, not a test: it passes whatever GIMP asks.

usage: probe-levels.py PLUGIN_BINARY GEGL_MODULE WORKDIR [SIZE]
"""
import os
import subprocess
import sys
import time

from gimpsession import GimpSession, start_xvfb

plugin, module, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
size = int(sys.argv[4]) if len(sys.argv) > 4 else 4096
os.makedirs(workdir, exist_ok=True)
log = os.path.join(workdir, "levels.log")
for stale in (log, log + ".ready"):
    if os.path.exists(stale):
        os.remove(stale)

SCRIPT = r"""
import os, time
import gi
gi.require_version("Gimp", "3.0")
from gi.repository import Gimp
image = Gimp.Image.new_with_precision(SIZE, SIZE, Gimp.ImageBaseType.GRAY, Gimp.Precision.U16_NON_LINEAR)
layer = Gimp.Layer.new(image, "h", SIZE, SIZE, Gimp.ImageType.GRAY_IMAGE, 100, Gimp.LayerMode.NORMAL)
image.insert_layer(layer, None, 0)
f = Gimp.DrawableFilter.new(layer, "terrain:field", "")
layer.merge_filter(f)
image.clean_all()
display = Gimp.Display.new(image)
Gimp.displays_flush()
def mark(text):
    with open(LOG, "a") as out:
        out.write("PROBE " + text + "\n")
mark("shown zoomed out; the effect is added")
effect = Gimp.DrawableFilter.new(layer, "terrain:river-erosion", "")
layer.append_filter(effect)
Gimp.displays_flush()
open(LOG + ".ready", "w").close()
"""


os.environ["TERRAIN_RENDER_LOG"] = log
session = GimpSession(plugin, os.path.join(workdir, "gimp"), extra_plugins=("python-eval",),
                      modules=(module,))
xvfb, display = start_xvfb("1280x1000x24")
env = session.environment(display)
script = "SIZE = %d\nLOG = %r\n" % (size, log) + SCRIPT
gimp = subprocess.Popen(session.command([script], gui=True, interpreter="python-fu-eval", quit=False),
                        env=env, stdout=subprocess.DEVNULL,
                        stderr=open(os.path.join(workdir, "gimp.log"), "w"))


def xdotool(*args):
    return subprocess.run(["xdotool"] + list(args), env=env, capture_output=True, text=True).stdout


try:
    deadline = time.time() + 180
    while not os.path.exists(log + ".ready") and time.time() < deadline and gimp.poll() is None:
        time.sleep(0.5)
    # The canvas renders the effect: until the module says it computed it.
    deadline = time.time() + 300
    while time.time() < deadline and "river-erosion %dx%d: computed" % (size, size) not in (
            open(log).read() if os.path.exists(log) else ""):
        time.sleep(0.5)
    time.sleep(3)
    windows = xdotool("search", "--onlyvisible", "--name", "GIMP$|GNU Image Manipulation Program").split()
    if windows:
        subprocess.run(["import", "-window", windows[0], os.path.join(workdir, "zoomed-out.png")],
                       env=env)
        with open(log, "a") as out:
            out.write("PROBE zoom 1:1 (key 1)\n")
        xdotool("windowfocus", "--sync", windows[0])
        xdotool("key", "1")
        time.sleep(10)
        subprocess.run(["import", "-window", windows[0], os.path.join(workdir, "zoom-100.png")],
                       env=env)
finally:
    gimp.kill()
    xvfb.kill()
print(open(log).read() if os.path.exists(log) else "no log")
