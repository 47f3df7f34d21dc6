"""Paint strokes on a layer that carries an effect, in real gimp-3 under Xvfb, and what they
cost: the shared driver of tests/gimp/test-live.py (a light check) and
tests/bench/gimp/bench-live.py (the benchmark).

GIMP runs with gimp-terrain's GEGL module, which writes two logs (src/gegl):
  - TERRAIN_RENDER_LOG: every call GIMP makes to a terrain operation ("asked for ...") and
    every whole-layer render ("WxH: computed|reused|failed", or "WxH: looked at at 1/F, for
    a stroke": a filter's look during a stroke, src/gegl/stroke.h), each line with its time;
  - TERRAIN_MAINLOOP_LOG: a 2 ms high-priority timeout in GIMP's main loop logs every gap
    between its ticks of 10 ms or more: how long the loop that draws the canvas and takes
    the mouse was blocked (mainloop-probe.h).
Both times are CLOCK_MONOTONIC seconds, as time.monotonic() here (the same machine).

A Python-Fu script in the session makes a SIZE² GRAY image (16-bit perceptual integers, or
the Gimp.Precision named PRECISION) holding an Infinite Field and shows it; with `dialog`, it first runs the River Erosion dialog (the driver presses OK
once the canvas shows the preview: an editable effect stays). Then, for each effect in turn,
it puts that effect (alone, or a stack: "terrain:a+terrain:b" appends a, then b) on the
layer, says so with a flag file and waits for the driver's flag to go on. The driver paints
with the Paintbrush (key "p", GIMP's default brush) with xdotool, as a person would.
"""
import os
import re
import signal
import statistics
import subprocess
import time

from gimpsession import PYTHON_FU_SHOWN_FIELD, GimpSession, start_xvfb

SIZE = 1024
PRECISION = "U16_NON_LINEAR"  # the image's, a Gimp.Precision's name
RIVER_DIALOG = "plug-in-terrain-river-erosion"
# The canvas of a 1024² image on this 1600x1000 screen, GIMP's default single-window layout
# (zoomed to 66.7 %): where strokes go, and the crop a screenshot compares.
CANVAS = (220, 100, 890, 770)
CANVAS_CROP = "%dx%d+%d+%d" % (CANVAS[2] - CANVAS[0], CANVAS[3] - CANVAS[1], CANVAS[0], CANVAS[1])
QUIET = 1.0  # seconds without a render or a main-loop stall: the stroke's work is over
# GIMP's default single-window layout but for the Histogram dock, shown, at the top right:
# it reads the active layer, effects included, after every change.
HISTOGRAM_SESSIONRC = """(session-info "toplevel"
    (factory-entry "gimp-single-image-window")
    (position 0 0)
    (size 1600 1000)
    (open-on-exit)
    (aux-info (left-docks-width "188") (right-docks-width "205") (maximized "no"))
    (gimp-toolbox (side left) (book (current-page 0) (dockable "gimp-tool-options")))
    (gimp-dock (side right)
        (book (current-page 0) (dockable "gimp-histogram-editor"))
        (book (position 500) (current-page 0) (dockable "gimp-layer-list"))))
(hide-docks no)
(single-window-mode yes)
"""

SCRIPT = PYTHON_FU_SHOWN_FIELD + r"""
if DIALOG:
    flag("dialog")
    ok = run_procedure(DIALOG, image, layer, run_mode=Gimp.RunMode.INTERACTIVE)
    with open(os.path.join(WORKDIR, "dialog-result"), "w") as f:
        f.write("%s %s" % (ok, [f.get_operation_name() for f in layer.get_filters()]))
for i, op in enumerate(EFFECTS):
    stack = op.split("+") if op else []
    # The dialog's effect stays on for the first: a stack is always put on afresh.
    if [f.get_operation_name() for f in layer.get_filters()] != stack or len(stack) > 1:
        for f in layer.get_filters():
            f.delete()
        for name in stack:
            layer.append_filter(Gimp.DrawableFilter.new(layer, name, ""))
    Gimp.displays_flush()
    flag("effect-%d" % i)
    if op in CHANGES:
        wait_flag("change-%d" % i)
        gi.require_version("Gegl", "0.4")
        from gi.repository import Gegl
        other = Gegl.Color.new("black" if layer.get_pixel(7, 7).get_rgba()[0] > 0.5 else "white")
        changed = time.monotonic()
        effect = layer.get_filters()[0]
        effect.get_config().set_property(*CHANGES[op])
        effect.update()
        Gimp.displays_flush()
        # While that result is made (its thread's start is in the render log), a pixel of
        # the layer changes: GIMP's next render must read the layer again, not serve the
        # look it was shown (src/gegl/operation.c: shown_again). The time is taken once the
        # pixel is written.
        for _ in range(1000):
            with open(os.environ["TERRAIN_RENDER_LOG"]) as log:
                if any(line.endswith("making its result, in a thread\n") and op in line and
                       float(line.split(" ")[0]) > changed for line in log):
                    break
            time.sleep(0.005)
        layer.set_pixel(7, 7, other)
        edited = time.monotonic()
        layer.update(7, 7, 1, 1)
        Gimp.displays_flush()
        with open(os.path.join(WORKDIR, "edited-%d" % i), "w") as f:
            f.write(repr(edited))
        flag("changed-%d" % i)
    wait_flag("next-%d" % i)
    if op in CHANGES:
        # Once the changed setting's result is there, what the canvas shows (GIMP's projection,
        # drawn chunk by chunk from its idle renders: src/gegl/operation.c, canvas_chunks)
        # must be that result: Copy Visible against the effect merged in a duplicate image.
        rect = Gegl.Rectangle.new(0, 0, SIZE, SIZE)
        Gimp.edit_copy_visible(image)
        shown = Gimp.edit_paste_as_new_image()
        twin = image.duplicate()
        twin.get_layers()[0].merge_filters()
        same = (shown.get_layers()[0].get_buffer().get(rect, 1.0, "Y' u16", Gegl.AbyssPolicy.CLAMP) ==
                twin.get_layers()[0].get_buffer().get(rect, 1.0, "Y' u16", Gegl.AbyssPolicy.CLAMP))
        shown.delete()
        twin.delete()
        with open(os.path.join(WORKDIR, "shown-%d" % i), "w") as f:
            f.write("the same" if same else "different")
if MERGE:
    # An effect merged by a script right after the canvas drew it: its look, while its result
    # is made in a thread (src/gegl/later.h). The merge must give the result, as the same
    # effect merged on a twin of the layer does.
    gi.require_version("Gegl", "0.4")
    from gi.repository import Gegl
    for f in layer.get_filters():
        f.delete()
    twin = layer.copy()
    image.insert_layer(twin, None, 1)
    twin.set_visible(False)
    effect = Gimp.DrawableFilter.new(layer, MERGE[0], "")
    effect.get_config().set_property(*MERGE[1:])  # a result not kept yet
    effect.update()
    layer.append_filter(effect)
    Gimp.displays_flush()
    time.sleep(0.2)
    layer.merge_filters()
    effect = Gimp.DrawableFilter.new(twin, MERGE[0], "")
    effect.get_config().set_property(*MERGE[1:])
    effect.update()
    twin.merge_filter(effect)
    rect = Gegl.Rectangle.new(0, 0, SIZE, SIZE)
    same = (layer.get_buffer().get(rect, 1.0, "Y' u16", Gegl.AbyssPolicy.CLAMP) ==
            twin.get_buffer().get(rect, 1.0, "Y' u16", Gegl.AbyssPolicy.CLAMP))
    with open(os.path.join(WORKDIR, "merged"), "w") as f:
        f.write("the same" if same else "different")
image.clean_all()  # quitting asks nothing
flag("finished")
"""


def _lines(path, pattern):
    """(time, match) for each line of the log that matches pattern after the time; the
    match's group 1 is the time, the pattern's groups follow."""
    found = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                m = re.match(r"(\d+\.\d+) " + pattern, line)
                if m:
                    found.append((float(m.group(1)), m))
    return found


class Live:
    """One GIMP session under Xvfb; effects: operation names ("" for none), in order;
    changes: {operation: (property, value)}, a setting the script changes once that effect's
    strokes are done (paint: change); merge: (operation, property, value), an effect the
    script then puts on the layer and merges at once, writing WORKDIR/merged: "the same"
    when the layer equals a twin that merged the same effect, else "different". script: a
    Python-Fu script of the caller's instead (it has WORKDIR, SIZE, the shown field and its
    helpers); environment: more variables for GIMP's process."""

    def __init__(self, plugin, module, workdir, effects, dialog=False, changes=None, merge=None,
                 script=None, environment=None, histogram=False):
        self.workdir = workdir
        os.makedirs(workdir, exist_ok=True)
        for stale in os.listdir(workdir):
            if stale.endswith((".log", ".png")) or stale.startswith(("effect-", "next-", "dialog", "change", "edited", "merged", "shown", "step-", "result-", "done-", "check-")) \
                    or stale == "finished":
                os.remove(os.path.join(workdir, stale))
        self.render_log = os.path.join(workdir, "render.log")
        self.mainloop_log = os.path.join(workdir, "mainloop.log")
        self.session = GimpSession(plugin, os.path.join(workdir, "gimp"),
                                   extra_plugins=("python-eval",), modules=(module,))
        # GIMP saves its docks at exit: a workdir once run with the Histogram shown would
        # show it again.
        sessionrc = os.path.join(self.session.config, "sessionrc")
        if histogram:
            with open(sessionrc, "w") as f:
                f.write(HISTOGRAM_SESSIONRC)
        elif os.path.exists(sessionrc):
            os.remove(sessionrc)
        self.xvfb, display = start_xvfb()
        self.env = self.session.environment(display)
        self.env.update(TERRAIN_RENDER_LOG=self.render_log, TERRAIN_MAINLOOP_LOG=self.mainloop_log)
        self.env.update(environment or {})
        script = ("WORKDIR = %r\nSIZE = %d\nPRECISION = %r\nEFFECTS = %r\nDIALOG = %r\n"
                  "CHANGES = %r\nMERGE = %r\n" % (
                      workdir, SIZE, PRECISION, list(effects), RIVER_DIALOG if dialog else None,
                      changes or {}, merge)) + (PYTHON_FU_SHOWN_FIELD + script if script else SCRIPT)
        self.gimp = subprocess.Popen(
            self.session.command([script], gui=True, interpreter="python-fu-eval", quit=False, data=True),
            env=self.env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(workdir, "gimp.log"), "w"))
        self.window = None

    # ---- GIMP's windows, the keyboard and the mouse ----

    def xdotool(self, *args):
        return subprocess.run(["xdotool"] + [str(a) for a in args], env=self.env,
                              capture_output=True, text=True).stdout

    def find(self, title, seconds=240):
        deadline = time.time() + seconds
        while time.time() < deadline and self.gimp.poll() is None:
            found = self.xdotool("search", "--onlyvisible", "--name", title).split()
            if found:
                return found[0]
            time.sleep(0.3)
        return None

    def wait_file(self, name, seconds=300):
        deadline = time.time() + seconds
        path = os.path.join(self.workdir, name)
        while not os.path.exists(path) and time.time() < deadline and self.gimp.poll() is None:
            time.sleep(0.2)
        return os.path.exists(path)

    def flag(self, name):
        open(os.path.join(self.workdir, name), "w").close()

    def keys(self, *keys, window=None):
        """Keys to the image window (or window): no window manager, so focus it first."""
        self.xdotool("windowfocus", "--sync", window or self.image_window())
        for key in keys:
            self.xdotool("key", key)
            time.sleep(0.3)

    def image_window(self):
        if not self.window:
            self.window = self.find(".*– GIMP$")
        return self.window

    def grab(self):
        """The canvas's pixels, raw: for comparisons."""
        return subprocess.run(["import", "-window", "root", "-crop", CANVAS_CROP, "rgb:-"],
                              env=self.env, capture_output=True).stdout

    def shoot(self, name):
        path = os.path.join(self.workdir, name)
        subprocess.run(["import", "-window", "root", path], env=self.env, check=False)
        return path

    @staticmethod
    def start_of(k, margin):
        """Where stroke or line number k starts: each elsewhere, so that it changes pixels
        no earlier one made black."""
        x0, y0, x1, y1 = CANVAS
        return x0 + margin + (k * 37) % 120, y0 + margin + (k * 53) % (y1 - y0 - 160)

    def stroke(self, k, steps=12, hold=0.0):
        """Stroke number k with the mouse: a diagonal line (start_of); the mouse held still
        for `hold` seconds before it goes up (GIMP has then painted and rendered all of the
        stroke before mouse up). Returns (mouse down, mouse up) times."""
        x0, _, x1, _ = CANVAS
        x, y = self.start_of(k, 40)
        self.xdotool("mousemove", x, y)
        down = time.monotonic()
        self.xdotool("mousedown", 1)
        for i in range(1, steps + 1):
            self.xdotool("mousemove", x + i * (x1 - x0 - 240) // steps, y + i * 8)
            time.sleep(0.02)
        time.sleep(hold)
        self.xdotool("mouseup", 1)
        return down, time.monotonic()

    def line(self, k):
        """Line number k: a click, then a Shift+click elsewhere, which has GIMP's paint tool
        paint the straight line between them at once, from the click's event, without its
        paint thread (and without the paint timer's renders). Returns the second click's
        mouse up time."""
        x1 = CANVAS[2]
        x, y = self.start_of(k, 60)
        self.xdotool("mousemove", x, y)
        self.xdotool("click", 1)
        time.sleep(0.3)
        self.xdotool("mousemove", x1 - 80, y + 90)
        self.xdotool("keydown", "shift")
        self.xdotool("click", 1)
        up = time.monotonic()
        self.xdotool("keyup", "shift")
        return up

    def stroke_at_once(self, k):
        """Stroke number k made while GIMP is stopped (SIGSTOP): GIMP then takes the mouse
        down, the moves and the mouse up in one go, as when its main loop was busy meanwhile,
        and its paint thread has painted nothing before mouse up (no render from the paint
        timer: the paint tool renders from the mouse up's event). Returns the time GIMP
        went on."""
        os.kill(self.gimp.pid, signal.SIGSTOP)
        try:
            self.stroke(k)
        finally:
            os.kill(self.gimp.pid, signal.SIGCONT)
        return time.monotonic()

    def stroke_on_screen(self, k):
        """A stroke timed on the screen as well: the canvas is grabbed again and again (each
        look costs tens of ms of CPU: only for a confirmation) until it has not changed for
        QUIET seconds after GIMP's work. Live.measure's figures plus "screen": mouse up -> the
        start of the first look that saw the canvas as it stays; "changed": whether it did."""
        before = last = self.grab()
        down, up = self.stroke(k)
        changed_at = None
        while True:
            look = time.monotonic()
            now = self.grab()
            if now != last:
                last, changed_at = now, look
            if self.quiet(down) and look - (changed_at or up) >= QUIET or look - up > 180:
                break
            time.sleep(0.05)
        result = self.measure(down, up)
        result.update(screen=None if changed_at is None else changed_at - up, changed=last != before)
        return result

    # ---- What GIMP's process logged ----

    def renders(self, since, until=float("inf")):
        """[(time, "computed"|"reused"|"failed"|"looked at", op)] of whole-layer renders in the
        window ("looked at": a filter's look for a stroke); not the canvas's asks, chunk by
        chunk, served again what it was shown ("the layer not read": src/gegl/operation.c,
        shown_again), which write their chunk alone."""
        return [(t, m.group(3), m.group(2)) for t, m in
                _lines(self.render_log,
                       r"(terrain:\S+) \d+x\d+: (computed|reused|failed|looked at)(?:,? .*)?$")
                if since <= t <= until and not m.group(0).endswith("the layer not read")]

    def exact_from_events(self, since):
        """[(time, op)] of whole-layer results computed in GIMP's main thread for an ask
        from GDK's event source (a mouse up's render taken for an exact read)."""
        found, last_ask = [], {}
        for t, m in _lines(self.render_log, r"(terrain:\S+) (asked for .*|\d+x\d+: computed)$"):
            if m.group(3).startswith("asked for"):
                last_ask[m.group(2)] = "from GDK " in m.group(3)
            elif t >= since and last_ask.get(m.group(2)):
                found.append((t, m.group(2)))
        return found

    def asked(self, since, until=float("inf")):
        return [t for t, _ in _lines(self.render_log, r"terrain:\S+ asked for ") if since <= t <= until]

    def gaps(self, since, until=float("inf")):
        """[(end, ms)] of GIMP's main-loop stalls (gaps between the probe's ticks) that overlap
        the window; GIMP's pid only (the plug-ins load the module too)."""
        pid = str(self.gimp.pid)
        return [(t, float(m.group(3))) for t, m in _lines(self.mainloop_log, r"pid (\d+) gap (\S+) ms")
                if m.group(2) == pid and t >= since and t - float(m.group(3)) / 1000 <= until]

    def ticks(self):
        """The probe's one-second summaries in GIMP's process: [(time, ticks)]."""
        pid = str(self.gimp.pid)
        return [(t, int(m.group(3))) for t, m in _lines(self.mainloop_log, r"pid (\d+) alive (\d+) ticks")
                if m.group(2) == pid]

    def threads_ended(self):
        """When each result made in a thread ended (src/gegl/later.h)."""
        return [t for t, _ in _lines(self.render_log, r"terrain:\S+ \d+x\d+: "
                                     r"(?:computed|cancelled|failed), in a thread$")]

    def under_way(self):
        """Whether a result is being made in a thread (src/gegl/later.h): one was begun and
        has not ended."""
        begun = _lines(self.render_log, r"terrain:\S+ \d+x\d+: making its result, in a thread$")
        return len(begun) > len(self.threads_ended())

    def quiet(self, since):
        """Whether GIMP is done: its main loop runs now (the probe's last one-second summary
        is recent: a loop blocked in a render writes none, and a render logs only when it
        begins and ends), has run for QUIET seconds since the last render, stall or result
        made in a thread (in a stack the effect above starts its own once GIMP draws the one
        below again), and no result is being made in a thread."""
        last = max([since] + [t for t, _, _ in self.renders(since)] + self.asked(since) +
                   [t for t, _ in self.gaps(since)] +
                   [t for t in self.threads_ended() if t >= since])
        alive = max([t for t, _ in self.ticks()] + [0.0])
        return time.monotonic() - alive <= 1.5 and alive - last >= QUIET and not self.under_way()

    def settle(self, since, seconds=180):
        """Waits until GIMP is done (quiet); False if it never was."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.quiet(since):
                return True
            time.sleep(0.1)
        return False

    def measure(self, down, up):
        """One stroke's figures, once it settled: {renders computed during the stroke, after it,
        the looks of the stroke, every render's result after mouse up, the last render's result
        since mouse down (what the canvas keeps), mouse up -> last render
        done (s), mouse up -> main loop free (s), longest stall (ms), longest stall that began
        with the mouse down, before mouse up (ms), longest stall that began after it (ms)}."""
        after = self.renders(up)
        during = self.renders(down, up)
        done = after[-1][0] if after else None
        stalls = self.gaps(down)
        # The loop is free again when the last stall that began before the work was over ended.
        work_end = max([up] + ([done] if done else []))
        ends = [end for end, ms in stalls if end - ms / 1000 <= work_end + 0.05]
        free = max([work_end] + ends)
        return {"computed during": sum(1 for r in during if r[1] == "computed"),
                "computed after": sum(1 for r in after if r[1] == "computed"),
                "looks": sum(1 for r in self.renders(down) if r[1] == "looked at"),
                "results after": [r[1] for r in after],
                "last result": ([r[1] for r in self.renders(down)] or [None])[-1],
                "render done": None if done is None else done - up,
                "loop free": free - up,
                "longest stall": max([ms for _, ms in stalls] + [0.0]),
                "longest stall painting": max([ms for end, ms in stalls if end - ms / 1000 <= up]
                                              + [0.0]),
                "longest stall after": max([ms for end, ms in stalls if end - ms / 1000 > up]
                                           + [0.0])}

    def finish(self):
        """Quits GIMP (Ctrl+Q once the script is done) and Xvfb."""
        if self.wait_file("finished", 60) and self.image_window():
            self.keys("ctrl+q")
        try:
            self.gimp.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.gimp.kill()
            self.gimp.wait()
        self.xvfb.terminate()
        return self.gimp.returncode


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def press_ok_after_preview(live):
    """The River Erosion dialog: once its preview is on the canvas, OK. Returns (the renders
    the module logged after OK, what the script saw: "True ['terrain:river-erosion']")."""
    if not (live.wait_file("dialog") and live.find("River Erosion")):
        return None, "no dialog"
    window = live.find("River Erosion")
    deadline = time.monotonic() + 120
    while not live.renders(0) and time.monotonic() < deadline:
        time.sleep(0.2)
    live.settle(0)
    ok_at = time.monotonic()
    live.keys("alt+o", window=window)
    live.wait_file("dialog-result", 60)
    live.settle(ok_at)
    with open(os.path.join(live.workdir, "dialog-result")) as f:
        return live.renders(ok_at), f.read()


def paint(live, effects, strokes, undo=True, on_stroke=None, confirm=(), holds=(), change=()):
    """For each effect the script puts on the layer: `strokes` strokes, each measured once
    GIMP is done with it (Live.measure); then, with undo, Ctrl+Z and Ctrl+Y of the last
    stroke and the renders each led to. on_stroke(live, op, k) may look at the screen after
    each stroke; holds[i] is how long the mouse stays still before stroke i goes up (none:
    0); an effect in `confirm` gets one more stroke, timed on the screen too
    (Live.stroke_on_screen); an effect in `change` then has the setting Live was given for
    it changed by the script, measured as a stroke is (Live.measure, from the change on).
    Returns {op: {"strokes": [...], "screen": {...}, "undo": [...], "redo": [...],
    "change": {...}}}."""
    results, k = {}, 0
    for i, op in enumerate(effects):
        since = time.monotonic()
        if not live.wait_file("effect-%d" % i):
            break
        live.settle(since)  # the effect's first render
        if i == 0:
            live.keys("p")  # the Paintbrush
        result = results[op] = {"strokes": []}
        for j in range(strokes):
            down, up = live.stroke(k, hold=holds[j] if j < len(holds) else 0.0)
            k += 1
            live.settle(down)
            result["strokes"].append(live.measure(down, up))
            if on_stroke:
                on_stroke(live, op, k)
        if op in confirm:
            result["screen"] = live.stroke_on_screen(k)
            k += 1
        for name, key in (("undo", "ctrl+z"), ("redo", "ctrl+y")) if undo else ():
            pressed = time.monotonic()
            live.keys(key)
            live.settle(pressed)
            result[name] = [r[1] for r in live.renders(pressed)]
        if op in change:
            asked = time.monotonic()
            live.flag("change-%d" % i)
            live.wait_file("changed-%d" % i)
            live.settle(asked)
            result["change"] = live.measure(asked, asked)
        live.flag("next-%d" % i)
    return results
