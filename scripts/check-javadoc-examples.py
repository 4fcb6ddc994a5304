#!/usr/bin/env python3
"""Checks that every public top-level type of the published API has a javadoc comment that shows an
example (a <pre> block or a {@snippet}): the packages kopf4j-core's module-info exports, and every
package of kopf4j-envtest, kopf4j-testing and kopf4j-cli (all of whose packages users see). Javadoc's
doclint (in the build) checks the comments' syntax and references; this checks what it cannot.

Usage: scripts/check-javadoc-examples.py
Prints FILE:LINE: TYPE: WHY for every type without one and exits 1 if there is one.
"""
import glob
import os
import re
import sys

if any(arg in ("-h", "--help") for arg in sys.argv[1:]):   # every script answers --help, doing nothing else
    print(__doc__.strip())
    sys.exit(0)

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MODULE_INFO = "kopf4j-core/src/main/java/module-info.java"
WHOLE_MODULES = ["kopf4j-envtest", "kopf4j-testing", "kopf4j-cli"]
EXPORT = re.compile(r"^\s*exports\s+([\w.]+)\s*;", re.M)
PUBLIC_TYPE = re.compile(
    r"^public\s+(?:(?:abstract|final|sealed|non-sealed|static|strictfp)\s+)*(?:@interface|class|interface|enum|record)\s+(\w+)",
    re.M)
EXAMPLE = re.compile(r"<pre>|\{@snippet")


def source_folders():
    core = os.path.join(ROOT, "kopf4j-core/src/main/java")
    with open(os.path.join(ROOT, MODULE_INFO), encoding="utf-8") as module_info:
        for package in EXPORT.findall(module_info.read()):
            yield os.path.join(core, package.replace(".", "/"))
    for module in WHOLE_MODULES:
        sources = os.path.join(ROOT, module, "src/main/java")
        for folder, _, files in sorted(os.walk(sources)):
            if any(name.endswith(".java") for name in files):
                yield folder


def type_comment(text, declaration):
    """The javadoc comment before a type's declaration (annotations may stand between), or None."""
    before = text[:declaration].rstrip()
    while True:
        annotation = re.search(r"@[\w.]+(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?\s*$", before)
        if not annotation:
            break
        before = before[:annotation.start()].rstrip()
    if not before.endswith("*/"):
        return None
    start = before.rfind("/*")
    return before[start:] if before[start:].startswith("/**") else None


def problems():
    for folder in source_folders():
        for path in sorted(glob.glob(os.path.join(folder, "*.java"))):
            with open(path, encoding="utf-8") as source:
                text = source.read()
            declaration = PUBLIC_TYPE.search(text)
            if not declaration:
                continue
            line = text.count("\n", 0, declaration.start()) + 1
            where = f"{os.path.relpath(path, os.getcwd())}:{line}: {declaration.group(1)}"
            comment = type_comment(text, declaration.start())
            if comment is None:
                yield f"{where}: a public type without a javadoc comment"
            elif not EXAMPLE.search(comment):
                yield f"{where}: its javadoc shows no example (a <pre>{{@code ...}}</pre> block)"


def main():
    found = list(problems())
    for line in found:
        print(line)
    print(f"check-javadoc-examples: {len(found)} public types without an example", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
