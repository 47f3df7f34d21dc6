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
  - OK leaves one editable effect (the layer's pixels untouched); the layer's fx button
    opens it in GIMP's own filter dialog (WORKDIR/effect-dialog.png);
  - with "Merge filter" checked (its mnemonic), OK changes the pixels and leaves no effect.
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
OTHERS = [(proc, title) for proc, title in listed if proc != DS]
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
    def __init__(self, label, modules, steps, slow=None, binary=plugin, menu=None):
        self.log = os.path.join(workdir, label + "-gimp.log")
        self.session = GimpSession(binary, os.path.join(workdir, "gimp-" + label),
                                   extra_plugins=("python-eval",), modules=modules)
        # Dialogs open with their defaults, not what an earlier run left in .last files.
        shutil.rmtree(os.path.join(self.session.config, "plug-in-settings"), ignore_errors=True)
        self.xvfb, display = start_xvfb()
        self.env = self.session.environment(display)
        self.state_file = os.path.join(workdir, label + "-state.json")
        self.export = os.path.join(workdir, label + "-export.pgm")
        others = [proc for proc, _ in OTHERS] if modules else []
        script = ("WORKDIR = %r\nSTATE = %r\nEXPORT = %r\nDS = %r\nOTHERS = %r\nSTEPS = %r\nSLOW = %r\n"
                  "MENU = %r\n" % (workdir, self.state_file, self.export, DS, others, steps, slow,
                                    bool(modules) if menu is None else menu)) + SCRIPT
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


def no_warnings(gui):
    """GIMP, GTK or the plug-in printed no warning or critical but GIMP's own
    (gimp_warnings.py), e.g. GimpProcedureDialog's "no mnemonic for property"."""
    found = not_gimps_own(gui.log)
    checks.check(not found, "%s: %d warnings:\n  %s" % (os.path.basename(gui.log), len(found),
                                                         "\n  ".join(found[:30])))


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
    if step == "merge":
        gui.keys(window, "alt+m")  # Merge filter
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

# Without the module: the dialog says why, and OK writes the pixels in the plug-in.
gui = Gui("plug-in", [], ["merge"], slow="plug-in-terrain-hydraulic-erosion")
use_slow_preview(gui)
window = gui.wait_for("Diamond-Square")
if checks.check(bool(window), "the Diamond-Square dialog without the module did not appear"):
    gui.xdotool("mousemove", "1590", "990")  # not where "+" was clicked: no tooltip over it
    time.sleep(2.0)
    gui.shoot("without-module.png", window)
    gui.keys(window, "alt+o")
state = gui.finish()
no_warnings(gui)
checks.check(state.get("slow") == "cancel", "Escape in the slow dialog gave %s" % state.get("slow"))
checks.check(state.get("merge") == "success" and state.get("after merge", {}).get("effects") == [],
             "without the module OK gave %s, %s" % (state.get("merge"), state.get("after merge")))
if checks.check(os.path.exists(gui.export), "OK did not lead to an export"):
    values = read_pnm(gui.export)[2][0]
    checks.check(min(values) == 0.0 and max(values) == 1.0, "OK did not write a full-range heightmap")
checks.done()
