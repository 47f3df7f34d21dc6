#!/usr/bin/env python3
"""Crease test (Miller 1986) in real GIMP: GIMP's Plasma (gegl:plasma as a drawable filter,
Python-Fu), our diamond-square and our square-square (Script-Fu), all 1025x1025 16-bit,
3 seeds each. Prints each one's axis/diagonal difference-energy ratio (1 = isotropic) and
checks that square-square is closer to 1 than diamond-square.

usage: test-crease.py PLUGIN_BINARY CREASE_RATIO_TOOL WORKDIR
"""
import os
import subprocess
import sys

from checks import Checks
from gimpsession import GimpSession

plugin, tool, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-crease")
session = GimpSession(plugin, os.path.join(workdir, "gimp"), extra_plugins=("python-eval",))
SIZE, SEEDS = 1025, (1, 2, 3)


def out(kind, seed):
    return os.path.join(workdir, "%s-%d.pgm" % (kind, seed))


plasma = """
import gi
gi.require_version("Gimp", "3.0")
from gi.repository import Gimp, Gio
for seed in %r:
    image = Gimp.Image.new_with_precision(%d, %d, Gimp.ImageBaseType.GRAY, Gimp.Precision.U16_NON_LINEAR)
    layer = Gimp.Layer.new(image, "h", %d, %d, Gimp.ImageType.GRAY_IMAGE, 100, Gimp.LayerMode.NORMAL)
    image.insert_layer(layer, None, 0)
    plasma = Gimp.DrawableFilter.new(layer, "gegl:plasma", "")
    config = plasma.get_config()
    config.set_property("seed", seed)
    config.set_property("width", %d)
    config.set_property("height", %d)
    layer.merge_filter(plasma)
    Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, image, Gio.File.new_for_path(%r %% seed), None)
    image.delete()
""" % (SEEDS, SIZE, SIZE, SIZE, SIZE, SIZE, SIZE, os.path.join(workdir, "plasma-%d.pgm"))
result = session.run_python(plasma)
checks.check(result.returncode == 0, "Plasma batch exited %d:\n%s" % (result.returncode, result.stderr[-2000:]))

scripts = []
for kind in ("diamond-square", "square-square"):
    for seed in SEEDS:
        scripts.append("""(let* ((image (car (gimp-image-new-with-precision %d %d GRAY PRECISION-U16-NON-LINEAR)))
       (layer (car (gimp-layer-new image "h" %d %d GRAY-IMAGE 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer image layer 0 0)
  (plug-in-terrain-diamond-square #:image image #:drawables (vector layer) #:seed %d #:subdivision "%s")
  (gimp-file-save RUN-NONINTERACTIVE image "%s" -1)
  (gimp-image-delete image))""" % (SIZE, SIZE, SIZE, SIZE, seed, kind, out(kind, seed)))
result = session.run(*scripts)
checks.check(result.returncode == 0, "terrain batch exited %d:\n%s" % (result.returncode, result.stderr[-2000:]))

ratios = {}
for kind in ("plasma", "diamond-square", "square-square"):
    files = [out(kind, s) for s in SEEDS]
    if not checks.check(all(os.path.exists(f) for f in files), "%s: missing exports" % kind):
        continue
    lines = subprocess.run([tool, str(SIZE)] + files, check=True, capture_output=True, text=True).stdout.split("\n")
    values = [float(line.split()[1]) for line in lines if line]
    ratios[kind] = sum(values) / len(values)
    print("crease ratio (axes / diagonals at equal distance, 1 = isotropic), %s %dx%d: %.4f"
          % (kind, SIZE, SIZE, ratios[kind]))
if len(ratios) == 3:
    checks.check(abs(ratios["square-square"] - 1) < abs(ratios["diamond-square"] - 1),
                 "square-square (%.4f) is not closer to 1 than diamond-square (%.4f)"
                 % (ratios["square-square"], ratios["diamond-square"]))
checks.done()
