#!/usr/bin/env python3
"""Determinism in real GIMP: every procedure (from terrain-docs, so new ones are included),
at its defaults, on 16-bit layers of two sizes that first hold a field render (the filters'
input; generators overwrite it), in four gimp-console sessions: TERRAIN_THREADS=1, 2 and 3,
and 2 again. Every exported layer must be byte-identical to the one-thread session's: the
same bits across runs, processes and thread counts.

usage: test-determinism.py PLUGIN_BINARY TERRAIN_DOCS WORKDIR
"""
import os
import re
import subprocess
import sys

from checks import Checks
from gimpsession import GimpSession

plugin, docs, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-determinism")
procedures = re.findall(r"^### (plug-in-terrain-[a-z-]+):",
                        subprocess.run([docs], check=True, capture_output=True, text=True).stdout,
                        flags=re.M)
checks.check(len(procedures) >= 6, "terrain-docs lists %d procedures" % len(procedures))
# The second is split into strips (over 2^20 pixels a strip: terrain-common.h) and bands.
SIZES = ((300, 200), (1600, 1400))


def script(name, w, h, path):
    return """(let* ((image (car (gimp-image-new-with-precision %d %d GRAY PRECISION-U16-NON-LINEAR)))
       (layer (car (gimp-layer-new image "h" %d %d GRAY-IMAGE 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer image layer 0 0)
  (plug-in-terrain-field #:image image #:drawables (vector layer) #:seed 3)
  (%s #:image image #:drawables (vector layer))
  (gimp-file-save RUN-NONINTERACTIVE image "%s" -1)
  (gimp-image-delete image))""" % (w, h, w, h, name, path)


def render_all(label, threads):
    out = os.path.join(workdir, label)
    os.makedirs(out, exist_ok=True)
    os.environ["TERRAIN_THREADS"] = str(threads)
    session = GimpSession(plugin, os.path.join(workdir, "gimp-" + label))
    files = {}
    scripts = []
    for name in procedures:
        for w, h in SIZES:
            path = os.path.join(out, "%s-%dx%d.pgm" % (name, w, h))
            if os.path.exists(path):
                os.remove(path)
            files[(name, w, h)] = path
            scripts.append(script(name, w, h, path))
    result = session.run(*scripts, timeout=600)
    checks.check(result.returncode == 0, "session %s exited %d:\n%s"
                 % (label, result.returncode, result.stderr[-2000:]))
    return files


reference = render_all("threads-1", 1)
for label, threads in (("threads-2", 2), ("threads-3", 3), ("threads-2-again", 2)):
    files = render_all(label, threads)
    for key, path in files.items():
        ref = reference[key]
        same = (os.path.exists(path) and os.path.exists(ref)
                and open(path, "rb").read() == open(ref, "rb").read())
        checks.check(same, "%s %dx%d: %s differs from one thread" % (key + (label,)))
checks.done()
