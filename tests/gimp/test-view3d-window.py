#!/usr/bin/env python3
"""The 3D View window (plug-in-terrain-3d-view run interactively) in real gimp-3 under Xvfb:
on a shown 512² Diamond-Square layer ($VIEW3D_WINDOW_LAYER² if set) the window opens and draws a landscape
(WORKDIR/view3d-window.png: many colours, not one background); a drag with the mouse orbits
the view (WORKDIR/view3d-window-orbit.png: the picture changes); a click on the sea-level
slider floods the lowland blue (view3d-window-sea.png), and one on 'Colours by height and
slope' turns the land gray (view3d-window-gray.png); a Paintbrush stroke on
GIMP's canvas shows in the window (WORKDIR/view3d-window-painted.png: the picture changes
again, the time from mouse up printed); Escape closes it and the procedure returns. Neither
GTK nor the plug-in may print a warning or critical.

MODE "opengl" draws with OpenGL even where it is a software renderer (llvmpipe here): every
frame logged must be OpenGL's. MODE "no-glx" runs on an X server without GLX: the window
falls back to the CPU renderer and says why (on the picture, and once on stderr); every
frame is the CPU's; it draws and orbits, then closes (the rest is the CPU's view, which a
run without MODE tests where OpenGL is llvmpipe).

usage: test-view3d-window.py PLUGIN_BINARY WORKDIR [opengl|no-glx]
"""
import os
import subprocess
import sys
import time

from checks import Checks
from gimp_warnings import not_gimps_own
from gimpsession import PYTHON_FU_HELPERS, GimpSession, start_xvfb

plugin, workdir = (os.path.abspath(a) for a in sys.argv[1:3])
mode = sys.argv[3] if len(sys.argv) > 3 else ""
os.makedirs(workdir, exist_ok=True)
frames_log = os.path.join(workdir, "frames.log")
for stale in ("shown", "closed", "frames.log"):
    if os.path.exists(os.path.join(workdir, stale)):
        os.remove(os.path.join(workdir, stale))
checks = Checks("gimp-view3d-window")

SCRIPT = r'''
import os
import gi
gi.require_version("Gimp", "3.0")
from gi.repository import Gimp
''' + PYTHON_FU_HELPERS + r'''
image = Gimp.Image.new_with_precision(SIDE, SIDE, Gimp.ImageBaseType.GRAY, Gimp.Precision.U16_NON_LINEAR)
layer = Gimp.Layer.new(image, "heights", SIDE, SIDE, Gimp.ImageType.GRAY_IMAGE, 100, Gimp.LayerMode.NORMAL)
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
# Whole or not at all: the driver reads it once it exists.
with open(os.path.join(WORKDIR, "closed.part"), "w") as f:
    f.write("success" if ok else "failure")
os.rename(os.path.join(WORKDIR, "closed.part"), os.path.join(WORKDIR, "closed"))
'''

session = GimpSession(plugin, os.path.join(workdir, "gimp"), extra_plugins=("python-eval",))
xvfb, display = start_xvfb(extra=("-extension", "GLX") if mode == "no-glx" else ())
env = session.environment(display)
env.update(TERRAIN_VIEW3D_LOG=frames_log)
if mode == "opengl":
    env.update(TERRAIN_VIEW3D_GL="1")
log = os.path.join(workdir, "gimp.log")
side = int(os.environ.get("VIEW3D_WINDOW_LAYER", "512"))  # the benchmark's stroke-to-3D: 1024
gimp = subprocess.Popen(session.command(["WORKDIR = %r\nSIDE = %d\n" % (workdir, side) + SCRIPT], gui=True,
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
        # OpenGL draws the sky at once, the land once its first scene is in (llvmpipe's first
        # frame compiles the shaders: seconds on a busy machine).
        deadline = time.time() + 60
        while time.time() < deadline and count(grab(window), "land") < 20000:
            time.sleep(0.2)
        first = settled(window)
        shoot(window, "view3d-window.png")
        checks.check(first is not None and colours(first) > 200 and count(first, "land") >= 20000,
                     "the window shows no landscape (%d colours, %d land pixels)" % (
                         colours(first or b""), count(first or b"", "land")))
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
    # Without GLX the rest is the CPU's view, as the other modes without $TERRAIN_VIEW3D_GL.
    if window and mode != "no-glx":
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
    if window and mode != "no-glx":
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
        # The first change and the last one (watched for 3 s, or until 20 s for a first).
        up = time.time()
        changed_at = last_at = None
        last = orbited
        while time.time() - up < (3 if changed_at else 20):
            now = grab(window)
            if now != last:
                changed_at = changed_at or time.time()
                last, last_at = now, time.time()
            time.sleep(0.05)
        painted = settled(window)
        shoot(window, "view3d-window-painted.png")
        if checks.check(changed_at is not None, "a stroke on the canvas did not show in the window"):
            print("stroke to 3D: the window changed %.2f s after mouse up, last %.2f s after it"
                  % (changed_at - up, last_at - up))
    if window:
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
frames = open(frames_log).read().splitlines() if os.path.exists(frames_log) else []
if mode:
    how = "with OpenGL" if mode == "opengl" else "in another thread"
    checks.check(frames and all(how in f for f in frames),
                 "%s: not every frame was drawn %s: %s" % (mode, how, frames[:3]))
    print("%s: %d frames, median %.1f ms" % (
        mode, len(frames), sorted(float(f.split()[7]) for f in frames)[len(frames) // 2]
        if frames else 0))
if mode == "no-glx":
    said = [line for line in text.splitlines() if "3D drawn on the CPU" in line]
    checks.check(len(said) == 1, "without GLX the plug-in did not say once why: %s" % said)
    print(said[0] if said else "")
# Not GIMP's own lines: 3.0.4's plug-ins now and then find GIMP's end of the pipe closed as
# they say goodbye (seen here once, on 3.0, 2026-11-30).
ours = [line for line in not_gimps_own(log) if "terrain" in line.lower() or "Gtk-" in line]
checks.check(not ours, "the plug-in or GTK warned:\n" + "\n".join(ours[:10]))
checks.done()
