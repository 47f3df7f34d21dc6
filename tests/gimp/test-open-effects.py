#!/usr/bin/env python3
"""GUI test: an XCF whose layer carries a River Erosion effect, opened in a new gimp-3 session
under Xvfb (by a script in the running GIMP, as File > Open does, and on GIMP's command line).

GIMP's canvas must not wait for the effect's first render: it shows a look while the result
is made in a thread (src/gegl/later.h), then the result. The module finds the layer to draw
again through the drawables it saw emit "update"; before it watched them from the first
operation made for one, the first render after opening found none seen and was made in
GIMP's main thread (1 s at 2048², 5 s at 4096²). Opened from its command line (as from File >
Open), GIMP first saves the file's thumbnail, when it has none yet, rendering the image at
once outside its main loop: that render is made in place (data/doc/limits.md), so the file
is opened that way twice, and the second is checked. Checks, for each way of opening:
  - the effect's first whole-layer render is a look "while its result is made in a thread";
  - the result is then made in a thread, and the canvas's next render reuses it.

usage: test-open-effects.py PLUGIN_BINARY GEGL_MODULE WORKDIR
"""
import os
import re
import subprocess
import sys
import time

from checks import Checks
from gimpsession import GimpSession, start_xvfb

SIZE = 2048
SECONDS = 120  # at most, for the result to be reused (a loaded machine)

plugin, module, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
checks = Checks("gimp-open-effects")
os.makedirs(workdir, exist_ok=True)
xcf = os.path.join(workdir, "river-effect.xcf")
session = GimpSession(plugin, os.path.join(workdir, "gimp"), extra_plugins=("python-eval",),
                      modules=(module,))
if os.path.exists(xcf):
    os.remove(xcf)
made = session.run_python("""
import gi
gi.require_version("Gimp", "3.0")
from gi.repository import Gimp, Gio
image = Gimp.Image.new_with_precision(%(size)d, %(size)d, Gimp.ImageBaseType.GRAY,
                                      Gimp.Precision.U16_NON_LINEAR)
layer = Gimp.Layer.new(image, "height", %(size)d, %(size)d, Gimp.ImageType.GRAY_IMAGE, 100,
                       Gimp.LayerMode.NORMAL)
image.insert_layer(layer, None, 0)
layer.merge_filter(Gimp.DrawableFilter.new(layer, "terrain:field", ""))
layer.append_filter(Gimp.DrawableFilter.new(layer, "terrain:river-erosion", ""))
Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, image, Gio.File.new_for_path(%(xcf)r), None)
""" % {"size": SIZE, "xcf": xcf})
checks.check(os.path.exists(xcf), "no XCF with the effect was saved: %s" % made.stderr[-800:])

OPEN = """
import gi
gi.require_version("Gimp", "3.0")
from gi.repository import Gimp, Gio
image = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(%r))
Gimp.Display.new(image)
Gimp.displays_flush()
""" % xcf


def reused(renders):
    """Where the first render that reused a kept result is (its layer read, or not: the
    canvas asks again for what it was shown), or None."""
    return next((i for i, r in enumerate(renders) if r.startswith("reused")), None)


RENDER = re.compile(r"\d+\.\d+ terrain:river-erosion %dx%d: (.*)$" % (SIZE, SIZE))

for way in ("script", "command line, thumbnail made", "command line"):
    name = re.sub(r"\W+", "-", way)
    log = os.path.join(workdir, "render-%s.log" % name)
    if os.path.exists(log):
        os.remove(log)
    xvfb, display = start_xvfb()
    env = session.environment(display)
    env["TERRAIN_RENDER_LOG"] = log
    command = session.command([], gui=True, images=[xcf], quit=False) if way != "script" \
        else session.command([OPEN], gui=True, interpreter="python-fu-eval", quit=False)
    gimp = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                            stderr=open(os.path.join(workdir, "gimp-%s.log" % name), "w"))
    renders = []
    deadline = time.time() + SECONDS
    while time.time() < deadline and gimp.poll() is None and reused(renders) is None and \
            not (way.endswith("thumbnail made") and renders):
        time.sleep(0.5)
        if os.path.exists(log):
            with open(log) as f:
                renders = [m.group(1) for m in map(RENDER.match, f.read().splitlines()) if m]
    if way.endswith("thumbnail made"):
        time.sleep(10)  # for the thumbnail to be written
    gimp.kill()
    gimp.wait()
    xvfb.terminate()
    if way.endswith("thumbnail made"):
        continue
    checks.check(renders and renders[0].startswith("looked at") and
                 "while its result is made in a thread" in renders[0],
                 "opened by %s: the first render was not a look while the result is made: %s"
                 % (way, renders[:3]))
    checks.check("computed, in a thread" in renders and reused(renders) is not None and
                 reused(renders) > renders.index("computed, in a thread"),
                 "opened by %s: the result was not made in a thread and reused: %s"
                 % (way, renders[:8]))
checks.done()
