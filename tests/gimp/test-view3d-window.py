#!/usr/bin/env python3
"""The 3D View window (plug-in-terrain-3d-view run interactively) in real gimp-3 under Xvfb:
on a shown 512² Diamond-Square layer the window opens and draws a landscape
(WORKDIR/view3d-window.png: many colours, not one background); a drag with the mouse orbits
the view (WORKDIR/view3d-window-orbit.png: the picture changes); a click on the sea-level
slider floods the lowland blue (view3d-window-sea.png), and one on 'Colours by height and
slope' turns the land gray (view3d-window-gray.png); a Paintbrush stroke on
GIMP's canvas shows in the window (WORKDIR/view3d-window-painted.png: the picture changes
again, the time from mouse up printed); Escape closes it and the procedure returns. Neither
GTK nor the plug-in may print a warning or critical.

usage: test-view3d-window.py PLUGIN_BINARY WORKDIR
"""
import os
import subprocess
import sys
import time

from checks import Checks
from gimpsession import PYTHON_FU_HELPERS, GimpSession, start_xvfb

plugin, workdir = (os.path.abspath(a) for a in sys.argv[1:3])
os.makedirs(workdir, exist_ok=True)
for stale in ("shown", "closed"):
    if os.path.exists(os.path.join(workdir, stale)):
        os.remove(os.path.join(workdir, stale))
checks = Checks("gimp-view3d-window")

SCRIPT = r'''
import os
import gi
gi.require_version("Gimp", "3.0")
from gi.repository import Gimp
''' + PYTHON_FU_HELPERS + r'''
image = Gimp.Image.new_with_precision(512, 512, Gimp.ImageBaseType.GRAY, Gimp.Precision.U16_NON_LINEAR)
layer = Gimp.Layer.new(image, "heights", 512, 512, Gimp.ImageType.GRAY_IMAGE, 100, Gimp.LayerMode.NORMAL)
image.insert_layer(layer, None, 0)
run_procedure("plug-in-terrain-diamond-square", image, layer, seed=5)
image.clean_all()
Gimp.Display.new(image)
Gimp.displays_flush()
open(os.path.join(WORKDIR, "shown"), "w").close()
ok = run_procedure("plug-in-terrain-3d-view", image, layer, run_mode=Gimp.RunMode.INTERACTIVE)
# The plug-in's process ends after its answer: GIMP stopped before it has (the driver stops
# it on "closed") left it writing to a closed pipe, and libgimp warning of it.
import time
deadline = time.time() + 10
while terrain_pids() and time.time() < deadline:
    time.sleep(0.1)
with open(os.path.join(WORKDIR, "closed"), "w") as f:
    f.write("success" if ok else "failure")
'''

session = GimpSession(plugin, os.path.join(workdir, "gimp"), extra_plugins=("python-eval",))
xvfb, display = start_xvfb()
env = session.environment(display)
log = os.path.join(workdir, "gimp.log")
gimp = subprocess.Popen(session.command(["WORKDIR = %r\n" % workdir + SCRIPT], gui=True,
                                        interpreter="python-fu-eval", quit=False, data=True),
                        env=env, stdout=subprocess.DEVNULL, stderr=open(log, "w"))


def xdotool(*args):
    return subprocess.run(["xdotool"] + [str(a) for a in args], env=env, capture_output=True,
                          text=True).stdout


def find(title, seconds=240):
    deadline = time.time() + seconds
    while time.time() < deadline and gimp.poll() is None:
        found = xdotool("search", "--onlyvisible", "--name", title).split()
        if found:
            return found[0]
        time.sleep(0.3)
    return None


def grab(window):
    return subprocess.run(["import", "-window", window, "-depth", "8", "rgb:-"], env=env, capture_output=True).stdout


def settled(window, seconds=60):
    """The window's pixels once they have not changed for 1.5 s."""
    deadline = time.time() + seconds
    last, since = None, time.time()
    while time.time() < deadline:
        now = grab(window)
        if now != last:
            last, since = now, time.time()
        elif time.time() - since > 1.5:
            break
        time.sleep(0.2)
    return last


def shoot(window, name):
    subprocess.run(["import", "-window", window, os.path.join(workdir, name)], env=env, check=False)


def colours(pixels):
    return len({pixels[i:i + 3] for i in range(0, len(pixels) - 2, 3 * 7)})


def count(pixels, kind):
    """Pixels of the sky's and the sea's blues (blue above red and green) or of the land's
    greens and browns (green or red above blue); the controls are gray."""
    n = 0
    for i in range(0, len(pixels) - 2, 3):
        r, g, b = pixels[i], pixels[i + 1], pixels[i + 2]
        n += (b > r + 15 and b > g + 5) if kind == "blue" else (g > b + 8 or r > b + 16)
    return n


try:
    deadline = time.time() + 240
    while not os.path.exists(os.path.join(workdir, "shown")) and time.time() < deadline and gimp.poll() is None:
        time.sleep(0.3)
    window = find("^3D View$")
    if checks.check(window is not None, "no 3D View window opened"):
        xdotool("windowmove", window, 900, 0)  # beside the canvas (no window manager)
        first = settled(window)
        shoot(window, "view3d-window.png")
        checks.check(first is not None and colours(first) > 200,
                     "the window shows no landscape (%d colours)" % (colours(first or b"")))
        # Orbit: drag from the picture's middle to the right.
        xdotool("mousemove", "--window", window, 320, 200)
        xdotool("mousedown", 1)
        for i in range(1, 11):
            xdotool("mousemove", "--window", window, 320 + 15 * i, 200 + 3 * i)
            time.sleep(0.03)
        xdotool("mouseup", 1)
        orbited = settled(window)
        shoot(window, "view3d-window-orbit.png")
        checks.check(orbited != first, "a drag did not change the view")
        # The sea-level slider (GTK warps a clicked slider to the click) floods the lowland
        # blue; the check box turns the land's colours to gray.
        land = count(orbited, "land")
        xdotool("mousemove", "--window", window, 300, 529)
        xdotool("click", 1)
        sea = settled(window)
        shoot(window, "view3d-window-sea.png")
        blue, blue_before = count(sea, "blue"), count(orbited, "blue")
        checks.check(blue > blue_before + 5000,
                     "the sea-level slider brought no sea: %d blue pixels, %d before" % (
                         blue, blue_before))
        xdotool("mousemove", "--window", window, 18, 557)
        xdotool("click", 1)
        gray = settled(window)
        shoot(window, "view3d-window-gray.png")
        land_gray = count(gray, "land")
        checks.check(land_gray < land / 10,
                     "'Colours by height and slope' off left the land coloured: %d green or "
                     "brown pixels, %d with colours" % (land_gray, land))
        orbited = gray
        # Paint on GIMP's canvas (the Paintbrush, black): the window follows.
        image_window = find(".*– GIMP$")
        xdotool("windowfocus", "--sync", image_window)
        xdotool("key", "p")
        time.sleep(0.5)
        xdotool("mousemove", 300, 300)
        xdotool("mousedown", 1)
        for i in range(1, 13):
            xdotool("mousemove", 300 + 25 * i, 300 + 10 * i)
            time.sleep(0.02)
        xdotool("mouseup", 1)
        up = time.time()
        changed_at = None
        while time.time() - up < 20 and changed_at is None:
            if grab(window) != orbited:
                changed_at = time.time()
            time.sleep(0.1)
        painted = settled(window)
        shoot(window, "view3d-window-painted.png")
        if checks.check(changed_at is not None, "a stroke on the canvas did not show in the window"):
            print("stroke to 3D: the window changed %.2f s after mouse up" % (changed_at - up))
        xdotool("windowfocus", "--sync", window)
        xdotool("key", "Escape")
        deadline = time.time() + 30
        while not os.path.exists(os.path.join(workdir, "closed")) and time.time() < deadline:
            time.sleep(0.2)
        closed = os.path.join(workdir, "closed")
        checks.check(os.path.exists(closed) and open(closed).read() == "success",
                     "Escape did not close the window, or the procedure failed")
finally:
    gimp.terminate()
    try:
        gimp.wait(timeout=30)
    except subprocess.TimeoutExpired:
        gimp.kill()
        gimp.wait()
    xvfb.terminate()

text = open(log).read()
ours = [line for line in text.splitlines()
        if ("terrain" in line.lower() or "Gtk-" in line) and ("WARNING" in line or "CRITICAL" in line)]
checks.check(not ours, "the plug-in or GTK warned:\n" + "\n".join(ours[:10]))
checks.done()
