"""Runs a program (argv[1:]) on an Xvfb display of its own and exits with its status (77,
skipped, passes through to meson)."""
import os
import subprocess
import sys

from gimpsession import start_xvfb


def main():
    xvfb, display = start_xvfb()
    try:
        env = dict(os.environ, DISPLAY=display, GDK_BACKEND="x11")
        sys.exit(subprocess.run(sys.argv[1:], env=env, timeout=240).returncode)
    finally:
        xvfb.terminate()
        xvfb.wait()


if __name__ == "__main__":
    main()
