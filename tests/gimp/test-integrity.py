#!/usr/bin/env python3
"""No procedure corrupts a layer or reports a false success (data/doc/limits.md), in real
GIMP, through the plug-in's own write path (no GEGL module) and through the GEGL operations
(the module installed): a table of cases over precisions (u8, u16, u32, half, float, double;
linear, non-linear, perceptual), layer types (GRAY, GRAYA, RGB, RGBA) and procedures.

  - identity settings (FIR k = 1, thermal strength 0, hydraulic 0 droplets) leave every
    byte as it was, on random pixels, at every precision and layer type;
  - NaN, +Inf or -Inf in a filter's layer (or a guided generator's), inside the selection or
    outside it: an error that gives the count and the first position, the layer untouched;
    a generator that does not read the layer refuses them under the selection (GIMP would
    mix its result with them), and else succeeds, leaving what is outside the selection
    as it was;
  - results beyond what the layer can hold (a sharpening kernel iterated, huge input) are
    clamped: success, every stored sample finite and in range;
  - a write GIMP would refuse (locked pixels, a locked group above, a locked channel, a
    layer not in the image or of another image, a deleted one) is an error with the reason,
    the pixels untouched;
  - the custom kernel's and the drawable count's messages say what is wrong.

usage: test-integrity.py PLUGIN_BINARY WORKDIR [GEGL_MODULE]
"""
import json
import os
import sys

from checks import Checks
from gimpsession import PYTHON_FU_HELPERS, GimpSession, error_excerpt

plugin, workdir = (os.path.abspath(a) for a in sys.argv[1:3])
module = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-integrity")

SAMPLES = ("U8", "U16", "U32", "HALF", "FLOAT", "DOUBLE")
CURVES = ("LINEAR", "NON_LINEAR", "PERCEPTUAL")
PRECISIONS = [s + "_" + c for s in SAMPLES for c in CURVES]
FLOATING = [p for p in PRECISIONS if p.startswith(("HALF", "FLOAT", "DOUBLE"))]
LAYER_TYPES = ("GRAY_IMAGE", "GRAYA_IMAGE", "RGB_IMAGE", "RGBA_IMAGE")

SMOOTH = "plug-in-terrain-smooth"
THERMAL = "plug-in-terrain-thermal-erosion"
HYDRAULIC = "plug-in-terrain-hydraulic-erosion"
RIVER = "plug-in-terrain-river-erosion"
DS = "plug-in-terrain-diamond-square"
FIELD = "plug-in-terrain-field"
FAULT = "plug-in-terrain-fault"
# Procedures that read the layer, with light settings.
READERS = [(SMOOTH, {}), (THERMAL, {"iterations": 5}), (HYDRAULIC, {"droplets": 300}),
           (RIVER, {"iterations": 3}), (DS, {"guide": True}), (FIELD, {"guide": True})]
IDENTITIES = [(SMOOTH, {"method": "fir", "k": 1.0, "iterations": 3}),
              (THERMAL, {"strength": 0.0}), (HYDRAULIC, {"droplets": 0})]
SHARPEN = {"method": "matrix", "kernel": "custom", "custom-kernel": "-1 -1 -1 -1 9 -1 -1 -1 -1",
           "iterations": 30}


def case(name, proc, args=None, precision="FLOAT_NON_LINEAR", layer="GRAY_IMAGE", fill="random",
         pokes=(), selection=None, setup=None, expect="same", message=()):
    """expect: "same" (success, bytes unchanged), "error" (failure whose message holds every
    string of `message`, bytes unchanged), "clamped" (success, every sample finite and in
    range), "outside" (success, the poked pixels outside the selection unchanged, the
    selected ones finite)."""
    return dict(name=name, proc=proc, args=args or {}, precision=precision, layer=layer,
                fill=fill, pokes=list(pokes), selection=selection, setup=setup, expect=expect,
                message=list(message))


CASES = []
for precision in PRECISIONS:
    for layer in LAYER_TYPES:
        for proc, args in IDENTITIES:
            CASES.append(case("identity %s %s %s" % (proc, precision, layer), proc, args,
                              precision, layer))

# Non-finite heights: three of them, the first at x = 5, y = 7.
def pokes(value):
    return [(5, 7, value), (20, 7, value), (3, 15, value)]


NON_FINITE_MESSAGE = ("not finite", "3 in all", "x = 5, y = 7", "nothing was changed")
for precision in FLOATING:
    for layer in LAYER_TYPES:
        CASES.append(case("NaN %s %s" % (precision, layer), SMOOTH, {}, precision, layer,
                          pokes=pokes("nan"), expect="error", message=NON_FINITE_MESSAGE))
for precision, layer in (("FLOAT_LINEAR", "GRAYA_IMAGE"), ("HALF_PERCEPTUAL", "RGB_IMAGE"),
                         ("DOUBLE_NON_LINEAR", "RGBA_IMAGE")):
    for proc, args in READERS:
        for value in ("nan", "inf", "-inf"):
            CASES.append(case("%s %s %s %s" % (value, proc, precision, layer), proc, args,
                              precision, layer, pokes=pokes(value), expect="error",
                              message=NON_FINITE_MESSAGE))
# Outside the selection: a filter reads the whole layer, so it refuses; a generator that
# does not read the layer writes inside and leaves the rest.
INSIDE = (8, 4, 16, 16)
for proc, args in READERS:
    CASES.append(case("NaN outside the selection %s" % proc, proc, args, fill="moderate",
                      pokes=[(5, 7, "nan"), (30, 7, "nan"), (3, 15, "nan")], selection=INSIDE,
                      expect="error", message=NON_FINITE_MESSAGE))
# GIMP mixes a result into the selection with the pixels there: NaN would stay NaN.
for proc in (DS, FAULT):
    CASES.append(case("NaN in the selection, generator %s" % proc, proc, {}, fill="moderate",
                      pokes=[(1, 1, "nan"), (10, 10, "inf"), (30, 20, "-inf"), (12, 10, "nan")],
                      selection=INSIDE, expect="error",
                      message=("selection", "not finite", "2 in all", "x = 10, y = 10")))
    CASES.append(case("NaN outside the selection, generator %s" % proc, proc, {},
                      fill="moderate", pokes=[(1, 1, "nan"), (30, 20, "-inf")], selection=INSIDE,
                      expect="outside"))
    CASES.append(case("NaN, generator %s, no selection" % proc, proc, {},
                      pokes=[(1, 1, "nan"), (10, 10, "inf"), (30, 20, "-inf")],
                      expect="outside"))
# ... and in linear light: 1e20 on the sRGB curve is beyond float there; linear, it is not.
for proc, args in ((DS, {}), (SMOOTH, {})):
    CASES.append(case("1e20 in the selection %s" % proc, proc, args, fill="moderate",
                      pokes=[(12, 9, 1e20)], selection=INSIDE, expect="error",
                      message=("selection", "beyond", "1 in all", "x = 12, y = 9")))
    CASES.append(case("1e20 in the selection, linear %s" % proc, proc, args, "FLOAT_LINEAR",
                      fill="moderate", pokes=[(12, 9, 1e20)], selection=INSIDE, expect="clamped"))

# Beyond what the layer holds: clamped.
for precision in FLOATING + ["U32_LINEAR", "U8_NON_LINEAR"]:
    for layer in ("GRAY_IMAGE", "RGBA_IMAGE"):
        CASES.append(case("sharpened %s %s" % (precision, layer), SMOOTH, SHARPEN, precision,
                          layer, expect="clamped"))
        CASES.append(case("sharpened in a selection %s %s" % (precision, layer), SMOOTH, SHARPEN,
                          precision, layer, fill="moderate", selection=INSIDE, expect="clamped"))
for precision, fill in (("FLOAT_LINEAR", "huge"), ("FLOAT_NON_LINEAR", "huge"),
                        ("HALF_LINEAR", "huge"), ("DOUBLE_PERCEPTUAL", "huge"),
                        ("DOUBLE_NON_LINEAR", "beyond-float")):
    for proc, args in READERS[:4]:
        CASES.append(case("%s %s %s" % (fill, proc, precision), proc, args, precision,
                          fill=fill, expect="clamped"))

# Writes GIMP refuses.
REFUSED = {"locked": ("locked", "Lock pixels"),
           "locked-group": ("group", "locks the pixels", "Lock pixels"),
           "locked-channel": ("locked", "Lock pixels"),
           "not-in-image": ("not in the image",),
           "other-image": ("not in the image",),
           "deleted": ("none that exists",)}
for setup, message in REFUSED.items():
    for proc in (SMOOTH, DS):
        CASES.append(case("%s %s" % (setup, proc), proc, {}, setup=setup, expect="error",
                          message=message))
CASES.append(case("no drawable", SMOOTH, {}, setup="no-drawable", expect="error",
                  message=("none that exists",)))

# The custom kernel's messages.
def kernel(text):
    return {"method": "matrix", "kernel": "custom", "custom-kernel": text, "iterations": 1}


CASES += [case("kernel with a trailing comma", SMOOTH, kernel("1, 2, 1, 2, 4, 2, 1, 2, 1,"),
               expect="changed"),
          case("kernel with a tiny sum", SMOOTH, kernel("1e-9 1 1 1 -7 1 1 1 1"),
               expect="error", message=("(nearly) 0",)),
          case("kernel with numbers run together", SMOOTH, kernel("1 2 1-2 4 2 1 2 1"),
               expect="error", message=("after number 3",)),
          case("kernel of 8 numbers", SMOOTH, kernel("1 2 1 2 4 2 1 2"),
               expect="error", message=("has 8 numbers",)),
          case("kernel with a word", SMOOTH, kernel("1 2 one 2 4 2 1 2 1"),
               expect="error", message=("item 3", "\"one\"", "not a number"))]

SCRIPT = r"""
import math, random, struct
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl, GObject
""" + PYTHON_FU_HELPERS + r"""
W, H = 32, 24
CODES = {"U8": "B", "U16": "H", "U32": "I", "HALF": "e", "FLOAT": "f", "DOUBLE": "d"}
FLT_MAX = 3.4028234663852886e38

def layout(precision, layer_type):
    code = CODES[precision.split("_")[0]]
    channels = {"GRAY_IMAGE": 1, "GRAYA_IMAGE": 2, "RGB_IMAGE": 3, "RGBA_IMAGE": 4}[layer_type]
    return code, channels

def read(drawable):
    rect = Gegl.Rectangle.new(0, 0, W, H)
    return bytes(drawable.get_buffer().get(rect, 1.0, None, Gegl.AbyssPolicy.CLAMP))

def format_name(precision, layer_type):
    # The layer's own format: babl's name for it (built-in sRGB space).
    sample, curve = precision.split("_", 1)
    mark = {"LINEAR": "", "NON_LINEAR": "'", "PERCEPTUAL": "~"}[curve]
    model = ("R%sG%sB%s" % (mark, mark, mark)) if layer_type.startswith("RGB") else "Y" + mark
    if layer_type in ("GRAYA_IMAGE", "RGBA_IMAGE"):
        model += "A"
    return model + " " + sample.lower()

def write(drawable, data, name):
    buffer = drawable.get_buffer()
    buffer.set(Gegl.Rectangle.new(0, 0, W, H), name, data)
    buffer.flush()
    drawable.update(0, 0, W, H)

def sample_values(code, fill, rng, n):
    if code in "BHI":
        return None
    if fill == "huge":
        big = 60000.0 if code == "e" else 3.0e38
        return [big if (i // 3) % 2 == 0 else -big for i in range(n)]
    if fill == "beyond-float":
        return [1e300 if (i // 3) % 2 == 0 else -1e300 for i in range(n)]
    special = [0.0, -0.0, 1.0, 1e-30 if code != "e" else 6e-8, 2.5, -0.75]
    if fill == "random":  # "moderate": none that GIMP cannot mix into a selection
        special.append(1e20 if code != "e" else 6e4)
    return [special[rng.randrange(len(special))] if rng.random() < 0.1 else rng.uniform(-0.5, 1.5)
            for _ in range(n)]

def fill_bytes(code, channels, fill, rng):
    n = W * H * channels
    values = sample_values(code, fill, rng, n)
    if values is None:
        return bytes(rng.getrandbits(8) for _ in range(n * struct.calcsize(code)))
    if channels in (2, 4):  # alpha in [0, 1]
        for i in range(channels - 1, n, channels):
            values[i] = rng.random()
    return struct.pack("<%d%s" % (n, code), *values)

def poke(data, code, channels, x, y, value):
    size = struct.calcsize(code)
    out = bytearray(data)
    for c in range(min(channels, 3)):
        struct.pack_into("<" + code, out, ((y * W + x) * channels + c) * size, float(value))
    return bytes(out)

def samples(data, code):
    return struct.unpack("<%d%s" % (len(data) // struct.calcsize(code), code), data)

def in_range(before, after, code):
    # Every sample finite; a double that changed within float range (the codec's clamp).
    if code in "BHI":
        return True
    return all(math.isfinite(v) and (code != "d" or abs(v) <= FLT_MAX or v == was)
               for was, v in zip(samples(before, code), samples(after, code)))

def pixel(data, code, channels, x, y):
    size = struct.calcsize(code)
    start = (y * W + x) * channels * size
    return data[start:start + channels * size]

def run(proc_name, image, drawables, args):
    proc = Gimp.get_pdb().lookup_procedure(proc_name)
    config = proc.create_config()
    config.set_property("run-mode", Gimp.RunMode.NONINTERACTIVE)
    config.set_property("image", image)
    config.set_core_object_array("drawables", drawables)
    for key, value in args.items():
        config.set_property(key, value)
    result = proc.run(config)
    ok = result.index(0) == Gimp.PDBStatusType.SUCCESS
    message = result.index(1) if not ok and result.length() > 1 else ""
    return ok, message or ""

def new_image(precision, layer_type):
    base = Gimp.ImageBaseType.RGB if layer_type.startswith("RGB") else Gimp.ImageBaseType.GRAY
    image = Gimp.Image.new_with_precision(W, H, base, getattr(Gimp.Precision, precision))
    layer = Gimp.Layer.new(image, "h", W, H, getattr(Gimp.ImageType, layer_type), 100,
                           Gimp.LayerMode.NORMAL)
    image.insert_layer(layer, None, 0)
    return image, layer

def run_case(c, rng):
    image, layer = new_image(c["precision"], c["layer"])
    code, channels = layout(c["precision"], c["layer"])
    target, drawables, others = layer, [layer], []
    setup = c["setup"]
    locked = None  # locked once its pixels are written
    if setup == "locked":
        locked = layer
    elif setup == "locked-group":
        locked = Gimp.GroupLayer.new(image, "g")
        image.insert_layer(locked, None, 0)
        image.reorder_item(layer, locked, 0)
    elif setup == "locked-channel":
        locked = Gimp.Channel.new(image, "c", W, H, 50.0, Gegl.Color.new("black"))
        image.insert_channel(locked, None, 0)
        target, drawables, code, channels = locked, [locked], None, 1
    elif setup == "not-in-image":
        loose = Gimp.Layer.new(image, "loose", W, H, getattr(Gimp.ImageType, c["layer"]), 100,
                               Gimp.LayerMode.NORMAL)
        target, drawables = loose, [loose]
    elif setup == "other-image":
        other, other_layer = new_image(c["precision"], c["layer"])
        others.append(other)
        target, drawables = other_layer, [other_layer]
    elif setup == "deleted":
        gone = layer.copy()
        image.insert_layer(gone, None, 0)
        image.remove_layer(gone)
        drawables = [gone]
    elif setup == "no-drawable":
        drawables = []
    if code:
        data = fill_bytes(code, channels, c["fill"], rng)
        for x, y, value in c["pokes"]:
            data = poke(data, code, channels, x, y, value)
        write(target, data, format_name(c["precision"], c["layer"]))
    if locked:
        locked.set_lock_content(True)
    if c["selection"]:
        image.select_rectangle(Gimp.ChannelOps.REPLACE, *c["selection"])
    before = read(target)
    ok, message = run(c["proc"], image, drawables, c["args"])
    after = read(target)
    result = {"ok": ok, "message": message, "same": before == after}
    if code:
        result["in_range"] = in_range(before, after, code)
        x0, y0, w, h = c["selection"] or (0, 0, W, H)
        result["outside_kept"] = all(
            pixel(before, code, channels, x, y) == pixel(after, code, channels, x, y)
            for x, y, _ in c["pokes"] if not (x0 <= x < x0 + w and y0 <= y < y0 + h))
        result["inside_finite"] = all(
            all(math.isfinite(v) for v in samples(pixel(after, code, channels, x, y), code))
            for y in range(y0, y0 + h) for x in range(x0, x0 + w))
    for img in [image] + others:
        img.delete()
    return result

results = {}
rng = random.Random(16)
progress = open(OUT + ".progress", "w")
for c in CASES:
    progress.write(c["name"] + "\n")
    progress.flush()
    try:
        results[c["name"]] = run_case(c, rng)
    except Exception as e:
        results[c["name"]] = {"exception": repr(e)}
with open(OUT, "w") as f:
    json.dump(results, f)
"""


def evaluate(label, results):
    for c in CASES:
        r = results.get(c["name"])
        what = "%s: %s" % (label, c["name"])
        if not checks.check(r is not None and "exception" not in r,
                            "%s: no result %s" % (what, r and r.get("exception"))):
            continue
        expect = c["expect"]
        if expect == "same":
            checks.check(r["ok"] and r["same"], "%s: ok %s, bytes unchanged %s %s"
                         % (what, r["ok"], r["same"], r["message"]))
        elif expect == "changed":
            checks.check(r["ok"] and not r["same"], "%s: ok %s, changed %s %s"
                         % (what, r["ok"], not r["same"], r["message"]))
        elif expect == "error":
            checks.check(not r["ok"] and r["same"], "%s: ok %s, bytes unchanged %s"
                         % (what, r["ok"], r["same"]))
            missing = [m for m in c["message"] if m.lower() not in r["message"].lower()]
            checks.check(not missing, "%s: message %r lacks %r" % (what, r["message"], missing))
        elif expect == "clamped":
            checks.check(r["ok"] and r["in_range"], "%s: ok %s, in range %s %s"
                         % (what, r["ok"], r["in_range"], r["message"]))
        elif expect == "outside":
            checks.check(r["ok"] and r["outside_kept"] and r["inside_finite"],
                         "%s: ok %s, outside kept %s, inside finite %s %s"
                         % (what, r["ok"], r["outside_kept"], r["inside_finite"], r["message"]))


def last_line(path):
    lines = open(path).read().splitlines() if os.path.exists(path) else []
    return lines[-1] if lines else "none"


def session(label, modules):
    gimp = GimpSession(plugin, os.path.join(workdir, "gimp-" + label),
                       extra_plugins=("python-eval",), modules=modules)
    out = os.path.join(workdir, label + ".json")
    for stale in (out, out + ".progress"):
        if os.path.exists(stale):
            os.remove(stale)
    cases = os.path.join(workdir, "cases.json")
    with open(cases, "w") as f:
        json.dump(CASES, f)
    result = gimp.run_python("import json\nOUT = %r\nCASES = json.load(open(%r))\n" % (out, cases) + SCRIPT,
                             timeout=1500)
    if not checks.check(os.path.exists(out), "%s: no results (exit %d), the last case begun: %s"
                        % (label, result.returncode, last_line(out + ".progress"))):
        print(error_excerpt(result.stderr))
        return
    evaluate(label, json.load(open(out)))


print("%d cases per path" % len(CASES), flush=True)
session("plug-in", ())
if module:
    session("native", (module,))
checks.done()
