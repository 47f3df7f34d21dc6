"""The GIMP 3 versions this user has, and the profile folder each of them reads.

install-user's view of GIMP's own rules (libgimpbase/gimpenv.c, app/core/gimp-user-install.c),
checked against GIMP 3.0.4 and 3.2.6:
- GIMP 3.N's profile is ${XDG_CONFIG_HOME:-$HOME/.config}/GIMP/3.N; $GIMP3_DIRECTORY, when
  set, is the profile of every GIMP 3 (relative to $HOME when not absolute).
- GIMP reads plug-ins from the profile's plug-ins/ folder, and GEGL modules from
  ${XDG_DATA_HOME:-$HOME/.local/share}/gegl-0.4/plug-ins.
- On its first start (no profile folder yet) GIMP copies the newest older profile it finds
  (3.2 copies 3.0 whole, plug-ins/ included; 3.0 copies 2.10's settings but not its
  plug-ins). A profile folder made before that start stops the copy.
"""
import os
import re
import shutil
import subprocess

VERSIONED_BINARY = re.compile(r"^gimp(?:-console)?-(3\.\d+)$")
# Names whose version only --version tells (links to a versioned binary, or a GIMP 3 that
# ships no versioned name).
UNVERSIONED_BINARIES = ("gimp-console-3", "gimp-3", "gimp-console", "gimp")
PROFILE_NAME = re.compile(r"^(\d+)\.(\d+)$")


def _xdg(variable, default):
    # glib ignores a relative XDG_* value, as the base-directory spec asks.
    value = os.environ.get(variable, "")
    return value if os.path.isabs(value) else os.path.join(os.path.expanduser("~"), default)


def config_home():
    return _xdg("XDG_CONFIG_HOME", ".config")


def gegl_module_folder():
    """Where GIMP's GEGL loads this user's operation modules from."""
    return os.path.join(_xdg("XDG_DATA_HOME", os.path.join(".local", "share")), "gegl-0.4", "plug-ins")


def override_profile():
    """$GIMP3_DIRECTORY as GIMP resolves it, or None."""
    value = os.environ.get("GIMP3_DIRECTORY")
    if not value:
        return None
    return value if os.path.isabs(value) else os.path.join(os.path.expanduser("~"), value)


def version_key(version):
    return tuple(int(part) for part in version.split("."))


def _reported_version(binary):
    # "GNU Image Manipulation Program version 3.2.6": no display needed, quick.
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"version (3\.\d+)\.", out)
    return match.group(1) if match else None


def installed_versions():
    """{version: binary} of every GIMP 3 on PATH: versioned names (gimp-console-3.2, gimp-3.0)
    by their name, the others by what --version prints."""
    found = {}
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            match = VERSIONED_BINARY.match(name)
            path = os.path.join(folder, name)
            if match and os.access(path, os.X_OK):
                found.setdefault(match.group(1), path)
    for name in UNVERSIONED_BINARIES:
        path = shutil.which(name)
        if path:
            version = _reported_version(path)
            if version:
                found.setdefault(version, path)
    return found


def existing_profiles():
    """{version: folder} of the GIMP 3 profiles under the config folder."""
    root = os.path.join(config_home(), "GIMP")
    profiles = {}
    for name in os.listdir(root) if os.path.isdir(root) else ():
        match = PROFILE_NAME.match(name)
        if match and match.group(1) == "3" and os.path.isdir(os.path.join(root, name)):
            profiles[name] = os.path.join(root, name)
    return profiles


def profile_folder(version):
    return os.path.join(config_home(), "GIMP", version)


def older_profile(version):
    """The profile GIMP `version` would copy on its first start (see above), or None: any
    older GIMP's profile folder (2.x included)."""
    root = os.path.join(config_home(), "GIMP")
    older = []
    for name in os.listdir(root) if os.path.isdir(root) else ():
        match = PROFILE_NAME.match(name)
        if match and int(match.group(1)) >= 2 and version_key(name) < version_key(version) \
                and os.path.isdir(os.path.join(root, name)):
            older.append(name)
    return max(older, key=version_key) if older else None


def all_profile_folders():
    """Every folder a GIMP 3 of this user may read plug-ins from (for --uninstall, which
    also finds copies GIMP made of an older profile)."""
    folders = set(existing_profiles().values())
    if override_profile():
        folders.add(override_profile())
    return sorted(folders)
