"""The warnings and criticals in a GIMP session's log (GIMP's stderr, which the plug-ins it
starts share): GLib's "(prog:pid): Domain-WARNING **: hh:mm:ss.sss: text", libgimp's
"prog: Domain-CRITICAL: text", bare "WARNING: text" and GimpProcedureDialog's "no mnemonic
for property" lines.

GIMP_OWN lists, as exact text (the process id and time taken out), the ones that GIMP
prints by itself: they come in a bare session too, one with no terrain plug-in or module
that only opens a display, the menu and an export and quits (test-gui.py, GUI_BARE=1, on
GIMP 3.0.4 and 3.2.6 alike). Every other such line is a failure.
"""
import re

COMPLAINT = re.compile(r"WARNING|CRITICAL|mnemonic")

GIMP_OWN = {
    # Both versions, as GIMP quits (3.0.4 with the g_object_unref from
    # gimp_data_factories_exit before it).
    "(gimp): Gimp-Core-WARNING **: gimp_finalize: list of contexts not empty upon exit "
    "(N contexts left)",
    "(gimp): GLib-GObject-CRITICAL **: g_object_unref: assertion 'G_IS_OBJECT (object)' failed",
    # 3.0.4: Script-Fu's own scripts, as it starts, name resources a test session has not
    # loaded.
    "(script-fu): scriptfu-WARNING **: script_fu_add_resource_arg declared resource name is "
    "invalid Default",
    "(script-fu): scriptfu-WARNING **: script_fu_add_resource_arg declared resource name is "
    "invalid Incandescent",
    "(script-fu): scriptfu-WARNING **: script_fu_add_resource_arg declared resource name is "
    "invalid Coffee",
    # 3.0.4: now and then a plug-in finds GIMP's end of its pipe closed as it says goodbye
    # (libgimp's own last write, after the procedure has returned): GIMP's own export and
    # Python-Fu's batch interpreter in a bare session, and in one GUI run of 2026-11-25 our
    # plug-in too, as its dialog closed, with file-pnm's line in the same session.
    "(file-pnm): LibGimp-WARNING **: file-pnm: gimp_flush(): error: Broken pipe",
    "(python-eval.py): LibGimp-WARNING **: python-eval.py: gimp_flush(): error: Broken pipe",
    "(terrain): LibGimp-WARNING **: terrain: gimp_flush(): error: Broken pipe",
    # 3.2.6: the image loader has no sandbox in the build root; GIMP's device list has no
    # entry for Xvfb's test pointer, which xdotool moves (on every event GIMP sees from it).
    "WARNING: Glycin running without sandbox. Bubblewrap (bwrap) doesn't work in the "
    "environment.",
    "gimp-3: Gimp-Widgets-CRITICAL: gimp_device_info_get_device: assertion "
    "'GIMP_IS_DEVICE_INFO (info)' failed",
    "gimp-3: Gimp-Widgets-CRITICAL: gimp_device_info_save_tool: assertion "
    "'GIMP_IS_DEVICE_INFO (info)' failed",
    "(gimp): Gdk-CRITICAL **: gdk_device_get_device_type: assertion 'GDK_IS_DEVICE (device)' "
    "failed",
    "(gimp): Gdk-CRITICAL **: gdk_device_get_source: assertion 'GDK_IS_DEVICE (device)' failed",
    "(gimp): Gdk-CRITICAL **: gdk_device_get_state: assertion 'GDK_IS_DEVICE (device)' failed",
    "(gimp): Gdk-CRITICAL **: gdk_window_get_device_position_double: assertion "
    "'GDK_IS_DEVICE (device)' failed",
    "(gimp): Gdk-CRITICAL **: gdk_device_get_axis: assertion 'GDK_IS_DEVICE (device)' failed",
}


def normalized(line):
    """The line without its process id and time: "(gimp): Gdk-CRITICAL **: text"."""
    line = re.sub(r"^\(([^():]+):\d+\): ", r"(\1): ", line.strip())
    line = re.sub(r"\*\*: \d\d:\d\d:\d\d\.\d+: ", "**: ", line)
    # How many contexts GIMP finds left at exit depends on what the session used.
    return re.sub(r"\(\d+ contexts left\)", "(N contexts left)", line)


def complaints(log_path):
    """The warning lines of the log, normalized, in order."""
    with open(log_path, errors="replace") as log:
        return [normalized(line) for line in log if COMPLAINT.search(line)]


def not_gimps_own(log_path):
    """The warning lines of the log that GIMP does not print by itself."""
    return [line for line in complaints(log_path) if line not in GIMP_OWN]
