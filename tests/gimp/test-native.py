#!/usr/bin/env python3
"""The GEGL operations in real GIMP (src/gegl), against the plug-in's own write path.

  - every procedure has its operation, whose properties are the procedure's arguments: the
    same names, types, ranges, defaults and choices;
  - every procedure gives the same bytes in GIMP's process (the module installed) as in the
    plug-in (no module), on u8, u16, float, linear u16 and half layers, GRAY, GRAYA and RGB,
    with a feathered selection; in two separate sessions with the module, and with a second
    copy of the module loaded (which must not crash GIMP);
  - a module of another build is not used: the plug-in says why and gives the same bytes;
  - non-destructive: the layer's pixels stay, one effect with the given settings is on the
    layer, it re-renders after a settings change, survives an XCF save and load, and merges
    to the bytes the destructive call writes;
  - merged on a layer that shows effects (GIMP's own Gaussian Blur, Smooth Heightmap inside
    a selection; our Diamond-Square, River Erosion): the result lands on top of what the
    layer showed, the picture the effect would show (and the dialog's preview shows), bytes
    for bytes, with the effects merged, not under them as GIMP merges a filter (under the
    Diamond-Square, which ignores its input, the change would not show); without the module
    the effects merged, then the procedure on them. A hidden effect is no part of the
    picture: it stays, the result goes under it.

usage: test-native.py PLUGIN_BINARY GEGL_MODULE TERRAIN_DOCS WORKDIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

from checks import Checks
from gimpsession import PYTHON_FU_HELPERS, GimpSession, error_excerpt

plugin, module, docs, workdir = (os.path.abspath(a) for a in sys.argv[1:5])
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-native")
procedures = re.findall(r"^### (plug-in-terrain-[a-z-]+):",
                        subprocess.run([docs], check=True, capture_output=True, text=True).stdout,
                        flags=re.M)
checks.check(len(procedures) >= 9, "terrain-docs lists %d procedures" % len(procedures))

# Light settings for the slow ones; everything else at its defaults.
ARGS = {"plug-in-terrain-particles": {"particles": 20000},
        "plug-in-terrain-hydraulic-erosion": {"droplets": 5000},
        "plug-in-terrain-thermal-erosion": {"iterations": 10},
        "plug-in-terrain-landscape": {"feature-size": 64}}
# (precision, base type, layer type): every storage the codec handles differently.
FORMATS = [("U8_NON_LINEAR", "GRAY", "GRAY_IMAGE"), ("U16_NON_LINEAR", "GRAY", "GRAYA_IMAGE"),
           ("FLOAT_NON_LINEAR", "RGB", "RGB_IMAGE"), ("U16_LINEAR", "GRAY", "GRAY_IMAGE"),
           ("HALF_LINEAR", "RGB", "RGBA_IMAGE")]

HEADER = r"""
import hashlib, json, os
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl, Gio, GObject
""" + PYTHON_FU_HELPERS + r"""
W, H = 300, 260
def layer_bytes(layer):
    rect = Gegl.Rectangle.new(0, 0, layer.get_width(), layer.get_height())
    return layer.get_buffer().get(rect, 1.0, None, Gegl.AbyssPolicy.CLAMP)

def new_image(precision, base, layer_type):
    image = Gimp.Image.new_with_precision(W, H, getattr(Gimp.ImageBaseType, base),
                                          getattr(Gimp.Precision, precision))
    layer = Gimp.Layer.new(image, "h", W, H, getattr(Gimp.ImageType, layer_type), 100,
                           Gimp.LayerMode.NORMAL)
    image.insert_layer(layer, None, 0)
    return image, layer
"""

# Every procedure on every format, inside an elliptic selection: the digest of the layer's
# bytes. Filters (and the field's input) start from a field render, itself compared first.
# The selection is hard-edged: where a feathered one is partly selected, GIMP blends the old
# and new pixels itself, and that blend can differ by one step from one GIMP session to the
# next whoever rendered (babl picks its paths per process); FEATHERED checks the rest.
MATRIX = HEADER + r"""
digests = {}
Gimp.context_set_antialias(False)
Gimp.context_set_feather(False)
for precision, base, layer_type in FORMATS:
    image, layer = new_image(precision, base, layer_type)
    ok = run_procedure("plug-in-terrain-field", image, layer, seed=3)
    digests["field-input " + precision + " " + layer_type] = [ok, hashlib.sha256(layer_bytes(layer)).hexdigest()]
    image.select_ellipse(Gimp.ChannelOps.REPLACE, 40, 30, 200, 170)
    for name in PROCEDURES:
        work = layer.copy()
        image.insert_layer(work, None, 0)
        ok = run_procedure(name, image, work, **ARGS.get(name, {}))
        digests[" ".join((name, precision, layer_type))] = [ok, hashlib.sha256(layer_bytes(work)).hexdigest()]
        image.remove_layer(work)
    image.delete()
# A feathered selection: the layer's bytes and the selection's coverage, to compare outside.
Gimp.context_set_feather(True)
Gimp.context_set_feather_radius(12, 12)
image, layer = new_image("U16_NON_LINEAR", "GRAY", "GRAYA_IMAGE")
run_procedure("plug-in-terrain-field", image, layer, seed=3)
image.select_ellipse(Gimp.ChannelOps.REPLACE, 40, 30, 200, 170)
for name in ("plug-in-terrain-diamond-square", "plug-in-terrain-smooth"):
    work = layer.copy()
    image.insert_layer(work, None, 0)
    run_procedure(name, image, work, **ARGS.get(name, {}))
    with open(OUT + "." + name + ".raw", "wb") as f:
        f.write(layer_bytes(work))
rect = Gegl.Rectangle.new(0, 0, W, H)
with open(OUT + ".coverage", "wb") as f:
    f.write(image.get_selection().get_buffer().get(rect, 1.0, "Y float", Gegl.AbyssPolicy.CLAMP))
image.delete()
with open(OUT, "w") as f:
    json.dump(digests, f)
"""


def matrix(label, modules):
    session = GimpSession(plugin, os.path.join(workdir, "gimp-" + label),
                          extra_plugins=("python-eval",), modules=modules)
    out = os.path.join(workdir, label + ".json")
    if os.path.exists(out):
        os.remove(out)
    script = "OUT = %r\nPROCEDURES = %r\nARGS = %r\nFORMATS = %r\n" % (out, procedures, ARGS, FORMATS)
    result = session.run_python(script + MATRIX, timeout=900)
    checks.check(os.path.exists(out), "%s: no results (exit %d):\n%s"
                 % (label, result.returncode, error_excerpt(result.stderr)))
    return (json.load(open(out)) if os.path.exists(out) else {}), result.stderr


def feathered_differences(label):
    """Pixels (of the u16 GRAYA feathered runs) that differ from the fallback session's where
    the selection covers them wholly or not at all."""
    import struct
    coverage = open(os.path.join(workdir, "fallback.json.coverage"), "rb").read()
    coverage = struct.unpack("%df" % (len(coverage) // 4), coverage)
    bad = 0
    for name in ("plug-in-terrain-diamond-square", "plug-in-terrain-smooth"):
        a = open(os.path.join(workdir, "fallback.json.%s.raw" % name), "rb").read()
        b = open(os.path.join(workdir, "%s.json.%s.raw" % (label, name)), "rb").read()
        bad += sum(1 for i, c in enumerate(coverage)
                   if c in (0.0, 1.0) and a[4 * i:4 * i + 4] != b[4 * i:4 * i + 4])
    return bad


fallback, fallback_log = matrix("fallback", ())
checks.check("GEGL module is not installed" in fallback_log,
             "without the module the plug-in says why it renders by itself")
for key, (ok, _) in fallback.items():
    checks.check(ok, "fallback: %s failed" % key)
copy_dir = os.path.join(workdir, "module-copy")
os.makedirs(copy_dir, exist_ok=True)
module_copy = os.path.join(copy_dir, "gimp-terrain.so")
shutil.copyfile(module, module_copy)

# A stale module: the same binary with another build id, as an old install would be.
build = re.search(rb"\d+\.\d+\.\d+\+[0-9a-f]{16}", open(module, "rb").read()).group(0)
stale = os.path.join(workdir, "stale", "gimp-terrain.so")
os.makedirs(os.path.dirname(stale), exist_ok=True)
with open(stale, "wb") as f:
    f.write(open(module, "rb").read().replace(build, build[:-16] + b"0" * 16))

for label, modules in (("native", (module,)), ("native-again", (module,)),
                       ("two-copies", (module, module_copy)), ("stale", (stale,))):
    digests, log = matrix(label, modules)
    checks.check(("GEGL module is build" in log) == (label == "stale"),
                 "%s: the plug-in %s say the module is of another build"
                 % (label, "did not" if label == "stale" else "did"))
    checks.check(("GEGL module is not installed" not in log),
                 "%s: the plug-in did not find the module" % label)
    checks.check("cannot register existing type" not in log and "Segmentation" not in log,
                 "%s: GIMP complained about the module's types:\n%s" % (label, log[-2000:]))
    for key, value in fallback.items():
        checks.check(digests.get(key) == value,
                     "%s: %s: %s, the plug-in's own path %s" % (label, key, digests.get(key), value))
    if digests:
        bad = feathered_differences(label)
        checks.check(bad == 0, "%s: with a feathered selection %d wholly selected or unselected "
                     "pixels differ from the plug-in's own path" % (label, bad))

# ---- The operations' properties are the procedures' arguments ----
PROPERTIES = HEADER + r"""
def describe(pspec):
    kind = GObject.type_name(pspec.value_type)
    info = {"type": kind}
    if pspec.name == "seed" and kind == "guint":
        info["type"] = "gint"  # GEGL's seeds are unsigned (GIMP gives them "New Seed")
    if kind in ("gint", "guint", "gdouble"):
        info.update(min=pspec.minimum, max=pspec.maximum, default=pspec.default_value)
    elif kind == "gboolean":
        info.update(default=pspec.default_value)
    elif pspec.__gtype__.name == "GimpParamChoice":
        choice = Gimp.param_spec_choice_get_choice(pspec)
        info.update(choices=list(choice.list_nicks()), default=Gimp.param_spec_choice_get_default(pspec))
    else:
        info.update(default=pspec.default_value)
    return info

image, layer = new_image("U16_NON_LINEAR", "GRAY", "GRAY_IMAGE")
result = {}
for name in PROCEDURES:
    proc = Gimp.get_pdb().lookup_procedure(name)
    args = {p.name: describe(p) for p in proc.get_arguments()[3:] if p.name != "non-destructive"}
    f = Gimp.DrawableFilter.new(layer, "terrain:" + name[len("plug-in-terrain-"):], "t")
    props = {}
    if f is not None:
        props = {p.name: describe(p) for p in f.get_config().list_properties()
                 if p.name != "terrain-build"}
        f.delete()
    result[name] = {"args": args, "props": props}
with open(OUT, "w") as f:
    json.dump(result, f)
"""
session = GimpSession(plugin, os.path.join(workdir, "gimp-properties"),
                      extra_plugins=("python-eval",), modules=(module,))
out = os.path.join(workdir, "properties.json")
result = session.run_python("OUT = %r\nPROCEDURES = %r\n" % (out, procedures) + PROPERTIES, timeout=300)
checks.check(os.path.exists(out), "properties: no results:\n%s" % error_excerpt(result.stderr))
if os.path.exists(out):
    for name, both in json.load(open(out)).items():
        checks.check(both["props"], "%s: GIMP has no operation terrain:%s" % (name, name[16:]))
        checks.check(sorted(both["props"]) == sorted(both["args"]),
                     "%s: properties %s, arguments %s" % (name, sorted(both["props"]), sorted(both["args"])))
        for arg, info in both["args"].items():
            checks.check(both["props"].get(arg) == info,
                         "%s %s: property %s, argument %s" % (name, arg, both["props"].get(arg), info))

# ---- Non-destructive: an editable effect, kept in the XCF ----
EFFECT = HEADER + r"""
out = {}
image, layer = new_image("U16_NON_LINEAR", "GRAY", "GRAY_IMAGE")
run_procedure("plug-in-terrain-field", image, layer, seed=3)
before = layer_bytes(layer)
original = layer.copy()  # kept out of the image: the field, for the destructive runs
out["ok"] = run_procedure("plug-in-terrain-diamond-square", image, layer, seed=5, roughness=0.7,
                          edges="wrap", **{"non-destructive": True})
out["untouched"] = layer_bytes(layer) == before
filters = layer.get_filters()
out["filters"] = len(filters)
effect = filters[0]
config = effect.get_config()
out["operation"] = effect.get_operation_name()
out["settings"] = [config.get_property("seed"), round(config.get_property("roughness"), 6),
                   config.get_property("edges")]

# The same settings, destructively, on a copy: what merging the effect must give. The copy is
# made for the image at hand, and `original` stays valid: its image is deleted at the end (a
# layer outside its image went with the image's deletion, sometimes before the XCF's check).
def merged(**settings):
    other = Gimp.Layer.new_from_drawable(original, image)
    image.insert_layer(other, None, 0)
    run_procedure("plug-in-terrain-diamond-square", image, other, **settings)
    data = layer_bytes(other)
    image.remove_layer(other)
    return data

# A settings change re-renders the effect: after merging, the new seed's bytes.
config.set_property("seed", 9)
effect.update()
xcf = os.path.join(WORKDIR, "effect.xcf")
Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, image, Gio.File.new_for_path(xcf), None)
layer.merge_filters()
out["merged_after_change"] = layer_bytes(layer) == merged(seed=9, roughness=0.7, edges="wrap")
first = image

loaded = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(xcf))
layer = loaded.get_layers()[0]
filters = layer.get_filters()
out["loaded_filters"] = len(filters)
if filters:
    config = filters[0].get_config()
    out["loaded_settings"] = [config.get_property("seed"), round(config.get_property("roughness"), 6),
                              config.get_property("edges")]
out["loaded_untouched"] = layer_bytes(layer) == before
image = loaded
layer.merge_filters()
out["loaded_merged"] = layer_bytes(layer) == merged(seed=9, roughness=0.7, edges="wrap")

# A channel cannot hold effects: refused, untouched.
channel = Gimp.Channel.new(image, "c", W, H, 100, Gegl.Color.new("black"))
image.insert_channel(channel, None, 0)
out["channel_refused"] = not run_procedure("plug-in-terrain-diamond-square", image, channel,
                                           **{"non-destructive": True})
first.delete()
with open(OUT, "w") as f:
    json.dump(out, f)
"""
session = GimpSession(plugin, os.path.join(workdir, "gimp-effect"),
                      extra_plugins=("python-eval",), modules=(module,))
out = os.path.join(workdir, "effect.json")
result = session.run_python("OUT = %r\nWORKDIR = %r\n" % (out, workdir) + EFFECT, timeout=300)
checks.check(os.path.exists(out), "effect: no results:\n%s" % error_excerpt(result.stderr))
if os.path.exists(out):
    effect = json.load(open(out))
    print("non-destructive:", effect)
    checks.check(effect["ok"], "the non-destructive call failed")
    checks.check(effect["untouched"], "non-destructive changed the layer's pixels")
    checks.check(effect["filters"] == 1, "%d effects on the layer, not 1" % effect["filters"])
    checks.check(effect["operation"] == "terrain:diamond-square", "effect %s" % effect["operation"])
    checks.check(effect["settings"] == [5, 0.7, "wrap"], "effect settings %s" % effect["settings"])
    checks.check(effect["merged_after_change"], "after a seed change the effect merged to other bytes")
    checks.check(effect["loaded_filters"] == 1, "%d effects after the XCF" % effect["loaded_filters"])
    checks.check(effect.get("loaded_settings") == [9, 0.7, "wrap"],
                 "settings after the XCF: %s" % effect.get("loaded_settings"))
    checks.check(effect["loaded_untouched"], "the XCF's layer pixels changed")
    checks.check(effect["loaded_merged"], "the effect from the XCF merged to other bytes")
    checks.check(effect["channel_refused"], "an effect on a channel was not refused")
# ---- Merged on a layer that shows effects: on top of them, as the effect would be ----
ON_EFFECTS = HEADER + r"""
import struct
out = {}
image, layer = new_image("U16_NON_LINEAR", "GRAY", "GRAY_IMAGE")
run_procedure("plug-in-terrain-field", image, layer, seed=3)
original = layer.copy()  # kept out of the image: the field, without effects
image.remove_layer(layer)

def fresh(effect=None):
    copy = original.copy()
    image.insert_layer(copy, None, 0)
    if effect:
        effect(copy)
    return copy

def shown(layer):
    # What the layer shows, its pixels with its effects: merged in a copy of the image.
    copy = image.duplicate()
    same = copy.get_layers()[image.get_item_position(layer)]
    same.merge_filters()
    data = layer_bytes(same)
    copy.delete()
    return data

def blur(layer):  # GIMP's own filter, as an effect
    f = Gimp.DrawableFilter.new(layer, "gegl:gaussian-blur", "Blur")
    f.get_config().set_property("std-dev-x", 4.0)
    f.get_config().set_property("std-dev-y", 4.0)
    f.update()
    layer.append_filter(f)

def diamond_square(layer):  # a generator: ignores what is under it
    run_procedure("plug-in-terrain-diamond-square", image, layer, seed=5, **{"non-destructive": True})

def run_in(rect, procedure, layer, **args):
    # Effects are added with no selection (one would confine them): it is only for the run.
    if rect:
        image.select_rectangle(Gimp.ChannelOps.REPLACE, *rect)
    ok = run_procedure(procedure, image, layer, **args)
    Gimp.Selection.none(image)
    return ok

def steps_outside(a, b, x, y, w, h):
    a, b = struct.unpack("<%dH" % (W * H), a), struct.unpack("<%dH" % (W * H), b)
    return max(abs(a[i] - b[i]) for i in range(W * H)
               if not (x <= i % W < x + w and y <= i // W < y + h))

cases = [("blur", blur, "plug-in-terrain-smooth", (40, 30, 200, 170))]
if MODULE:
    cases.append(("diamond-square", diamond_square, "plug-in-terrain-river-erosion", None))
for name, effect, procedure, rect in cases:
    r = out[name] = {}
    layer = fresh(effect)
    before = shown(layer)
    r["ok"] = run_in(rect, procedure, layer)
    r["effects"] = len(layer.get_filters())
    after = shown(layer)
    r["changed"] = after != before
    if rect:
        r["steps outside"] = steps_outside(after, before, *rect)
    under = fresh()  # GIMP's order for a merged filter: under the effects
    run_in(rect, procedure, under)
    effect(under)
    r["under"] = after == shown(under)
    if MODULE:  # what the effect on top shows
        other = fresh(effect)
        run_in(rect, procedure, other, **{"non-destructive": True})
        r["as the effect"] = after == shown(other)
    else:  # the effects merged, then the procedure
        other = fresh(effect)
        other.merge_filters()
        run_in(rect, procedure, other)
        r["on the effects"] = after == layer_bytes(other)
layer = fresh(blur)
layer.get_filters()[0].set_visible(False)
run_procedure("plug-in-terrain-smooth", image, layer)
other = fresh()
run_procedure("plug-in-terrain-smooth", image, other)
out["hidden"] = {"effects": len(layer.get_filters()), "under": layer_bytes(layer) == layer_bytes(other)}
with open(OUT, "w") as f:
    json.dump(out, f)
"""
for label, modules in (("on-effects", (module,)), ("on-effects-plug-in", ())):
    session = GimpSession(plugin, os.path.join(workdir, "gimp-" + label),
                          extra_plugins=("python-eval",), modules=modules)
    out = os.path.join(workdir, label + ".json")
    if os.path.exists(out):
        os.remove(out)
    result = session.run_python("OUT = %r\nMODULE = %r\n" % (out, bool(modules)) + ON_EFFECTS,
                                timeout=300)
    if not checks.check(os.path.exists(out), "%s: no results:\n%s"
                        % (label, error_excerpt(result.stderr))):
        continue
    found = json.load(open(out))
    print("%s:" % label, found)
    for name, r in found.items():
        if name == "hidden":
            checks.check(r == {"effects": 1, "under": True},
                         "%s: a hidden effect did not stay over the result: %s" % (label, r))
            continue
        checks.check(r["ok"] and r["effects"] == 0, "%s, %s: the merged call gave %s, %d effects "
                     "left" % (label, name, r["ok"], r["effects"]))
        checks.check(r["changed"], "%s, %s: the merged result does not show" % (label, name))
        checks.check(not r["under"], "%s, %s: the result went under the effects" % (label, name))
        if modules:
            checks.check(r["as the effect"], "%s, %s: merged, the layer shows other bytes than "
                         "the effect on top of the effects" % (label, name))
        else:
            checks.check(r["on the effects"], "%s, %s: the result is not the procedure on the "
                         "effects merged" % (label, name))
        if "steps outside" in r:  # GIMP converts the blur once, with or without our effect
            checks.check(r["steps outside"] <= (1 if modules else 0),
                         "%s, %s: outside the selection the layer changed by %d steps"
                         % (label, name, r["steps outside"]))
checks.done()
