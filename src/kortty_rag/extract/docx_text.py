"""Word documents (DOCX) as outline text (:mod:`kortty_rag.extract.outline`; docs/DESIGN.md §6).

python-docx opens the package (its parts and relationships; a relationship to an external target
is recorded by it, never followed) and knows the styles. The body is read in order, content controls
included: a paragraph is a heading when it has an outline level (its own or its style's, following
the styles it is based on), or its style is Title or Heading 1–9; Title is above the headings.
Tables are rows of cells; list paragraphs are items. Tracked deletions (and the old place of moved
text) are not indexed, tracked insertions are. Footnotes and endnotes are indexed after the paragraph
that refers to them (``[1] …``), so they keep its heading; comments are not (they are remarks about
the text, not the text).
"""

from __future__ import annotations

import re
from io import BytesIO
from typing import Any

from lxml import etree

from kortty_rag.extract.containers import SafeZip, damaged, parse_xml
from kortty_rag.extract.outline import Outline, Unreadable

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_NS = {"w": _W}
_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
_TEXT = etree.XPath(
    ".//w:t[not(ancestor::w:del) and not(ancestor::w:moveFrom)] | .//w:tab | .//w:br | .//w:cr"
    " | .//w:footnoteReference | .//w:endnoteReference",
    namespaces=_NS,
)
_NOTES = {"footnoteReference": "footnotes", "endnoteReference": "endnotes"}
KIND = "DOCX"


def _q(name: str) -> str:
    return f"{{{_W}}}{name}"


def read_docx(data: bytes, outline: Outline) -> None:
    package = SafeZip(data, KIND)
    package.check_xml_parts()
    import docx  # imported here: the worker imports it before its memory limit applies

    try:
        document = docx.Document(BytesIO(data))
    except Unreadable:
        raise
    except Exception as exc:  # python-docx raises many types on damaged packages
        raise damaged(KIND, exc) from None
    _Reader(document, outline).body(document.element.body)


class _Reader:
    def __init__(self, document: Any, outline: Outline) -> None:
        self.outline = outline
        self.styles = document.styles.element
        self.levels: dict[str, int | None] = {}
        self.notes = {kind: _notes(document, kind) for kind in ("footnotes", "endnotes")}
        self.numbers: dict[tuple[str, str], int] = {}
        self.titled = False  # a Title came before the first heading: headings go one level down
        self.headed = False

    def body(self, element: etree._Element) -> None:
        for child in element:
            tag = child.tag
            if tag == _q("p"):
                self.paragraph(child)
            elif tag == _q("tbl"):
                self.table(child)
            elif tag in (_q("sdt"), _q("customXml"), _q("sdtContent"), _q("ins"), _q("smartTag")):
                self.body(child)

    def paragraph(self, p: etree._Element) -> None:
        text, notes = self.text(p)
        level = self.level(p)
        if level is not None and text.strip():
            if level == 0:
                self.titled = self.titled or not self.headed
                self.outline.heading(1, text)
            else:
                self.headed = True
                self.outline.heading(min(level + (1 if self.titled else 0), 6), text)
        elif p.find("w:pPr/w:numPr", _NS) is not None:
            depth = p.find("w:pPr/w:numPr/w:ilvl", _NS)
            value = depth.get(_q("val"), "0") if depth is not None else "0"
            self.outline.item(
                text, min(int(value), 8) if value.isascii() and value.isdigit() else 0
            )
        else:
            self.outline.paragraph(text)
        for number, note in notes:
            self.outline.paragraph(f"[{number}] {note}")

    def text(self, p: etree._Element) -> tuple[str, list[tuple[int, str]]]:
        words: list[str] = []
        notes: list[tuple[int, str]] = []
        for node in _TEXT(p):
            name = etree.QName(node).localname
            if name == "t":
                words.append(node.text or "")
            elif name in ("tab",):
                words.append(" ")
            elif name in ("br", "cr"):
                words.append("\n")
            else:
                kind = _NOTES[name]
                key = (kind, node.get(_q("id"), ""))
                note = self.notes[kind].get(key[1])
                if note is None:
                    continue
                number = self.numbers.setdefault(key, len(self.numbers) + 1)
                words.append(f"[{number}]")
                notes.append((number, note))
        return "".join(words), notes

    def level(self, p: etree._Element) -> int | None:
        """0 for a title, 1–9 for a heading, None for body text."""
        own = p.find("w:pPr/w:outlineLvl", _NS)
        if own is not None:
            return _outline_level(own)
        style = p.find("w:pPr/w:pStyle", _NS)
        return self.style_level(style.get(_q("val"), "") if style is not None else "")

    def style_level(self, style_id: str, depth: int = 0) -> int | None:
        if style_id in self.levels:
            return self.levels[style_id]
        level: int | None = None
        style = self.styles.get_by_id(style_id) if style_id else None
        if style is not None and depth < 20:
            name = style.name_val or ""
            found = style.find("w:pPr/w:outlineLvl", _NS)
            match = _HEADING_NAME.match(name)
            if name.lower() == "title":
                level = 0
            elif found is not None:
                level = _outline_level(found)
            elif match:
                level = int(match.group(1))
            else:
                based = style.find("w:basedOn", _NS)
                if based is not None:
                    level = self.style_level(based.get(_q("val"), ""), depth + 1)
        self.levels[style_id] = level
        return level

    def table(self, tbl: etree._Element) -> None:
        for tr in tbl.iterfind("w:tr", _NS):
            cells = []
            for tc in tr.iterfind("w:tc", _NS):
                cells.append(" ".join(self.text(p)[0] for p in tc.iter(_q("p"))))
            self.outline.row(cells)


def _outline_level(element: etree._Element) -> int | None:
    try:
        value = int(element.get(_q("val"), "9"))
    except ValueError:
        return None
    return value + 1 if 0 <= value < 9 else None  # 9 is "body text"


def _notes(document: Any, kind: str) -> dict[str, str]:
    """The text of each foot- or endnote of ``document`` by its id."""
    for rel in document.part.rels.values():
        if rel.is_external or not rel.reltype.endswith("/" + kind):
            continue
        root = parse_xml(rel.target_part.blob, KIND)
        notes = {}
        for note in root.iterfind(f"w:{kind[:-1]}", _NS):
            if note.get(_q("type")) in ("separator", "continuationSeparator", "continuationNotice"):
                continue
            words = [t.text or "" for t in note.iter(_q("t")) if not _deleted(t)]
            notes[note.get(_q("id"), "")] = "".join(words).strip()
        return notes
    return {}


def _deleted(node: etree._Element) -> bool:
    return any(etree.QName(a).localname in ("del", "moveFrom") for a in node.iterancestors())
