#!/usr/bin/env python3
"""Translations through real GIMP: the plug-in, with its catalogs next to it as installed
(plug-ins/terrain/locale/de/LC_MESSAGES/gimp-terrain.mo, see gimpsession.py), speaks German
in a German session (LANG=de_DE.UTF-8, LANGUAGE=de) and English in C.UTF-8.

- What the PDB shows of every procedure of the descriptor table (menu label, blurb, help,
  every argument's nick and blurb, every choice's label and help), read with Python-Fu in
  an English and a German session: each German string must be po/de.po's translation of
  the English one (so every user-visible registration string is translated, and the
  plug-in's _() really uses the gimp-terrain domain).
- Error messages: a malformed custom-kernel (a reason built in src/procedures), a
  roughness below 0.5 with convention "lighthouse-code" (a reason with %g) and two
  drawables (a message of the plug-in itself) come back in German, exactly as po/de.po
  says, and in English in the English session.
- With GEGL_MODULE: the procedures' GEGL operations, as GIMP hands them to a plug-in, have
  the same German nicks, blurbs and choice labels (the module reads the same catalogs).

usage: test-i18n.py PLUGIN_BINARY TERRAIN_DOCS PO_DIR WORKDIR [GEGL_MODULE]
"""
import ast
import json
import os
import re
import subprocess
import sys

from checks import Checks
from gimpsession import GimpSession, catalog_dir

plugin, docs, po_dir, workdir = (os.path.abspath(a) for a in sys.argv[1:5])
modules = [os.path.abspath(a) for a in sys.argv[5:6]]
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-i18n")
GERMAN = "de_DE.UTF-8"


def read_po(path):
    """msgid -> msgstr of a .po file (no plurals or contexts here), without the header,
    fuzzy and obsolete entries."""
    catalog = {}
    for block in open(path, encoding="utf-8").read().split("\n\n"):
        fields, field, fuzzy = {}, None, False
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("#"):
                fuzzy = fuzzy or (line.startswith("#,") and "fuzzy" in line)
            elif line.startswith(("msgid ", "msgstr ")):
                field, text = line.split(" ", 1)
                fields[field] = ast.literal_eval(text)
            elif line.startswith('"') and field:
                fields[field] += ast.literal_eval(line)
        if fields.get("msgid") and fields.get("msgstr") and not fuzzy:
            catalog[fields["msgid"]] = fields["msgstr"]
    return catalog


german = read_po(os.path.join(po_dir, "de.po"))
checks.check(len(german) > 100, "po/de.po: only %d translations read" % len(german))


def to_german(text):
    """What po/de.po makes of an English string, or None: a msgid, or an argument's blurb
    with its range added ("… (1 to 100000)", terrain_arg_blurb)."""
    if text in german:
        return german[text]
    m = re.match(r"^(.*) \((-?[\d.e+-]+) to (-?[\d.e+-]+)\)$", text, re.S)
    if m and m.group(1) in german and "%s (%s)" in german and "%s to %s" in german:
        return german["%s (%s)"] % (german[m.group(1)], german["%s to %s"] % (m.group(2), m.group(3)))
    return None

# The procedures of the descriptor table, as the reference generator lists them.
names = re.findall(r"^### (plug-in-terrain-[\w-]+):", subprocess.run(
    [docs], check=True, capture_output=True, text=True).stdout, re.M)
checks.check(len(names) >= 6, "terrain-docs lists only %d procedures" % len(names))

catalogs = catalog_dir(plugin)
checks.check(catalogs and os.path.exists(os.path.join(catalogs, "de", "LC_MESSAGES", "gimp-terrain.mo")),
             "no compiled German catalog for %s (looked in %s)" % (plugin, catalogs))

DUMP = """
import json
from gi.repository import Gimp, GObject
for name in %r:
    p = Gimp.get_pdb().lookup_procedure(name)
    if p is None:
        print("TERRAIN-I18N " + json.dumps({"name": name, "missing": True}))
        continue
    args = []
    for a in p.get_arguments()[3:]:  # after run-mode, image and drawables: ours
        arg = {"name": a.name, "nick": a.get_nick(), "blurb": a.get_blurb(), "choices": []}
        if GObject.type_name(a.__gtype__) == "GimpParamChoice":
            c = Gimp.param_spec_choice_get_choice(a)
            arg["choices"] = [[n, c.get_label(n), c.get_help(n)] for n in c.list_nicks()]
        args.append(arg)
    print("TERRAIN-I18N " + json.dumps({"name": name, "label": p.get_menu_label(),
          "blurb": p.get_blurb(), "help": p.get_help(), "args": args}))
""" % (names,)


def dump(session):
    result = session.run_python(DUMP)
    checks.check(result.returncode == 0, "Python-Fu dump exited %d:\n%s" % (result.returncode, result.stderr[-2000:]))
    return {d["name"]: d for d in (json.loads(line.split(" ", 1)[1])
                                   for line in result.stdout.splitlines() if line.startswith("TERRAIN-I18N "))}


def strings(info):
    """(where, text) of every user-visible string of one procedure's dump."""
    yield "menu label", info["label"]
    yield "blurb", info["blurb"]
    yield "help", info["help"]
    for arg in info["args"]:
        yield "%s nick" % arg["name"], arg["nick"]
        yield "%s blurb" % arg["name"], arg["blurb"]
        for nick, label, help in arg["choices"]:
            yield "%s choice %s label" % (arg["name"], nick), label
            yield "%s choice %s help" % (arg["name"], nick), help


english_session = GimpSession(plugin, os.path.join(workdir, "en"), extra_plugins=("python-eval",),
                              modules=modules)
german_session = GimpSession(plugin, os.path.join(workdir, "de"), extra_plugins=("python-eval",), locale=GERMAN,
                             modules=modules)
english, deutsch = dump(english_session), dump(german_session)

for name in names:
    if not checks.check(name in english and name in deutsch and "missing" not in english[name]
                        and "missing" not in deutsch[name], "%s: not registered" % name):
        continue
    en, de = list(strings(english[name])), list(strings(deutsch[name]))
    checks.check(len(en) == len(de), "%s: %d strings in English, %d in German" % (name, len(en), len(de)))
    for (where, text), (_, translated) in zip(en, de):
        want = to_german(text)
        if checks.check(want is not None, "%s %s: no German translation in po/de.po for %r" % (name, where, text)):
            checks.check(translated == want, "%s %s: German session shows %r, want %r"
                         % (name, where, translated, want))

def plain(label):
    """A label without its mnemonic, as the operations and the procedure reference show it."""
    return re.sub(r"_(_?)", r"\1", label) if label else label


# Known German words, so the comparison above cannot pass with English on both sides.
smooth = deutsch.get("plug-in-terrain-smooth", {})
checks.check(plain(smooth.get("label")) == "Höhenkarte glätten...", "Smooth's German menu label is %r" % smooth.get("label"))
seed = [a for a in deutsch.get("plug-in-terrain-diamond-square", {}).get("args", []) if a["name"] == "seed"]
checks.check(seed and plain(seed[0]["nick"]) == "Startwert", "the German nick of seed is %r" % (seed and seed[0]["nick"]))
checks.check(english.get("plug-in-terrain-smooth", {}).get("label") == "_Smooth Heightmap...",
             "Smooth's English menu label is %r" % english.get("plug-in-terrain-smooth", {}).get("label"))

# The operations' properties, as GIMP hands them to a plug-in, in the German session.
OPERATIONS = """
import json
from gi.repository import Gimp, GObject
image = Gimp.Image.new(16, 16, Gimp.ImageBaseType.GRAY)
layer = Gimp.Layer.new(image, "h", 16, 16, Gimp.ImageType.GRAY_IMAGE, 100, Gimp.LayerMode.NORMAL)
image.insert_layer(layer, None, 0)
for name in %r:
    f = Gimp.DrawableFilter.new(layer, "terrain:" + name[len("plug-in-terrain-"):], "t")
    props = {}
    for p in f.get_config().list_properties() if f else []:
        prop = {"nick": p.get_nick(), "blurb": p.get_blurb(), "choices": []}
        if GObject.type_name(p.__gtype__) == "GimpParamChoice":
            c = Gimp.param_spec_choice_get_choice(p)
            prop["choices"] = [c.get_label(n) for n in c.list_nicks()]
        props[p.name] = prop
    print("TERRAIN-OPS " + json.dumps({"name": name, "props": props}))
""" % (names,)
if modules:
    result = german_session.run_python(OPERATIONS)
    operations = {d["name"]: d["props"] for d in (json.loads(line.split(" ", 1)[1])
                  for line in result.stdout.splitlines() if line.startswith("TERRAIN-OPS "))}
    for name in names:
        props = operations.get(name, {})
        checks.check(props, "%s: no operation in the German session:\n%s" % (name, result.stderr[-1500:]))
        for arg in english.get(name, {}).get("args", []):
            if arg["name"] == "non-destructive":
                continue
            prop = props.get(arg["name"], {})
            checks.check(prop.get("nick") == plain(german.get(arg["nick"])) and prop.get("blurb") == to_german(arg["blurb"]),
                         "terrain:%s %s: German nick/blurb %r/%r" % (name[16:], arg["name"], prop.get("nick"),
                                                                       prop.get("blurb")))
            checks.check(prop.get("choices") == [german.get(label) for _, label, _ in arg["choices"]],
                         "terrain:%s %s: German choices %r" % (name[16:], arg["name"], prop.get("choices")))

# ---------------------------------------------------------------------------------------------
# Error messages, in both languages.
IMAGE = """(let* ((image (car (gimp-image-new 32 32 GRAY)))
       (layer (car (gimp-layer-new image "height" 32 32 GRAY-IMAGE 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer image layer 0 0)
  %s)"""
INVALID = "%s: invalid argument: %s"
KERNEL = ("custom-kernel: item %d, \"%.*s\", is not a number (write numbers like 2, -0.5, .25 or "
          "1e-2, with '.' as decimal point)")
ROUGHNESS = ("roughness %g is below 0.5: with convention \"lighthouse-code\" H = 1/roughness "
             "must stay within 2")
DRAWABLES = "Terrain procedures work on exactly one drawable, got %d."
# (name, call, English format, its arguments, the argument that is itself a translated reason)
failures = [
    ("kernel", '(plug-in-terrain-smooth #:image image #:drawables (vector layer) #:method "matrix" '
               '#:kernel "custom" #:custom-kernel "1 2 x")', KERNEL, (3, 1, "x"), "plug-in-terrain-smooth"),
    ("lighthouse", '(plug-in-terrain-diamond-square #:image image #:drawables (vector layer) '
                   '#:convention "lighthouse-code" #:roughness 0.3)', ROUGHNESS, (0.3,),
     "plug-in-terrain-diamond-square"),
    ("drawables", "(plug-in-terrain-diamond-square #:image image #:drawables (vector layer layer))",
     DRAWABLES, (2,), None),
]


def message(catalog, fmt, args, procedure):
    text = catalog.get(fmt, fmt) % args
    return catalog.get(INVALID, INVALID) % (procedure, text) if procedure else text


for name, call, fmt, args, procedure in failures:
    for session, catalog, language in ((english_session, {}, "English"), (german_session, german, "German")):
        result = session.run(IMAGE % call)
        want = message(catalog, fmt, args, procedure)
        checks.check(result.returncode == 70, "%s (%s): exit %d, want 70" % (name, language, result.returncode))
        checks.check(want in result.stderr, "%s (%s): no %r in:\n%s" % (name, language, want, result.stderr[-1500:]))
    checks.check(message(german, fmt, args, procedure) != message({}, fmt, args, procedure),
                 "%s: the German message equals the English one" % name)

checks.done()
