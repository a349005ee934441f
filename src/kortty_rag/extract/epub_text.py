"""EPUB 2 and 3 books as outline text (:mod:`kortty_rag.extract.outline`; docs/DESIGN.md §6).

The package document (found through ``META-INF/container.xml``) gives the spine: its XHTML parts are
read in that order, each as HTML (:mod:`kortty_rag.extract.html_text`). A part whose own first
heading is not its title in the table of contents (EPUB 3 navigation document or EPUB 2 NCX) gets
that title as a heading above its own, so every chunk carries its chapter. The navigation document
itself is not indexed. A book with encrypted content (``META-INF/encryption.xml`` for anything but
fonts, or Adobe's ``rights.xml``) is DRM-protected and skipped.
"""

from __future__ import annotations

import posixpath
from urllib.parse import unquote, urldefrag

from lxml import etree

from kortty_rag.extract.containers import SafeZip, check_xml, parse_xml
from kortty_rag.extract.html_text import main_element, parse_html, read_tree
from kortty_rag.extract.outline import Outline, Unreadable, clean
from kortty_rag.messages import msg

KIND = "EPUB"
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
#: font obfuscation (IDPF, Adobe) is no DRM: the text stays readable
_FONT_OBFUSCATION = frozenset(
    {"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"}
)
_XHTML_TYPES = frozenset({"application/xhtml+xml", "text/html", "application/xml"})


def _local(element: etree._Element) -> str:
    return etree.QName(element).localname if isinstance(element.tag, str) else ""


def read_epub(data: bytes, outline: Outline) -> None:
    book = SafeZip(data, KIND)
    _refuse_drm(book)
    container = parse_xml(book.read("META-INF/container.xml"), KIND)
    rootfile = next((e for e in container.iter() if _local(e) == "rootfile"), None)
    opf_path = rootfile.get("full-path", "") if rootfile is not None else ""
    if not opf_path:
        raise Unreadable(msg("damaged {kind} file (no package document)", kind=KIND))
    package = parse_xml(book.read(opf_path), KIND)
    base = posixpath.dirname(opf_path)
    items: dict[str, tuple[str, str, str]] = {}  # id -> (path, media type, properties)
    for item in package.iter():
        if _local(item) == "item" and item.get("id") and item.get("href"):
            path = _resolve(base, item.get("href", ""))
            items[item.get("id", "")] = (
                path,
                item.get("media-type", ""),
                item.get("properties", ""),
            )
    titles = _toc_titles(book, items)
    spine = [e.get("idref", "") for e in package.iter() if _local(e) == "itemref"]
    read: set[str] = set()
    for idref in spine:
        path, media, properties = items.get(idref, ("", "", ""))
        if not path or path in read or "nav" in properties.split() or media not in _XHTML_TYPES:
            continue  # each part once, however often the spine names it
        if not book.has(path):
            continue  # a spine entry whose part is missing: the rest of the book is still read
        read.add(path)
        part = book.read(path)
        check_xml(part, KIND)
        root = parse_html(part)
        title = titles.get(path)
        own = _first_heading(root)
        if title and (own is None or own.casefold() != title.casefold()):
            outline.heading(1, title)
            read_tree(root, outline, level_offset=1)
        else:
            read_tree(root, outline)


def _resolve(base: str, href: str) -> str:
    path = posixpath.normpath(posixpath.join(base, unquote(urldefrag(href)[0])))
    return "" if path.startswith("..") or path.startswith("/") else path


def _refuse_drm(book: SafeZip) -> None:
    if book.has("META-INF/rights.xml"):
        raise Unreadable(msg("DRM-protected {kind} file, not read", kind=KIND))
    if not book.has("META-INF/encryption.xml"):
        return
    encryption = parse_xml(book.read("META-INF/encryption.xml"), KIND)
    for method in encryption.iter():
        if (
            _local(method) == "EncryptionMethod"
            and method.get("Algorithm") not in _FONT_OBFUSCATION
        ):
            raise Unreadable(msg("DRM-protected {kind} file, not read", kind=KIND))


def _first_heading(root: etree._Element) -> str | None:
    for element in main_element(root).iter(*_HEADINGS):
        text = clean(element.text_content())
        if text:
            return text
    return None


def _toc_titles(book: SafeZip, items: dict[str, tuple[str, str, str]]) -> dict[str, str]:
    """The first title the table of contents gives each part (path -> title)."""
    titles: dict[str, str] = {}
    nav = next((p for p, _, props in items.values() if "nav" in props.split()), None)
    if nav and book.has(nav):
        root = parse_html(book.read(nav))
        base = posixpath.dirname(nav)
        for toc in root.iter("nav"):
            if "toc" not in (toc.get("epub:type", "") + " " + toc.get("role", "")).split():
                continue
            for link in toc.iter("a"):
                path = _resolve(base, link.get("href", ""))
                text = clean(link.text_content())
                if path and text:
                    titles.setdefault(path, text)
        if titles:
            return titles
    ncx = next((p for p, media, _ in items.values() if media == "application/x-dtbncx+xml"), None)
    if ncx and book.has(ncx):
        root = parse_xml(book.read(ncx), KIND)
        base = posixpath.dirname(ncx)
        for point in root.iter():
            if _local(point) != "navPoint":
                continue
            label = next((e for e in point.iter() if _local(e) == "text"), None)
            content = next((e for e in point.iter() if _local(e) == "content"), None)
            if label is not None and content is not None:
                path = _resolve(base, content.get("src", ""))
                text = clean(label.text or "")
                if path and text:
                    titles.setdefault(path, text)
    return titles
