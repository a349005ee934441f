"""The link syntax of a line of a Markdown note, and the line as it is indexed (links as labels).

Recognised outside inline code spans (and, by :mod:`kortty_rag.notes.reader`, outside fenced code
blocks and front matter):

* wikilinks ``[[Note]]``, ``[[Note|label]]``, ``[[Note#Heading]]``, ``[[Note#^block]]`` and their
  embeds ``![[Note]]`` (a picture ``![[diagram.png]]`` too);
* Markdown links and images to a file, ``[text](other.md)``, ``[text](../a/b.md#anchor)``,
  ``[text](<with space.md>)``, ``![alt](picture.png)``: a target with a URL scheme (``https:``,
  ``mailto:``) or only an anchor (``#section``) is no link to a file and stays as it is;
* tags ``#tag`` and ``#area/sub-tag`` (not ``#123``, not a heading's ``#``, not inside a word).

A wikilink is rendered as its label, else its target (``Note``, or ``Note > Heading`` for a link to
a heading); a Markdown link to a file as its text. The rendered line is what is embedded, indexed
and shown, so ``[[VSC|storage decision]]`` reads ``storage decision``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import unquote, urlsplit


class LinkKind(StrEnum):
    WIKI = "wiki"
    EMBED = "embed"
    MARKDOWN = "markdown"


@dataclass(frozen=True)
class Link:
    """A link as written: ``target`` without its anchor (a name or path), ``anchor`` the heading or
    block after ``#`` ("" for none), ``label`` what the text shows."""

    kind: LinkKind
    target: str
    anchor: str
    label: str


#: characters of one link target or label at most (longer is not taken as a link)
MAX_LINK = 500

_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_WIKI = re.compile(r"(!?)\[\[([^\[\]|\n]{1,500}?)(?:\|([^\[\]\n]{0,500}?))?\]\]")
#: ``[text](target)`` or ``[text](<target>)``, an optional title after the target
_MARKDOWN = re.compile(
    r"(!?)\[((?:[^\[\]\\\n]|\\.){0,500})\]\(\s*(?:<([^<>\n]{1,500})>|([^()\s]{1,500}))"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\s*\)"
)
_TAG = re.compile(r"(?<![\w#&/\\])#([^\W\d_][\w/-]{0,99}|[\d_][\w/-]*[^\W\d][\w/-]*)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _wiki(match: re.Match[str]) -> tuple[str, Link]:
    embed, inner, label = match.group(1), match.group(2).strip(), match.group(3)
    target, _, anchor = inner.partition("#")
    target, anchor = target.strip(), anchor.strip()
    if label is not None and label.strip():
        shown = label.strip()
    elif anchor:
        shown = f"{target} > {anchor.lstrip('^')}" if target else anchor.lstrip("^")
    else:
        shown = target
    kind = LinkKind.EMBED if embed else LinkKind.WIKI
    return shown, Link(kind, target, anchor, shown)


def _markdown(match: re.Match[str]) -> tuple[str, Link | None]:
    text = re.sub(r"\\(.)", r"\1", match.group(2)).strip()
    raw = (match.group(3) or match.group(4) or "").strip()
    if not raw or raw.startswith("#") or _SCHEME.match(raw) or raw.startswith("//"):
        return match.group(0), None
    parts = urlsplit(raw)
    path = unquote(parts.path)
    if not path or "\x00" in path:
        return match.group(0), None
    anchor = unquote(parts.fragment)
    shown = text or path.rsplit("/", 1)[-1]
    return shown, Link(LinkKind.MARKDOWN, path, anchor, shown)


def render_line(line: str) -> tuple[str, list[Link], list[str]]:
    """``line`` with its links rendered as labels, the links in order, and its tags."""
    if "[" not in line and "#" not in line:
        return line, [], []
    out: list[str] = []
    links: list[Link] = []
    tags: list[str] = []
    position = 0
    for code in _CODE_SPAN.finditer(line):
        out.append(_render_prose(line[position : code.start()], links, tags))
        out.append(code.group(0))
        position = code.end()
    out.append(_render_prose(line[position:], links, tags))
    return "".join(out), links, tags


def _render_prose(text: str, links: list[Link], tags: list[str]) -> str:
    """``text`` (no code span in it) with its links rendered. Each pattern's next match is kept
    until the text before it is consumed, so a line of many links is read in linear time."""
    if not text:
        return text
    pieces: list[str] = []
    position = 0
    wiki = _WIKI.search(text)
    markdown = _MARKDOWN.search(text)
    while wiki is not None or markdown is not None:
        if markdown is None or (wiki is not None and wiki.start() <= markdown.start()):
            found, is_wiki = wiki, True
        else:
            found, is_wiki = markdown, False
        assert found is not None
        before = text[position : found.start()]
        if found.start() > 0 and text[found.start() - 1] == "\\":  # an escaped bracket
            pieces.append(before + found.group(0))
        else:
            tags.extend(_tags(before))
            pieces.append(before)
            if is_wiki:
                shown, link = _wiki(found)
                links.append(link)
            else:
                shown, maybe = _markdown(found)
                if maybe is not None:
                    links.append(maybe)
            pieces.append(shown)
        position = found.end()
        if wiki is not None and wiki.start() < position:
            wiki = _WIKI.search(text, position)
        if markdown is not None and markdown.start() < position:
            markdown = _MARKDOWN.search(text, position)
    rest = text[position:]
    tags.extend(_tags(rest))
    pieces.append(rest)
    return "".join(pieces)


def _tags(text: str) -> list[str]:
    return [m.group(1).rstrip("/-") for m in _TAG.finditer(text)] if "#" in text else []
