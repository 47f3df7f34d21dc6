"""Runs real gimp-console-3 (or gimp-3 under a display: the names GIMP 3.0 and 3.2 both have) in an isolated environment.

Every session gets a fresh GIMP3_DIRECTORY, HOME and XDG_RUNTIME_DIR, and a plug-in path
that holds only the plug-in under test plus the system plug-ins the tests need (Script-Fu
and the file exporters): faster start-up, and no stray user settings or .last values.

The plug-in sits as installed: plug-ins/terrain/terrain, with its compiled translations in
plug-ins/terrain/locale/<lang>/LC_MESSAGES/gimp-terrain.mo, linked from the build tree's
po/ (or from a locale/ folder next to the binary). Sessions run in C.UTF-8 (English), or in
the locale given as `locale`, e.g. "de_DE.UTF-8" (see environment()).
"""
import glob
import os
import shutil
import subprocess
import tempfile

SYSTEM_PLUGINS = ("script-fu", "file-png", "file-pnm", "file-raw-data")

# Python-Fu code for scripts that run inside GIMP (after importing Gimp): calling a
# procedure on one layer, and finding our plug-in's processes.
PYTHON_FU_HELPERS = r'''
def run_procedure(name, image, layer, run_mode=None, **args):
    # Runs a drawable procedure (non-interactively unless run_mode says otherwise); True
    # when it succeeded.
    proc = Gimp.get_pdb().lookup_procedure(name)
    config = proc.create_config()
    config.set_property("run-mode", Gimp.RunMode.NONINTERACTIVE if run_mode is None else run_mode)
    config.set_property("image", image)
    config.set_core_object_array("drawables", [layer])
    for key, value in args.items():
        config.set_property(key, value)
    return proc.run(config).index(0) == Gimp.PDBStatusType.SUCCESS

def terrain_pids():
    # The processes running our plug-in binary.
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/" + entry + "/cmdline", "rb") as f:
                    if b"plug-ins/terrain/terrain\0" in f.read():
                        pids.append(int(entry))
            except OSError:
                pass
    return pids
'''
DOMAIN = "gimp-terrain"


# The start of a GUI driver's Python-Fu script (live.py, probe-progress.py): flag files in
# WORKDIR, by which the script and its driver wait for each other, and a SIZE² GRAY image of
# 16-bit perceptual integers (or of the Gimp.Precision named PRECISION) holding an Infinite
# Field, shown in a display (`image`, `layer`). The script sets WORKDIR and SIZE first.
PYTHON_FU_SHOWN_FIELD = r'''
import os, time
import gi
gi.require_version("Gimp", "3.0")
from gi.repository import Gimp
''' + PYTHON_FU_HELPERS + r'''
def flag(name):
    open(os.path.join(WORKDIR, name), "w").close()

def wait_flag(name):
    while not os.path.exists(os.path.join(WORKDIR, name)):
        time.sleep(0.1)

image = Gimp.Image.new_with_precision(SIZE, SIZE, Gimp.ImageBaseType.GRAY,
                                      getattr(Gimp.Precision, globals().get("PRECISION", "U16_NON_LINEAR")))
layer = Gimp.Layer.new(image, "heights", SIZE, SIZE, Gimp.ImageType.GRAY_IMAGE, 100, Gimp.LayerMode.NORMAL)
image.insert_layer(layer, None, 0)
layer.merge_filter(Gimp.DrawableFilter.new(layer, "terrain:field", ""))
image.clean_all()
Gimp.Display.new(image)
Gimp.displays_flush()
'''


def error_excerpt(stderr, size=3000):
    """What a failed session printed, for a test's message: from the first Python traceback
    on when there is one (Python-Fu prints the script after it, which a plain tail would
    keep instead of the error), else the last `size` characters."""
    start = stderr.find("Traceback (most recent call last)")
    return stderr[start:start + size] if start >= 0 else stderr[-size:]


def system_plugin_dir():
    libdir = subprocess.run(["pkg-config", "--variable=gimplibdir", "gimp-3.0"],
                            check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(libdir, "plug-ins")


def catalog_dir(plugin_binary):
    """Where the plug-in's compiled catalogs are: a locale/ folder next to the binary (an
    installed plug-in), else po/ of the meson build tree that holds the binary; or None."""
    here = os.path.dirname(os.path.realpath(plugin_binary))
    if os.path.isdir(os.path.join(here, "locale")):
        return os.path.join(here, "locale")
    while here != os.path.dirname(here):
        if os.path.isdir(os.path.join(here, "meson-private")):
            po = os.path.join(here, "po")
            return po if os.path.isdir(po) else None
        here = os.path.dirname(here)
    return None


def link(target, path):
    """Makes path a symbolic link to target, replacing a link to anything else: a workdir used
    again (the benchmarks' WORKDIR) must not keep an earlier session's plug-in."""
    target = os.path.abspath(target)
    if os.path.lexists(path):
        if os.path.islink(path) and os.readlink(path) == target:
            return
        os.remove(path)
    os.symlink(target, path)


def link_catalogs(catalogs, locale):
    """Links every <lang>/LC_MESSAGES/gimp-terrain.mo of catalogs into the folder locale."""
    for mo in glob.glob(os.path.join(catalogs, "*", "LC_MESSAGES", DOMAIN + ".mo")):
        lang = os.path.basename(os.path.dirname(os.path.dirname(mo)))
        target = os.path.join(locale, lang, "LC_MESSAGES", DOMAIN + ".mo")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        link(mo, target)


def installed_locales():
    result = subprocess.run(["locale", "-a"], capture_output=True, text=True)
    return {name.lower().replace("utf-8", "utf8") for name in result.stdout.split()}


def gegl_module(plugin_binary):
    """The GEGL module built beside the plug-in (src/gegl of the same meson build tree), or
    None."""
    here = os.path.dirname(os.path.realpath(plugin_binary))
    module = os.path.join(os.path.dirname(here), "gegl", "gimp-terrain.so")
    return module if os.path.exists(module) else None


def start_xvfb(screen="1600x1000x24", extra=()):
    """Xvfb on a display it picks itself (-displayfd): a fixed :99 can collide. extra: more
    arguments (("-extension", "GLX"): a server without OpenGL)."""
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", screen,
                             "-nolisten", "tcp"] + list(extra), pass_fds=(write_fd,), stderr=subprocess.DEVNULL)
    os.close(write_fd)
    number = b""
    while not number.endswith(b"\n"):  # read to the newline: Xvfb dies if the pipe closes early
        chunk = os.read(read_fd, 64)
        if not chunk:
            break
        number += chunk
    os.close(read_fd)
    return xvfb, ":" + number.decode().strip()


class GimpSession:
    """plugin_binary: the terrain binary to test, or None for none. plugin_dirs: folders
    put first on the plug-in path as they are (an installed plug-ins/ folder). modules: GEGL
    modules GIMP loads (linked into the session's per-user gegl-0.4/plug-ins folder, where
    GIMP looks for third-party operations, with the plug-in's catalogs beside them).
    user_home: run as the user whose home this is, on that user's own GIMP profile (no
    GIMP3_DIRECTORY; the profile's plug-ins folder first on the plug-in path; GEGL modules
    from the user's data folder), with user_env (XDG_CONFIG_HOME, GIMP3_DIRECTORY, ...) set."""

    def __init__(self, plugin_binary, workdir=None, extra_plugins=(), locale=None, plugin_dirs=(),
                 modules=(), user_home=None, user_env=None):
        # Absolute: GIMP takes a relative GIMP3_DIRECTORY as relative to HOME.
        self.workdir = os.path.abspath(workdir) if workdir else tempfile.mkdtemp(prefix="terrain-gimp-")
        self.config = os.path.join(self.workdir, "config")
        self.home = os.path.join(self.workdir, "home")
        self.locale = locale
        plugins = os.path.join(self.workdir, "plug-ins")
        for d in (self.config, self.home, plugins):
            os.makedirs(d, exist_ok=True)
        if plugin_binary:
            os.makedirs(os.path.join(plugins, "terrain"), exist_ok=True)
            link(plugin_binary, os.path.join(plugins, "terrain", "terrain"))
            catalogs = catalog_dir(plugin_binary)
            if catalogs:
                link_catalogs(catalogs, os.path.join(plugins, "terrain", "locale"))
        system = system_plugin_dir()
        for name in SYSTEM_PLUGINS + tuple(extra_plugins):
            link(os.path.join(system, name), os.path.join(plugins, name))
        self.modules = os.path.join(self.home, ".local", "share", "gegl-0.4", "plug-ins")
        if os.path.isdir(self.modules):
            shutil.rmtree(self.modules)
        os.makedirs(self.modules)
        for i, module in enumerate(modules):
            os.symlink(os.path.abspath(module),
                       os.path.join(self.modules, "%d-%s" % (i, os.path.basename(module))))
        # The module reads its translations from a folder beside it when there is one.
        catalogs = catalog_dir(plugin_binary) if plugin_binary and modules else None
        if catalogs:
            link_catalogs(catalogs, os.path.join(self.modules, "gimp-terrain-locale"))
        self.gimprc = os.path.join(self.workdir, "gimprc")
        self.user_home, self.user_env = user_home, dict(user_env or {})
        # ${gimp_dir} is the profile GIMP itself chose (GIMP expands it in gimprc).
        profile = ["${gimp_dir}/plug-ins"] if user_home else []
        path = ":".join(profile + [os.path.abspath(d) for d in plugin_dirs] + [plugins])
        self.gimprc_text = '(plug-in-path "%s")\n(show-welcome-dialog no)\n' % path
        self.locpath = self._locale_data() if locale else None

    def _locale_data(self):
        """A LOCPATH folder that holds the session's locale when the system lacks it.

        Only the locale's name matters to gettext, which ignores LANGUAGE in the C and
        C.UTF-8 locales: the folder holds C.UTF-8's compiled data under the wanted name
        (the Debian build root has no locale but C.UTF-8)."""
        if self.locale.lower().replace("utf-8", "utf8") in installed_locales():
            return None
        source = next((d for d in ("/usr/lib/locale/C.utf8", "/usr/lib/locale/C.UTF-8")
                       if os.path.isdir(d)), None)
        if source is None:
            raise RuntimeError("no locale %s and no C.utf8 data to stand in for it" % self.locale)
        locpath = os.path.join(self.workdir, "locales")
        target = os.path.join(locpath, self.locale)
        if not os.path.isdir(target):
            shutil.copytree(source, target)
        return locpath

    def environment(self, display=None):
        # The caller's XDG_CONFIG_HOME and XDG_DATA_HOME would lead GIMP and GEGL to the
        # caller's own profile and modules.
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("GIMP", "DISPLAY", "LANGUAGE", "LOCPATH", "LC_"))
               and k not in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME")}
        env.update(GIMP3_DIRECTORY=self.config, HOME=self.home,
                   XDG_RUNTIME_DIR=self.home, LC_ALL="C.UTF-8", LANG="C.UTF-8")
        if self.user_home:
            del env["GIMP3_DIRECTORY"]
            env.update(HOME=self.user_home, **self.user_env)
        if self.locale:
            env.update(LC_ALL=self.locale, LANG=self.locale, LANGUAGE=self.locale.split("_")[0])
            if self.locpath:
                env["LOCPATH"] = self.locpath
        if display:
            env["DISPLAY"] = display
        return env

    def command(self, scheme_commands, gui=False, images=(), interpreter="plug-in-script-fu-eval",
                quit=True, data=False):
        """data: load brushes, patterns, gradients... (-d skips them: a faster start, but
        no brush to paint with)."""
        # GIMP rewrites the gimprc it was given: write it anew for every run.
        with open(self.gimprc, "w") as f:
            f.write(self.gimprc_text)
        cmd = ["gimp-3" if gui else "gimp-console-3", "-n"] + ([] if data else ["-d"]) + \
              ["-f", "-g", self.gimprc, "--batch-interpreter=" + interpreter]
        if gui:
            cmd += ["-s"]
        else:
            cmd += ["-i"]
        for scheme in scheme_commands:
            cmd += ["-b", scheme]
        return cmd + (["--quit"] if quit else []) + list(images)

    def run(self, *scheme_commands, timeout=300):
        """Runs the Scheme commands in one batch session; returns CompletedProcess."""
        return subprocess.run(self.command(scheme_commands), env=self.environment(),
                              capture_output=True, text=True, timeout=timeout)

    def run_python(self, *python_commands, timeout=300):
        """Runs Python-Fu commands in one batch session (needs the python-eval plug-in)."""
        return subprocess.run(self.command(python_commands, interpreter="python-fu-eval"),
                              env=self.environment(), capture_output=True, text=True, timeout=timeout)
