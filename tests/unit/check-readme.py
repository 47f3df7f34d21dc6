#!/usr/bin/env python3
"""The README's procedure reference must be exactly what terrain-docs prints from the
descriptors (run build-aux/regenerate after changing a descriptor).
usage: check-readme.py TERRAIN_DOCS README.md"""
import re
import subprocess
import sys

docs = subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True).stdout
readme = open(sys.argv[2]).read()
found = re.search(r"<!-- procedures:begin -->\n(.*?)<!-- procedures:end -->", readme, re.S)
ok_markers = found is not None
ok_current = ok_markers and found.group(1) == docs
if not ok_markers:
    print("README.md has no procedures:begin/end markers")
elif not ok_current:
    print("README.md's procedure reference is stale: run build-aux/regenerate")
procedures = re.findall(r"^### (plug-in-terrain-[a-z-]+)", docs, re.M)
ok_all = len(procedures) >= 6
print("readme: %d passed, %d failed" % (ok_markers + ok_current + ok_all, 3 - ok_markers - ok_current - ok_all))
sys.exit(0 if ok_markers and ok_current and ok_all else 1)
