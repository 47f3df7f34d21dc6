#!/usr/bin/env python3
"""Mnemonics unique in every dialog in German, as the descriptors test checks them in English.

A dialog holds its procedure's argument labels, the plug-in's own rows (src/plugin/
register.c), the filters' "Preview at _1:1", and GimpProcedureDialog's buttons, whose German
labels are GIMP's own (the same in GIMP 3.0.4 and 3.2.6): each letter may be taken once.
The German labels come from po/de.po; a label without a translation keeps its English.

usage: check-mnemonics-de.py SOURCE_ROOT
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gimp"))
from checks import Checks  # noqa: E402

root = sys.argv[1]
checks = Checks("mnemonics-de")

# GimpProcedureDialog's buttons and the preview's check box, as GIMP's German catalog has them.
GIMP_GERMAN = ["_Zurücksetzen", "Abbre_chen", "_OK", "_Hilfe", "_Gespeicherte Einstellungen laden",
               "Einstellungen _speichern", "_Vorschau"]


def catalog():
    text = open(os.path.join(root, "po", "de.po"), encoding="utf-8").read()
    pairs = re.findall(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)', text, flags=re.M)
    join = lambda block: "".join(re.findall(r'"(.*)"', block))  # noqa: E731
    return {join(a): join(b) for a, b in pairs}


def mnemonic(label):
    found = re.search(r"_(.)", label.replace("__", ""))
    return found.group(1).lower() if found else None


def c_source(path):
    return open(os.path.join(root, path), encoding="utf-8").read()


german = catalog()
# The plug-in's own rows: every _("...") label with a mnemonic in register.c but the submenu's.
own_rows = [label for label in re.findall(r'_\("([^"]*_[^"]*)"\)', c_source("src/plugin/register.c"))
            if label != "_Shape the Map"]
guide = re.findall(r'TERRAIN_\w+ \("[\w-]+", N_\("([^"]+)"\)', c_source("src/procedures/procedure-info.h"))

for path in sorted(glob.glob(os.path.join(root, "src", "procedures", "*.c"))):
    source = open(path, encoding="utf-8").read()
    labels = re.findall(r'TERRAIN_\w+ \(\s*"[\w-]+",\s*N_\("([^"]+)"\)', source)
    if "TERRAIN_SEED" in source:
        labels.append("S_eed")
    if "TERRAIN_GUIDE_ARGS" in source:
        labels += guide
    if not labels:
        continue
    rows = own_rows + (["Preview at _1:1"] if "TERRAIN_FILTER" in source else [])
    shown = [german.get(l) or l for l in labels + rows] + GIMP_GERMAN
    letters = [mnemonic(l) for l in shown]
    twice = sorted({m for m in letters if m and letters.count(m) > 1})
    checks.check(not twice, "%s: German mnemonics taken twice: %s" % (
        os.path.basename(path), {m: [l for l in shown if mnemonic(l) == m] for m in twice}))
checks.done()
