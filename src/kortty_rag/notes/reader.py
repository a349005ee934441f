"""A Markdown note read as it streams: its text with links rendered as labels, and its facts.

:class:`NoteReader` wraps the text blocks of one Markdown document (cut anywhere, as
:func:`kortty_rag.extract.document.open_document` hands them on) and yields the same text line by
line, each line's links rendered by :func:`kortty_rag.notes.markup.render_line` — except inside the
front matter, fenced code blocks and inline code, which stay as written. When the blocks are
exhausted, :attr:`NoteReader.facts` holds what the note says about itself: the front matter's title,
aliases, tags and type, its inline tags, and its links in order (at most :data:`MAX_LINKS`).

A front matter block that is not valid YAML, or is not a mapping, becomes
:attr:`NoteFacts.problem` (an issue the summary shows); the note's text is indexed all the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from kortty_rag.messages import msg
from kortty_rag.notes.markup import Link, render_line
from kortty_rag.text_lines import LONG_LINE, lines

#: links kept per note (a generated index page may hold thousands; the first ones are kept)
MAX_LINKS = 2000
#: front matter read at most; a longer block is reported and not parsed
MAX_FRONT_MATTER = 64 * 1024
#: aliases and tags kept per note, and characters per alias, tag, title or type
MAX_NAMES = 100
MAX_NAME = 200

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


@dataclass
class NoteFacts:
    """What a note says about itself (front matter and the links and tags of its text)."""

    title: str = ""
    aliases: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    type: str = ""
    links: list[Link] = field(default_factory=list)
    #: why the front matter was not read ("" when it was, or when there is none)
    problem: str = ""

    @property
    def empty(self) -> bool:
        return not (self.title or self.aliases or self.tags or self.type or self.links)


def _names(value: Any) -> list[str]:
    """A front matter value as a list of short names (a string, or a list of scalars)."""
    items = value if isinstance(value, list) else [value]
    names: list[str] = []
    for item in items[:MAX_NAMES]:
        if isinstance(item, bool) or item is None or isinstance(item, dict | list):
            continue
        text = " ".join(str(item).split())[:MAX_NAME]
        if text and text not in names:
            names.append(text)
    return names


def read_front_matter(text: str, facts: NoteFacts) -> None:
    """Fill ``facts`` from the YAML between the front matter's fences (``text``, without them)."""
    if len(text) > MAX_FRONT_MATTER:
        facts.problem = msg(
            "front matter longer than {limit} KiB was not read", limit=MAX_FRONT_MATTER // 1024
        )
        return
    try:
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 2 if exc.problem_mark is not None else 0
        facts.problem = msg(
            "front matter is not valid YAML (line {line}: {problem})",
            line=line,
            problem=str(exc.problem or exc.context or "").strip(),
        )
        return
    except (yaml.YAMLError, RecursionError, ValueError, TypeError) as exc:
        facts.problem = msg(
            "front matter is not valid YAML ({problem})", problem=type(exc).__name__
        )
        return
    if data is None:
        return
    if not isinstance(data, dict):
        facts.problem = msg("front matter is not a list of fields (key: value)")
        return
    fields = {str(k).strip().lower(): v for k, v in data.items() if isinstance(k, str | int)}
    title = _names(fields.get("title"))
    facts.title = title[0] if title else ""
    kind = _names(fields.get("type"))
    facts.type = kind[0] if kind else ""
    for key in ("aliases", "alias"):
        for name in _names(fields.get(key)):
            if name not in facts.aliases:
                facts.aliases.append(name)
    for key in ("tags", "tag"):
        value = fields.get(key)
        if isinstance(value, str):  # "tags: a, b" or "tags: a b"
            value = [t for t in re.split(r"[,\s]+", value) if t]
        for name in _names(value):
            _add_tag(facts, name)


def _add_tag(facts: NoteFacts, tag: str) -> None:
    tag = tag.lstrip("#")[:MAX_NAME]
    if tag and tag not in facts.tags and len(facts.tags) < MAX_NAMES:
        facts.tags.append(tag)


class NoteReader:
    """Read one Markdown note's blocks (see the module docstring); iterate over :meth:`blocks`."""

    def __init__(self) -> None:
        self.facts = NoteFacts()

    def blocks(self, blocks: Iterable[str]) -> Iterator[str]:
        first = True
        front: list[str] | None = None  # the front matter's lines while it is read
        front_size = 0
        fence: str | None = None
        for line, starts in lines(blocks):
            stripped = line.rstrip("\r\n")
            if first:
                first = False
                if stripped == "---":
                    front = []
                    yield line
                    continue
            if front is not None:
                if starts and stripped in {"---", "..."}:
                    read_front_matter("".join(front), self.facts)
                    front = None
                elif front_size <= MAX_FRONT_MATTER:
                    front.append(line)
                    front_size += len(line)
                yield line
                continue
            if not starts or len(line) > LONG_LINE:
                yield line
                continue
            if fence is not None:
                if stripped.strip().startswith(fence):
                    fence = None
                yield line
                continue
            opened = _FENCE.match(stripped)
            if opened:
                fence = opened.group(1)[0] * 3
                yield line
                continue
            rendered, links, tags = render_line(line)
            room = MAX_LINKS - len(self.facts.links)
            if room > 0:
                self.facts.links.extend(links[:room])
            for tag in tags:
                _add_tag(self.facts, tag)
            yield rendered


def read_note(text: str) -> tuple[str, NoteFacts]:
    """A whole note's rendered text and facts (tests, small notes)."""
    reader = NoteReader()
    rendered = "".join(reader.blocks([text]))
    return rendered, reader.facts
