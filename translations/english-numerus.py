#!/usr/bin/env python3
"""Fills the English plural forms of a Qt Linguist catalogue made with lupdate -pluralonly.

The code writes English plurals the short way, "%n run(s)" with tr(text, comment, n);
this gives each such message its two English numerus forms, singular and plural:
  word(s) -> word / words      do(es) -> does / do      (es) -> (nothing) / es
A form already filled by hand is kept. Usage: english-numerus.py FILE.ts [...]
(translations/update-ts runs it on every translations/moewb_<part>_en.ts; docs/translations.md).
"""
import re
import sys
import xml.etree.ElementTree as ET

DOES = re.compile(r"\bdo\(es\)")
PAREN = re.compile(r"\((s|es)\)")


def forms(source):
    singular = PAREN.sub("", DOES.sub("does", source))
    plural = PAREN.sub(lambda m: m.group(1), DOES.sub("do", source))
    return singular, plural


def fill(path):
    tree = ET.parse(path)
    root = tree.getroot()
    filled = 0
    for message in root.iter("message"):
        if message.get("numerus") != "yes":
            continue
        source = message.findtext("source") or ""
        translation = message.find("translation")
        if translation is None:
            translation = ET.SubElement(message, "translation")
        current = [f.text or "" for f in translation.findall("numerusform")]
        if translation.get("type") != "unfinished" and len(current) == 2 and all(c.strip() for c in current):
            continue
        for f in list(translation):
            translation.remove(f)
        translation.text = None
        translation.attrib.pop("type", None)
        for text in forms(source):
            form = ET.SubElement(translation, "numerusform")
            form.text = text
        filled += 1
    ET.indent(tree, space="    ")
    with open(path, "wb") as out:
        out.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        tree.write(out, encoding="utf-8", xml_declaration=False)
        out.write(b"\n")
    return filled


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    for p in sys.argv[1:]:
        fill(p)
