#!/usr/bin/env python3
"""GUI smoke test: real gimp-3.0 under Xvfb opens the Diamond-Square dialog on a real
image; the test finds the dialog window, screenshots it (kept as an artifact), checks the
preview area is not blank, presses OK and checks the layer was written.

usage: test-gui.py PLUGIN_BINARY WORKDIR
"""
import os
import subprocess
import sys
import time

from checks import Checks
from gimpsession import GimpSession
from pixels import read_pnm

plugin, workdir = (os.path.abspath(a) for a in sys.argv[1:3])
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-gui")
session = GimpSession(plugin, os.path.join(workdir, "gimp"))
shot = os.path.join(workdir, "diamond-square-dialog.png")
exported = os.path.join(workdir, "after-ok.pgm")
for stale in (shot, exported):
    if os.path.exists(stale):
        os.remove(stale)

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

script = """(let* ((image (car (gimp-image-new-with-precision 512 384 GRAY PRECISION-U16-NON-LINEAR)))
       (layer (car (gimp-layer-new image "height" 512 384 GRAY-IMAGE 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer image layer 0 0)
  (gimp-display-new image)
  (plug-in-terrain-diamond-square #:run-mode RUN-INTERACTIVE #:image image #:drawables (vector layer) #:seed 1234)
  (gimp-file-save RUN-NONINTERACTIVE image "%s" -1))""" % exported
gimp = subprocess.Popen(session.command([script], gui=True), env=env,
                        stdout=subprocess.DEVNULL, stderr=open(os.path.join(workdir, "gimp.log"), "w"))


def xdotool(*args):
    return subprocess.run(["xdotool"] + list(args), env=env, capture_output=True, text=True)


window = ""
deadline = time.time() + 120
while time.time() < deadline and not window and gimp.poll() is None:
    window = xdotool("search", "--onlyvisible", "--name", "^Diamond-Square").stdout.split("\n")[0]
    time.sleep(0.5)
checks.check(bool(window), "the Diamond-Square dialog did not appear (see gimp.log)")

if window:
    time.sleep(2.0)  # the preview renders on a 200 ms idle timeout; give it time
    subprocess.run(["import", "-window", window, shot], env=env, check=False)
    if checks.check(os.path.exists(shot), "no screenshot"):
        # The preview must show a terrain, not a flat area: many distinct gray levels.
        stats = subprocess.run(["convert", shot, "-colorspace", "Gray", "-format", "%[fx:standard_deviation]", "info:"],
                               capture_output=True, text=True).stdout
        colours = subprocess.run(["identify", "-format", "%k", shot], capture_output=True, text=True).stdout
        checks.check(colours.isdigit() and int(colours) > 100,
                     "the dialog screenshot has only %s colours: no terrain preview?" % colours)
        print("screenshot %s: %s colours, gray deviation %s" % (shot, colours, stats))
    # No window manager under Xvfb: focus the dialog directly, then its OK mnemonic.
    xdotool("windowfocus", "--sync", window)
    xdotool("key", "alt+o")

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
