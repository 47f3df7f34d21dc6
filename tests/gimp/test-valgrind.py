#!/usr/bin/env python3
"""Memcheck over the plug-in inside real GIMP: the plug-in path holds a wrapper that runs
the real binary under valgrind; a batch calls a generator, the band-wise field, a guided
render and the smoothing filter (incl. a rejected kernel). Every plug-in process must end
with "ERROR SUMMARY: 0 errors".

usage: test-valgrind.py PLUGIN_BINARY WORKDIR
"""
import glob
import os
import re
import stat
import sys

from checks import Checks
from gimpsession import GimpSession

plugin, workdir = (os.path.abspath(a) for a in sys.argv[1:3])
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-valgrind")
for old in glob.glob(os.path.join(workdir, "memcheck-*.log")):
    os.remove(old)

wrapper = os.path.join(workdir, "terrain-under-valgrind")
with open(wrapper, "w") as f:
    f.write('#!/bin/sh\nexec valgrind --tool=memcheck --track-origins=no --log-file=%s/memcheck-%%p.log '
            '"%s" "$@"\n' % (workdir, plugin))
os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
session = GimpSession(wrapper, os.path.join(workdir, "gimp"))

script = """(let* ((image (car (gimp-image-new-with-precision 200 150 GRAY PRECISION-U16-NON-LINEAR)))
       (layer (car (gimp-layer-new image "h" 200 150 GRAY-IMAGE 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer image layer 0 0)
  (plug-in-terrain-diamond-square #:image image #:drawables (vector layer) #:seed 3 #:edges "wrap")
  (plug-in-terrain-field #:image image #:drawables (vector layer) #:seed 3 #:offset-x -7)
  (plug-in-terrain-field #:image image #:drawables (vector layer) #:guide 1 #:guide-scale 8)
  (plug-in-terrain-smooth #:image image #:drawables (vector layer) #:method "matrix" #:kernel "box-5")
  (catch #f (plug-in-terrain-smooth #:image image #:drawables (vector layer) #:method "matrix"
                                    #:kernel "custom" #:custom-kernel "0 1 0 1 -4 1 0 1 0"))
  (gimp-image-delete image))"""
result = session.run(script, timeout=600)
checks.check(result.returncode == 0, "batch exited %d:\n%s" % (result.returncode, result.stderr[-2000:]))

logs = glob.glob(os.path.join(workdir, "memcheck-*.log"))
summaries = []
for log in logs:
    text = open(log).read()
    found = re.findall(r"ERROR SUMMARY: (\d+) errors", text)
    if found:  # processes that only query the plug-in end early; all must be clean
        summaries.append(int(found[-1]))
        checks.check(int(found[-1]) == 0, "%s: %s memcheck errors" % (log, found[-1]))
checks.check(len(summaries) >= 5, "expected memcheck summaries of 5 plug-in runs, got %d" % len(summaries))
print("memcheck: %d plug-in processes, %d errors in all" % (len(summaries), sum(summaries)))
checks.done()
