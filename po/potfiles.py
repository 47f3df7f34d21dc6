#!/usr/bin/env python3
"""potfiles.py SOURCE_ROOT [--write]: the source files under src/ with a translatable string
(_("...") or N_("...")), relative to the root, one a line: what po/POTFILES must list. With
--write, rewrites po/POTFILES with them (build-aux/regenerate does)."""
import os
import re
import sys

HEADER = ("# Every source file with translatable strings (_() or N_()), relative to the project root.\n"
          "# Written by build-aux/regenerate (po/potfiles.py); the \"po\" test fails when it is stale.\n")
MARKED = re.compile(r'(?<![A-Za-z0-9_])N?_\s*\(\s*"')


def files_with_strings(source):
    found = []
    for root, dirs, files in os.walk(os.path.join(source, "src")):
        for name in files:
            path = os.path.join(root, name)
            if name.endswith((".c", ".h")) and MARKED.search(open(path, encoding="utf-8").read()):
                found.append(os.path.relpath(path, source))
    return sorted(found)


if __name__ == "__main__":
    source = os.path.abspath(sys.argv[1])
    text = "".join(path + "\n" for path in files_with_strings(source))
    if "--write" in sys.argv[2:]:
        with open(os.path.join(source, "po", "POTFILES"), "w") as f:
            f.write(HEADER + text)
    else:
        sys.stdout.write(text)
