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

from potfiles import files_with_strings

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


def msgids(po_text):
    """The msgids of a catalog's text, but the header's."""
    ids = []
    for block in po_text.split("\n\n"):
        m = re.search(r'^msgid ((?:".*"\n?)+)', block + "\n", re.M)
        if m:
            text = "".join(eval(part) for part in re.findall(r'"(?:[^"\\]|\\.)*"', m.group(1)))
            if text:
                ids.append(text)
    return ids


def listed(name):
    with open(os.path.join(po, name), encoding="utf-8") as f:
        return [w for line in f if not line.lstrip().startswith("#") for w in line.split()]


potfiles = listed("POTFILES")
for path in files_with_strings(source):
    check(path in potfiles, "%s has translatable strings but is not in po/POTFILES "
          "(build-aux/regenerate writes it)" % path)
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
    for kind in ("untranslated", "only-fuzzy"):
        listed_entries = subprocess.run(["msgattrib", "--" + kind, "--no-obsolete", catalog],
                                        capture_output=True, text=True).stdout
        for msgid in msgids(listed_entries):
            check(False, "%s.po: %s %r" % (lang, "untranslated:" if kind == "untranslated"
                                           else "fuzzy (check it, then drop the flag):", msgid))
    result = subprocess.run(["msgcmp", catalog, pot], capture_output=True, text=True)
    check(result.returncode == 0, "%s.po misses strings of the sources:\n%s" % (lang, result.stderr[-3000:]))

print("po: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
