#!/usr/bin/env python3
"""Checks the translations against the sources, with the gettext tools only (no GIMP):

- every source file under src/ with a translatable string (_("...") or N_("...")) is listed
  in po/POTFILES, and every listed file exists;
- for every language in po/LINGUAS: msgfmt --check accepts the catalog (formats such as
  %s and %d match the English), and it translates every string of the current sources,
  with no fuzzy or untranslated entry (msgcmp against a template made here from POTFILES).

It prints "po: N passed, N failed". When it fails after a source change, run
    meson compile -C build gimp-terrain-update-po
and translate what po/README.md says.

usage: check-po.py SOURCE_ROOT WORKDIR
"""
import os
import re
import subprocess
import sys

source, workdir = (os.path.abspath(a) for a in sys.argv[1:3])
os.makedirs(workdir, exist_ok=True)
po = os.path.join(source, "po")
passed = failed = 0


def check(condition, message):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print("FAILED: %s" % message, flush=True)
    return condition


def listed(name):
    with open(os.path.join(po, name), encoding="utf-8") as f:
        return [w for line in f if not line.lstrip().startswith("#") for w in line.split()]


potfiles = listed("POTFILES")
marked = re.compile(r'(?<![A-Za-z0-9_])N?_\s*\(\s*"')
with_strings = set()
for root, dirs, files in os.walk(os.path.join(source, "src")):
    for name in files:
        if name.endswith((".c", ".h")):
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as f:
                if marked.search(f.read()):
                    with_strings.add(os.path.relpath(path, source))
for path in sorted(with_strings):
    check(path in potfiles, "%s has translatable strings but is not in po/POTFILES" % path)
for path in potfiles:
    check(os.path.exists(os.path.join(source, path)), "po/POTFILES lists %s, which does not exist" % path)

# The same keywords as meson's i18n "glib" preset (po/meson.build).
pot = os.path.join(workdir, "gimp-terrain.pot")
result = subprocess.run(["xgettext", "--from-code=UTF-8", "--keyword=_", "--keyword=N_",
                         "--flag=N_:1:pass-c-format", "--package-name=gimp-terrain",
                         "-D", source, "-o", pot] + potfiles, capture_output=True, text=True)
check(result.returncode == 0, "xgettext failed:\n%s" % result.stderr)

for lang in listed("LINGUAS"):
    catalog = os.path.join(po, lang + ".po")
    if not check(os.path.exists(catalog), "po/LINGUAS lists %s, but po/%s.po is missing" % (lang, lang)):
        continue
    result = subprocess.run(["msgfmt", "--check", "--statistics", "-o", os.devnull, catalog],
                            capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
    check(result.returncode == 0, "msgfmt --check %s.po:\n%s" % (lang, result.stderr))
    check(not re.search(r"fuzzy|untranslated", result.stderr),
          "%s.po has fuzzy or untranslated strings: %s" % (lang, result.stderr.strip()))
    result = subprocess.run(["msgcmp", catalog, pot], capture_output=True, text=True)
    check(result.returncode == 0, "%s.po misses strings of the sources:\n%s" % (lang, result.stderr[-3000:]))

print("po: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
