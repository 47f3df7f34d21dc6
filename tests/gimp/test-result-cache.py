#!/usr/bin/env python3
"""Computed once: the GEGL module keeps whole-layer results (src/gegl/result-cache.h).

One script runs twice in GIMP with the module: with the cache, and with it off
(TERRAIN_RESULT_CACHE_MB=0). Step by step it applies River Erosion to layers of one image:
  A  a layer                                   computed
  B  a second layer with the same pixels       reused, same bytes as A
  C  the same, as an effect, then merged       reused, same bytes as A
  D  one pixel changed                          computed
  E  one setting changed                        computed
  N  six pixels filled by GIMP, in place        computed
  F  a selection                                reused (GIMP masks), outside it untouched
  H  a layer with alpha                         computed
  I  a second one with the same pixels          reused, same bytes as H
  J, K  Diamond-Square on layers that differ in alpha alone: each keeps its own alpha
  L  a tall layer, read in several strips       computed
  M  the same, one pixel changed in its last strip  computed
  G  the image at another precision             computed
The module logs each render ("computed" or "reused") to the file TERRAIN_RENDER_LOG names,
where the script marks its steps. B and C find A's result by the layer's tiles, not read
(src/gegl/tile-witness.h: a copied layer shares its tiles' memory); F, under a selection,
by reading the layer, as I (its pixels written anew). Every
step's bytes must be the same in both sessions: the cache never changes a result, it only
saves the work.

usage: test-result-cache.py PLUGIN_BINARY GEGL_MODULE WORKDIR
"""
import json
import os
import re
import sys

from checks import Checks
from gimpsession import PYTHON_FU_HELPERS, GimpSession, error_excerpt

plugin, module, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
os.makedirs(workdir, exist_ok=True)
checks = Checks("result-cache")

SCRIPT = r"""
import hashlib, json, os
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl
""" + PYTHON_FU_HELPERS + r"""
W, H = 192, 160
TALL = 1500
SETTINGS = dict(iterations=8, erosion=0.2)
def layer_bytes(layer):
    rect = Gegl.Rectangle.new(0, 0, layer.get_width(), layer.get_height())
    return layer.get_buffer().get(rect, 1.0, None, Gegl.AbyssPolicy.CLAMP)
def step(name):
    # GIMP logs the render of a step before the procedure returns to us.
    with open(os.environ["TERRAIN_RENDER_LOG"], "a") as f:
        f.write("STEP " + name + "\n")
def copy_of(layer):
    other = layer.copy()
    image.insert_layer(other, None, 0)
    return other
def erode(name, layer, **extra):
    step(name)
    args = dict(SETTINGS)
    args.update(extra)
    ok = run_procedure("plug-in-terrain-river-erosion", image, layer, **args)
    out[name] = [ok, hashlib.sha256(layer_bytes(layer)).hexdigest()]

out = {}
image = Gimp.Image.new_with_precision(W, H, Gimp.ImageBaseType.GRAY, Gimp.Precision.U16_NON_LINEAR)
original = Gimp.Layer.new(image, "h", W, H, Gimp.ImageType.GRAY_IMAGE, 100, Gimp.LayerMode.NORMAL)
image.insert_layer(original, None, 0)
step("input")
run_procedure("plug-in-terrain-field", image, original, seed=11)
out["input"] = hashlib.sha256(layer_bytes(original)).hexdigest()

erode("A", copy_of(original))
erode("B", copy_of(original))
effect = copy_of(original)
erode("C-append", effect, **{"non-destructive": True})
step("C")
effect.merge_filters()
out["C"] = [len(effect.get_filters()) == 0, hashlib.sha256(layer_bytes(effect)).hexdigest()]

changed = copy_of(original)
buffer = changed.get_buffer()
buffer.set(Gegl.Rectangle.new(90, 70, 1, 1), "Y' u16", b"\xff\xff")
buffer.flush()
erode("D", changed)
erode("E", copy_of(original), **{"area-exponent": 0.45})
# Written by GIMP itself, in place, on a layer whose tiles were those of A's result.
painted = copy_of(original)
image.select_rectangle(Gimp.ChannelOps.REPLACE, 40, 50, 3, 2)
out["N-painted"] = [painted.edit_fill(Gimp.FillType.WHITE),
                    layer_bytes(painted) != layer_bytes(original)]
Gimp.Selection.none(image)
erode("N", painted)

selected = copy_of(original)
image.select_rectangle(Gimp.ChannelOps.REPLACE, 20, 30, 100, 90)
erode("F", selected)
data, before = layer_bytes(selected), layer_bytes(original)
bpp = 2
outside = [i for i in range(W * H) if not (20 <= i % W < 120 and 30 <= i // W < 120)]
out["F-outside-untouched"] = all(data[i * bpp:(i + 1) * bpp] == before[i * bpp:(i + 1) * bpp]
                                 for i in outside)
Gimp.Selection.none(image)

# With alpha (a merge served again shares the pixels it kept, result-cache.h): a filter's
# layer, alpha too, is in its key; a generator's is not, so each layer keeps its own alpha.
def with_alpha(layer, alpha_byte):
    layer.add_alpha()
    buffer = layer.get_buffer()
    pixels = bytearray(buffer.get(Gegl.Rectangle.new(0, 0, W, H), 1.0, "Y'A u16",
                                  Gegl.AbyssPolicy.CLAMP))
    pixels[3::4] = bytes([alpha_byte]) * (W * H)
    buffer.set(Gegl.Rectangle.new(0, 0, W, H), "Y'A u16", bytes(pixels))
    buffer.flush()
    return layer
def alpha_of(layer):
    return layer.get_buffer().get(Gegl.Rectangle.new(0, 0, W, H), 1.0, "Y'A u16",
                                  Gegl.AbyssPolicy.CLAMP)[3::4]
erode("H", with_alpha(copy_of(original), 0x80))
erode("I", with_alpha(copy_of(original), 0x80))
for name, alpha_byte in (("J", 0x40), ("K", 0xc0)):
    layer = with_alpha(copy_of(original), alpha_byte)
    wanted = alpha_of(layer)
    ok = run_procedure("plug-in-terrain-diamond-square", image, layer, seed=5)
    out[name] = [ok, hashlib.sha256(layer_bytes(layer)).hexdigest()]
    out[name + "-own-alpha"] = alpha_of(layer) == wanted

# Taller than one strip of the module's reading (operation.c: STRIP_BYTES, 256 KiB: 682 rows
# of this width), whose strips are hashed apart: a change in the last one is a new key.
tall = Gimp.Layer.new(image, "tall", W, TALL, Gimp.ImageType.GRAY_IMAGE, 100,
                      Gimp.LayerMode.NORMAL)
image.insert_layer(tall, None, 0)
run_procedure("plug-in-terrain-field", image, tall, seed=12)
erode("L", copy_of(tall))
changed = copy_of(tall)
buffer = changed.get_buffer()
buffer.set(Gegl.Rectangle.new(100, TALL - 3, 1, 1), "Y' u16", b"\xff\xff")
buffer.flush()
erode("M", changed)

image.convert_precision(Gimp.Precision.U8_NON_LINEAR)
erode("G", copy_of(original))
with open(OUT, "w") as f:
    json.dump(out, f)
"""

# What the module must log at each step with the cache on.
EXPECTED = {"A": "computed", "B": "reused", "C": "reused", "D": "computed", "E": "computed",
            "F": "reused", "G": "computed", "H": "computed", "I": "reused", "L": "computed",
            "M": "computed", "N": "computed"}
# The steps whose result is found by the layer's tiles (the module logs "its layer's tiles
# the same"), and those found by reading the layer.
BY_TILES, BY_READING = ("B", "C"), ("F", "I")


def renders_by_step(log):
    """{step: [what the module logged for River Erosion during it, in order]}; a reuse found
    by the layer's tiles is "reused by tiles"."""
    steps, current = {}, None
    for line in open(log).read().splitlines() if os.path.exists(log) else []:
        marker = re.match(r"STEP (\S+)$", line)
        if marker:
            current = marker.group(1).replace("C-append", "C")
            steps.setdefault(current, [])
        found = re.search(r"terrain:river-erosion \d+x\d+: (computed|reused|failed)(, its layer's "
                          r"tiles the same)?", line)
        if found and current:
            steps[current].append(found.group(1) + (" by tiles" if found.group(2) else ""))
    return steps


def run(label, cache_mb):
    log = os.path.join(workdir, label + ".log")
    if os.path.exists(log):
        os.remove(log)
    os.environ["TERRAIN_RENDER_LOG"] = log
    os.environ["TERRAIN_RESULT_CACHE_MB"] = str(cache_mb)
    session = GimpSession(plugin, os.path.join(workdir, "gimp-" + label),
                          extra_plugins=("python-eval",), modules=(module,))
    out = os.path.join(workdir, label + ".json")
    if os.path.exists(out):
        os.remove(out)
    result = session.run_python("OUT = %r\n" % out + SCRIPT, timeout=600)
    ok = checks.check(os.path.exists(out), "%s: no results (exit %d):\n%s"
                      % (label, result.returncode, error_excerpt(result.stderr)))
    return (json.load(open(out)) if ok else {}), renders_by_step(log)


cached, cached_renders = run("cache", 512)
plain, plain_renders = run("no-cache", 0)
print("with the cache:", cached_renders)
print("without it:   ", plain_renders)

for name, wanted in EXPECTED.items():
    renders = [r.replace(" by tiles", "") for r in cached_renders.get(name, [])]
    checks.check(renders[:1] == [wanted],
                 "step %s: the module logged %s, not %s first" % (name, renders, wanted))
    checks.check("computed" not in renders[1:],
                 "step %s computed more than once: %s" % (name, renders))
    checks.check(plain_renders.get(name, [])[:1] == ["computed"],
                 "step %s without the cache: %s" % (name, plain_renders.get(name)))
    checks.check(name in cached and cached[name][0], "step %s failed" % name)
    checks.check(cached.get(name) == plain.get(name),
                 "step %s: other bytes with the cache than without it" % name)
checks.check(cached.get("B") == cached.get("A") and cached.get("C", [0, 1])[1] == cached.get("A", [1, 0])[1],
             "the same pixels and settings gave other bytes")
for name in ("D", "E", "G"):
    checks.check(cached.get(name) != cached.get("A"), "step %s gave step A's bytes" % name)
checks.check(cached.get("I") == cached.get("H"), "the same pixels with alpha gave other bytes")
for name in ("J", "K"):
    checks.check(cached.get(name, [False])[0] and cached.get(name) == plain.get(name),
                 "generator on a layer with alpha, step %s: failed, or other bytes with the cache"
                 % name)
    checks.check(cached.get(name + "-own-alpha") is True,
                 "generator step %s: the layer's alpha was not kept" % name)
for name in BY_TILES:
    checks.check(cached_renders.get(name, [])[:1] == ["reused by tiles"],
                 "step %s was not found by the layer's tiles: %s" % (name, cached_renders.get(name)))
for name in BY_READING:
    checks.check(cached_renders.get(name, [])[:1] == ["reused"],
                 "step %s was not found by reading the layer: %s" % (name, cached_renders.get(name)))
checks.check(cached.get("N-painted") == [True, True], "step N: the fill changed nothing: %s"
             % cached.get("N-painted"))
checks.check(cached.get("N") != cached.get("A"), "step N gave step A's bytes")
checks.check(cached.get("F-outside-untouched") is True, "outside the selection the layer changed")
checks.check(cached.get("F") != cached.get("A"), "the selection was not honoured")
checks.done()
