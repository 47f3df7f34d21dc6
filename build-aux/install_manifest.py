"""Copies files into a folder and records them in a manifest there, so that exactly those
files (and the folders the copy made, when empty) can be removed again.

The manifest, MANIFEST in the destination folder, holds one line per entry, relative to
that folder: "file locale/de/LC_MESSAGES/gimp-terrain.mo" or "dir .." (a folder the install
made, in the order made). Relative paths keep it true for a copy of the folder, such as the
one GIMP 3.2 makes of a GIMP 3.0 profile on its first start.
"""
import os
import shutil

MANIFEST = "gimp-terrain.manifest"


def read(folder):
    """[(kind, relative path)] of folder's manifest; [] when it has none."""
    try:
        with open(os.path.join(folder, MANIFEST)) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return []
    return [tuple(line.split(" ", 1)) for line in lines if " " in line]


def _make_folders(folder, target):
    """Makes target's missing folders up to and including folder's parents; returns those it
    made, outermost first, relative to folder."""
    missing = []
    path = os.path.abspath(target)
    while not os.path.isdir(path):
        missing.append(path)
        path = os.path.dirname(path)
    made = []
    for path in reversed(missing):
        os.mkdir(path)
        made.append(os.path.relpath(path, folder))
    return made


def _remove_files(folder, entries):
    removed = []
    for kind, rel in entries:
        path = os.path.normpath(os.path.join(folder, rel))
        if kind == "file" and os.path.lexists(path):
            os.remove(path)
            removed.append(path)
    return removed


def _remove_empty_folders(folder, entries):
    # Innermost first: a folder empties once its subfolders are gone.
    paths = {os.path.normpath(os.path.join(folder, rel)) for kind, rel in entries if kind == "dir"}
    removed = []
    for path in sorted(paths, key=lambda p: p.count(os.sep), reverse=True):
        if os.path.isdir(path) and not os.listdir(path):
            os.rmdir(path)
            removed.append(path)
    return removed


def install(folder, files):
    """Copies files ({relative destination: source}) into folder, replacing what an earlier
    install recorded there; returns the destination paths. The earlier files are removed
    before the copy, not overwritten: a running GIMP keeps the plug-in binary and the module
    it has mapped."""
    old = read(folder)
    _remove_files(folder, old)
    made = [entry for entry in old if entry[0] == "dir"]
    made += [("dir", rel) for rel in _make_folders(folder, folder)]
    written = []
    for rel, source in sorted(files.items()):
        target = os.path.join(folder, rel)
        made += [("dir", d) for d in _make_folders(folder, os.path.dirname(target))]
        shutil.copy2(source, target)
        written.append(target)
    made = list(dict.fromkeys(made))  # a folder made again after being removed by hand
    with open(os.path.join(folder, MANIFEST), "w") as f:
        for kind, rel in made + [("file", rel) for rel in sorted(files)]:
            f.write("%s %s\n" % (kind, rel))
    return written


def uninstall(folder):
    """Removes what folder's manifest records, the manifest, then the folders the install
    made that are empty now; returns the removed paths ([] when there is no manifest)."""
    entries = read(folder)
    if not entries and not os.path.exists(os.path.join(folder, MANIFEST)):
        return []
    removed = _remove_files(folder, entries + [("file", MANIFEST)])
    return removed + _remove_empty_folders(folder, entries)
