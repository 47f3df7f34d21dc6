#!/usr/bin/env python3
"""build-aux/install-user, used by real GIMP on the user's own profile: each case installs
for a user whose HOME is a fresh folder of the test, starts gimp-console-3 as that user (no
GIMP3_DIRECTORY unless the case sets it; only the plug-ins folder of the profile GIMP picks
itself, plus the few system plug-ins the test needs), then uninstalls.

- default folders: the profile ~/.config/GIMP/<this GIMP's version> is made; GIMP has every
  procedure (plug-in-terrain-*) in its PDB and every terrain:* operation in its process, and
  runs one; after --uninstall the files and the folders it made are gone, and so are the
  procedures and operations.
- XDG_CONFIG_HOME and XDG_DATA_HOME elsewhere, the profile already there with another
  plug-in, another file beside the module: installed where GIMP looks; --uninstall leaves
  the others and the folders it did not make.
- $GIMP3_DIRECTORY: that folder is the one profile, nothing goes to ~/.config.
- an older profile only (3.0 for GIMP 3.2, 2.10 for GIMP 3.0): the new version's profile is
  not made, so GIMP's first start still copies the older one (with the plug-in, from 3.0);
  then, with both profiles there, both get it; --uninstall removes it from both. From 2.10
  (nothing to install into) install-user installs nothing and fails, saying why.

usage: test-install-user.py INSTALL_USER BUILD_ROOT TERRAIN_DOCS WORKDIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from checks import Checks
from gimpsession import PYTHON_FU_HELPERS, GimpSession

install_user, build, docs, workdir = (os.path.abspath(a) for a in sys.argv[1:5])
checks = Checks("gimp-install-user")
shutil.rmtree(workdir, ignore_errors=True)
os.makedirs(workdir)

names = re.findall(r"^### (plug-in-terrain-[\w-]+):", subprocess.run(
    [docs], check=True, capture_output=True, text=True).stdout, re.M)
checks.check(len(names) >= 6, "terrain-docs lists only %d procedures" % len(names))
version = re.search(r"version (3\.\d+)\.", subprocess.run(
    ["gimp-console-3", "--version"], check=True, capture_output=True, text=True).stdout).group(1)
older = "3.0" if version != "3.0" else "2.10"  # the profile this GIMP copies on its first start

PLUGIN_FILES = ("terrain", "locale/de/LC_MESSAGES/gimp-terrain.mo")
MODULE_FILES = ("gimp-terrain.so", "gimp-terrain-locale/de/LC_MESSAGES/gimp-terrain.mo")

# In GIMP: which procedures and operations it has, the profile it runs on, and one render.
PROBE = r'''
import gi
gi.require_version("Gimp", "3.0")
from gi.repository import Gimp
%(helpers)s
image = Gimp.Image.new(64, 64, Gimp.ImageBaseType.GRAY)
layer = Gimp.Layer.new(image, "h", 64, 64, Gimp.ImageType.GRAY_IMAGE, 100, Gimp.LayerMode.NORMAL)
image.insert_layer(layer, None, 0)
print("PROFILE", Gimp.directory())
for name in %(names)r:
    print("PROCEDURE", name, Gimp.get_pdb().procedure_exists(name))
    try:
        found = Gimp.DrawableFilter.new(layer, "terrain:" + name[len("plug-in-terrain-"):], "t") is not None
    except Exception:
        found = False
    print("OPERATION", name, found)
if Gimp.get_pdb().procedure_exists("plug-in-terrain-field"):
    print("RENDERED", run_procedure("plug-in-terrain-field", image, layer))
'''


def run_install_user(home, env, *args, status=0):
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("GIMP3_", "XDG_"))}
    environment.update(HOME=home, **env)
    result = subprocess.run([install_user, "--build-dir", build, "--no-build", *args],
                            env=environment, capture_output=True, text=True, timeout=300)
    checks.check(result.returncode == status, "install-user %s exited %d, want %d:\n%s%s"
                 % (" ".join(args), result.returncode, status, result.stdout[-2000:], result.stderr[-2000:]))
    return result.stdout + result.stderr


def gimp_sees(label, home, env):
    """{"profile": folder, "procedures": {name: bool}, "operations": ..., "rendered": bool}."""
    session = GimpSession(None, os.path.join(workdir, "gimp-" + label), extra_plugins=("python-eval",),
                          user_home=home, user_env=env)
    result = session.run_python(PROBE % dict(helpers=PYTHON_FU_HELPERS, names=names))
    checks.check(result.returncode == 0, "%s: GIMP exited %d:\n%s" % (label, result.returncode, result.stderr[-2000:]))
    seen = {"procedures": {}, "operations": {}, "profile": None, "rendered": None}
    for kind, name, value in re.findall(r"^(PROCEDURE|OPERATION) (\S+) (True|False)$", result.stdout, re.M):
        seen["procedures" if kind == "PROCEDURE" else "operations"][name] = value == "True"
    profile = re.search(r"^PROFILE (.*)$", result.stdout, re.M)
    seen["profile"] = profile and profile.group(1)
    rendered = re.search(r"^RENDERED (\w+)$", result.stdout, re.M)
    seen["rendered"] = rendered and rendered.group(1) == "True"
    checks.check(len(seen["procedures"]) == len(names), "%s: the probe printed:\n%s%s"
                 % (label, result.stdout[-1500:], result.stderr[-1500:]))
    return seen


def check_gimp_has_all(label, seen, profile):
    checks.check(seen["profile"] == profile, "%s: GIMP ran on %s, not %s" % (label, seen["profile"], profile))
    for kind in ("procedures", "operations"):
        missing = [n for n, found in seen[kind].items() if not found]
        checks.check(not missing, "%s: GIMP lacks the %s of %s" % (label, kind, missing))
    checks.check(seen["rendered"], "%s: plug-in-terrain-field did not run" % label)


def check_gimp_has_none(label, seen):
    for kind in ("procedures", "operations"):
        left = [n for n, found in seen[kind].items() if found]
        checks.check(not left, "%s: GIMP still has the %s of %s after --uninstall" % (label, kind, left))


def check_files(label, folder, files, present):
    for rel in files:
        path = os.path.join(folder, rel)
        checks.check(os.path.isfile(path) == present, "%s: %s is %s" % (label, path, "missing" if present else "left"))
        checks.check(not present or path in printed[label], "%s: the output does not name %s" % (label, path))


def tree(folder):
    return sorted(os.path.relpath(os.path.join(root, name), folder)
                  for root, dirs, files in os.walk(folder) for name in dirs + files)


printed = {}

# Default folders, nothing there yet.
label, home = "default", os.path.join(workdir, "default")
os.makedirs(home)
profile = os.path.join(home, ".config", "GIMP", version)
modules = os.path.join(home, ".local", "share", "gegl-0.4", "plug-ins")
printed[label] = run_install_user(home, {})
check_files(label, os.path.join(profile, "plug-ins", "terrain"), PLUGIN_FILES, True)
check_files(label, modules, MODULE_FILES, True)
checks.check(os.access(os.path.join(profile, "plug-ins", "terrain", "terrain"), os.X_OK), "%s: no executable plug-in" % label)
check_gimp_has_all(label, gimp_sees(label, home, {}), profile)
printed[label] = run_install_user(home, {}, "--uninstall")
check_files(label, os.path.join(profile, "plug-ins", "terrain"), PLUGIN_FILES, False)
check_files(label, modules, MODULE_FILES, False)
checks.check(not os.path.exists(os.path.join(profile, "plug-ins")) and not os.path.exists(modules),
             "%s: folders install-user made are left: %s" % (label, tree(home)))
check_gimp_has_none(label, gimp_sees(label + "-uninstalled", home, {}))

# XDG folders elsewhere; an existing profile with another plug-in; another file by the module.
label, home = "xdg", os.path.join(workdir, "xdg")
env = {"XDG_CONFIG_HOME": os.path.join(home, "config"), "XDG_DATA_HOME": os.path.join(home, "data")}
profile = os.path.join(env["XDG_CONFIG_HOME"], "GIMP", version)
modules = os.path.join(env["XDG_DATA_HOME"], "gegl-0.4", "plug-ins")
others = [os.path.join(profile, "plug-ins", "other", "other"), os.path.join(modules, "other.txt")]
for path in others:
    os.makedirs(os.path.dirname(path))
    open(path, "w").close()
# Only what install-user touches: GIMP itself writes into the profile and ~/.cache.
untouched = (modules, os.path.join(profile, "plug-ins"))
before = [tree(folder) for folder in untouched]
printed[label] = run_install_user(home, env)
check_files(label, os.path.join(profile, "plug-ins", "terrain"), PLUGIN_FILES, True)
check_files(label, modules, MODULE_FILES, True)
checks.check(not os.path.exists(os.path.join(home, ".config")) and not os.path.exists(os.path.join(home, ".local")),
             "%s: installed outside the XDG folders: %s" % (label, tree(home)))
check_gimp_has_all(label, gimp_sees(label, home, env), profile)
printed[label] = run_install_user(home, env, "--uninstall")
checks.check([tree(folder) for folder in untouched] == before, "%s: before install-user %s, after --uninstall %s"
             % (label, before, [tree(folder) for folder in untouched]))

# $GIMP3_DIRECTORY: the one profile.
label, home = "gimp3-directory", os.path.join(workdir, "gimp3-directory")
env = {"GIMP3_DIRECTORY": os.path.join(home, "my-gimp")}
printed[label] = run_install_user(home, env)
check_files(label, os.path.join(env["GIMP3_DIRECTORY"], "plug-ins", "terrain"), PLUGIN_FILES, True)
checks.check(not os.path.exists(os.path.join(home, ".config")), "%s: a profile in ~/.config: %s" % (label, tree(home)))
check_gimp_has_all(label, gimp_sees(label, home, env), env["GIMP3_DIRECTORY"])
printed[label] = run_install_user(home, env, "--uninstall")
check_files(label, os.path.join(env["GIMP3_DIRECTORY"], "plug-ins", "terrain"), PLUGIN_FILES, False)

# Only an older GIMP's profile: this GIMP's first start copies it, unless its profile exists.
# GIMP finds the older profile by replacing the first "3.0" (its version) in its profile's
# path: under build-3.0/ it would look in build-2.10/. This user's home is in the temp folder.
label, home = "older-profile", tempfile.mkdtemp(prefix="terrain-install-user-")
checks.check(version not in home, "the temp folder %s holds %s: GIMP would not find the older profile" % (home, version))
old_profile = os.path.join(home, ".config", "GIMP", older)
profile = os.path.join(home, ".config", "GIMP", version)
os.makedirs(old_profile)
with open(os.path.join(old_profile, "sessionrc"), "w") as f:
    f.write("# the older GIMP's settings\n")
# Nothing else to install into when the older profile is GIMP 2's: install-user says so and fails.
printed[label] = run_install_user(home, {}, status=0 if older.startswith("3.") else 1)
checks.check(not os.path.exists(profile), "%s: install-user made %s: GIMP %s would not copy the %s profile"
             % (label, profile, version, older))
checks.check(re.search(r"GIMP %s\b.*\b%s\b" % (re.escape(version), re.escape(older)), printed[label]),
             "%s: the output does not say why GIMP %s was left out:\n%s" % (label, version, printed[label]))
seen = gimp_sees(label, home, {})
checks.check(os.path.isfile(os.path.join(profile, "sessionrc")), "%s: GIMP %s did not copy the %s profile: %s"
             % (label, version, older, tree(home)))
if older.startswith("3."):  # GIMP copies a GIMP 3 profile's plug-ins too
    check_files(label, os.path.join(old_profile, "plug-ins", "terrain"), PLUGIN_FILES, True)
    check_gimp_has_all(label, seen, profile)
    # Both profiles now: both get it (the copy GIMP made is replaced, and recorded).
    printed[label] = run_install_user(home, {})
    for folder in (old_profile, profile):
        check_files(label, os.path.join(folder, "plug-ins", "terrain"), PLUGIN_FILES, True)
    printed[label] = run_install_user(home, {}, "--uninstall")
    for folder in (old_profile, profile):
        check_files(label, os.path.join(folder, "plug-ins", "terrain"), PLUGIN_FILES, False)
else:
    check_files(label, os.path.join(home, ".local", "share", "gegl-0.4", "plug-ins"), MODULE_FILES, False)
shutil.rmtree(home)

checks.done()
