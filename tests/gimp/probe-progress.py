#!/usr/bin/env python3
"""What GIMP shows on screen while an effect renders: whether any progress moves.

Starts real gimp-3 under Xvfb with the GEGL module, makes a SIZE x SIZE GRAY u16 image with
an Infinite Field and shows it, then watches the screen (an xwd frame every 0.5 s) during
three River Erosion renders, as an artist meets them:
  canvas  the effect is appended (from Python-Fu): the canvas's own render;
  effect  the effect is opened from the layer's fx button (Layer Effects, a double-click on
          the effect), and Age's "+" in GIMP's filter dialog re-renders it;
  merge   the plug-in's own dialog (plug-in-terrain-river-erosion, interactive) with
          "Preview on canvas" off, "Merge filter" on and Age 9, then OK.
A render's start and end come from the module's log (TERRAIN_RENDER_LOG). For each render
the probe prints how long it took, how many frames were taken during it and how many of
those differed from the frame before (0: the screen did not change at all), and keeps the
middle frame (WORKDIR/<case>.png) and its status bar (WORKDIR/<case>-status.png) to look at
(data/doc/limits.md says what GIMP 3.0.4 and 3.2.6 showed).
It is evidence, not a test: it passes whatever GIMP shows. The clicks assume GIMP's default
single-window layout on a 1600x1000 screen (as GIMP 3.0.4 and 3.2.6 lay it out).

usage: probe-progress.py PLUGIN_BINARY GEGL_MODULE WORKDIR [SIZE]
e.g. (about 70 s): build-aux/with-gimp3 python3 tests/gimp/probe-progress.py
     build/src/plugin/terrain build/src/gegl/gimp-terrain.so build/probe-progress
"""
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import threading
import time

from gimpsession import PYTHON_FU_SHOWN_FIELD, GimpSession, start_xvfb

plugin, module, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
size = int(sys.argv[4]) if len(sys.argv) > 4 else 4096
os.makedirs(workdir, exist_ok=True)
log = os.path.join(workdir, "render.log")
for stale in glob.glob(os.path.join(workdir, "flag-*")) + glob.glob(log) + \
        glob.glob(os.path.join(workdir, "*.png")):
    os.remove(stale)

FX_BUTTON = (1061, 690)        # the layer row's fx icon in the Layers dialog
EFFECT_ROW = (1023, 593)       # the effect's row in the Layer Effects popover
AGE_PLUS = (352, 116)          # Age's "+" in GIMP's filter dialog, from its top left corner
TITLE = (100, 12)              # the dialog's title, which does nothing when clicked
CANCEL = (226, 450)            # its Cancel
STATUS_BAR = "800x36+190+852"  # the image window's status bar

SCRIPT = PYTHON_FU_SHOWN_FIELD + r"""
flag("flag-shown")
wait_flag("flag-append")
layer.append_filter(Gimp.DrawableFilter.new(layer, "terrain:river-erosion", ""))
Gimp.displays_flush()
wait_flag("flag-merge")
for f in layer.get_filters():
    f.delete()
Gimp.displays_flush()
ok = run_procedure("plug-in-terrain-river-erosion", image, layer, run_mode=Gimp.RunMode.INTERACTIVE)
with open(os.path.join(WORKDIR, "flag-merged"), "w") as out:
    out.write("%s %s" % (ok, [f.get_operation_name() for f in layer.get_filters()]))
image.clean_all()  # quitting asks nothing
"""

session = GimpSession(plugin, os.path.join(workdir, "gimp"), extra_plugins=("python-eval",),
                      modules=(module,))
# The plug-in's dialog opens with its defaults, not what an earlier run left.
shutil.rmtree(os.path.join(session.config, "plug-in-settings"), ignore_errors=True)
xvfb, display = start_xvfb("1600x1000x24")
env = session.environment(display)
env["TERRAIN_RENDER_LOG"] = log
script = "SIZE = %d\nWORKDIR = %r\n" % (size, workdir) + SCRIPT
gimp = subprocess.Popen(session.command([script], gui=True, interpreter="python-fu-eval", quit=False),
                        env=env, stdout=subprocess.DEVNULL,
                        stderr=open(os.path.join(workdir, "gimp.log"), "w"))


def xdotool(*args):
    return subprocess.run(["xdotool"] + [str(a) for a in args], env=env, capture_output=True,
                          text=True).stdout


def window(title, seconds=120, other_than=()):
    deadline = time.time() + seconds
    while time.time() < deadline and gimp.poll() is None:
        found = [w for w in xdotool("search", "--onlyvisible", "--name", title).split()
                 if w not in other_than]
        if found:
            return found[0]
        time.sleep(0.3)
    return None


def corner(win):
    found = re.search(r"Position: (\d+),(\d+)", xdotool("getwindowgeometry", win))
    return (int(found.group(1)), int(found.group(2))) if found else (0, 0)


def wait_file(name, seconds=300):
    deadline = time.time() + seconds
    while not os.path.exists(os.path.join(workdir, name)) and time.time() < deadline \
            and gimp.poll() is None:
        time.sleep(0.2)


def renders(since):
    """[(start, end)] of River Erosion's whole-layer computations logged after `since`."""
    found, start = [], None
    for line in open(log) if os.path.exists(log) else ():
        m = re.match(r"(\d+\.\d+) terrain:river-erosion (asked for|\d+x\d+: computed)", line)
        if m and float(m.group(1)) >= since:
            if m.group(2) == "asked for":
                start = float(m.group(1))
            elif start is not None:
                found.append((start, float(m.group(1))))
                start = None
    return found


def quiet(seconds=2.0, limit=120):
    """Waits until the render log has been still for `seconds`."""
    deadline = time.time() + limit
    while time.time() < deadline:
        changed = os.path.getmtime(log) if os.path.exists(log) else 0
        if time.time() - changed >= seconds:
            return
        time.sleep(0.3)


class Frames(threading.Thread):
    """xwd frames of the whole screen every 0.5 s: [(start, end, path)]."""

    def __init__(self, name):
        super().__init__()
        self.folder = os.path.join(workdir, "frames-" + name)
        shutil.rmtree(self.folder, ignore_errors=True)
        os.makedirs(self.folder)
        self.frames, self.stop = [], threading.Event()

    def run(self):
        while not self.stop.is_set():
            path = os.path.join(self.folder, "%03d.xwd" % len(self.frames))
            start = time.monotonic()
            subprocess.run(["xwd", "-root", "-silent", "-out", path], env=env)
            self.frames.append((start, time.monotonic(), path))
            self.stop.wait(max(0.0, 0.5 - (time.monotonic() - start)))


def watch(name, act, seconds=90):
    """Frames while `act` starts a render and until it is computed; prints what they show."""
    frames = Frames(name)
    frames.start()
    time.sleep(0.6)
    since = time.monotonic()
    act()
    deadline = time.time() + seconds
    while not renders(since) and time.time() < deadline and gimp.poll() is None:
        time.sleep(0.2)
    time.sleep(1.0)
    frames.stop.set()
    frames.join()
    done = renders(since)
    if not done:
        print("%s: no render seen" % name)
        return
    start, end = done[0]
    during = [f for f in frames.frames if f[0] >= start and f[1] <= end]
    digests = [hashlib.sha1(open(p, "rb").read()).hexdigest() for _, _, p in frames.frames]
    first = frames.frames.index(during[0]) if during else 0
    changed = sum(1 for i in range(first + 1, first + len(during)) if digests[i] != digests[i - 1])
    print("%s: render %.1f s; %d frames during it (the first %.1f s after it began), %d of them "
          "changed from the one before" % (name, end - start, len(during),
                                            during[0][0] - start if during else 0, changed))
    if during:
        middle = during[len(during) // 2][2]
        shot = os.path.join(workdir, name + ".png")
        subprocess.run(["convert", middle, shot])
        subprocess.run(["convert", middle, "-crop", STATUS_BAR, "+repage",
                        os.path.join(workdir, name + "-status.png")])
        print("  %s (%.1f s into the render), %s-status.png"
              % (shot, during[len(during) // 2][0] - start, name))
    shutil.rmtree(frames.folder)  # 6 MB a frame


try:
    wait_file("flag-shown", 180)
    main = window(".*– GIMP$")
    quiet()

    watch("canvas", lambda: open(os.path.join(workdir, "flag-append"), "w").close())
    quiet()

    # GIMP 3.2.6 switched to its GEGL Operation tool at the first double-click without
    # showing the dialog (3.0.4 showed it): a second try opens it.
    for attempt in (1, 2):
        xdotool("mousemove", *FX_BUTTON, "click", 1)
        time.sleep(1.0)
        xdotool("mousemove", *EFFECT_ROW, "click", 1)
        time.sleep(0.5)
        xdotool("click", "--repeat", 2, "--delay", 80, 1)
        dialog = window("^River Erosion$", 10, other_than=(main,))
        if dialog:
            print("effect: GIMP's filter dialog opened at attempt %d" % attempt)
            break
        xdotool("key", "Escape")
    if dialog:
        quiet()
        x, y = corner(dialog)
        # The Layer Effects popover may still hold the pointer: a first click only closes it.
        xdotool("mousemove", x + TITLE[0], y + TITLE[1], "click", 1)
        time.sleep(0.5)
        xdotool("mousemove", x + AGE_PLUS[0], y + AGE_PLUS[1])
        time.sleep(0.5)
        watch("effect", lambda: xdotool("click", 1))
        xdotool("mousemove", x + CANCEL[0], y + CANCEL[1], "click", 1)
        deadline = time.time() + 10
        while dialog in xdotool("search", "--onlyvisible", "--name", ".").split() and \
                time.time() < deadline:
            time.sleep(0.3)
        quiet()
    else:
        print("effect: GIMP's filter dialog did not open; windows: %s"
              % [xdotool("getwindowname", w).strip()
                 for w in xdotool("search", "--onlyvisible", "--name", ".").split()])
        subprocess.run(["import", "-window", "root", os.path.join(workdir, "effect-missing.png")],
                       env=env)

    open(os.path.join(workdir, "flag-merge"), "w").close()
    dialog = window("^River Erosion", 60, other_than=(main, dialog))
    if dialog:
        xdotool("windowfocus", "--sync", dialog)
        # Pre_view on canvas off, _Merge filter on, Age (_K t) 9.
        for key in ("alt+v", "alt+m", "alt+k", "ctrl+a"):
            xdotool("key", key)
            time.sleep(0.3)
        xdotool("type", "9")
        xdotool("key", "Tab")
        time.sleep(1.0)
        quiet(3.0)
        watch("merge", lambda: (xdotool("windowfocus", "--sync", dialog), xdotool("key", "alt+o")))
        wait_file("flag-merged", 60)
        if os.path.exists(os.path.join(workdir, "flag-merged")):
            with open(os.path.join(workdir, "flag-merged")) as f:
                print("merge: the plug-in returned %s" % f.read())
    else:
        print("merge: the plug-in's dialog did not open")
    if main:
        xdotool("windowfocus", "--sync", main)
        xdotool("key", "ctrl+q")
    gimp.wait(timeout=60)
except subprocess.TimeoutExpired:
    pass
finally:
    gimp.kill()
    xvfb.kill()
