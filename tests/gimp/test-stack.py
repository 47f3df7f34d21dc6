#!/usr/bin/env python3
"""GUI test: a stack of effects on one layer shows what a merge gives, in real gimp-3 under
Xvfb (live.py says how GIMP is driven).

On a 1024² GRAY u16 layer (an Infinite Field), effects left as effects, each step below is
followed by a wait until GIMP is done (no render for a second, no result under way in a
thread); then what the canvas shows (Copy Visible: GIMP's projection) must be, byte for byte,
the layer with its visible effects merged in a duplicate of the image:
  1. River Erosion, then Hydraulic Erosion above it, put on the layer (both resolve to the
     drawable's buffer: the second's result in a thread once cancelled the first's, and the
     canvas kept River Erosion's half-resolution look for good);
  2. a stroke with the Paintbrush; 3. a straight line (a click, then Shift+click: GIMP
     paints it at once from the click's event, with no paint timer); 4. a stroke GIMP takes
     in one go (made while it is stopped: its paint thread paints after mouse up, and the
     paint tool renders from the mouse up's event; none of those renders may compute a
     result in GIMP's main thread); 5. Ctrl+Z; 6. Ctrl+Y;
  7. the lower effect hidden; 8. shown again;
  9. the two in the other order, and 10. a stroke;
  11. River Erosion, GIMP's Gaussian Blur, Hydraulic Erosion, and 12. a stroke;
  13. the layer duplicated (the copy above it, selected, with its effects), 14. a stroke
      (on the copy), and 15. the image scaled to 768 x 768;
  16. the image converted to 32-bit float, and 17. a stroke. In float, GIMP's canvas is not
      its merge to the bit even for its own filters: with only GIMP's Gaussian Blur on a
      float layer, Copy Visible and the merge differ by float roundings (up to 5e-7) in
      98 % of the pixels, one 16-bit step apart in 1.2 % of them (3.2, batch, 256²). So from
      step 16 on, the canvas must be within one 16-bit step of the merge (read as 16-bit),
      as GIMP's own filters are; a look or a stale result is thousands of steps off.
With TERRAIN_LIVE=0 in GIMP's environment (argument --exact), the module renders every
effect exactly and in place (src/gegl/gimp-internals.h): the same steps, no look and no result made in a
thread, and the module's log says once that live effects are off. The line (step 3) is then
not checked: GIMP draws again only the line's rectangles, and the canvas elsewhere keeps the
effects' result of before the line (data/doc/limits.md).
The time from each change to the last render it led to (the canvas settled) is printed, and
the screen, the canvas and the merge of each stroke are kept (stack-N.png, shown-N.png,
merged-N.png). GIMP may print no warning but those it prints by itself (gimp_warnings.py).

With --size N the image is N² (the benchmark's 4096² stack: tests/bench/README.md), and
with --steps K only the first K steps run; neither is a test of the suite's.

usage: test-stack.py PLUGIN_BINARY GEGL_MODULE WORKDIR [--exact] [--size N] [--steps K]
"""
import json
import os
import subprocess
import sys
import time

from checks import Checks
from gimp_warnings import not_gimps_own
import live as live_session
from live import Live


def option(name, default):
    """The number after `name` among the arguments, or `default`."""
    args = sys.argv[4:]
    return int(args[args.index(name) + 1]) if name in args else default


plugin, module, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
exact = "--exact" in sys.argv[4:]
live_session.SIZE = option("--size", live_session.SIZE)
checks = Checks("gimp-stack" + ("-exact" if exact else ""))
RIVER, HYDRAULIC, BLUR = "terrain:river-erosion", "terrain:hydraulic-erosion", "gegl:gaussian-blur"
STEPS = [("stack", [RIVER, HYDRAULIC]), ("stroke", None), ("line", None), ("at once", None),
         ("undo", "ctrl+z"), ("redo", "ctrl+y"),
         ("hide", 0), ("show", 0),
         ("stack", [HYDRAULIC, RIVER]), ("stroke", None),
         ("stack", [RIVER, BLUR, HYDRAULIC]), ("stroke", None),
         ("duplicate", None), ("stroke", None), ("scale", 768),
         ("precision", "float"), ("stroke", None)]
STEPS = STEPS[:option("--steps", len(STEPS))]
FLOAT_FROM = 15  # the step (from 0) converting to float
PAINTED = ("stroke", "line", "at once")

# The script in GIMP: for each step, the script's own change (effects, visibility), then,
# once the driver says GIMP is done, the canvas against the merge.
SCRIPT = r"""
import json
gi.require_version("Gegl", "0.4")
from gi.repository import Gegl
def pixels(drawable):
    rect = Gegl.Rectangle.new(0, 0, drawable.get_width(), drawable.get_height())
    return bytes(drawable.get_buffer().get(rect, 1.0, "Y' u16", Gegl.AbyssPolicy.CLAMP))

def merged():
    # Every layer's visible effects merged, then the layers (opaque, Normal) merged.
    twin = image.duplicate()
    for heights in twin.get_layers():
        for f in heights.get_filters():
            if not f.get_visible():
                f.delete()
        heights.merge_filters()
    got = pixels(twin.merge_visible_layers(Gimp.MergeType.CLIP_TO_IMAGE))
    twin.delete()
    return got

def shown():
    Gimp.edit_copy_visible(image)
    copy = Gimp.edit_paste_as_new_image()
    got = pixels(copy.get_layers()[0])
    copy.delete()
    return got

def differences(a, b):
    import array
    x, y = array.array("H", a), array.array("H", b)
    diff = [abs(p - q) for p, q in zip(x, y) if p != q]
    return len(diff) / max(len(x), 1), max(diff + [0]) / 65535.0

# A broad brush: its dabs take the paint thread longer than the paint tool's first wait at
# mouse up, so that step 4's renders come from the mouse up's event.
Gimp.context_set_brush_size(300)
n = 0
while True:
    wait_flag("step-%d" % n)
    with open(os.path.join(WORKDIR, "step-%d" % n)) as f:
        step = json.load(f)
    if step["action"] == "end":
        break
    changed = time.monotonic()
    if step["action"] == "stack":
        for f in layer.get_filters():
            f.delete()
        for op in step["value"]:
            layer.append_filter(Gimp.DrawableFilter.new(layer, op, ""))
    elif step["action"] in ("hide", "show"):
        # As the eye in the layer's effects does: libgimp's set_visible alone has GIMP draw
        # nothing again (3.2.6: no effect was asked for anything, and the canvas kept the
        # hidden effect), so the layer is updated too.
        layer.get_filters()[step["value"]].set_visible(step["action"] == "show")
        layer.update(0, 0, SIZE, SIZE)
    elif step["action"] == "duplicate":
        # As Layer > Duplicate Layer does: the copy above, selected (the next stroke's).
        copy = layer.copy()
        image.insert_layer(copy, None, 0)
        image.set_selected_layers([copy])
        layer = copy
    elif step["action"] == "precision":
        image.convert_precision(Gimp.Precision.FLOAT_NON_LINEAR)
    elif step["action"] == "scale":
        image.scale(step["value"], step["value"])
    Gimp.displays_flush()
    with open(os.path.join(WORKDIR, "done-%d" % n), "w") as f:
        f.write(repr(changed))
    wait_flag("check-%d" % n)
    canvas, merge = shown(), merged()
    result = {"same": canvas == merge,
              "filters": [[(f.get_operation_name(), f.get_visible()) for f in each.get_filters()]
                          for each in image.get_layers()]}
    if canvas != merge:
        result["differ"], result["by"] = differences(canvas, merge)
    if step["keep"]:
        for name, data in (("shown", canvas), ("merged", merge)):
            with open(os.path.join(WORKDIR, "%s-%d.raw" % (name, n)), "wb") as f:
                f.write(data)
    # Whole or not at all: the driver reads it as soon as it is there.
    with open(os.path.join(WORKDIR, "result-%d.part" % n), "w") as f:
        json.dump(result, f)
    os.rename(os.path.join(WORKDIR, "result-%d.part" % n),
              os.path.join(WORKDIR, "result-%d.json" % n))
    n += 1
image.clean_all()
flag("finished")
"""


def png(live, raw):
    """A PNG beside the 16-bit raw pixels, for a person to look at."""
    if os.path.exists(raw):
        side = int(round((os.path.getsize(raw) // 2) ** 0.5))
        subprocess.run(["convert", "-size", "%dx%d" % (side, side), "-depth", "16", "-endian", "LSB",
                        "gray:" + raw, raw[:-4] + ".png"], env=live.env, check=False)
        os.remove(raw)


def write_step(n, action, value):
    """Step n for the script, whole or not at all: the script reads it as soon as it is there
    (written in place, it once read it empty and died, JSONDecodeError, in CI)."""
    part = os.path.join(workdir, "step-%d.part" % n)
    with open(part, "w") as f:
        json.dump({"action": action, "value": value, "keep": action in PAINTED}, f)
    os.rename(part, os.path.join(workdir, "step-%d" % n))


def run_step(live, n, action, value, k):
    """Step n: the driver's own change (a stroke, a key) or the script's; then, once GIMP is
    done, the comparison. Returns (the script's result, seconds from the change to the last
    render it led to, or None)."""
    since = time.monotonic()
    if action == "stroke":
        since = live.stroke(k)[1]
    elif action == "line":
        since = live.line(k)
    elif action == "at once":
        since = live.stroke_at_once(k)
    elif action in ("undo", "redo"):
        live.keys(value)
        since = time.monotonic()
    write_step(n, action, value)
    if not live.wait_file("done-%d" % n, 60):
        return None, None
    if action not in PAINTED + ("undo", "redo"):
        since = float(open(os.path.join(live.workdir, "done-%d" % n)).read())
    settled = live.settle(since, 60)
    renders = live.renders(since)
    live.flag("check-%d" % n)
    if not live.wait_file("result-%d.json" % n, 120):
        return None, None
    if action in PAINTED:
        live.shoot("stack-%d.png" % n)
        for name in ("shown", "merged"):
            png(live, os.path.join(live.workdir, "%s-%d.raw" % (name, n)))
    with open(os.path.join(live.workdir, "result-%d.json" % n)) as f:
        result = json.load(f)
    result["settled"] = settled
    result["renders"] = [what for _, what, _ in renders]
    result["exact from events"] = live.exact_from_events(since)
    return result, (renders[-1][0] - since) if renders else None


environment = {"TERRAIN_LIVE": "0"} if exact else {}
live = Live(plugin, module, workdir, [], script=SCRIPT, environment=environment)
results = []
started = time.monotonic()
try:
    if live.image_window():
        live.settle(0, 60)
        live.keys("p")  # the Paintbrush
        for n, (action, value) in enumerate(STEPS):
            results.append(run_step(live, n, action, value, n))
    write_step(len(STEPS), "end", None)
finally:
    code = live.finish()

for n, ((action, value), (result, settle)) in enumerate(zip(STEPS, results)):
    what = "step %d (%s %s)" % (n + 1, action, value if value is not None else "")
    checks.check(result is not None, "%s: the script gave no result" % what)
    if result is None:
        continue
    checks.check(result["settled"], "%s: GIMP never settled" % what)
    # Byte for byte. Effects above others once left 0.04 % of the pixels one step apart in
    # some sessions (GIMP's float between effects went to the layer's integers by babl fishes
    # chosen per session: src/pixels/pixel-codec.h, terrain_pixel_codec_store_in).
    rounding = not result["same"] and n >= FLOAT_FROM and result["by"] <= 1.0 / 65535 + 1e-9
    unchecked = exact and action == "line"
    checks.check(result["same"] or rounding or unchecked,
                 "%s: the canvas (Copy Visible) is not the merge: %.3f %% of "
                 "the pixels differ, by up to %.4f %% of full scale; effects %s; renders %s" % (
                     what, 100 * result.get("differ", 0), 100 * result.get("by", 0),
                     result["filters"], result["renders"][-12:]))
    if not exact and action in PAINTED:
        checks.check(not result["exact from events"], "%s: a result computed in GIMP's main "
                     "thread for GDK's events (the paint tool's render at mouse up): %s" % (
                         what, result["exact from events"]))
    print("%s: canvas %s the merge; change -> last render %s s; effects %s" % (
        what, "is" if result["same"] else "is within a float rounding of" if rounding
        else "is not (not checked)" if unchecked else "IS NOT",
        "-" if settle is None else "%.3f" % settle, result["filters"]))
checks.check(len(results) == len(STEPS), "%d of %d steps ran" % (len(results), len(STEPS)))
render_log = open(live.render_log).read() if os.path.exists(live.render_log) else ""
gimp_log = open(os.path.join(workdir, "gimp.log")).read()
said = [line for line in gimp_log.splitlines() if "live effects are off" in line]
if exact:
    checks.check("in a thread" not in render_log and "looked at" not in render_log,
                 "with TERRAIN_LIVE=0, a look or a result in a thread: %s" % [
                     line for line in render_log.splitlines()
                     if "in a thread" in line or "looked at" in line][:5])
    checks.check(said and len(said) == len(set(said)),
                 "GIMP's log does not say once that live effects are off: %s" % said)
else:
    # GIMP's drawables and images passed the module's checks (src/gegl/gimp-internals.h).
    checks.check(not said, "live effects are off in this GIMP: %s" % said)
    checks.check("in a thread" in render_log, "no result was made in a thread")
print("%d steps in %.0f s" % (len(results), time.monotonic() - started))
warnings = not_gimps_own(os.path.join(workdir, "gimp.log"))
checks.check(not warnings, "GIMP printed warnings of its session's own: %s" % warnings[:5])
checks.check(code == 0, "gimp exited %s" % code)
checks.done()
