#!/usr/bin/env python3
"""GUI smoke test: real gimp-3.0 under Xvfb opens the dialog of every procedure terrain-docs
lists on a real image; the test finds each dialog window, screenshots it (kept as artifacts:
WORKDIR/<title>-dialog.png; build-aux/render-demos copies the Diamond-Square one into the
README), checks the preview shows a terrain, cancels it, and on the last one
(Diamond-Square) presses OK and checks the layer was written.

usage: test-gui.py PLUGIN_BINARY TERRAIN_DOCS WORKDIR
"""
import os
import re
import subprocess
import sys
import time

from checks import Checks
from gimpsession import GimpSession
from pixels import read_pnm

plugin, docs, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-gui")
session = GimpSession(plugin, os.path.join(workdir, "gimp"))
# (window title, procedure): every dialog is opened; the last one, Diamond-Square, gets OK. A
# dialog's title is its menu label without the ellipsis.
listed = re.findall(r'^### (plug-in-terrain-[a-z-]+): "(.+?)…"$',
                    subprocess.run([docs], check=True, capture_output=True, text=True).stdout, flags=re.M)
DIALOGS = sorted(((title, proc) for proc, title in listed),
                 key=lambda d: d[1] == "plug-in-terrain-diamond-square")
shots = [os.path.join(workdir, title.lower().replace(" ", "-") + "-dialog.png") for title, _ in DIALOGS]
exported = os.path.join(workdir, "after-ok.pgm")
for stale in shots + [exported]:
    if os.path.exists(stale):
        os.remove(stale)

# The Diamond-Square dialog opens with its remembered settings showing the relief preview
# (aux arguments live in the .last file like any setting); its screenshot is the README's
# hillshade picture.
settings = os.path.join(session.config, "plug-in-settings")
os.makedirs(settings, exist_ok=True)
with open(os.path.join(settings, "GimpProcedureConfigRun-plug-in-terrain-diamond-square.last"), "w") as f:
    f.write("(seed 1234)\n(roughness 0.8)\n(relief-preview yes)\n")

# Xvfb picks a free display itself (-displayfd): a fixed :99 can collide with another server.
read_fd, write_fd = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                        pass_fds=(write_fd,), stderr=subprocess.DEVNULL)
os.close(write_fd)
number = b""
while not number.endswith(b"\n"):  # read to the newline: Xvfb dies if the pipe closes early
    chunk = os.read(read_fd, 64)
    if not chunk:
        break
    number += chunk
os.close(read_fd)
display = ":" + number.decode().strip()
env = session.environment(display)

cancelled = "".join('(catch #f (%s #:run-mode RUN-INTERACTIVE #:image image #:drawables (vector layer)))' % proc
                    for _, proc in DIALOGS[:-1])
script = """(let* ((image (car (gimp-image-new-with-precision 512 384 GRAY PRECISION-U16-NON-LINEAR)))
       (layer (car (gimp-layer-new image "height" 512 384 GRAY-IMAGE 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer image layer 0 0)
  (gimp-display-new image)
  (plug-in-terrain-diamond-square #:image image #:drawables (vector layer) #:seed 99)
  %s
  (plug-in-terrain-diamond-square #:run-mode RUN-INTERACTIVE #:image image #:drawables (vector layer) #:seed 1234)
  (gimp-file-save RUN-NONINTERACTIVE image "%s" -1))""" % (cancelled, exported)
gimp = subprocess.Popen(session.command([script], gui=True), env=env,
                        stdout=subprocess.DEVNULL, stderr=open(os.path.join(workdir, "gimp.log"), "w"))


def xdotool(*args):
    return subprocess.run(["xdotool"] + list(args), env=env, capture_output=True, text=True)


def wait_for(title, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline and gimp.poll() is None:
        found = xdotool("search", "--onlyvisible", "--name", "^" + title).stdout.split()
        if found:
            return found[0]
        time.sleep(0.5)
    return ""


for (title, _), shot in zip(DIALOGS, shots):
    window = wait_for(title)
    if not checks.check(bool(window), "the %s dialog did not appear (see gimp.log)" % title):
        break
    time.sleep(2.0)  # the preview renders on a 200 ms idle timeout; give it time
    subprocess.run(["import", "-window", window, shot], env=env, check=False)
    if checks.check(os.path.exists(shot), "%s: no screenshot" % title):
        # A terrain preview has many gray levels; a blank or missing one has few.
        colours = subprocess.run(["identify", "-format", "%k", shot], capture_output=True, text=True).stdout
        checks.check(colours.isdigit() and int(colours) > 100,
                     "%s: the dialog screenshot has only %s colours: no terrain preview?" % (title, colours))
        print("%s: %s colours" % (shot, colours))
    # No window manager under Xvfb: focus the dialog directly, then a key.
    xdotool("windowfocus", "--sync", window)
    xdotool("key", "alt+o" if title == DIALOGS[-1][0] else "Escape")
    time.sleep(1.0)

try:
    gimp.wait(timeout=120)
except subprocess.TimeoutExpired:
    gimp.kill()
    gimp.wait()
xvfb.terminate()
checks.check(gimp.returncode == 0, "gimp exited %s" % gimp.returncode)
if checks.check(os.path.exists(exported), "OK did not lead to an export"):
    values = read_pnm(exported)[2][0]
    checks.check(min(values) == 0.0 and max(values) == 1.0, "OK did not write a full-range heightmap")
checks.done()
