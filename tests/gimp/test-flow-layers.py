#!/usr/bin/env python3
"""River Erosion's flow layers in real GIMP, through Python-Fu.

On a 16-bit layer smaller than its image and moved inside it, River Erosion with
`flow-layers` adds Flow, Erosion and Deposition above the layer: the same size, offsets and
precision, every value finite and within [0, 1]; Flow is highest on the layer's border
(open edges: the channels leave the map there) and low on the ridges; Erosion is not empty
(the rivers cut). Without `flow-layers` no layer is added. With GEGL_MODULE the same runs
with the operation in GIMP's process (the maps still come from the plug-in).

usage: test-flow-layers.py PLUGIN_BINARY WORKDIR [GEGL_MODULE]
"""
import json
import os
import sys

from checks import Checks
from gimpsession import PYTHON_FU_HELPERS, GimpSession, error_excerpt

plugin, workdir = (os.path.abspath(a) for a in sys.argv[1:3])
modules = [os.path.abspath(a) for a in sys.argv[3:4]]
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-flow-layers")

SCRIPT = r"""
import json, math, struct
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl
""" + PYTHON_FU_HELPERS + r"""
W, H, X, Y = 128, 96, 30, 20

def floats(layer):
    rect = Gegl.Rectangle.new(0, 0, layer.get_width(), layer.get_height())
    data = layer.get_buffer().get(rect, 1.0, "Y float", Gegl.AbyssPolicy.CLAMP)
    return struct.unpack("%df" % (len(data) // 4), data)

def describe(layer):
    x, y = layer.get_offsets()[1:3]
    return {"name": layer.get_name(), "size": [layer.get_width(), layer.get_height()],
            "offsets": [x, y], "format": layer.get_bpp(),
            "values": floats(layer)}

result = {}
for flow_layers in (False, True):
    image = Gimp.Image.new_with_precision(200, 150, Gimp.ImageBaseType.GRAY,
                                          Gimp.Precision.U16_NON_LINEAR)
    layer = Gimp.Layer.new(image, "height", W, H, Gimp.ImageType.GRAY_IMAGE, 100,
                           Gimp.LayerMode.NORMAL)
    image.insert_layer(layer, None, 0)
    layer.set_offsets(X, Y)
    ok = run_procedure("plug-in-terrain-diamond-square", image, layer, seed=17, roughness=0.4)
    ok = ok and run_procedure("plug-in-terrain-river-erosion", image, layer, iterations=20,
                              erosion=0.2, flow_layers=flow_layers)
    result[str(flow_layers)] = {"ok": ok, "layers": [describe(l) for l in image.get_layers()]}
    image.delete()
with open(OUT, "w") as f:
    json.dump(result, f)
"""


def check_maps(label, layers):
    names = [l["name"] for l in layers]
    if not checks.check(names == ["Flow", "Erosion", "Deposition", "height"],
                        "%s: layers from the top %s" % (label, names)):
        return
    height = layers[3]
    for layer in layers[:3]:
        name, values = layer["name"], layer["values"]
        checks.check(layer["size"] == height["size"] and layer["offsets"] == height["offsets"],
                     "%s: %s is %s at %s, the layer %s at %s" % (label, name, layer["size"], layer["offsets"],
                                                                height["size"], height["offsets"]))
        checks.check(layer["format"] == height["format"],
                     "%s: %s has %s bytes per pixel, the layer %s" % (label, name, layer["format"], height["format"]))
        checks.check(all(0.0 <= v <= 1.0 for v in values), "%s: %s not finite or outside [0, 1]" % (label, name))
    w, h = height["size"]
    flow = layers[0]["values"]
    border = [flow[y * w + x] for y in range(h) for x in range(w) if x in (0, w - 1) or y in (0, h - 1)]
    checks.check(max(border) == max(flow) and max(flow) > 0.5,
                 "%s: Flow's largest %g is not on the border (border's %g)" % (label, max(flow), max(border)))
    ridges = sum(v < 0.2 for v in flow) / len(flow)
    checks.check(ridges > 0.3, "%s: only %.0f%% of Flow is low (ridges and slopes)" % (label, 100 * ridges))
    checks.check(max(layers[1]["values"]) > 0.5, "%s: Erosion is empty" % label)


out = os.path.join(workdir, "flow-layers.json")
for label, session_modules in [("plug-in", [])] + ([("native", modules)] if modules else []):
    if os.path.exists(out):
        os.remove(out)
    session = GimpSession(plugin, os.path.join(workdir, "gimp-" + label), extra_plugins=("python-eval",),
                          modules=session_modules)
    run = session.run_python("OUT = %r\n" % out + SCRIPT, timeout=300)
    if not checks.check(os.path.exists(out), "%s: no result (exit %d):\n%s"
                        % (label, run.returncode, error_excerpt(run.stderr))):
        continue
    result = json.load(open(out))
    checks.check(result["False"]["ok"] and result["True"]["ok"], "%s: a procedure failed" % label)
    checks.check([l["name"] for l in result["False"]["layers"]] == ["height"],
                 "%s: without flow-layers the image has %s" % (label, [l["name"] for l in result["False"]["layers"]]))
    check_maps(label, result["True"]["layers"])
checks.done()
