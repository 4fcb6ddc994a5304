#!/usr/bin/env python3
"""Checks the relative links of the repository's Markdown files: the linked file or folder exists,
and a #anchor (to another Markdown file or within the same one) names one of its headings, by
GitHub's rules. External links (http:, https:, mailto: ...) are not fetched.

Usage: scripts/check-links.py [FILE.md|DIR ...]   (default: every *.md of the repository)
       scripts/check-links.py --self-test          (the checker's own test, on fixtures it writes)
Prints FILE:LINE: LINK: WHY for every broken link and exits 1 if there is one.
"""
import os
import re
import sys
import tempfile
import unicodedata

if any(arg in ("-h", "--help") for arg in sys.argv[1:]):   # every script answers --help, doing nothing else
    print(__doc__.strip())
    sys.exit(0)

SKIPPED_DIRS = {".git", "target", "node_modules", ".idea"}
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
HTML_ANCHOR = re.compile(r"""<a\s[^>]*?(?:name|id)\s*=\s*["']([^"']+)["']""", re.I)
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# [text](target "title") and ![alt](target); the target may be <in angle brackets>.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+[\"'(][^)]*)?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_HREF = re.compile(r"""<(?:a|img)\s[^>]*?(?:href|src)\s*=\s*["']([^"']+)["']""", re.I)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def markdown_files(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
            for name in sorted(files):
                if name.endswith(".md"):
                    yield os.path.join(folder, name)


def prose_lines(text, blank_code_spans=True):
    """The lines outside fenced code blocks, with their numbers (inline code spans blanked, unless not asked)."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        opening = FENCE.match(line)
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence) \
                    and not line.strip()[len(opening.group(1)):].strip():
                fence = None
        else:
            yield number, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line) if blank_code_spans else line


def slug(heading):
    """GitHub's anchor for a heading: its rendered text, lower-case, punctuation but - and _ removed,
    spaces turned into dashes."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # links and images: their text
    text = re.sub(r"<[^>]+>", "", text)                          # inline HTML
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"(?<![\w])_+|_+(?![\w])", "", text)          # _emphasis_, not snake_case
    text = text.strip().lower()
    kept = "".join(c for c in text if c in "-_ " or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(text):
    """Every anchor of a Markdown text: its headings' slugs (repeats get -1, -2, ...) and HTML anchors."""
    found, seen = set(), {}
    previous = None
    for _, line in prose_lines(text, blank_code_spans=False):
        heading = ATX_HEADING.match(line)
        underline = SETEXT_UNDERLINE.match(line)
        title = heading.group(2) if heading else None
        if title is None and underline and previous and previous.strip() and not previous.startswith(" " * 4) \
                and not ATX_HEADING.match(previous) and not previous.lstrip().startswith(("-", "*", "|", ">")):
            title = previous
        if title is not None:
            base = slug(title)
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        found.update(HTML_ANCHOR.findall(line))
        previous = line
    return found


def links(text):
    for number, line in prose_lines(text):
        for pattern in (INLINE_LINK, REFERENCE_DEFINITION, HTML_HREF):
            for match in pattern.finditer(line):
                target = match.group(1).strip()
                if target.startswith("<") and target.endswith(">"):
                    target = target[1:-1]
                yield number, target


def problems(root, files):
    anchor_cache = {}

    def anchors_of(path):
        if path not in anchor_cache:
            with open(path, encoding="utf-8") as source:
                anchor_cache[path] = anchors(source.read())
        return anchor_cache[path]

    for path in files:
        with open(path, encoding="utf-8") as source:
            text = source.read()
        for number, target in links(text):
            if not target or SCHEME.match(target) or target.startswith("//"):
                continue
            file_part, _, anchor = target.partition("#")
            file_part = re.sub(r"%20", " ", file_part.split("?")[0])
            if file_part:
                base = root if file_part.startswith("/") else os.path.dirname(path)
                linked = os.path.normpath(os.path.join(base, file_part.lstrip("/")))
                if not os.path.exists(linked):
                    yield path, number, target, "no such file or folder"
                    continue
                if os.path.islink(linked) or not os.path.realpath(linked).startswith(os.path.realpath(root) + os.sep):
                    yield path, number, target, "leads out of the repository or through a symlink"
                    continue
            else:
                linked = path
            if anchor and linked.endswith(".md") and os.path.isfile(linked) \
                    and anchor.lower() not in anchors_of(linked):
                where = "in this file" if linked == path else "in " + os.path.relpath(linked, os.path.dirname(path))
                yield path, number, target, f"no heading #{anchor} {where}"


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.mkdir(os.path.join(root, "docs"))
        files = {
            "README.md": "# Title\n\nSee [guide](docs/guide.md#the-first-step), [dup](docs/guide.md#repeat-1),\n"
                         "[local](#title), [web](https://example.com/#x), [folder](docs),\n"
                         "`[code](missing.md)`, [gone](docs/gone.md), [bad anchor](docs/guide.md#nope)\n"
                         "```\n[fenced](missing.md)\n```\n[ref]: docs/guide.md#whats-new-in-v2\n"
                         "[self](#nowhere), [alias](docs/alias.md)\n",
            "docs/guide.md": "# The first step\n## Repeat\n## Repeat\n### What's new in `v2`?\n",
        }
        for name, text in files.items():
            with open(os.path.join(root, name), "w", encoding="utf-8") as out:
                out.write(text)
        os.symlink("guide.md", os.path.join(root, "docs/alias.md"))   # dangles once its folder is copied alone
        found = [report(root, problem) for problem in problems(root, markdown_files([root]))]
        expected = [
            "README.md:5: docs/gone.md: no such file or folder",
            "README.md:5: docs/guide.md#nope: no heading #nope in docs/guide.md",
            "README.md:10: #nowhere: no heading #nowhere in this file",
            "README.md:10: docs/alias.md: leads out of the repository or through a symlink",
        ]
        if found != expected:
            print("check-links self-test failed:\n  found:    " + "\n            ".join(found)
                  + "\n  expected: " + "\n            ".join(expected))
            return 1
        print("check-links self-test: OK")
        return 0


def report(relative_to, problem):
    path, number, target, why = problem
    return f"{os.path.relpath(path, relative_to)}:{number}: {target}: {why}"


def main(arguments):
    if arguments == ["--self-test"]:
        return self_test()
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    files = list(markdown_files(arguments or [root]))
    broken = [report(os.getcwd(), problem) for problem in problems(root, files)]
    for line in broken:
        print(line)
    print(f"check-links: {len(files)} Markdown files, {len(broken)} broken links", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
