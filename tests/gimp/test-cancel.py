#!/usr/bin/env python3
"""Cancel in real GIMP: when the user cancels a plug-in's progress, GIMP closes the plug-in
and kills it (app/plug-in/gimpplugin-progress.c: gimp_plug_in_progress_cancel_callback ->
gimp_plug_in_close (plug_in, TRUE)). The same happens here, from a thread of a Python-Fu
session: while our plug-in writes a 8192² 16-bit layer (after 60 % of the write system
calls a whole run makes: it exchanges two messages with GIMP per tile), it gets SIGKILL. The layer must be
bit-identical to before (the shadow buffer is never merged), for a band-wise generator
(field), a whole-layer generator (diamond-square) and a filter (smooth); the same call left
alone must succeed and change the layer.

usage: test-cancel.py PLUGIN_BINARY WORKDIR
"""
import json
import os
import sys

from checks import Checks
from gimpsession import PYTHON_FU_HELPERS, GimpSession, error_excerpt

plugin, workdir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
os.makedirs(workdir, exist_ok=True)
checks = Checks("gimp-cancel")
session = GimpSession(plugin, os.path.join(workdir, "gimp"), extra_plugins=("python-eval",))
out = os.path.join(workdir, "results.json")
if os.path.exists(out):
    os.remove(out)

SCRIPT = r"""
import hashlib, json, os, signal, threading, time
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl

SIZE, OUT = 8192, %(out)r
def digest(layer):
    rect = Gegl.Rectangle.new(0, 0, SIZE, SIZE)
    return hashlib.sha256(layer.get_buffer().get(rect, 1.0, "Y' u16", Gegl.AbyssPolicy.CLAMP)).hexdigest()

%(helpers)s

def writes(pid):
    # The process's write system calls so far: two per tile it exchanges with GIMP, mostly
    # (the pixels themselves travel through shared memory).
    try:
        with open("/proc/%%d/io" %% pid) as f:
            for line in f:
                if line.startswith("syscw:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return -1

def watch(old, result, kill_at=None):
    # Follows the new plug-in process (not one of `old`, which may still be exiting): records
    # in result["writes"] the most writes seen, and kills it once it has made kill_at.
    deadline = time.time() + 120
    pid = None
    while time.time() < deadline:
        if pid is None:
            new = [p for p in terrain_pids() if p not in old]
            pid = new[0] if new else None
        else:
            n = writes(pid)
            if n < 0:
                return
            result["writes"] = max(result.get("writes", 0), n)
            if kill_at is not None and n >= kill_at:
                os.kill(pid, signal.SIGKILL)
                result["killed_at"] = n
                return
        time.sleep(0.001)

image = Gimp.Image.new_with_precision(SIZE, SIZE, Gimp.ImageBaseType.GRAY, Gimp.Precision.U16_NON_LINEAR)
layer = Gimp.Layer.new(image, "h", SIZE, SIZE, Gimp.ImageType.GRAY_IMAGE, 100, Gimp.LayerMode.NORMAL)
image.insert_layer(layer, None, 0)
results = {"setup": run_procedure("plug-in-terrain-field", image, layer, seed=7), "cases": []}
for name, args in (("plug-in-terrain-field", {"seed": 8}),
                   ("plug-in-terrain-diamond-square", {"seed": 8}),
                   ("plug-in-terrain-smooth", {"iterations": 4})):
    # The call left alone: it must succeed and change the layer; count its writes to GIMP.
    before = digest(layer)
    alone = {}
    watcher = threading.Thread(target=watch, args=(set(terrain_pids()), alone))
    watcher.start()
    t0 = time.perf_counter()
    case = {"name": name, "alone": run_procedure(name, image, layer, **args)}
    case["alone_seconds"] = time.perf_counter() - t0
    watcher.join()
    case["alone_changed"] = digest(layer) != before
    case["alone_writes"] = alone.get("writes", 0)
    # The same call killed after 60 %% of those writes: mid-write, whatever the speed.
    before = digest(layer)
    killed = {}
    killer = threading.Thread(target=watch, args=(set(terrain_pids()), killed,
                                                  max(1, case["alone_writes"] * 6 // 10)))
    killer.start()
    t0 = time.perf_counter()
    case["success"] = run_procedure(name, image, layer, **args)
    case["seconds"] = time.perf_counter() - t0
    killer.join()
    case["killed_at"] = killed.get("killed_at", -1)
    case["unchanged"] = digest(layer) == before
    results["cases"].append(case)
with open(OUT, "w") as f:
    json.dump(results, f)
"""

result = session.run_python(SCRIPT % dict(out=out, helpers=PYTHON_FU_HELPERS), timeout=600)
checks.check(os.path.exists(out), "the session wrote no results (exit %d):\n%s"
             % (result.returncode, error_excerpt(result.stderr)))
if os.path.exists(out):
    with open(out) as f:
        data = json.load(f)
    checks.check(data["setup"], "the first render failed")
    for case in data["cases"]:
        print("%(name)s: alone %(alone_seconds).2f s and %(alone_writes)d writes to GIMP; killed "
              "after %(killed_at)d writes, the call returned after %(seconds).2f s, succeeded: "
              "%(success)s; layer unchanged: %(unchanged)s" % case)
        checks.check(case["alone"] and case["alone_changed"], "%s left alone: succeeded %s, "
                     "changed %s" % (case["name"], case["alone"], case["alone_changed"]))
        checks.check(case["alone_writes"] > 100, "%s: %d writes seen: the watcher missed the "
                     "plug-in" % (case["name"], case["alone_writes"]))
        checks.check(case["killed_at"] > 0, "%s: the plug-in was never killed" % case["name"])
        checks.check(not case["success"], "%s: finished before the kill" % case["name"])
        checks.check(case["unchanged"], "%s: the layer changed although the plug-in was "
                     "killed mid-write" % case["name"])
checks.done()
