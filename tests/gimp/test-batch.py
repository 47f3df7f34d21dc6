#!/usr/bin/env python3
"""Batch integration tests: the procedures through real gimp-console-3 and Script-Fu.

Each success case renders into a real image (8-bit, 16-bit, 32-bit float, linear and
non-linear, with alpha, RGB, with a selection), exports it, decodes the pixels and compares
them with the core's own output for the same arguments (terrain-render). Each failure case
checks batch exit status 70, the message, and that the layer's pixels did not change.

With GEGL_MODULE, GIMP has the procedures' operations: the same cases run in GIMP's process.

usage: test-batch.py PLUGIN_BINARY TERRAIN_RENDER WORKDIR [GEGL_MODULE]
"""
import os
import re
import subprocess
import sys

from checks import Checks
from gimpsession import GimpSession, error_excerpt
from pixels import read_png, read_pnm

plugin, renderer, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
modules = [os.path.abspath(a) for a in sys.argv[4:5]]
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-batch-native" if modules else "gimp-batch")
session = GimpSession(plugin, os.path.join(workdir, "gimp"), modules=modules)


def path(name):
    return os.path.join(workdir, name)


def scheme(value):
    return '"%s"' % value if isinstance(value, str) else repr(value)


def keywords(args):
    return " ".join("#:%s %s" % (k, scheme(v)) for k, v in args.items())


def call(procedure, args, target="(vector layer)"):
    return "(%s #:image image #:drawables %s %s)" % (procedure, target, keywords(args))


def image_script(width, height, precision, body, base="GRAY", layer_type="GRAY-IMAGE"):
    return """(let* ((image (car (gimp-image-new-with-precision %d %d %s %s)))
       (layer (car (gimp-layer-new image "height" %d %d %s 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer image layer 0 0)
  %s
  (gimp-image-delete image))""" % (width, height, base, precision, width, height, layer_type, body)


def save(name):
    return '(gimp-file-save RUN-NONINTERACTIVE image "%s" -1)' % path(name)


def save_png(name):
    """A byte-stable PNG (no time, no metadata): for images PNM cannot hold."""
    return ('(file-png-export #:run-mode RUN-NONINTERACTIVE #:image image #:file "%s" #:time 0 #:phys 0 '
            '#:bkgd 0 #:include-exif 0 #:include-xmp 0 #:include-iptc 0 #:include-thumbnail 0 '
            '#:include-color-profile 0)' % path(name))


def reference(procedure, width, height, args, name):
    out = path(name)
    subprocess.run([renderer, procedure, str(width), str(height), out] +
                   ["%s=%s" % kv for kv in args.items()], check=True)
    return read_pnm(out)[2][0]


def srgb_slope(v):
    """dY'/dL of the sRGB curve at Y' = v: how far one step of linear storage moves Y'."""
    linear = v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    return 12.92 if linear <= 0.0031308 else 1.055 / 2.4 * linear ** (1 / 2.4 - 1)


def worst_excess(got, ref, step, linear):
    """Largest |got - ref| beyond one quantisation step; <= 0 means every pixel is within it.
    Linear storage allows one storage step seen through the curve plus one step of the
    16-bit non-linear export."""
    return max(abs(g - r) - step * ((srgb_slope(r) + 1.0) if linear else 1.0) * 1.01 - 1e-9
               for g, r in zip(got, ref))


def max_difference(a, b, where=None):
    indices = range(len(a)) if where is None else where
    return max((abs(a[i] - b[i]) for i in indices), default=0.0)


def rectangle(width, x, y, w, h):
    return [(y + j) * width + x + i for j in range(h) for i in range(w)]


def outside(width, height, rect):
    inside = set(rect)
    return [i for i in range(width * height) if i not in inside]


# ---------------------------------------------------------------------------------------------
# Success cases, all in one GIMP session.
PROC = "plug-in-terrain-diamond-square"
QUANT = {"PRECISION-U8-NON-LINEAR": 1 / 255, "PRECISION-U16-NON-LINEAR": 1 / 65535,
         "PRECISION-U16-LINEAR": 1 / 65535, "PRECISION-FLOAT-NON-LINEAR": 1 / 65535}
DS, FIELD, SMOOTH = PROC, "plug-in-terrain-field", "plug-in-terrain-smooth"
# (file name, procedure, precision, width, height, arguments)
plain_cases = [
    ("ds-u8", DS, "PRECISION-U8-NON-LINEAR", 256, 256, {"seed": 7, "roughness": 0.8, "edges": "wrap"}),
    ("ds-u16", DS, "PRECISION-U16-NON-LINEAR", 300, 200,
     {"seed": 11, "edges": "mirror", "corners": "fixed", "corner-height": 0.3}),
    ("ds-u16lin", DS, "PRECISION-U16-LINEAR", 128, 128, {"seed": 3, "roughness": 1.4}),
    ("ds-float", DS, "PRECISION-FLOAT-NON-LINEAR", 129, 65, {"seed": 99, "edges": "average"}),
    ("ds-square-square", DS, "PRECISION-U16-NON-LINEAR", 200, 120,
     {"seed": 13, "subdivision": "square-square", "edges": "wrap"}),
    ("ds-lighthouse", DS, "PRECISION-U8-NON-LINEAR", 129, 129,
     {"seed": 14, "convention": "lighthouse-code", "roughness": 1.25}),
    # Engine tiles (Unity's 513, 16-bit): the last row and column repeat the first.
    ("ds-shared-edge-513", DS, "PRECISION-U16-NON-LINEAR", 513, 513, {"seed": 21, "edges": "shared-edge"}),
    ("ds-shared-edge-square", DS, "PRECISION-U16-NON-LINEAR", 129, 65,
     {"seed": 22, "edges": "shared-edge", "subdivision": "square-square"}),
    # Degenerate shapes: one pixel, one very long row (the field writes it in bands).
    ("ds-1x1", DS, "PRECISION-U16-NON-LINEAR", 1, 1, {"seed": 1}),
    ("ds-65536x1", DS, "PRECISION-U16-NON-LINEAR", 65536, 1, {"seed": 2, "roughness": 0.5}),
    ("field-65536x1", FIELD, "PRECISION-U16-NON-LINEAR", 65536, 1, {"seed": 2}),
    # Script-Fu replaces an unknown choice by its default, silently (GIMP 3.0.4): documented.
    ("ds-bad-choice", DS, "PRECISION-U16-NON-LINEAR", 64, 64, {"seed": 5, "edges": "bogus"}),
    # Bands: 300 rows are three 128-row bands, written straight from the core.
    ("field-u16", FIELD, "PRECISION-U16-NON-LINEAR", 301, 300,
     {"seed": 9, "iterations": 7, "roughness": 0.7, "offset-x": -1000, "offset-y": 77}),
    ("field-u8", FIELD, "PRECISION-U8-NON-LINEAR", 200, 100, {"seed": 2, "offset-x": 1073741000}),
    ("fault-u8", "plug-in-terrain-fault", "PRECISION-U8-NON-LINEAR", 200, 150,
     {"seed": 4, "iterations": 200, "profile": "sine", "wave-size": 6.0}),
    ("fault-u16", "plug-in-terrain-fault", "PRECISION-U16-NON-LINEAR", 160, 160,
     {"seed": 5, "iterations": 300, "profile": "cosine", "decay-iterations": 50}),
    ("circles-u8", "plug-in-terrain-circles", "PRECISION-U8-NON-LINEAR", 200, 150,
     {"seed": 6, "iterations": 300, "diameter": 40.0, "direction": "raise"}),
    ("circles-u16", "plug-in-terrain-circles", "PRECISION-U16-NON-LINEAR", 160, 160,
     {"seed": 7, "iterations": 500, "diameter": 30.0}),
    ("particles-u8", "plug-in-terrain-particles", "PRECISION-U8-NON-LINEAR", 128, 128,
     {"seed": 8, "particles": 20000, "mode": "stick", "sites": 3}),
    ("particles-u16", "plug-in-terrain-particles", "PRECISION-U16-NON-LINEAR", 128, 96,
     {"seed": 9, "particles": 50000, "caldera": 0.4}),
    ("landscape-alpine-u16", "plug-in-terrain-landscape", "PRECISION-U16-NON-LINEAR", 160, 120,
     {"seed": 3, "preset": "alpine", "feature-size": 64}),
    ("landscape-mesa-u8", "plug-in-terrain-landscape", "PRECISION-U8-NON-LINEAR", 128, 128,
     {"seed": 4, "preset": "mesa", "feature-size": 32}),
    ("landscape-rivers-u16", "plug-in-terrain-landscape", "PRECISION-U16-NON-LINEAR", 128, 96,
     {"seed": 2, "preset": "river-valleys", "feature-size": 64}),
    # The default feature size: a quarter of the layer's size, sqrt (250 x 160) / 4 = 50
    # (checked below against 50 given).
    ("landscape-layer-size-u16", "plug-in-terrain-landscape", "PRECISION-U16-NON-LINEAR", 250, 160,
     {"seed": 6, "preset": "islands"}),
]
scripts = []
for name, procedure, precision, w, h, args in plain_cases:
    scripts.append(image_script(w, h, precision, call(procedure, args) + save("%s.pgm" % name)))

# The field joins across layers: a 256x128 layer at x 0 and a 128x128 layer at x 128.
FIELD_ARGS = {"seed": 31, "iterations": 9, "offset-y": -5}
scripts.append(image_script(256, 128, "PRECISION-U16-NON-LINEAR",
                            call(FIELD, dict(FIELD_ARGS, **{"offset-x": 0})) + save("field-wide.pgm")))
scripts.append(image_script(128, 128, "PRECISION-U16-NON-LINEAR",
                            call(FIELD, dict(FIELD_ARGS, **{"offset-x": 128})) + save("field-right.pgm")))

# Engine tiles from the field: 513x513 layers at offsets 512 apart share their edge row and
# column (data/doc/engines.md, "Heightmaps for game engines").
TILE_ARGS = {"seed": 32, "iterations": 10}
for tx, ty in ((0, 0), (1, 0), (0, 1)):
    scripts.append(image_script(513, 513, "PRECISION-U16-NON-LINEAR",
                                call(FIELD, dict(TILE_ARGS, **{"offset-x": 512 * tx, "offset-y": 512 * ty}))
                                + save("field-tile-%d-%d.pgm" % (tx, ty))))

# Procedures that read the layer: its content is exported first, and the core works on that file.
ROUGH = call(DS, {"seed": 17, "roughness": 0.4})
RIVER = "plug-in-terrain-river-erosion"
BLOB = ("(gimp-context-set-feather TRUE)(gimp-context-set-feather-radius 30 30)"
        "(gimp-image-select-ellipse image CHANNEL-OP-REPLACE 30 20 60 50)"
        "(gimp-drawable-edit-fill layer FILL-WHITE)(gimp-selection-none image)")
# (name, procedure, precision, preparation, arguments, selection or None)
layer_cases = [
    ("smooth-laplacian-u16", SMOOTH, "PRECISION-U16-NON-LINEAR", ROUGH, {"method": "laplacian", "iterations": 8}, None),
    ("smooth-fir-u8", SMOOTH, "PRECISION-U8-NON-LINEAR", ROUGH, {"method": "fir", "k": 0.6, "iterations": 2}, None),
    ("smooth-matrix-u16", SMOOTH, "PRECISION-U16-NON-LINEAR", ROUGH,
     {"method": "matrix", "kernel": "custom", "custom-kernel": "1,2,1, 2,4,2, 1,2,1", "iterations": 3},
     (20, 10, 60, 40)),
    ("thermal-u16", "plug-in-terrain-thermal-erosion", "PRECISION-U16-NON-LINEAR", ROUGH,
     {"iterations": 40, "talus": 0.005, "strength": 0.8, "neighbourhood": "4"}, None),
    ("thermal-u8-selection", "plug-in-terrain-thermal-erosion", "PRECISION-U8-NON-LINEAR", ROUGH,
     {"iterations": 20}, (10, 10, 70, 50)),
    ("hydraulic-u16", "plug-in-terrain-hydraulic-erosion", "PRECISION-U16-NON-LINEAR", ROUGH,
     {"seed": 5, "droplets": 20000, "inertia": 0.1, "radius": 2, "max-steps": 40}, None),
    ("river-u16", RIVER, "PRECISION-U16-NON-LINEAR", ROUGH, {"iterations": 20, "erosion": 0.2}, None),
    ("river-wrap-u8-selection", RIVER, "PRECISION-U8-NON-LINEAR", ROUGH,
     {"iterations": 10, "edges": "wrap", "sea-level": 0.2, "diffusion": 5}, (20, 10, 60, 40)),
    ("river-uplift-u8", RIVER, "PRECISION-U8-NON-LINEAR", BLOB,
     {"uplift": "layer", "iterations": 30, "erosion": 1.0, "slope-exponent": 1.5}, None),
    ("river-shared-edge-u16", RIVER, "PRECISION-U16-NON-LINEAR", ROUGH,
     {"iterations": 10, "edges": "shared-edge"}, None),
    ("guided-ds-shared-edge-u16", DS, "PRECISION-U16-NON-LINEAR", BLOB,
     {"seed": 3, "guide": 1, "guide-scale": 16, "edges": "shared-edge"}, None),
    ("guided-ds-u16", DS, "PRECISION-U16-NON-LINEAR", BLOB, {"seed": 3, "guide": 1, "guide-scale": 16}, None),
    ("guided-field-u16", FIELD, "PRECISION-U16-NON-LINEAR", BLOB,
     {"seed": 4, "guide": 1, "guide-scale": 16, "iterations": 7, "offset-x": 50}, None),
]
for name, procedure, precision, preparation, args, selection in layer_cases:
    select = ("(gimp-image-select-rectangle image CHANNEL-OP-REPLACE %d %d %d %d)" % selection
              if selection else "")
    scripts.append(image_script(128, 96, precision, preparation + save("%s-input.pgm" % name) +
                                select + call(procedure, args) + save("%s.pgm" % name)))

SEL = (40, 30, 100, 50)
scripts.append(image_script(256, 128, "PRECISION-U16-NON-LINEAR",
    call(PROC, {"seed": 1}) + save("sel-before.pgm") +
    "(gimp-image-select-rectangle image CHANNEL-OP-REPLACE %d %d %d %d)" % SEL +
    call(PROC, {"seed": 2}) + save("sel-after.pgm")))

# A selection that misses the layer (a small layer inside a larger image): nothing to do,
# success, and the layer is unchanged.
scripts.append(image_script(128, 128, "PRECISION-U8-NON-LINEAR",
    "(let ((small (car (gimp-layer-new image \"small\" 32 32 GRAY-IMAGE 100 LAYER-MODE-NORMAL))))"
    "  (gimp-image-insert-layer image small 0 0)(gimp-layer-set-offsets small 10 10)"
    "  (gimp-drawable-fill small FILL-WHITE)" + save_png("miss-before.png") +
    "  (gimp-image-select-rectangle image CHANNEL-OP-REPLACE 80 80 30 30)"
    "  (plug-in-terrain-diamond-square #:image image #:drawables (vector small) #:seed 5)"
    "  (gimp-selection-none image)" + save_png("miss-after.png") + ")"))

HOLE = (10, 20, 30, 40)
scripts.append(image_script(128, 128, "PRECISION-U8-NON-LINEAR",
    "(gimp-drawable-fill layer FILL-WHITE)"
    "(gimp-image-select-rectangle image CHANNEL-OP-REPLACE %d %d %d %d)" % HOLE +
    "(gimp-drawable-edit-clear layer)(gimp-selection-none image)" +
    call(PROC, {"seed": 5}) + save("alpha.png"), layer_type="GRAYA-IMAGE"))

scripts.append(image_script(64, 64, "PRECISION-U8-NON-LINEAR", call(PROC, {"seed": 8}) + save("rgb.ppm"),
                            base="RGB", layer_type="RGB-IMAGE"))

result = session.run(*scripts)
checks.check(result.returncode == 0, "success batch exited %d:\n%s" % (result.returncode, error_excerpt(result.stderr)))

for name, procedure, precision, w, h, args in plain_cases:
    if not checks.check(os.path.exists(path("%s.pgm" % name)), "%s: no export" % name):
        continue
    got = read_pnm(path("%s.pgm" % name))[2][0]
    if name == "ds-bad-choice":
        args = dict(args, edges="average")
    ref = reference(procedure, w, h, args, "ref-%s.pgm" % name)
    excess = worst_excess(got, ref, QUANT[precision], not precision.endswith("NON-LINEAR"))
    checks.check(excess <= 0.0, "%s %dx%d: |GIMP - core| exceeds one quantisation step by %g (max diff %g)"
                 % (name, w, h, excess, max_difference(got, ref)))

if os.path.exists(path("landscape-layer-size-u16.pgm")):
    given = reference("plug-in-terrain-landscape", 250, 160,
                      {"seed": 6, "preset": "islands", "feature-size": 50}, "ref-landscape-50.pgm")
    got = read_pnm(path("landscape-layer-size-u16.pgm"))[2][0]
    checks.check(worst_excess(got, given, QUANT["PRECISION-U16-NON-LINEAR"], False) <= 0.0,
                 "landscape at the default feature size: not the render at 50, a quarter of 250 x 160")


def shares_edges(pixels, w, h):
    """The last column and row hold the first's values (decoded 16-bit samples: their bytes)."""
    return (all(pixels[y * w + w - 1] == pixels[y * w] for y in range(h))
            and pixels[(h - 1) * w:] == pixels[:w])


for name, w, h in (("ds-shared-edge-513", 513, 513), ("ds-shared-edge-square", 129, 65),
                   ("river-shared-edge-u16", 128, 96), ("guided-ds-shared-edge-u16", 128, 96)):
    if os.path.exists(path(name + ".pgm")):
        checks.check(shares_edges(read_pnm(path(name + ".pgm"))[2][0], w, h),
                     "%s: the last row/column differ from the first" % name)

if checks.check(os.path.exists(path("field-tile-0-1.pgm")), "field tiles: no export"):
    tile = {(tx, ty): read_pnm(path("field-tile-%d-%d.pgm" % (tx, ty)))[2][0]
            for tx, ty in ((0, 0), (1, 0), (0, 1))}
    checks.check(all(tile[0, 0][y * 513 + 512] == tile[1, 0][y * 513] for y in range(513)),
                 "field tiles at x offsets 0 and 512: the shared column differs")
    checks.check(tile[0, 0][512 * 513:] == tile[0, 1][:513],
                 "field tiles at y offsets 0 and 512: the shared row differs")

if checks.check(os.path.exists(path("field-right.pgm")), "field overlap: no export"):
    wide = read_pnm(path("field-wide.pgm"))[2][0]
    right = read_pnm(path("field-right.pgm"))[2][0]
    checks.check(all(wide[y * 256 + 128 + x] == right[y * 128 + x] for y in range(128) for x in range(128)),
                 "field: layers at offsets 0 and 128 differ where they overlap")

for name, procedure, precision, preparation, args, selection in layer_cases:
    if not checks.check(os.path.exists(path("%s.pgm" % name)), "%s: no export" % name):
        continue
    before = read_pnm(path("%s-input.pgm" % name))[2][0]
    got = read_pnm(path("%s.pgm" % name))[2][0]
    out = path("ref-%s.pgm" % name)
    subprocess.run([renderer, procedure, "128", "96", out, "--input", path("%s-input.pgm" % name)] +
                   ["%s=%s" % kv for kv in args.items()], check=True)
    ref = read_pnm(out)[2][0]
    inside = rectangle(128, *selection) if selection else range(128 * 96)
    excess = worst_excess([got[i] for i in inside], [ref[i] for i in inside], QUANT[precision], False)
    checks.check(excess <= 0.0, "%s: |GIMP - core| exceeds one step by %g" % (name, excess))
    checks.check(max_difference(got, before, inside) > 2 * QUANT[precision], "%s: the layer did not change" % name)
    if selection:
        checks.check(max_difference(got, before, outside(128, 96, inside)) == 0.0,
                     "%s: pixels outside the selection changed" % name)

# A guided render is a mountain where the blob was painted: higher inside the ellipse.
for name in ("guided-ds-u16", "guided-field-u16"):
    if os.path.exists(path(name + ".pgm")):
        got = read_pnm(path(name + ".pgm"))[2][0]
        blob = [y * 128 + x for y in range(35, 55) for x in range(45, 75)]
        far = [y * 128 + x for y in range(75, 96) for x in range(100, 128)]
        checks.check(sum(got[i] for i in blob) / len(blob) > sum(got[i] for i in far) / len(far) + 0.3,
                     "%s does not follow the painted blob" % name)

if checks.check(os.path.exists(path("miss-after.png")), "selection-miss case: no export"):
    checks.check(open(path("miss-before.png"), "rb").read() == open(path("miss-after.png"), "rb").read(),
                 "a selection outside the layer still changed it")

if os.path.exists(path("sel-after.pgm")):
    before = read_pnm(path("sel-before.pgm"))[2][0]
    after = read_pnm(path("sel-after.pgm"))[2][0]
    inside = rectangle(256, *SEL)
    ref = reference(PROC, 256, 128, {"seed": 2}, "ref-sel.pgm")
    checks.check(max_difference(after, before, outside(256, 128, inside)) == 0.0,
                 "pixels outside the selection changed")
    checks.check(max_difference(after, ref, inside) <= 1.01 / 65535,
                 "inside the selection: max |GIMP - core| = %g" % max_difference(after, ref, inside))
    checks.check(max_difference(after, before, inside) > 0.05, "nothing was written inside the selection")
else:
    checks.check(False, "selection case: no export")

if os.path.exists(path("alpha.png")):
    width, height, (gray, alpha) = read_png(path("alpha.png"))
    hole = set(rectangle(128, *HOLE))
    ref = reference(PROC, 128, 128, {"seed": 5}, "ref-alpha.pgm")
    checks.check(all(alpha[i] == 0.0 for i in hole), "alpha of the cleared hole was not kept")
    checks.check(all(alpha[i] == 1.0 for i in range(128 * 128) if i not in hole),
                 "opaque pixels lost their alpha")
    opaque = [i for i in range(128 * 128) if i not in hole]
    checks.check(max_difference(gray, ref, opaque) <= 1.01 / 255,
                 "GRAYA: gray differs from the core by %g" % max_difference(gray, ref, opaque))
else:
    checks.check(False, "alpha case: no export")

if os.path.exists(path("rgb.ppm")):
    r, g, b = read_pnm(path("rgb.ppm"))[2]
    ref = reference(PROC, 64, 64, {"seed": 8}, "ref-rgb.pgm")
    checks.check(r == g == b, "RGB: channels are not equal gray")
    checks.check(max_difference(r, ref) <= 1.01 / 255, "RGB: differs from the core by %g" % max_difference(r, ref))
else:
    checks.check(False, "RGB case: no export")

# ---------------------------------------------------------------------------------------------
# Every Script-Fu example of the documentation runs as written (calls on an image the test
# makes): the README's, the procedure reference's (one call per procedure, every argument
# at its default) and the game-engine guide's.
source_root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
examples = []
for document, least in (("README.md", 1), ("src/procedures/README.md", 7), ("data/doc/engines.md", 2)):
    with open(os.path.join(source_root, document), encoding="utf-8") as f:
        found = re.findall(r"```scheme\n(.*?)```", f.read(), re.S)
    checks.check(len(found) >= least, "found only %d Script-Fu examples in %s" % (len(found), document))
    examples += found
readme_scripts = []
for example in examples:
    if example.startswith("(plug-in-terrain"):
        readme_scripts.append(image_script(96, 64, "PRECISION-U16-NON-LINEAR", example))
    else:
        readme_scripts.append(example.replace('"height.png"', '"%s"' % path("readme-height.png")))
result = session.run(*readme_scripts)
checks.check(result.returncode == 0, "an example of the documentation failed:\n%s" % result.stderr[-2500:])
checks.check(os.path.exists(path("readme-height.png")), "the README's batch example wrote no PNG")

# ---------------------------------------------------------------------------------------------
# Failure cases: exit 70, a clear message, and the layer unchanged.
# (name, image base, layer type, setup, call, words expected in the message)
failures = [
    ("indexed", "RGB", "RGB-IMAGE",
     "(gimp-image-convert-indexed image CONVERT-DITHER-NONE CONVERT-PALETTE-GENERATE 16 FALSE FALSE \"\")",
     call(PROC, {"seed": 4}), "indexed"),
    ("roughness-range", "GRAY", "GRAY-IMAGE", "", call(PROC, {"roughness": 3.0}), "roughness"),
    ("seed-range", "GRAY", "GRAY-IMAGE", "", call(PROC, {"seed": -1}), "seed"),
    ("kernel-malformed", "GRAY", "GRAY-IMAGE", "",
     call(SMOOTH, {"method": "matrix", "kernel": "custom", "custom-kernel": "1 2 x"}), "custom-kernel"),
    ("kernel-zero-sum", "GRAY", "GRAY-IMAGE", "",
     call(SMOOTH, {"method": "matrix", "kernel": "custom", "custom-kernel": "0 1 0 1 -4 1 0 1 0"}),
     "custom-kernel"),
    ("lighthouse-roughness", "GRAY", "GRAY-IMAGE", "",
     call(DS, {"convention": "lighthouse-code", "roughness": 0.3}), "lighthouse-code"),
    ("field-range", "GRAY", "GRAY-IMAGE", "", call(FIELD, {"iterations": 31}), "iterations"),
    ("layer-group", "GRAY", "GRAY-IMAGE", "",
     "(let ((group (car (gimp-group-layer-new image \"group\"))))"
     "  (gimp-image-insert-layer image group 0 0)"
     "  (plug-in-terrain-diamond-square #:image image #:drawables (vector group)))", "layer group"),
    ("no-drawable", "GRAY", "GRAY-IMAGE", "", call(PROC, {"seed": 4}, target="(vector)"), "exactly one drawable"),
    ("two-drawables", "GRAY", "GRAY-IMAGE", "",
     call(PROC, {"seed": 4}, target="(vector layer layer)"), "exactly one drawable"),
]
for name, base, layer_type, setup, bad_call, words in failures:
    # PNM carries no timestamp: the files of an unchanged layer are byte-identical.
    ext = "ppm" if base == "RGB" else "pgm"
    before, after = "fail-%s-before.%s" % (name, ext), "fail-%s-after.%s" % (name, ext)
    guarded = image_script(64, 64, "PRECISION-U8-NON-LINEAR",
        "(gimp-drawable-fill layer FILL-WHITE)" + setup + save(before) +
        "(catch #f %s)" % bad_call + save(after), base=base, layer_type=layer_type)
    bare = image_script(64, 64, "PRECISION-U8-NON-LINEAR", "(gimp-drawable-fill layer FILL-WHITE)" + setup + bad_call,
                        base=base, layer_type=layer_type)
    result = session.run(guarded, bare)
    checks.check(result.returncode == 70, "%s: exit %d, want 70" % (name, result.returncode))
    checks.check(words.lower() in result.stderr.lower(),
                 "%s: message does not mention '%s':\n%s" % (name, words, result.stderr[-1500:]))
    exported = os.path.exists(path(before)) and os.path.exists(path(after))
    if checks.check(exported, "%s: the guarded run exported nothing:\n%s" % (name, result.stderr[-1500:])):
        checks.check(open(path(before), "rb").read() == open(path(after), "rb").read(),
                     "%s: the layer changed after a failed call" % name)

# A layer whose heightmap cannot be allocated: 262144 x 262144 (GIMP keeps an untouched layer
# sparse; Diamond-Square needs 256 GiB of floats). The call must fail with "not enough
# memory" and exit 70, the layer untouched (sampled: the whole layer cannot be exported).
# Only where the kernel refuses allocations larger than memory (overcommit mode 0 or 2);
# with mode 1 the allocation would succeed and the render run the machine out of memory.
with open("/proc/sys/vm/overcommit_memory") as f:
    overcommit = f.read().strip()
if overcommit in ("0", "2"):
    HUGE = 262144
    probes = [(0, 0), (HUGE // 2, HUGE // 3), (HUGE - 1, HUGE - 1)]

    def sample(var):
        return "(set! %s (list %s))" % (var, " ".join("(gimp-drawable-get-pixel layer %d %d)" % p for p in probes))

    def huge_image(body):
        return """(let* ((image (car (gimp-image-new %d %d GRAY)))
       (layer (car (gimp-layer-new image "h" %d %d GRAY-IMAGE 100 LAYER-MODE-NORMAL)))
       (before '()) (after '()))
  (gimp-image-insert-layer image layer 0 0)
  %s)""" % (HUGE, HUGE, HUGE, HUGE, body)

    ds = "(plug-in-terrain-diamond-square #:image image #:drawables (vector layer))"
    guarded = huge_image(sample("before") + "(catch #f %s)" % ds + sample("after") +
                         '(gimp-message (if (equal? before after) "huge-pixels: same" "huge-pixels: changed"))')
    huge = [guarded, huge_image(ds)]
    result = session.run(*huge)
    checks.check(result.returncode == 70, "unallocatable: exit %d, want 70:\n%s" % (result.returncode, result.stderr[-1500:]))
    checks.check("not enough memory" in result.stderr.lower(),
                 "unallocatable: no 'not enough memory' message:\n%s" % result.stderr[-1500:])
    checks.check("huge-pixels: same" in result.stdout + result.stderr,
                 "unallocatable: sampled pixels changed or were not compared:\n%s" % (result.stdout + result.stderr)[-1500:])
else:
    print("unallocatable: skipped (vm.overcommit_memory is %s: the allocation would succeed)" % overcommit)

checks.done()
