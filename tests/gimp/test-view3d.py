#!/usr/bin/env python3
"""plug-in-terrain-3d-view through real gimp-console-3 and Script-Fu: the image it returns has
the asked size, is RGB, and holds exactly the core's picture (terrain-view3d) of the same
layer and arguments, from 16-bit gray, 32-bit float and 8-bit RGB with alpha layers (an RGB
layer's luminance, alpha ignored); a lone peak lit from the west has its west flank brighter
and its shadow to the east, and the other way round lit from the east; bad arguments exit
70, name the argument, and change nothing.

usage: test-view3d.py PLUGIN_BINARY TERRAIN_VIEW3D WORKDIR
"""
import math
import os
import subprocess
import sys

from checks import Checks
from gimpsession import GimpSession, error_excerpt
from pixels import read_pnm

plugin, renderer, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-view3d")
session = GimpSession(plugin, os.path.join(workdir, "gimp"))


def path(name):
    return os.path.join(workdir, name)


def write_pgm(name, width, height, height_at, maxval):
    with open(path(name), "wb") as f:
        f.write(b"P5\n%d %d\n%d\n" % (width, height, maxval))
        for y in range(height):
            for x in range(width):
                q = int(round(height_at(x, y) * maxval))
                f.write(bytes([q >> 8, q & 255]) if maxval > 255 else bytes([q]))


def peak(x, y):
    r = math.hypot(x - 64, y - 64) / 16.0
    return 0.1 + 0.8 * math.exp(-r * r)


def wave(x, y):
    return 0.5 + 0.3 * math.sin(x * 0.07) * math.cos(y * 0.11) + 0.15 * math.sin((x + 2 * y) * 0.023)


write_pgm("peak16.pgm", 129, 129, peak, 65535)
write_pgm("peak8.pgm", 129, 129, peak, 255)
write_pgm("wave16.pgm", 200, 120, wave, 65535)
SIZES = {"peak16.pgm": (129, 129), "peak8.pgm": (129, 129), "wave16.pgm": (200, 120)}


def scheme(value):
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return repr(value)


def view_script(name, source, setup, args, target="(vector layer)"):
    """Loads source, runs setup, renders the view with args, reports its size and base type
    and exports it as name.ppm."""
    keywords = " ".join("#:%s %s" % (k, scheme(v)) for k, v in args.items())
    return """(let* ((image (car (gimp-file-load RUN-NONINTERACTIVE "%s")))
       (layer (vector-ref (car (gimp-image-get-layers image)) 0)))
  %s
  (let ((view (car (plug-in-terrain-3d-view #:image image #:drawables %s %s))))
    (gimp-message (string-append "view3d-info %s " (number->string (car (gimp-image-get-width view)))
      " " (number->string (car (gimp-image-get-height view)))
      " " (number->string (car (gimp-image-get-base-type view)))))
    (gimp-file-save RUN-NONINTERACTIVE view "%s" -1)
    (gimp-image-delete view))
  (gimp-image-delete image))""" % (path(source), setup, target, keywords, name, path(name + ".ppm"))


def reference(name, source, args):
    width, height = SIZES[source]
    out = path(name + "-core.ppm")
    cli = {k: (int(v) if isinstance(v, bool) else v) for k, v in args.items() if k not in ("width", "height")}
    subprocess.run([renderer, path(source), str(width), str(height), out, str(args["width"]),
                    str(args["height"])] + ["%s=%s" % kv for kv in cli.items()], check=True)
    return read_pnm(out)


DEFAULTS = {"width": 320, "height": 240}
ODD = {"width": 257, "height": 190, "light-azimuth": 135.0, "light-elevation": 20.0,
       "view-azimuth": 200.0, "view-elevation": 50.0, "exaggeration": 2.5, "shadows": False}
TOP = {"width": 300, "height": 300, "view-elevation": 90.0, "view-azimuth": 0.0,
       "light-elevation": 25.0, "exaggeration": 2.0, "shadows": True}
# (name, source, setup, arguments)
cases = [
    ("peak-u16", "peak16.pgm", "", DEFAULTS),
    ("wave-u16", "wave16.pgm", "", ODD),
    ("wave-float", "wave16.pgm", "(gimp-image-convert-precision image PRECISION-FLOAT-NON-LINEAR)", ODD),
    ("peak-rgba-u8", "peak8.pgm", "(gimp-image-convert-rgb image) (gimp-layer-add-alpha layer)",
     dict(DEFAULTS, **{"view-azimuth": 45.0})),
    ("peak-west", "peak16.pgm", "", dict(TOP, **{"light-azimuth": 270.0})),
    ("peak-east", "peak16.pgm", "", dict(TOP, **{"light-azimuth": 90.0})),
]
result = session.run(*[view_script(*case) for case in cases])
checks.check(result.returncode == 0, "the views' batch exited %d:\n%s" % (result.returncode, error_excerpt(result.stderr)))
output = result.stdout + result.stderr
pictures = {}
for name, source, setup, args in cases:
    info = [line.split()[-3:] for line in output.splitlines() if ("view3d-info %s " % name) in line]
    checks.check(info == [[str(args["width"]), str(args["height"]), "0"]],
                 "%s: the returned image is not %d x %d RGB (0): %s" % (name, args["width"], args["height"], info))
    if not checks.check(os.path.exists(path(name + ".ppm")), "%s: nothing exported" % name):
        continue
    got = read_pnm(path(name + ".ppm"))
    want = reference(name, source, args)
    pictures[name] = got
    differ = sum(a != b for ca, cb in zip(got[2], want[2]) for a, b in zip(ca, cb))
    checks.check(got[:2] == want[:2] and differ == 0,
                 "%s: %d samples differ from terrain-view3d's picture" % (name, differ))


def brightness(picture, x, y):
    width, _, (r, g, b) = picture
    total = 0.0
    for j in range(y - 2, y + 3):
        for i in range(x - 2, x + 3):
            k = j * width + i
            total += 0.2126 * r[k] + 0.7152 * g[k] + 0.0722 * b[k]
    return 255 * total / 25


def at(offset):
    """From straight above, the picture is the layer (a 3 % margin each side)."""
    return int(round(300 * (0.5 + 0.94 * offset / 128.0)))


for name, sun_east in (("peak-west", False), ("peak-east", True)):
    if name not in pictures:
        continue
    p = pictures[name]
    west_flank, east_flank = brightness(p, at(-12), at(0)), brightness(p, at(12), at(0))
    west_ground, east_ground = brightness(p, at(-40), at(0)), brightness(p, at(40), at(0))
    lit, dark = (east_flank, west_flank) if sun_east else (west_flank, east_flank)
    before, behind = (east_ground, west_ground) if sun_east else (west_ground, east_ground)
    checks.check(lit > dark + 30, "%s: flank facing the sun %.1f, the other %.1f" % (name, lit, dark))
    checks.check(behind < before - 10, "%s: ground in the peak's shadow %.1f, before it %.1f" % (name, behind, before))

# Bad arguments: exit 70, the argument named, the layer and the image list unchanged.
failures = [
    ("width", {"width": 0}, "width"),
    ("light-elevation", {"light-elevation": 95.0}, "light-elevation"),
    ("view-elevation", {"view-elevation": -1.0}, "view-elevation"),
    ("exaggeration", {"exaggeration": -0.5}, "exaggeration"),
]
for name, args, words in failures:
    keywords = " ".join("#:%s %s" % (k, scheme(v)) for k, v in args.items())
    before, after = path("fail-%s-before.pgm" % name), path("fail-%s-after.pgm" % name)
    guarded = """(let* ((image (car (gimp-file-load RUN-NONINTERACTIVE "%s")))
       (layer (vector-ref (car (gimp-image-get-layers image)) 0))
       (count (length (vector->list (car (gimp-get-images))))))
  (gimp-file-save RUN-NONINTERACTIVE image "%s" -1)
  (catch #f (plug-in-terrain-3d-view #:image image #:drawables (vector layer) %s))
  (gimp-file-save RUN-NONINTERACTIVE image "%s" -1)
  (gimp-message (if (= count (length (vector->list (car (gimp-get-images))))) "view3d-images: same" "view3d-images: more")))""" % (
        path("peak16.pgm"), before, keywords, after)
    bare = """(let* ((image (car (gimp-file-load RUN-NONINTERACTIVE "%s")))
       (layer (vector-ref (car (gimp-image-get-layers image)) 0)))
  (plug-in-terrain-3d-view #:image image #:drawables (vector layer) %s))""" % (path("peak16.pgm"), keywords)
    result = session.run(guarded, bare)
    out = result.stdout + result.stderr
    checks.check(result.returncode == 70, "%s: exit %d, want 70:\n%s" % (name, result.returncode, out[-1500:]))
    checks.check(words in out, "%s: the message does not name '%s':\n%s" % (name, words, out[-1500:]))
    checks.check("view3d-images: same" in out, "%s: a failed call left an image:\n%s" % (name, out[-1500:]))
    if checks.check(os.path.exists(before) and os.path.exists(after), "%s: nothing exported" % name):
        checks.check(open(before, "rb").read() == open(after, "rb").read(), "%s: the layer changed" % name)

# No drawable: a calling error naming it.
result = session.run("""(let* ((image (car (gimp-file-load RUN-NONINTERACTIVE "%s"))))
  (plug-in-terrain-3d-view #:image image #:drawables (vector)))""" % path("peak16.pgm"))
checks.check(result.returncode == 70 and "exactly one drawable" in result.stderr,
             "no drawable: exit %d:\n%s" % (result.returncode, result.stderr[-1500:]))
checks.done()
