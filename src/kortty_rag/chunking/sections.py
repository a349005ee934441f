"""Structured text is cut at its headings first: Markdown, AsciiDoc and reStructuredText sections.

:func:`sections` reads a document's text blocks line by line and yields it back as :class:`Piece`\\ s,
each tagged with the section it belongs to and that section's heading path (``("Keys", "Rotation")``
for a ``## Rotation`` under ``# Keys``). The chunker cuts every section on its own, so a chunk never
spans two sections, and each chunk carries its heading path: embedded and indexed with the chunk,
shown in the context block's location. Memory is one line of at most
:data:`kortty_rag.text_lines.LONG_LINE` characters (plus one held back, for underlined headings),
whatever the document's size.

Recognised headings, outside fenced code blocks (``` and ~~~) and front matter:

* Markdown ATX (``# Title`` … ``###### Title``) and setext (a one-line paragraph underlined with
  ``===`` or ``---``);
* AsciiDoc (``= Title`` … ``====== Title``);
* reStructuredText (a one-line paragraph underlined — optionally also overlined — with a repeated
  punctuation character at least as long as the title; levels in the order the styles first appear);
* the outline text a format reader wrote (:data:`OUTLINE_FORMATS`: HTML, office documents, EPUB,
  RTF): ATX headings only, since the reader escaped every body line that would read as one, and
  nothing else is markup there (no fences, front matter or underlines).

Plain text has no headings; :func:`plain_title` takes a first line that stands on its own as the
document's title.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from kortty_rag.text_lines import lines

#: the formats read by a format reader into outline text (``kortty_rag.extract.outline``): the
#: formats of ``extract.formats.EXTRACTED`` but PDF
OUTLINE_FORMATS = frozenset({"HTML", "DOCX", "ODT", "EPUB", "PPTX", "RTF"})
#: how many heading levels a path keeps (deeper headings replace the last)
MAX_DEPTH = 6
#: a heading longer than this is cut (a heading is a label, not content)
MAX_HEADING = 120
#: a plain text's first line longer than this is not its title
MAX_TITLE = 300

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_ADOC = re.compile(r"^(={1,6})[ \t]+(\S.*?)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_UNDERLINE = re.compile(r"^([=\-~^\"'*+#:.`_<>])\1{2,}[ \t]*$")
#: the end of one sentence and the start of the next (a first line holding two is a paragraph)
_SENTENCE_BREAK = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+[\"'\u201c\u2018(\[]*(\w)")
_MARKUP = re.compile(r"!?\[([^\]]*)\]\([^)]*\)|[*_`]+")
#: a reStructuredText role (``:mod:`json` ``, ``:ref:`title <target>` ``): its text stays
_ROLE = re.compile(r":[\w.+-]+(?::[\w.+-]+)*:`([^`<]*?)\s*(?:<[^`>]*>)?`")


@dataclass(frozen=True)
class Piece:
    """Text of one section (``section`` counts from 0), at ``start`` of the document's text;
    ``heading_line``: the text is the section's heading (with its underline and overline), not its
    body."""

    section: int
    heading: tuple[str, ...]
    start: int
    text: str
    heading_line: bool = False


def clean_heading(text: str) -> str:
    """A heading as plain words: links and reST roles reduced to their text, emphasis and code
    marks removed."""
    plain = _MARKUP.sub(lambda m: m.group(1) or "", _ROLE.sub(r"\1", text))
    return " ".join(plain.split())[:MAX_HEADING]


class _Outline:
    """The current heading path."""

    def __init__(self) -> None:
        self.path: list[tuple[int, str]] = []
        self.rst_styles: list[str] = []

    def enter(self, level: int, title: str) -> tuple[str, ...]:
        while self.path and self.path[-1][0] >= level:
            self.path.pop()
        if len(self.path) >= MAX_DEPTH:
            self.path.pop()
        self.path.append((level, title))
        return tuple(t for _, t in self.path)

    def rst_level(self, style: str) -> int:
        if style not in self.rst_styles:
            self.rst_styles.append(style)
        return self.rst_styles.index(style) + 1


def sections(blocks: Iterable[str], fmt: str) -> Iterator[Piece]:
    """The text of ``blocks`` as pieces tagged with their section (see the module docstring)."""
    outline = _Outline()
    section, offset = 0, 0
    heading: tuple[str, ...] = ()
    fence: str | None = None
    held: tuple[int, str] | None = None  # a one-line paragraph that an underline may turn a heading
    blank_before = True
    first = True
    in_front_matter = False
    asciidoc = fmt == "AsciiDoc"
    rst = fmt == "reStructuredText"
    outline_only = fmt in OUTLINE_FORMATS

    def flush_held() -> Iterator[Piece]:
        nonlocal held
        if held is not None:
            yield Piece(section, heading, held[0], held[1])
            held = None

    for line, starts_line in lines(blocks):
        start, offset = offset, offset + len(line)
        stripped = line.rstrip("\r\n")
        if not starts_line:  # the rest of a very long line: text of the current section
            yield from flush_held()
            blank_before = False
            yield Piece(section, heading, start, line)
            continue
        if first and stripped == "---" and not rst and not outline_only:  # YAML front matter
            in_front_matter, first = True, False
            yield Piece(section, heading, start, line)
            continue
        first = False
        if in_front_matter:
            if stripped in {"---", "..."}:
                in_front_matter = False
            yield Piece(section, heading, start, line)
            continue
        if fence is not None:
            if stripped.strip().startswith(fence):
                fence = None
            yield Piece(section, heading, start, line)
            continue
        opened = None if outline_only else _FENCE.match(stripped)
        if opened and not rst:
            yield from flush_held()
            fence = opened.group(1)[0] * 3
            blank_before = False
            yield Piece(section, heading, start, line)
            continue
        title: str | None = None
        level = 0
        underline = None if outline_only else _UNDERLINE.match(stripped)
        if held is not None and underline:
            char = underline.group(1)
            text = held[1].strip()
            if (not rst and char in "=-") or (rst and len(stripped.strip()) >= len(text)):
                title = clean_heading(text)
                level = (1 if char == "=" else 2) if not rst else outline.rst_level(char)
                section += 1
                heading = outline.enter(level, title) if title else heading
                yield Piece(section, heading, held[0], held[1] + line, heading_line=True)
                held = None
                blank_before = False
                continue
        yield from flush_held()
        match = None if rst else (_ADOC.match(stripped) if asciidoc else _ATX.match(stripped))
        if match:
            level = len(match.group(1))
            title = clean_heading(match.group(2) or "")
            section += 1
            heading = outline.enter(level, title) if title else heading
            yield Piece(section, heading, start, line, heading_line=True)
            blank_before = False
            continue
        if not stripped.strip():
            blank_before = True
            yield Piece(section, heading, start, line)
            continue
        if rst and underline:  # a reST overline: the title and its underline follow
            yield Piece(section, heading, start, line, heading_line=True)
            continue
        if blank_before and not outline_only:
            held = (start, line)  # may be a setext/reST heading: decided by the next line
        else:
            yield Piece(section, heading, start, line)
        blank_before = False
    yield from flush_held()


def plain_title(first_block: str) -> str | None:
    """The title of a plain text: its first line, if it stands on its own — at most
    :data:`MAX_TITLE` characters, followed by more text, at most one sentence (a first line of
    several sentences is a paragraph) and not the first line of a hard-wrapped paragraph (whose
    sentence continues, in lower case, on the next line)."""
    line, newline, rest = first_block.lstrip("\ufeff").partition("\n")
    line = line.strip()
    following = rest.lstrip(" \t")
    if not newline or not rest.strip() or not line or len(line) > MAX_TITLE:
        return None
    if any(m.group(1).isupper() for m in _SENTENCE_BREAK.finditer(line)):
        return None
    continues = not line.endswith((".", "!", "?", ":")) and following[:1].islower()
    return None if continues else line
