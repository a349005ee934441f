"""HTML and XHTML as outline text (:mod:`kortty_rag.extract.outline`): the main text, ``h1``–``h6`` as
headings, lists as items, tables as rows; never ``script``, ``style``, ``template`` or ``noscript``,
and not the navigation around the text (docs/DESIGN.md §6).

An ``h1`` that is the page's title (``class="title"``, or in the page's ``header``) is above the
sections' headings, as a document title is. The main text is the page's one ``main`` element, else
its one ``article``, else its ``body``;
``nav``, ``aside``, ``footer``, forms and elements marked hidden or as navigation are left out
wherever they are. The encoding is the document's own (a byte order mark, ``<meta charset>`` or
the XML declaration; Latin-1 and ASCII labels mean Windows-1252, as browsers read them), else
UTF-8, else Windows-1252. Parsed with lxml's HTML parser, which loads nothing and declares no
entities; a page with a tag of over :data:`MAX_ATTRIBUTES` attributes is refused (libxml2 takes
time quadratic in their number).
"""

from __future__ import annotations

import codecs
import re

from lxml import etree, html

from kortty_rag.extract.outline import Outline, Unreadable, clean, error_text
from kortty_rag.messages import msg

_SKIPPED = frozenset(
    {
        "script", "style", "template", "noscript", "nav", "aside", "footer", "form", "button",
        "select", "textarea", "input", "iframe", "object", "embed", "svg", "math", "canvas",
        "head", "title", "meta", "link", "base",
    }
)  # fmt: skip
_SKIPPED_ROLES = frozenset({"navigation", "banner", "contentinfo", "search", "complementary"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCKS = frozenset(
    {
        "p", "div", "section", "article", "main", "header", "blockquote", "figure", "figcaption",
        "dd", "dt", "address", "details", "summary", "center", "body", "html", "caption",
        "hgroup", "fieldset", "legend", "dl",
    }
)  # fmt: skip
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_.:-]+)""")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>")
#: the end of a document type declaration's internal subset
_SUBSET_END = re.compile(r"\]\s*>")
#: a tag long enough to hold many attributes (each match starts at a ``<`` and ends before the
#: next ``<`` or ``>``: the scan is linear)
_LONG_TAG = re.compile(r"<[^<>]{65536,}")
MAX_ATTRIBUTES = 1000
#: what browsers read for these labels (WHATWG Encoding: Latin-1 and ASCII are windows-1252)
_WINDOWS_1252 = frozenset({"latin_1", "ascii", "iso8859-1", "iso-8859-1", "cp819"})


def decode_html(data: bytes) -> str:
    """``data`` as text in the encoding the document declares (module docstring)."""
    for bom, encoding in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                          (codecs.BOM_UTF16_BE, "utf-16-be")):  # fmt: skip
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace")
    declared = _XML_ENCODING.match(data[:200]) or _CHARSET.search(data[:4096])
    if declared:
        name = _text_encoding(declared.group(1))
        if name:
            try:
                return data.decode(name, errors="replace")
            except (LookupError, UnicodeError, ValueError):
                pass
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _text_encoding(label: bytes) -> str:
    """The codec a declared charset names, or "" (unknown, or no text encoding: base64, rot13 …;
    UTF-16 and UTF-32, which ASCII-compatible bytes cannot be)."""
    try:
        info = codecs.lookup(label.decode("ascii"))
    except (LookupError, UnicodeDecodeError):
        return ""
    if not getattr(info, "_is_text_encoding", True) or info.name.startswith(("utf-16", "utf-32")):
        return ""
    return "cp1252" if info.name in _WINDOWS_1252 else info.name


def _without_doctype(text: str) -> str:
    """``text`` without its leading document type declaration (found in linear time)."""
    if text[:9].upper() != "<!DOCTYPE":
        return text
    close, subset = text.find(">"), text.find("[")
    if close < 0:
        return ""
    if 0 <= subset < close:
        end = _SUBSET_END.search(text, subset)
        return text[end.end() :] if end else ""
    return text[close + 1 :]


def parse_html(data: bytes) -> etree._Element:
    text = decode_html(data).replace("\x00", "")
    text = _without_doctype(_XML_DECLARATION.sub("", text, count=1).lstrip())
    if not text.strip():
        raise Unreadable(msg("no text (empty HTML document)"))
    for tag in _LONG_TAG.finditer(text):
        if tag.group().count("=") > MAX_ATTRIBUTES:
            raise Unreadable(
                msg(
                    "malformed HTML (a tag with more than {count:,} attributes)",
                    count=MAX_ATTRIBUTES,
                )
            )
    parser = html.HTMLParser(no_network=True, huge_tree=True)  # deep nesting keeps its text
    try:
        return html.document_fromstring(text, parser=parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise Unreadable(msg("malformed HTML ({error})", error=error_text(exc))) from None


def main_element(root: etree._Element) -> etree._Element:
    for tag in ("main", "article"):
        found = [e for e in root.iter(tag) if not _skipped(e)]
        if len(found) == 1:
            return found[0]
    body = root.find("body")
    return body if body is not None else root


def read_html(data: bytes, outline: Outline, *, level_offset: int = 0) -> str | None:
    """Write the main text of the HTML page ``data`` to ``outline``; its ``<title>`` is returned."""
    return read_tree(parse_html(data), outline, level_offset=level_offset)


def read_tree(root: etree._Element, outline: Outline, *, level_offset: int = 0) -> str | None:
    """:func:`read_html` of a page parsed already (:func:`parse_html`)."""
    title_element = root.find(".//title")
    title = clean(title_element.text_content()) if title_element is not None else ""
    walker = _Walker(outline, level_offset)
    walker.block(main_element(root))
    walker.flush()  # the text after the last block element
    return title or None


def _skipped(element: etree._Element) -> bool:
    tag = element.tag if isinstance(element.tag, str) else ""
    if tag.lower() in _SKIPPED:
        return True
    attributes = element.attrib
    if "hidden" in attributes or attributes.get("aria-hidden", "").lower() == "true":
        return True
    return attributes.get("role", "").lower() in _SKIPPED_ROLES


def _is_title(heading: etree._Element) -> bool:
    """An ``h1`` that is the page's title, not its first section's heading: marked as the title
    (``class="title"``, as pandoc writes it) or in a ``header`` of the page, not of a section."""
    if "title" in heading.get("class", "").split():
        return True
    for ancestor in heading.iterancestors():
        tag = ancestor.tag if isinstance(ancestor.tag, str) else ""
        if tag in ("section", "article"):
            return False
        if tag == "header":
            return True
    return False


class _Walker:
    """The elements of a page, in order, as outline blocks."""

    def __init__(self, outline: Outline, level_offset: int) -> None:
        self.outline = outline
        self.level_offset = level_offset
        self.inline: list[str] = []
        self.titled = False  # a title came before the first heading
        self.headed = False

    def flush(self) -> None:
        if self.inline:
            self.outline.paragraph("".join(self.inline))
            self.inline = []

    def block(self, element: etree._Element, depth: int = 0) -> None:
        if depth > 200:  # deeper nesting is no document a person wrote: its text is inline
            self.inline.append(element.text_content())
            return
        if element.text:
            self.inline.append(element.text)
        for child in element:
            self.child(child, depth)
            if child.tail:
                self.inline.append(child.tail)

    def child(self, child: etree._Element, depth: int) -> None:
        if not isinstance(child.tag, str) or _skipped(child):  # comments, processing instructions
            return
        tag = child.tag.lower()
        if tag in _HEADINGS:
            self.flush()
            level = _HEADINGS[tag]
            if not self.headed and not self.titled and level == 1 and _is_title(child):
                self.titled = True  # the document's title: its sections go one level below it
            else:
                self.headed = True
                level += 1 if self.titled else 0
            self.outline.heading(level + self.level_offset, child.text_content())
        elif tag == "br":
            self.inline.append("\n")
        elif tag in ("ul", "ol", "menu"):
            self.flush()
            self.list(child, 0, depth)
        elif tag == "table":
            self.flush()
            self.table(child)
        elif tag == "pre":
            self.flush()
            self.outline.preformatted(child.text_content())
        elif tag in _BLOCKS or tag == "li":
            self.flush()
            self.block(child, depth + 1)
            self.flush()
        elif tag == "img":
            alt = child.get("alt", "").strip()
            if alt:
                self.inline.append(f" {alt} ")
        else:  # inline: its text joins the paragraph
            self.block(child, depth + 1)

    def list(self, element: etree._Element, level: int, depth: int) -> None:
        for item in element:
            if not isinstance(item.tag, str) or _skipped(item):
                continue
            if item.tag.lower() != "li":
                self.block(item, depth + 1)
                self.flush()
                continue
            words: list[str] = [item.text or ""]
            nested: list[etree._Element] = []
            for part in item:
                if not isinstance(part.tag, str) or _skipped(part):
                    words.append(part.tail or "")
                    continue
                if part.tag.lower() in ("ul", "ol"):
                    nested.append(part)
                else:
                    words.append(part.text_content())
                words.append(part.tail or "")
            self.outline.item("".join(words), level)
            for sub in nested:
                self.list(sub, level + 1, depth + 1)

    def table(self, element: etree._Element) -> None:
        for row in element.iter("tr"):
            cells = [
                c.text_content() for c in row if isinstance(c.tag, str) and c.tag in ("td", "th")
            ]
            self.outline.row(cells)
