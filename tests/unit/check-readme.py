#!/usr/bin/env python3
"""The documentation's generated sections are current and its links lead somewhere.
- src/procedures/README.md's procedure reference must be exactly what terrain-docs prints
  from the descriptors (run build-aux/regenerate after changing a descriptor);
- every generated section (procedures; the benchmark tables of tests/bench/README.md) is in
  its own file once, between its begin and end markers, and nowhere else, so
  build-aux/update-docs can rewrite it;
- README.md keeps the two commands CI runs;
- every relative link and image of README.md and of every other Markdown document of the
  source tree names a file that exists, and a #fragment a heading of that document.
usage: check-readme.py TERRAIN_DOCS SOURCE_ROOT"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gimp"))
from checks import Checks  # noqa: E402

docs_program, root = sys.argv[1], sys.argv[2]
checks = Checks("readme")
check = checks.check


def read(relpath):
    with open(os.path.join(root, relpath), encoding="utf-8") as f:
        return f.read()


# Each generated section: the file it lives in (build-aux/update-docs writes it there).
GENERATED = {
    "procedures": "src/procedures/README.md",
    "benchmarks": "tests/bench/README.md",
    "gimp-benchmarks": "tests/bench/README.md",
    "preview-benchmarks": "tests/bench/README.md",
}


def section_re(name):
    return re.compile(r"<!-- %s:begin -->\n(.*?)<!-- %s:end -->" % (name, name), re.S)


# Every Markdown document of the source tree (not the build folders, the demo output or git).
documents = []
for top, dirs, files in os.walk(root):
    rel = os.path.relpath(top, root)
    dirs[:] = sorted(d for d in dirs
                     if not d.startswith(".") and d != "__pycache__"
                     and not (rel == "." and (d.startswith("build") and d != "build-aux" or d == "demo")))
    documents += sorted(os.path.normpath(os.path.join(rel, f)) for f in files if f.endswith(".md"))
check("README.md" in documents and len(documents) >= 8,
      "found only %d Markdown documents: %s" % (len(documents), ", ".join(documents)))

# The generated sections.
texts = {doc: read(doc) for doc in documents}
for name, home in sorted(GENERATED.items()):
    sections = section_re(name).findall(texts.get(home, ""))
    check(len(sections) == 1 and sections[0].strip() != "",
          "%s: %d non-empty sections between <!-- %s:begin --> and <!-- %s:end -->, want 1"
          % (home, len([s for s in sections if s.strip()]), name, name))
    elsewhere = [doc for doc in documents if doc != home and "<!-- %s:" % name in texts[doc]]
    check(not elsewhere, "the generated section %s lives in %s, but %s also has its markers"
          % (name, home, ", ".join(elsewhere)))

reference = subprocess.run([docs_program], check=True, capture_output=True, text=True).stdout
procedures = re.findall(r"^### (plug-in-terrain-[a-z-]+)", reference, re.M)
check(len(procedures) >= 6, "terrain-docs lists only %d procedures" % len(procedures))
found = section_re("procedures").search(texts.get(GENERATED["procedures"], ""))
if found and found.group(1) != reference:
    old, new = found.group(1).split("\n"), reference.split("\n")
    first = next((i for i in range(min(len(old), len(new))) if old[i] != new[i]), min(len(old), len(new)))
    print("%s, line %d of the reference: %r; terrain-docs prints %r"
          % (GENERATED["procedures"], first + 1, old[first] if first < len(old) else "(end)",
             new[first] if first < len(new) else "(end)"))
check(found is not None and found.group(1) == reference,
      "%s's procedure reference is stale: run build-aux/with-gimp3 build-aux/regenerate"
      % GENERATED["procedures"])

# The two commands of the README, exactly as CI runs them (.ci/run).
readme = texts.get("README.md", "")
for command in ("build-aux/with-gimp3 build-aux/render-demos", "build-aux/with-gimp3 build-aux/run-tests"):
    check(re.search(r"^%s(\s|$)" % re.escape(command), readme, re.M) is not None,
          "README.md lacks the command line %r" % command)


# Links: relative targets must exist, fragments must name a heading (GitHub's anchors).
def without_code(text):
    text = re.sub(r"^ *```.*?^ *```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(text):
    result = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", without_code(text), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        result.add(slug)
    return result


for doc in documents:
    broken = []
    links = re.findall(r"\]\(([^)\s]+)(?: +\"[^\"]*\")?\)", without_code(texts[doc]))
    for link in links:
        if re.match(r"[a-z][a-z0-9+.-]*:", link):
            continue  # an address with a scheme (https:, mailto:): not a file of the tree
        target, _, fragment = link.partition("#")
        path = os.path.normpath(os.path.join(os.path.dirname(doc), target)) if target else doc
        if path.startswith(".."):
            broken.append("%s (outside the source tree)" % link)
        elif not os.path.exists(os.path.join(root, path)):
            broken.append("%s (no such file)" % link)
        elif fragment and path.endswith(".md") and fragment not in anchors(read(path)):
            broken.append("%s (no heading #%s in %s)" % (link, fragment, path))
    check(not broken, "%s: broken relative links: %s" % (doc, "; ".join(broken)))
    if doc == "README.md":
        check(len(links) >= 20, "README.md has only %d links and pictures" % len(links))

checks.done()
