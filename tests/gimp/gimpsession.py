"""Runs real gimp-console-3.0 (or gimp-3.0 under a display) in an isolated environment.

Every session gets a fresh GIMP3_DIRECTORY, HOME and XDG_RUNTIME_DIR, and a plug-in path
that holds only the plug-in under test plus the system plug-ins the tests need (Script-Fu
and the file exporters): faster start-up, and no stray user settings or .last values.
"""
import os
import subprocess
import tempfile

SYSTEM_PLUGINS = ("script-fu", "file-png", "file-pnm")


def system_plugin_dir():
    libdir = subprocess.run(["pkg-config", "--variable=gimplibdir", "gimp-3.0"],
                            check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(libdir, "plug-ins")


class GimpSession:
    def __init__(self, plugin_binary, workdir=None, extra_plugins=()):
        self.workdir = workdir or tempfile.mkdtemp(prefix="terrain-gimp-")
        self.config = os.path.join(self.workdir, "config")
        self.home = os.path.join(self.workdir, "home")
        plugins = os.path.join(self.workdir, "plug-ins")
        for d in (self.config, self.home, plugins, os.path.join(plugins, "terrain")):
            os.makedirs(d, exist_ok=True)
        link = os.path.join(plugins, "terrain", "terrain")
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(plugin_binary), link)
        system = system_plugin_dir()
        for name in SYSTEM_PLUGINS + tuple(extra_plugins):
            target = os.path.join(plugins, name)
            if not os.path.lexists(target):
                os.symlink(os.path.join(system, name), target)
        self.gimprc = os.path.join(self.workdir, "gimprc")
        self.gimprc_text = '(plug-in-path "%s")\n(show-welcome-dialog no)\n' % plugins

    def environment(self, display=None):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GIMP", "DISPLAY"))}
        env.update(GIMP3_DIRECTORY=self.config, HOME=self.home,
                   XDG_RUNTIME_DIR=self.home, LC_ALL="C.UTF-8", LANG="C.UTF-8")
        if display:
            env["DISPLAY"] = display
        return env

    def command(self, scheme_commands, gui=False, images=(), interpreter="plug-in-script-fu-eval"):
        # GIMP rewrites the gimprc it was given: write it anew for every run.
        with open(self.gimprc, "w") as f:
            f.write(self.gimprc_text)
        cmd = ["gimp-3.0" if gui else "gimp-console-3.0", "-n", "-d", "-f", "-g", self.gimprc,
               "--batch-interpreter=" + interpreter]
        if gui:
            cmd += ["-s"]
        else:
            cmd += ["-i"]
        for scheme in scheme_commands:
            cmd += ["-b", scheme]
        return cmd + ["--quit"] + list(images)

    def run(self, *scheme_commands, timeout=300):
        """Runs the Scheme commands in one batch session; returns CompletedProcess."""
        return subprocess.run(self.command(scheme_commands), env=self.environment(),
                              capture_output=True, text=True, timeout=timeout)

    def run_python(self, *python_commands, timeout=300):
        """Runs Python-Fu commands in one batch session (needs the python-eval plug-in)."""
        return subprocess.run(self.command(python_commands, interpreter="python-fu-eval"),
                              env=self.environment(), capture_output=True, text=True, timeout=timeout)
