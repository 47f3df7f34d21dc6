#!/usr/bin/env python3
"""build-id.py OUTPUT VERSION DIR...: writes a C header defining TERRAIN_BUILD_ID as the
version plus a hash of every file under the DIRs (Markdown documents aside): the sources
that decide a procedure's pixels. The plug-in uses the GEGL module only when the module's
build id equals its own, so a module built from other sources never gives other pixels.
The header is rewritten only when its text changes (no needless rebuilds)."""
import hashlib
import os
import sys

output, version, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
digest = hashlib.sha256()
for top in dirs:
    for root, subdirs, files in os.walk(top):
        subdirs.sort()
        for name in sorted(files):
            if name.endswith(".md"):   # documentation (src/procedures/README.md) decides no pixel
                continue
            path = os.path.join(root, name)
            digest.update(os.path.relpath(path, top).encode() + b"\0")
            with open(path, "rb") as f:
                digest.update(f.read())
text = '#define TERRAIN_BUILD_ID "%s+%s"\n' % (version, digest.hexdigest()[:16])
if not os.path.exists(output) or open(output).read() != text:
    with open(output, "w") as f:
        f.write(text)
