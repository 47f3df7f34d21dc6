#!/usr/bin/env python3
"""GUI test: real gimp-3 under Xvfb, driven as a person would, with xdotool.

With the GEGL module (GIMP runs the procedures' operations):
  - Filters > Render > Terrain is opened with the mouse and keyboard and shot
    (WORKDIR/menu.png), then its "Shape the Map" submenu (WORKDIR/menu-shape-the-map.png);
  - the dialog of every procedure terrain-docs lists opens on a real image; each is
    screenshot (WORKDIR/<title>-dialog.png, and with Alt held, which underlines the
    mnemonics: <title>-dialog-mnemonics.png), its preview must show a terrain, then Escape;
    each dialog's size goes to WORKDIR/dialog-sizes.json; in Smooth Heightmap "Preview at
    1:1" is switched on (WORKDIR/smooth-heightmap-dialog-1to1.png) and off by its mnemonic;
  - Diamond-Square's dialog is shot (WORKDIR/diamond-square-dialog.png); it shows its
    result on the canvas while it is open (the screen is shot: WORKDIR/canvas.png; the
    canvas area must show a terrain where the layer held one flat shade); Escape leaves the
    layer's pixels, effects and clean state as they were;
  - "Merge filter" is checked by default for a generator: unchecked (its mnemonic), OK
    leaves one editable effect (the layer's pixels untouched); the layer's fx button opens it
    in GIMP's own filter dialog (WORKDIR/effect-dialog.png);
  - the dialog opens again with "Merge filter" unchecked (GIMP remembers it); checked again,
    OK changes the pixels and leaves no effect.
One picture: on a layer that already carries River Erosion over a Diamond-Square, left as
effects, River Erosion's dialog is opened again (WORKDIR/on-effects-dialog.png, and beside
the canvas WORKDIR/on-effects.png): its preview must show what the canvas shows (the
effects below included), not the layer without them (before issue 22 it was plain white).
Without the module the same (WORKDIR/on-effects-plug-in*.png): the preview shows what OK
writes. In both, the dialog's 3D view is then switched on and used (use_view3d): it must
show a landscape, change with the sun's slider, a drag and a new age, and render every frame
with OpenGL (with the module; llvmpipe, chosen with $TERRAIN_VIEW3D_GL=1) or off the
dialog's main thread on the CPU (without it: llvmpipe is not used by default)
(WORKDIR/on-effects*-view3d*.png; frame times and, with the module, the dialog's main-loop
gaps printed). $GUI_ONLY_BELOW=1 runs only those two.
Without the module, the Diamond-Square dialog says why the plug-in writes the result
itself (WORKDIR/without-module.png), and OK writes a full-range heightmap. Before that, in
the same session, the preview is used as a person would (WORKDIR/gui-artifacts/*.png):
  - Hydraulic Erosion on a 1024² map: "+" on the seed changes the preview;
  - with a million droplets its preview computes for seconds; "+" on the seed twice, quickly,
    while it computes: the seed shown must change within 0.5 s (best of 3 tries). With the
    preview computed in the dialog's own loop (before issue 17) it took the whole render.
Every session: neither GIMP, GTK nor the plug-in may print a warning or critical (e.g.
GimpProcedureDialog's "no mnemonic for property"), but those GIMP prints by itself
(gimp_warnings.py).
$GUI_ONLY_RESPONSIVE=1 runs only that session (to try a plug-in binary, old or new, fast).
$GUI_ONLY_SHOTS=1 runs only the Diamond-Square session (canvas.png, effect-dialog.png), without
the other dialogs: render-demos' screenshots.
$GUI_BARE=1 runs only a session without our plug-in or module (a display, the menu, an
export, quit) and prints the warnings GIMP printed by itself (WORKDIR/bare-gimp.log).

usage: test-gui.py PLUGIN_BINARY TERRAIN_DOCS WORKDIR [GEGL_MODULE]
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

from checks import Checks
from gimp_warnings import complaints, not_gimps_own
from gimpsession import GimpSession, start_xvfb
from pixels import read_pnm

plugin, docs, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
module = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else None
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-gui")
# Every dialog but Diamond-Square's, by window title (the menu label without its ellipsis).
listed = re.findall(r'^### (plug-in-terrain-[a-z-]+): "(.+?)…"$',
                    subprocess.run([docs], check=True, capture_output=True, text=True).stdout, flags=re.M)
DS = "plug-in-terrain-diamond-square"
# $GUI_ONLY_SHOTS: the Diamond-Square session alone, for render-demos' two screenshots.
SHOTS_ONLY = bool(os.environ.get("GUI_ONLY_SHOTS"))
OTHERS = [] if SHOTS_ONLY else [(proc, title) for proc, title in listed if proc != DS]
for stale in os.listdir(workdir):
    if stale.endswith((".png", ".json", ".flag")):
        os.remove(os.path.join(workdir, stale))
shutil.rmtree(os.path.join(workdir, "gui-artifacts"), ignore_errors=True)


# The Python-Fu side: runs the dialogs one after the other and records the image's state
# after each in STATE; waits for the test's flag files where the test works in GIMP itself.
SCRIPT = r"""
import hashlib, json, os, time
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl

def run(name, image, layer, mode, **args):
    proc = Gimp.get_pdb().lookup_procedure(name)
    config = proc.create_config()
    config.set_property("run-mode", mode)
    config.set_property("image", image)
    config.set_core_object_array("drawables", [layer])
    for key, value in args.items():
        config.set_property(key, value)
    return proc.run(config).index(0).value_nick

def snapshot(image, layer):
    data = layer.get_buffer().get(Gegl.Rectangle.new(0, 0, 512, 384), 1.0, None, Gegl.AbyssPolicy.CLAMP)
    return {"dirty": image.is_dirty(), "pixels": hashlib.sha256(data).hexdigest(),
            "effects": [f.get_operation_name() for f in layer.get_filters()]}

def wait_flag(name):
    deadline = time.time() + 90
    while not os.path.exists(os.path.join(WORKDIR, name)) and time.time() < deadline:
        time.sleep(0.2)

state = {}
image = Gimp.Image.new_with_precision(512, 384, Gimp.ImageBaseType.GRAY, Gimp.Precision.U16_NON_LINEAR)
layer = Gimp.Layer.new(image, "height", 512, 384, Gimp.ImageType.GRAY_IMAGE, 100, Gimp.LayerMode.NORMAL)
image.insert_layer(layer, None, 0)
layer.fill(Gimp.FillType.WHITE)
Gimp.Display.new(image)
image.clean_all()
Gimp.displays_flush()
if MENU:
    wait_flag("menu-seen.flag")
for name in OTHERS:
    state["dialog " + name] = run(name, image, layer, Gimp.RunMode.INTERACTIVE)
if SLOW:
    big = Gimp.Image.new_with_precision(1024, 1024, Gimp.ImageBaseType.GRAY, Gimp.Precision.U16_NON_LINEAR)
    big_layer = Gimp.Layer.new(big, "height", 1024, 1024, Gimp.ImageType.GRAY_IMAGE, 100, Gimp.LayerMode.NORMAL)
    big.insert_layer(big_layer, None, 0)
    run(DS, big, big_layer, Gimp.RunMode.NONINTERACTIVE, seed=7)
    started = time.time()
    state["slow"] = run(SLOW, big, big_layer, Gimp.RunMode.INTERACTIVE)
    big.delete()
if BELOW:
    # A layer that already carries River Erosion over a Diamond-Square, left as effects (with
    # the module; written, without): River Erosion's dialog again, then the result the canvas
    # showed under it (that dialog's defaults on top of the effects, merged in a copy).
    below = Gimp.Image.new_with_precision(512, 384, Gimp.ImageBaseType.GRAY, Gimp.Precision.U16_NON_LINEAR)
    sketch = Gimp.Layer.new(below, "sketch", 512, 384, Gimp.ImageType.GRAY_IMAGE, 100, Gimp.LayerMode.NORMAL)
    below.insert_layer(sketch, None, 0)
    sketch.fill(Gimp.FillType.WHITE)
    effect = {"non-destructive": True} if MODULE else {}
    run(DS, below, sketch, Gimp.RunMode.NONINTERACTIVE, seed=1234, **effect)
    run(BELOW, below, sketch, Gimp.RunMode.NONINTERACTIVE, **effect)
    state["below effects"] = [f.get_operation_name() for f in sketch.get_filters()]
    Gimp.Display.new(below)
    below.clean_all()
    Gimp.displays_flush()
    state["below"] = run(BELOW, below, sketch, Gimp.RunMode.INTERACTIVE)
    for name, again in ((BELOW_EXPORT + ".input.pgm", False), (BELOW_EXPORT, True)):
        copy = below.duplicate()
        result = copy.get_layers()[0]
        if again:  # merged, with every effect below it
            run(BELOW, copy, result, Gimp.RunMode.NONINTERACTIVE, **effect)
        result.merge_filters()
        Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, copy, Gio.File.new_for_path(name), None)
        copy.delete()
    below.clean_all()
state["before"] = snapshot(image, layer)
for step in STEPS:
    state[step] = run(DS, image, layer, Gimp.RunMode.INTERACTIVE, seed=1234)
    state["after " + step] = snapshot(image, layer)
    Gimp.displays_flush()
    if step == "effect":
        wait_flag("effect-seen.flag")
        for f in layer.get_filters():
            f.delete()
        state["after removing the effect"] = snapshot(image, layer)
Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, image, Gio.File.new_for_path(EXPORT), None)
image.clean_all()  # the test quits GIMP as a person would: nothing to ask about
with open(STATE, "w") as f:
    json.dump(state, f)
""".replace("from gi.repository import Gimp, Gegl", "from gi.repository import Gimp, Gegl, Gio")


class Gui:
    def __init__(self, label, modules, steps, slow=None, binary=plugin, menu=None, below=None):
        self.log = os.path.join(workdir, label + "-gimp.log")
        self.session = GimpSession(binary, os.path.join(workdir, "gimp-" + label),
                                   extra_plugins=("python-eval",), modules=modules)
        # Dialogs open with their defaults, not what an earlier run left in .last files.
        shutil.rmtree(os.path.join(self.session.config, "plug-in-settings"), ignore_errors=True)
        self.xvfb, display = start_xvfb()
        self.env = self.session.environment(display)
        # The dialog's 3D view: its frames, and how long the dialog's loop was blocked.
        self.frames, self.mainloop = (os.path.join(workdir, label + name) for name in
                                      ("-view3d-frames.log", "-mainloop.log"))
        for log in (self.frames, self.mainloop) if below else ():
            if os.path.exists(log):
                os.remove(log)
        if below:
            self.env.update(TERRAIN_VIEW3D_LOG=self.frames, TERRAIN_MAINLOOP_LOG=self.mainloop)
        # With the module the dialog's 3D view draws with OpenGL, llvmpipe here (a software
        # renderer the view would leave for the CPU's); without it, on the CPU, as here by
        # default.
        self.opengl = bool(modules)
        if self.opengl:
            self.env.update(TERRAIN_VIEW3D_GL="1")
        self.state_file = os.path.join(workdir, label + "-state.json")
        self.export = os.path.join(workdir, label + "-export.pgm")
        self.below_export = os.path.join(workdir, label + "-below.pgm")
        others = [proc for proc, _ in OTHERS] if modules and not below else []
        script = ("WORKDIR = %r\nSTATE = %r\nEXPORT = %r\nDS = %r\nOTHERS = %r\nSTEPS = %r\nSLOW = %r\n"
                  "MENU = %r\nBELOW = %r\nBELOW_EXPORT = %r\nMODULE = %r\n"
                  % (workdir, self.state_file, self.export, DS, others, steps, slow,
                     bool(modules) if menu is None else menu, below, self.below_export,
                     bool(modules))) + SCRIPT
        self.gimp = subprocess.Popen(self.session.command([script], gui=True, interpreter="python-fu-eval",
                                                          quit=False),
                                     env=self.env, stdout=subprocess.DEVNULL,
                                     stderr=open(self.log, "w"))

    def xdotool(self, *args):
        return subprocess.run(["xdotool"] + list(args), env=self.env, capture_output=True, text=True)

    def wait_for(self, title, seconds=120, other_than=None):
        deadline = time.time() + seconds
        while time.time() < deadline and self.gimp.poll() is None:
            found = [w for w in self.xdotool("search", "--onlyvisible", "--name", "^" + title).stdout.split()
                     if w != other_than]
            if found:
                return found[0]
            time.sleep(0.3)
        return ""

    def gone(self, window, seconds=30):
        deadline = time.time() + seconds
        while time.time() < deadline and window in self.xdotool("search", "--onlyvisible", "--name", ".").stdout.split():
            time.sleep(0.3)

    def keys(self, window, *keys):
        # No window manager under Xvfb: focus the window directly, then the keys.
        self.xdotool("windowfocus", "--sync", window)
        for key in keys:
            self.xdotool("key", key)
            time.sleep(0.3)

    def grab(self, window, crop):
        """The raw pixels of a crop of a window: a quick look, for comparisons."""
        return subprocess.run(["import", "-window", window, "-crop", crop, "rgb:-"], env=self.env,
                              capture_output=True).stdout

    def click(self, window, x, y, repeat=1):
        self.xdotool("mousemove", "--window", window, str(x), str(y))
        self.xdotool("click", "--repeat", str(repeat), "--delay", "80", "1")

    def settled(self, window, crop, seconds=90):
        """Waits until the crop stops changing for 2 s (a preview has been drawn and the
        computing bar is gone); its pixels."""
        deadline = time.time() + seconds
        last, since = None, time.time()
        while time.time() < deadline:
            now = self.grab(window, crop)
            if now != last:
                last, since = now, time.time()
            elif time.time() - since > 2.0:
                break
            time.sleep(0.25)
        return last

    def changed(self, window, crop, old, seconds=60):
        """Waits until the crop is no longer `old` (a preview under way may keep it so for
        seconds: the settled crop of its start is not its end); then until it settles."""
        deadline = time.time() + seconds
        while time.time() < deadline and self.grab(window, crop) == old:
            time.sleep(0.25)
        return self.settled(window, crop)

    def shoot(self, name, window="root", crop=None):
        shot = os.path.join(workdir, name)
        subprocess.run(["import", "-window", window] + (["-crop", crop] if crop else []) + [shot],
                       env=self.env, check=False)
        return shot

    def shoot_mnemonics(self, window, name):
        """The window shot with Alt held: GTK underlines the mnemonics only then."""
        self.xdotool("windowfocus", "--sync", window)
        self.xdotool("keydown", "alt")
        time.sleep(0.5)
        self.shoot(name, window)
        self.xdotool("keyup", "alt")
        time.sleep(0.3)

    def size(self, window):
        """The window's width x height, as xdotool measures it."""
        out = self.xdotool("getwindowgeometry", window).stdout
        found = re.search(r"Geometry: (\d+)x(\d+)", out)
        return (int(found.group(1)), int(found.group(2))) if found else None

    def plug_ins(self):
        """GIMP's plug-in processes, but the Script-Fu extension, which lives as long as GIMP."""
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open("/proc/%s/stat" % pid) as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    command = f.read().replace(b"\0", b" ").decode(errors="replace")
            except (OSError, IndexError, ValueError):
                continue
            if parent == self.gimp.pid and "script-fu" not in command:
                found.append(command)
        return found

    def finish(self):
        """Quits GIMP as a person would (Ctrl+Q on the image window) once the script has
        written its state and every plug-in it ran has exited. With --quit, GIMP 3.0.4 quits
        the moment the batch command returns, and it now and then crashed there (SIGSEGV,
        before its own clean-up ran) in sessions without our module, with Python-Fu's batch
        plug-in (and once file-pnm) still closing. Quitting only once no plug-in is left
        takes that race out; a crash left is a crash.
        GIMP also logs "g_object_unref: assertion 'G_IS_OBJECT (object)' failed" (from
        gimp_data_factories_exit) and "list of contexts not empty upon exit" as it quits,
        even a session that only opened a display and ran no plug-in: not ours."""
        deadline = time.time() + 180
        while time.time() < deadline and self.gimp.poll() is None and \
                (not os.path.exists(self.state_file) or self.plug_ins()):
            time.sleep(0.3)
        left = self.plug_ins()
        checks.check(not left, "plug-ins still running: %s" % left)
        main = self.wait_for(".*– GIMP$", seconds=10)
        if main:
            self.keys(main, "ctrl+q")
        try:
            self.gimp.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.shoot("quit-timeout.png")
            self.gimp.kill()
            self.gimp.wait()
        self.xvfb.terminate()
        checks.check(self.gimp.returncode == 0, "gimp exited %s" % self.gimp.returncode)
        return json.load(open(self.state_file)) if os.path.exists(self.state_file) else {}


def colours(shot, crop=None):
    args = ["convert", shot] + (["-crop", crop] if crop else []) + ["-format", "%k", "info:"]
    out = subprocess.run(args, capture_output=True, text=True).stdout.strip()
    return int(out) if out.isdigit() else 0


# A filter dialog whose 1:1 preview is switched on and off again with its mnemonic: made
# when first asked for, shown, hidden (dialog-preview.c).
ONE_TO_ONE = "Smooth Heightmap"
# The canvas sits at the right of the dialogs in GIMP's default layout on this screen.
CANVAS = "400x300+230+130"
# In the Hydraulic Erosion dialog on a square layer without the module (its layout, in the
# window's own coordinates): the preview with its computing bar, the seed's entry and "+",
# the droplets' entry, the relief's check box.
# $GUI_SEED_ROW_Y moves the rows for another layout (the dialog before issue 17: 271).
SEED_Y = int(os.environ.get("GUI_SEED_ROW_Y", "302"))
PREVIEW_AREA = "210x290+5+5"
SEED_ENTRY, SEED_PLUS = "90x24+56+%d" % (SEED_Y - 12), (203, SEED_Y)
RELIEF = (40, SEED_Y + 317)  # the check box in the "Relief preview" expander's title
ARTIFACTS = os.path.join(workdir, "gui-artifacts")
RESPONSE_BOUND = 0.5


def response_time(gui, window):
    """Seconds from two quick clicks on the seed's "+" to the seed shown changing: from the
    first click to the start of the first look that sees it changed (a look takes tens of
    milliseconds, and the change was there before it began)."""
    before = gui.grab(window, SEED_ENTRY)
    start = time.time()
    gui.click(window, *SEED_PLUS, repeat=2)
    while time.time() - start < 30:
        look = time.time()
        if gui.grab(window, SEED_ENTRY) != before:
            return look - start
        time.sleep(0.01)
    return float("inf")


def use_slow_preview(gui):
    """The Hydraulic Erosion dialog as a person uses it (the module docstring)."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    window = gui.wait_for("Hydraulic Erosion")
    if not checks.check(bool(window), "the Hydraulic Erosion dialog did not appear"):
        return
    shots = []
    def shoot(name):
        shots.append(gui.shoot(os.path.join("gui-artifacts", name), window))
    gui.xdotool("windowfocus", "--sync", window)
    before = gui.settled(window, PREVIEW_AREA)
    shoot("erosion-before.png")
    gui.click(window, *SEED_PLUS)
    after = gui.settled(window, PREVIEW_AREA)
    shoot("erosion-after-seed.png")
    checks.check(before != after, "the preview did not change with the seed")
    gui.click(window, *RELIEF)  # the relief on and off again: what it looks like
    relief = gui.settled(window, PREVIEW_AREA)
    shoot("erosion-relief.png")
    checks.check(relief != after, "the preview did not change with the relief")
    gui.click(window, *RELIEF)
    gui.settled(window, PREVIEW_AREA)
    # A million droplets on 1024²: seconds of work for every preview.
    gui.xdotool("windowfocus", "--sync", window)
    gui.xdotool("key", "alt+d", "ctrl+a")  # "_Droplets" (its default; typed all the same)
    gui.xdotool("type", "1000000")
    gui.xdotool("key", "Tab")
    times = []
    for attempt in range(3):
        time.sleep(1.5)  # the preview is computing (it starts 200 ms after a change)
        if attempt == 0:
            shoot("erosion-computing.png")
        times.append(response_time(gui, window))
        shoot("erosion-answered-%d.png" % (attempt + 1))
        if times[-1] <= RESPONSE_BOUND:
            break
    print("seed answered %s s after two quick clicks during a slow preview (best %.3f s, bound %.1f s)"
          % (", ".join("%.3f" % t for t in times), min(times), RESPONSE_BOUND))
    checks.check(min(times) <= RESPONSE_BOUND,
                 "the dialog answered only after %.3f s while its preview computed" % min(times))
    gui.keys(window, "Escape")
    gui.gone(window)
    print("screenshots:\n  " + "\n  ".join(shots))


# River Erosion's dialog on a layer that already carries effects (the script's BELOW).
BELOW = "plug-in-terrain-river-erosion"
CORNER = "320x240+0+0"  # the dialog's corner that holds its preview


def gray(path, crop=None, size=None):
    """A picture's gray levels (0-255), row by row: a crop of it, resized (box filter)."""
    args = ["convert", path] + (["-crop", crop, "+repage"] if crop else []) + ["-colorspace", "gray"]
    args += ["-filter", "box", "-resize", "%dx%d!" % size] if size else []
    return list(subprocess.run(args + ["-depth", "8", "gray:-"], capture_output=True).stdout)


def preview_crop(shot):
    """Where the preview is in a dialog shot, as a crop: the first thing in its top left
    corner that is not the dialog's background, as far as it goes right and down."""
    w, h = (int(v) for v in CORNER.split("+")[0].split("x"))
    px = gray(shot, CORNER)
    if len(px) != w * h:
        return None
    background = max(set(px), key=px.count)  # the window's frame differs
    inside = [i for i, v in enumerate(px) if abs(v - background) > 2 and i % w > 4 and i // w > 4]
    if not inside:
        return None
    y0, x0 = divmod(inside[0], w)
    def end(at, step, stop):  # where 6 pixels of background in a row begin (a terrain
        run = 0               # may hold single pixels of the background's shade)
        while at < stop and run < 6:
            run = run + 1 if abs(px[at] - background) <= 2 else 0
            at += step
        return at - run * step
    x1 = (end(y0 * w + x0, 1, (y0 + 1) * w) - y0 * w)
    y1 = (end(y0 * w + x0, w, h * w) - x0) // w
    return "%dx%d+%d+%d" % (x1 - x0, y1 - y0, x0, y0)


def open_on_effects(gui, label):
    """River Erosion's dialog opened again on a layer that carries River Erosion over a
    Diamond-Square: the dialog shot (WORKDIR/<label>-dialog.png), then beside the canvas
    (WORKDIR/<label>.png); the dialog shot and where its preview is, or None."""
    window = gui.wait_for("River Erosion")
    if not checks.check(bool(window), "%s: River Erosion's dialog did not appear" % label):
        return None
    gui.xdotool("windowmove", window, "990", "0")
    gui.xdotool("mousemove", "1590", "990")
    time.sleep(3.0)  # the canvas renders the effects; the preview its thumbnail
    gui.settled(window, CORNER)
    shot = gui.shoot(label + "-dialog.png", window)
    gui.shoot(label + ".png", crop="1600x800+0+0")
    use_view3d(gui, window, label)
    gui.keys(window, "Escape")
    gui.gone(window)
    view3d_remembered(gui, label)
    return shot, preview_crop(shot)


# The dialog's 3D view (dialog-view3d.c), at the right of the dialog's top, above its three
# sliders, each a row of VIEW3D_ROW pixels: where the view and the sun's azimuth slider are,
# from the window's top right corner.
VIEW3D_SIZE, VIEW3D_TOP, VIEW3D_RIGHT, VIEW3D_ROW = (280, 210), 12, 12, 34


def view3d_crop(gui, window):
    width = (gui.size(window) or (0, 0))[0]
    return "%dx%d+%d+%d" % (VIEW3D_SIZE + (width - VIEW3D_RIGHT - VIEW3D_SIZE[0], VIEW3D_TOP))


def use_view3d(gui, window, label):
    """River Erosion's 3D view, as a person uses it: "3D view" on (its mnemonic): the view
    shows a landscape (WORKDIR/<label>-view3d.png: many colours where the dialog's flat
    background was); the sun's azimuth slider clicked, the view changes
    (<label>-view3d-sun.png); a drag orbits it (<label>-view3d-orbit.png); the age set to 10
    (the settings), it changes again (<label>-view3d-age.png). Then off again, for the next
    dialog. The frames must all have been drawn as the session asked (TERRAIN_VIEW3D_LOG); their times and the longest gap of the dialog's loop
    (TERRAIN_MAINLOOP_LOG) are printed."""
    gui.xdotool("windowmove", window, "700", "0")  # room on the screen for a wider dialog
    time.sleep(0.5)
    before = gui.grab(window, view3d_crop(gui, window))
    gui.keys(window, "alt+3")
    time.sleep(1.0)
    crop = view3d_crop(gui, window)  # the dialog is wider now
    first = gui.settled(window, crop)
    shot = gui.shoot(label + "-view3d.png", window)
    checks.check(colours(shot, crop) > 200 and first != before,
                 "%s: the 3D view shows no landscape (%d colours)" % (label, colours(shot, crop)))
    x, y = (int(v) for v in crop.split("+")[1:])
    slider_y = y + VIEW3D_SIZE[1] + 4 + VIEW3D_ROW // 2
    gui.click(window, x + VIEW3D_SIZE[0] - 40, slider_y)  # the sun: towards the east
    gui.xdotool("mousemove", "1590", "990")
    sun = gui.settled(window, crop)
    gui.shoot(label + "-view3d-sun.png", window)
    checks.check(sun != first, "%s: the sun's slider did not change the 3D view" % label)
    gui.xdotool("mousemove", "--window", window, str(x + 140), str(y + 105))
    gui.xdotool("mousedown", "1")
    for i in range(1, 11):
        gui.xdotool("mousemove", "--window", window, str(x + 140 + 6 * i), str(y + 105 + 2 * i))
        time.sleep(0.03)
    gui.xdotool("mouseup", "1")
    gui.xdotool("mousemove", "1590", "990")
    orbit = gui.settled(window, crop)
    gui.shoot(label + "-view3d-orbit.png", window)
    checks.check(orbit != sun, "%s: a drag did not orbit the 3D view" % label)
    gui.keys(window, "alt+k", "ctrl+a")
    gui.xdotool("type", "10")
    gui.xdotool("key", "Tab")
    # The view changes when the preview of age 10 is done: in one CI run on 3.0 the crop
    # stayed as it was for 2 s while "Computing the preview..." still showed.
    age = gui.changed(window, crop, orbit)
    gui.shoot(label + "-view3d-age.png", window)
    checks.check(age != orbit, "%s: a new age did not change the 3D view" % label)
    gui.keys(window, "alt+3")
    view3d_logs(gui, label)


def view3d_remembered(gui, label):
    """The dialog left its 3D view's settings in the profile (dialog-view3d.c), not in the
    procedure's: switched off again, the sun where the slider put it (not 270, the default)."""
    path = os.path.join(gui.session.config, "plug-in-settings", "gimp-terrain-dialog-3d-view")
    text = open(path).read() if os.path.exists(path) else ""
    sun = re.search(r"^light-azimuth=(\S+)$", text, re.M)
    checks.check("shown=false" in text and sun and float(sun.group(1)) != 270.0,
                 "%s: the 3D view's settings were not remembered: %r" % (label, text))


def view3d_logs(gui, label):
    """The 3D view's frames (all with OpenGL, or all on the CPU off the dialog's main thread)
    and the longest gap of the dialog's loop meanwhile, from the plug-in's own logs: the
    frames' log, and the main-loop probe that gimp-terrain's GEGL module starts in every process that loads it
    (the plug-in's too), so only with the module."""
    frames = [l.split() for l in open(gui.frames)] if os.path.exists(gui.frames) else []
    checks.check(len(frames) >= 4, "%s: %d frames of the 3D view logged" % (label, len(frames)))
    how = "with OpenGL" if gui.opengl else "another thread,"
    checks.check(all(how in " ".join(f) for f in frames),
                 "%s: a 3D frame was not drawn %s" % (label, how))
    if not frames:
        return
    pids = {f[2] for f in frames}
    lines = [l.split() for l in (open(gui.mainloop) if os.path.exists(gui.mainloop) else ())]
    gaps = {(float(l[0]), float(l[4])) for l in lines if l[2] in pids and l[3] == "gap"}
    spans = [(float(f[0]) - float(f[7]) / 1000, float(f[0])) for f in frames]
    during = [ms for end, ms in gaps if any(end - ms / 1000 < b and end > a for a, b in spans)]
    times = sorted(float(f[7]) for f in frames)
    print("%s: %d 3D frames (%s, mesh %s): median %.1f ms, longest %.1f ms; the dialog's "
          "main loop: %s" % (label, len(frames), frames[0][4], frames[0][6],
                             times[len(times) // 2], times[-1],
                             "longest gap %.1f ms while a frame rendered, %.1f ms in all"
                             % (max(during + [0.0]), max([ms for _, ms in gaps] + [0.0]))
                             if any(l[2] in pids for l in lines) else "not probed (no module)"))


def one_picture(gui, label, seen):
    """The preview shows what the canvas shows under the dialog (with the module) or what OK
    writes (without): the result of River Erosion's defaults on the layer with its effects,
    which the script exported, and not that layer (the effects alone) nor a blank. Compared
    at 50 x 38, where the preview's sampling and the export's scaling agree: mean distances
    measured 1.5 gray levels from the result and 13 from the effects alone."""
    if not checks.check(seen and seen[1], "%s: no preview found in the dialog" % label):
        return
    shot, crop = seen
    size = (50, 38)
    preview = gray(shot, crop, size)
    result = gray(gui.below_export, None, size)
    alone = gray(gui.below_export + ".input.pgm", None, size)
    def distance(a, b):
        return sum(abs(x - y) for x, y in zip(a, b)) / max(1, len(a)) if len(a) == len(b) else 255.0
    to_result, to_alone = distance(preview, result), distance(preview, alone)
    print("%s: the preview (%s) is %.2f gray levels from the result, %.2f from the effects alone"
          % (label, crop, to_result, to_alone))
    checks.check(colours(shot, crop) > 100, "%s: the preview shows no terrain" % label)
    checks.check(to_result <= 4.0 and to_result < to_alone / 2,
                 "%s: the preview disagrees with the result (%.2f gray levels from it, %.2f from "
                 "the layer's effects alone)" % (label, to_result, to_alone))


def no_warnings(gui):
    """GIMP, GTK or the plug-in printed no warning or critical but GIMP's own
    (gimp_warnings.py), e.g. GimpProcedureDialog's "no mnemonic for property"."""
    found = not_gimps_own(gui.log)
    checks.check(not found, "%s: %d warnings:\n  %s" % (os.path.basename(gui.log), len(found),
                                                         "\n  ".join(found[:30])))


if os.environ.get("GUI_ONLY_BELOW"):
    for label, modules in (("on-effects", [module]), ("on-effects-plug-in", [])):
        gui = Gui(label, modules, [], below=BELOW, menu=False)
        seen = open_on_effects(gui, label)
        state = gui.finish()
        no_warnings(gui)
        one_picture(gui, label, seen)
    checks.done()
    sys.exit()


if os.environ.get("GUI_ONLY_RESPONSIVE"):
    gui = Gui("responsive", [], [], slow="plug-in-terrain-hydraulic-erosion")
    use_slow_preview(gui)
    state = gui.finish()
    no_warnings(gui)
    checks.check(state.get("slow") == "cancel", "Escape gave %s" % state.get("slow"))
    checks.done()
    sys.exit()


def open_menu(gui):
    """The menu, as a person opens it: Filters with the mouse, Render by pointing at it,
    then the keyboard: into Render's submenu, up to its last item (Terrain), into it
    (menu.png); up to its last item (the "Shape the Map" submenu of the filters that change
    a map), into it. Then the script may go on."""
    main = gui.wait_for(".*– GIMP$")
    if checks.check(bool(main), "GIMP's image window did not appear"):
        time.sleep(3.0)
        gui.xdotool("windowfocus", "--sync", main)
        gui.xdotool("mousemove", "426", "12")  # Filters, in the menu bar
        time.sleep(0.5)
        gui.xdotool("mousedown", "1")
        time.sleep(0.2)
        gui.xdotool("mouseup", "1")
        time.sleep(1.0)
        gui.xdotool("mousemove", "452", "363")  # Render
        time.sleep(1.0)
        for key in ("Right", "Up", "Right"):
            gui.xdotool("key", key)
            time.sleep(0.7)
        gui.xdotool("mousemove", "1590", "990")
        time.sleep(1.0)
        gui.shoot("menu.png", crop="1000x660+0+0")
        for key in ("Up", "Right"):
            gui.xdotool("key", key)
            time.sleep(0.7)
        gui.shoot("menu-shape-the-map.png", crop="1200x760+0+0")
        for key in ("Escape",) * 5:
            gui.xdotool("key", key)
            time.sleep(0.3)
    open(os.path.join(workdir, "menu-seen.flag"), "w").close()


if os.environ.get("GUI_BARE"):  # what GIMP prints by itself: no terrain plug-in, no module
    gui = Gui("bare", [], [], binary=None, menu=True)
    open_menu(gui)
    gui.finish()
    print("GIMP's own warnings:\n  " + "\n  ".join(complaints(gui.log)))
    checks.done()
    sys.exit()

gui = Gui("module", [module] if module else [], ["cancel", "effect", "merge"])
sizes = {}
open_menu(gui)
for proc, title in OTHERS:
    window = gui.wait_for(title)
    if not checks.check(bool(window), "the %s dialog did not appear" % title):
        break
    time.sleep(2.0)  # the preview renders on a 200 ms idle timeout
    sizes[title] = gui.size(window)
    shot = gui.shoot(title.lower().replace(" ", "-") + "-dialog.png", window)
    # A terrain preview has many gray levels; a blank or missing one has few.
    checks.check(colours(shot) > 100, "%s: the dialog shows no terrain preview" % title)
    gui.shoot_mnemonics(window, title.lower().replace(" ", "-") + "-dialog-mnemonics.png")
    if title == ONE_TO_ONE:
        gui.keys(window, "alt+1")
        time.sleep(2.0)
        detail = gui.shoot(title.lower().replace(" ", "-") + "-dialog-1to1.png", window)
        checks.check(open(detail, "rb").read() != open(shot, "rb").read(),
                     "%s: \"Preview at 1:1\" (its mnemonic) changed nothing" % title)
        gui.keys(window, "alt+1")
        time.sleep(1.0)
    gui.keys(window, "Escape")

for step in ("cancel", "effect", "merge"):
    window = gui.wait_for("Diamond-Square")
    if not checks.check(bool(window), "the Diamond-Square dialog (%s) did not appear" % step):
        break
    time.sleep(3.0)  # the canvas renders the effect; the preview its thumbnail
    if step == "cancel":
        sizes["Diamond-Square"] = gui.size(window)
        gui.shoot("diamond-square-dialog.png", window)
        gui.shoot_mnemonics(window, "diamond-square-dialog-mnemonics.png")
        # Beside the image window (no window manager places it): the README's picture.
        gui.xdotool("windowmove", window, "990", "0")
        time.sleep(1.0)
        gui.shoot("canvas.png", crop="1410x780+0+0")
        checks.check(colours(gui.shoot("canvas-area.png"), CANVAS) > 100,
                     "the canvas shows no terrain while the dialog is open")
    if step != "cancel":
        # Merge filter: on by default for a generator (off for "effect"), then remembered
        # off by GIMP (on again for "merge").
        gui.keys(window, "alt+m")
    gui.keys(window, "Escape" if step == "cancel" else "alt+o")
    gui.gone(window)
    if step == "effect":
        # The layer's fx button, then the effect's edit button: GIMP's own filter dialog.
        time.sleep(2.0)
        for x, y in ((827, 514), (801, 413), (754, 468)):
            gui.xdotool("mousemove", str(x), str(y), "click", "1")
            time.sleep(1.0)
        editor = gui.wait_for("Diamond-Square", seconds=20)
        checks.check(bool(editor), "the effect did not open in GIMP's filter dialog")
        if editor:
            gui.xdotool("mousemove", "1500", "950")  # no tooltip over the dialog
            time.sleep(2.0)
            gui.shoot("effect-dialog.png", crop="1000x780+0+0")
            gui.keys(editor, "Escape")
        open(os.path.join(workdir, "effect-seen.flag"), "w").close()
state = gui.finish()
print(json.dumps(state, indent=1))
print("dialog sizes:", json.dumps(sizes, indent=1))
no_warnings(gui)
json.dump(sizes, open(os.path.join(workdir, "dialog-sizes.json"), "w"), indent=1)
for proc, _ in OTHERS if module else []:
    checks.check(state.get("dialog " + proc) == "cancel", "%s: Escape gave %s" % (proc, state.get("dialog " + proc)))
before = state.get("before", {})
checks.check(state.get("cancel") == "cancel", "Escape gave %s" % state.get("cancel"))
checks.check(state.get("after cancel") == before,
             "Escape changed the image: %s, before %s" % (state.get("after cancel"), before))
checks.check(state.get("effect") == "success", "OK gave %s" % state.get("effect"))
after = state.get("after effect", {})
checks.check(after.get("pixels") == before.get("pixels") and after.get("effects") == ["terrain:diamond-square"],
             "OK did not leave one effect on untouched pixels: %s" % after)
merged = state.get("after merge", {})
checks.check(state.get("merge") == "success" and merged.get("effects") == [] and
             merged.get("pixels") != before.get("pixels"),
             "OK with Merge filter did not change the pixels without an effect: %s" % merged)
if SHOTS_ONLY:
    checks.done()
    sys.exit()

# One picture: on a layer that carries effects, the preview shows what the canvas shows.
if module:
    gui = Gui("on-effects", [module], [], below=BELOW, menu=False)
    seen = open_on_effects(gui, "on-effects")
    state = gui.finish()
    no_warnings(gui)
    checks.check(state.get("below effects") == ["terrain:river-erosion", "terrain:diamond-square"],
                 "the layer did not carry the two effects: %s" % state.get("below effects"))
    checks.check(state.get("below") == "cancel", "Escape gave %s" % state.get("below"))
    one_picture(gui, "on-effects", seen)

# Without the module: the dialog says why, and OK writes the pixels in the plug-in.
gui = Gui("plug-in", [], ["merge"], slow="plug-in-terrain-hydraulic-erosion", below=BELOW)
use_slow_preview(gui)
seen = open_on_effects(gui, "on-effects-plug-in")
window = gui.wait_for("Diamond-Square")
if checks.check(bool(window), "the Diamond-Square dialog without the module did not appear"):
    gui.xdotool("mousemove", "1590", "990")  # not where "+" was clicked: no tooltip over it
    time.sleep(2.0)
    gui.shoot("without-module.png", window)
    gui.keys(window, "alt+o")
state = gui.finish()
no_warnings(gui)
checks.check(state.get("slow") == "cancel", "Escape in the slow dialog gave %s" % state.get("slow"))
one_picture(gui, "on-effects-plug-in", seen)
checks.check(state.get("merge") == "success" and state.get("after merge", {}).get("effects") == [],
             "without the module OK gave %s, %s" % (state.get("merge"), state.get("after merge")))
if checks.check(os.path.exists(gui.export), "OK did not lead to an export"):
    values = read_pnm(gui.export)[2][0]
    checks.check(min(values) == 0.0 and max(values) == 1.0, "OK did not write a full-range heightmap")
checks.done()
