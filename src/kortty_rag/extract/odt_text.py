"""OpenDocument text (ODT) as outline text (:mod:`kortty_rag.extract.outline`; docs/DESIGN.md §6).

``content.xml`` is read with lxml (:func:`kortty_rag.extract.containers.parse_xml`): ``text:h`` is a
heading at its outline level, a paragraph of the Title style (or a style based on it) is above the
headings, lists are items, tables rows of cells, sections are read through. Tracked changes keep
deleted text in their own region, which is not indexed; notes (footnotes and endnotes) are indexed
after the paragraph that cites them (``[1] …``); annotations (comments) are not. A document whose
manifest lists encrypted parts is password-protected and skipped.

ODF is a plain XML vocabulary: reading it needs no more than a safe XML parser (odfpy, the library
for it, parses with its own SAX handler and was last released in 2020).
"""

from __future__ import annotations

from lxml import etree

from kortty_rag.extract.containers import SafeZip, parse_xml
from kortty_rag.extract.outline import Outline, Unreadable
from kortty_rag.messages import msg

_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
_MANIFEST = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"
KIND = "ODT"
#: elements whose text is not the document's: annotations, the deleted text of tracked changes
_SKIPPED = frozenset(
    {
        f"{{{_OFFICE}}}annotation", f"{{{_OFFICE}}}annotation-end",
        f"{{{_TEXT}}}tracked-changes", f"{{{_TEXT}}}note-citation",
        f"{{{_TEXT}}}sequence-decls", f"{{{_TEXT}}}table-of-content",
    }
)  # fmt: skip


def _t(name: str) -> str:
    return f"{{{_TEXT}}}{name}"


def read_odt(data: bytes, outline: Outline) -> None:
    package = SafeZip(data, KIND)
    if package.has("META-INF/manifest.xml"):
        manifest = parse_xml(package.read("META-INF/manifest.xml"), KIND)
        if manifest.find(f".//{{{_MANIFEST}}}encryption-data") is not None:
            raise Unreadable(
                msg("encrypted or password-protected {kind} file, not read", kind=KIND)
            )
    root = parse_xml(package.read("content.xml"), KIND)
    body = root.find(f"{{{_OFFICE}}}body/{{{_OFFICE}}}text")
    if body is None:
        raise Unreadable(msg("not an OpenDocument text (no text body)"))
    _Reader(root, outline).blocks(body, 0)


class _Reader:
    def __init__(self, root: etree._Element, outline: Outline) -> None:
        self.outline = outline
        self.parents = {
            style.get(f"{{{_STYLE}}}name", ""): style.get(f"{{{_STYLE}}}parent-style-name", "")
            for style in root.iter(f"{{{_STYLE}}}style")
        }
        self.notes = 0
        self.titled = False
        self.headed = False

    def blocks(self, element: etree._Element, depth: int) -> None:
        for child in element:
            tag = child.tag
            if tag in _SKIPPED or not isinstance(tag, str):
                continue
            if tag == _t("h"):
                self.heading(child)
            elif tag == _t("p"):
                self.paragraph(child)
            elif tag == _t("list"):
                self.list(child, 0)
            elif tag == f"{{{_TABLE}}}table":
                self.table(child)
            elif depth < 100:  # sections, index bodies, soft page breaks and the like
                self.blocks(child, depth + 1)

    def heading(self, h: etree._Element) -> None:
        text, notes = self.text(h)
        try:
            level = int(h.get(_t("outline-level"), "1"))
        except ValueError:
            level = 1
        self.headed = True
        self.outline.heading(min(max(level, 1) + (1 if self.titled else 0), 6), text)
        self.write_notes(notes)

    def paragraph(self, p: etree._Element, prefix: int | None = None) -> None:
        text, notes = self.text(p)
        if prefix is None and self.is_title(p.get(_t("style-name"), "")) and text.strip():
            self.titled = self.titled or not self.headed
            self.outline.heading(1, text)
        elif prefix is not None:
            self.outline.item(text, prefix)
        else:
            self.outline.paragraph(text)
        self.write_notes(notes)

    def write_notes(self, notes: list[str]) -> None:
        for note in notes:
            self.outline.paragraph(note)

    def is_title(self, style: str) -> bool:
        for _ in range(20):
            if style in ("Title", "Titel"):
                return True
            style = self.parents.get(style, "")
            if not style:
                return False
        return False

    def text(self, element: etree._Element) -> tuple[str, list[str]]:
        words: list[str] = []
        notes: list[str] = []
        self._inline(element, words, notes, 0)
        return "".join(words), notes

    def _inline(
        self, element: etree._Element, words: list[str], notes: list[str], depth: int
    ) -> None:
        if element.text:
            words.append(element.text)
        for child in element:
            tag = child.tag
            if isinstance(tag, str) and tag not in _SKIPPED and depth < 100:
                if tag == _t("s"):
                    words.append(" ")
                elif tag in (_t("tab"), _t("line-break")):
                    words.append(" " if tag == _t("tab") else "\n")
                elif tag == _t("note"):
                    self.notes += 1
                    words.append(f"[{self.notes}]")
                    body = child.find(_t("note-body"))
                    if body is not None:
                        inner: list[str] = []
                        self._inline(body, inner, notes, depth + 1)
                        notes.append(f"[{self.notes}] " + " ".join("".join(inner).split()))
                else:
                    self._inline(child, words, notes, depth + 1)
            if child.tail:
                words.append(child.tail)

    def list(self, element: etree._Element, level: int) -> None:
        for item in element:
            if item.tag not in (_t("list-item"), _t("list-header")):
                continue
            for part in item:
                if part.tag == _t("list"):
                    self.list(part, level + 1)
                elif part.tag in (_t("p"), _t("h")):
                    self.paragraph(part, level)

    def table(self, element: etree._Element) -> None:
        for row in element.iter(f"{{{_TABLE}}}table-row"):
            cells = []
            for cell in row:
                if cell.tag == f"{{{_TABLE}}}table-cell":
                    cells.append(" ".join(self.text(p)[0] for p in cell.iter(_t("p"), _t("h"))))
            self.outline.row(cells)
