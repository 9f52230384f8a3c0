#!/usr/bin/env python3
"""Fails while any user-visible string lacks its Simplified Chinese translation.

For each part (core, gui, pages, report, cli, remote) the committed translations/moewb_<part>_zh_CN.ts
is copied to a temporary directory and refreshed there by translations/update-ts (lupdate,
the same options, but with absolute locations), so that strings added to the code since the
last update-ts count too. Then it lists, with file:line, every message that is
  - unfinished, or has an empty translation (any numerus form empty),
  - missing a placeholder of its source (%1..%99, %L1, %n, %Ln) or adding one,
  - missing the & accelerator its source has,
and every lupdate warning that puts texts in a context the running code never looks up.
Exit status 0 when all is well, 1 otherwise. Usage: check_translations.py SOURCE_DIR [PART...]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

PARTS = ["core", "gui", "pages", "report", "cli", "remote"]
PLACEHOLDER = re.compile(r"%L?(?:[1-9][0-9]?|n)")
# An accelerator: a single & before a non-space, not "&&" and not an XML/HTML entity.
ACCELERATOR = re.compile(r"(?<!&)&(?!&)(?![A-Za-z]+;|#[0-9]+;)[^\s&]")
CONTEXT_WARNING = re.compile(r"Qualifying with unknown namespace/class")


def placeholders(text):
    return sorted(set(PLACEHOLDER.findall(text or "")))


def location(message, ts_dir):
    loc = message.find("location")
    if loc is None:
        return "(no location)"
    path = os.path.normpath(os.path.join(ts_dir, loc.get("filename", "")))
    return f"{path}:{loc.get('line', '?')}"


def check_part(source_dir, part, work_dir):
    problems = []
    committed = os.path.join(source_dir, "translations", f"moewb_{part}_zh_CN.ts")
    if not os.path.isfile(committed):
        return [f"{committed}: missing (run translations/update-ts {part})"]
    ts = os.path.join(work_dir, os.path.basename(committed))
    shutil.copyfile(committed, ts)
    env = dict(os.environ, MOEWB_TS_DIR=work_dir, MOEWB_TS_LOCATIONS="absolute")
    run = subprocess.run([os.path.join(source_dir, "translations", "update-ts"), part],
                         env=env, capture_output=True, text=True)
    if run.returncode != 0:
        return [f"{part}: translations/update-ts failed ({run.returncode}): {run.stderr.strip()}"]
    for line in run.stderr.splitlines():
        if CONTEXT_WARNING.search(line):
            problems.append(f"{line.strip()}  [lupdate files these texts under a context the "
                            "running code does not use: give the function an unqualified name "
                            "or a tr() class; docs/translations.md]")
    try:
        root = ET.parse(ts).getroot()
    except ET.ParseError as e:
        return problems + [f"{committed}: not valid XML after lupdate: {e}"]
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            where = location(message, work_dir)
            label = f"{where}: [{part}] {name}: {source!r}"
            translation = message.find("translation")
            if translation is None:
                problems.append(f"{label}: no <translation>")
                continue
            if message.get("numerus") == "yes":
                forms = [f.text or "" for f in translation.findall("numerusform")]
            else:
                forms = [translation.text or ""]
            kind = translation.get("type", "")
            if kind in ("unfinished", "vanished", "obsolete") or not forms or any(not f.strip() for f in forms):
                problems.append(f"{label}: untranslated" + (f" ({kind})" if kind else ""))
                continue
            want = placeholders(source)
            for form in forms:
                got = placeholders(form)
                if got != want:
                    problems.append(f"{label}: placeholders {want} in the source but {got} in "
                                    f"the translation {form!r}")
                if ACCELERATOR.search(source) and not ACCELERATOR.search(form):
                    problems.append(f"{label}: the source's & accelerator is missing from {form!r}")
    problems += check_english(source_dir, part, work_dir)
    return problems


def numerus_messages(path):
    """(context, source) -> the numerus forms of every %n message of a catalogue."""
    out = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            if message.get("numerus") != "yes":
                continue
            translation = message.find("translation")
            forms = [f.text or "" for f in translation.findall("numerusform")] if translation is not None else []
            out[(name, message.findtext("source") or "")] = forms
    return out


def check_english(source_dir, part, work_dir):
    """The committed moewb_<part>_en.ts gives every %n message of the code its two English forms."""
    committed = os.path.join(source_dir, "translations", f"moewb_{part}_en.ts")
    fresh = os.path.join(work_dir, f"moewb_{part}_en.ts")
    if not os.path.isfile(committed):
        return [f"{committed}: missing (run translations/update-ts {part})"]
    if not os.path.isfile(fresh):
        return [f"{part}: translations/update-ts wrote no {os.path.basename(fresh)}"]
    have = numerus_messages(committed)
    problems = []
    for (context, source) in numerus_messages(fresh):
        forms = have.get((context, source))
        label = f"{committed}: [{part}] {context}: {source!r}"
        if forms is None:
            problems.append(f"{label}: no English plural forms (run translations/update-ts {part})")
        elif len(forms) != 2 or any(not f.strip() or "(s)" in f for f in forms):
            problems.append(f"{label}: English plural forms {forms!r} are not singular and plural")
    return problems


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    source_dir = os.path.abspath(argv[1])
    parts = argv[2:] or PARTS
    problems = []
    counts = []
    with tempfile.TemporaryDirectory(prefix="moewb-ts-") as work_dir:
        for part in parts:
            found = check_part(source_dir, part, work_dir)
            problems += found
            ts = os.path.join(work_dir, f"moewb_{part}_zh_CN.ts")
            total = len(ET.parse(ts).getroot().findall(".//message")) if os.path.isfile(ts) else 0
            counts.append(f"{part} {total} strings, {len(found)} problems")
    print("checked: " + "; ".join(counts))
    if problems:
        print(f"FAIL: {len(problems)} translation problem(s) (translations/update-ts, then translate; "
              "docs/translations.md):")
        for p in problems:
            print("  " + p)
        return 1
    print("PASS: every string is translated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
