#!/usr/bin/env python3
"""The install, used by real GIMP: `meson install --destdir` of this build into the test's
folder, then gimp-console-3 with the installed plug-ins folder (and no other copy of the
plug-in) on its plug-in path.

- The plug-in lands in DESTDIR + the build's prefix + GIMP's plug-in folder for that
  prefix (gimplibdir of gimp-3.0.pc with its prefix replaced, as src/plugin/meson.build
  computes it) + terrain/terrain, with locale/de/LC_MESSAGES/gimp-terrain.mo beside it,
  and the AppStream file in share/metainfo.
- Every procedure of the descriptor table registers from there (gimp-pdb-procedure-exists)
  and one renders.
- The German catalog is found from the installed folder: a bad custom-kernel in a German
  session (LANG=de_DE.UTF-8, LANGUAGE=de) comes back in German, and in English otherwise.
- The GEGL module lands in gegl-0.4's plug-in folder for the prefix (pluginsdir of
  gegl-0.4.pc with its prefix replaced); with it in GIMP's module folder the procedures run
  in GIMP's process, without it in the plug-in, and both write the same pixels.

usage: test-install.py MESON BUILD_ROOT TERRAIN_DOCS WORKDIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

from checks import Checks
from gimpsession import GimpSession

meson, build, docs, workdir = sys.argv[1], *(os.path.abspath(a) for a in sys.argv[2:5])
checks = Checks("gimp-install")
destdir = os.path.join(workdir, "destdir")
shutil.rmtree(workdir, ignore_errors=True)
os.makedirs(workdir)

result = subprocess.run([meson, "install", "-C", build, "--no-rebuild", "--destdir", destdir],
                        capture_output=True, text=True)
checks.check(result.returncode == 0, "meson install --destdir exited %d:\n%s%s"
             % (result.returncode, result.stdout[-2000:], result.stderr[-2000:]))

options = {o["name"]: o["value"] for o in json.loads(subprocess.run(
    [meson, "introspect", "--buildoptions", build], check=True, capture_output=True, text=True).stdout)}
prefix = options["prefix"]
gimplibdir = subprocess.run(["pkg-config", "--define-variable=prefix=" + prefix, "--variable=gimplibdir",
                             "gimp-3.0"], check=True, capture_output=True, text=True).stdout.strip()
checks.check(gimplibdir.startswith(prefix + "/"), "gimplibdir %s is not under the prefix %s" % (gimplibdir, prefix))


def staged(path):
    return os.path.join(destdir, path.lstrip("/"))


plugins = staged(os.path.join(gimplibdir, "plug-ins"))
binary = os.path.join(plugins, "terrain", "terrain")
catalog = os.path.join(plugins, "terrain", "locale", "de", "LC_MESSAGES", "gimp-terrain.mo")
metainfo = staged(os.path.join(prefix, options["datadir"], "metainfo", "org.gimp.GIMP.Plugin.Terrain.metainfo.xml"))
geglplugins = subprocess.run(["pkg-config", "--define-variable=prefix=" + prefix, "--variable=pluginsdir",
                              "gegl-0.4"], check=True, capture_output=True, text=True).stdout.strip()
module = staged(os.path.join(geglplugins, "gimp-terrain.so"))
checks.check(os.path.isfile(module), "no GEGL module at %s" % module)
checks.check(os.access(binary, os.X_OK), "no executable plug-in at %s" % binary)
checks.check(os.path.isfile(catalog), "no German catalog at %s" % catalog)
checks.check(os.path.isfile(metainfo), "no AppStream metainfo at %s" % metainfo)
checks.check(sorted(os.listdir(plugins)) == ["terrain"], "the plug-ins folder holds %s" % os.listdir(plugins))
outside = [os.path.relpath(os.path.join(root, name), destdir) for root, _, files in os.walk(destdir)
           for name in files if not os.path.join(root, name).startswith(staged(prefix) + "/")]
checks.check(not outside, "installed outside DESTDIR + prefix: %s" % outside)

names = re.findall(r"^### (plug-in-terrain-[\w-]+):", subprocess.run(
    [docs], check=True, capture_output=True, text=True).stdout, re.M)
checks.check(len(names) >= 6, "terrain-docs lists only %d procedures" % len(names))

# No plug-in binary of its own: only the installed folder provides terrain; once without and
# once with the installed module.
exists = "".join('(display "%s ")(display (gimp-pdb-procedure-exists "%s"))(newline)' % (n, n) for n in names)
render = """(let* ((image (car (gimp-image-new 64 64 GRAY)))
       (layer (car (gimp-layer-new image "height" 64 64 GRAY-IMAGE 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer image layer 0 0)
  (plug-in-terrain-diamond-square #:image image #:drawables (vector layer) #:seed 3)
  (display "mean ")(display (car (gimp-drawable-histogram layer HISTOGRAM-VALUE 0 1)))(newline)
  (display "pixel ")(display (gimp-drawable-get-pixel layer 17 41))(newline))"""
pixels = {}
for label, modules in (("plug-in", ()), ("module", (module,))):
    session = GimpSession(None, os.path.join(workdir, "gimp-" + label), plugin_dirs=[plugins], modules=modules)
    result = session.run(exists, render)
    checks.check(result.returncode == 0, "installed session (%s) exited %d:\n%s"
                 % (label, result.returncode, result.stderr[-2000:]))
    for name in names:
        checks.check(re.search(r"^%s \(1\)$" % re.escape(name), result.stdout, re.M),
                     "%s is not registered from the installed folder:\n%s" % (name, result.stdout[-1500:]))
    mean = re.search(r"^mean ([\d.]+)", result.stdout, re.M)
    checks.check(mean and 10 < float(mean.group(1)) < 245,  # 0 to 255
                 "the installed Diamond-Square rendered no terrain (mean %s)" % (mean and mean.group(1)))
    pixel = re.search(r"^pixel (.*)$", result.stdout, re.M)
    pixels[label] = pixel and pixel.group(1)
    checks.check(("renders in the plug-in" in result.stderr) == (label == "plug-in"),
                 "%s: the plug-in %s in GIMP's process:\n%s"
                 % (label, "ran" if label == "plug-in" else "did not run", result.stderr[-1500:]))
checks.check(pixels["plug-in"] and pixels["plug-in"] == pixels["module"],
             "a pixel with and without the module: %s" % pixels)

BAD = """(let* ((image (car (gimp-image-new 32 32 GRAY)))
       (layer (car (gimp-layer-new image "height" 32 32 GRAY-IMAGE 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer image layer 0 0)
  (plug-in-terrain-smooth #:image image #:drawables (vector layer) #:method "matrix"
                          #:kernel "custom" #:custom-kernel "1 2 x"))"""
for locale, words in ((None, "is not a number"), ("de_DE.UTF-8", "ist keine Zahl")):
    session = GimpSession(None, os.path.join(workdir, "gimp-%s" % (locale or "C")), plugin_dirs=[plugins],
                          locale=locale)
    result = session.run(BAD)
    checks.check(result.returncode == 70, "bad kernel (%s): exit %d, want 70" % (locale or "C", result.returncode))
    checks.check(words in result.stderr, "bad kernel (%s): no %r in:\n%s" % (locale or "C", words, result.stderr[-1500:]))
    checks.check("catalog directory does not exist" not in result.stderr,
                 "the installed plug-in found no catalog folder:\n%s" % result.stderr[-1500:])

checks.done()
