"""Link targets resolved to documents as Obsidian resolves them, across all sources of a store.

* A wikilink (``[[Note]]``, ``[[folder/Note]]``, ``![[diagram.png]]``) names a file: a Markdown
  note by its name without ``.md``, any other file by its name with its extension; a name with a
  folder part matches the files whose path ends with it. Names compare case-insensitively (and in
  Unicode NFC, so a name typed on one system matches a file named on another). When no file has
  the name, a note whose front matter lists it among its ``aliases`` is the target.
* A Markdown link (``[text](../b.md)``) is a path relative to the linking file (from the source's
  root when it starts with ``/``); where no file is there, its name is resolved as a wikilink's is
  (Obsidian writes "shortest path" links such as ``[text](Note.md)``).
* When several files match, the one with the shortest path wins (fewest folders, then fewest
  characters, then the path itself), so the result never depends on the order of a scan.

A link whose target is its own note (``[[#Heading]]``) resolves to that note; a link nothing matches
is *dangling* (``None``) and is reported.
"""

from __future__ import annotations

import posixpath
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from kortty_rag.notes.markup import LinkKind

#: the formats a wikilink finds by their name without the extension
NOTE_FORMATS = frozenset({"Markdown"})
_NOTE_SUFFIXES = (".md", ".markdown")


@dataclass(frozen=True)
class NoteFile:
    """A document a link may point at."""

    id: int
    source_id: str
    rel_path: str
    format: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class LinkRow:
    """A link of document ``document_id`` as written (``kind`` a :class:`LinkKind` value)."""

    document_id: int
    kind: str
    target: str


def fold(name: str) -> str:
    """A name as names are compared: NFC, case folded, surrounding blanks removed."""
    return unicodedata.normalize("NFC", name).strip().casefold()


def _stem(path: str) -> str:
    lowered = path.lower()
    for suffix in _NOTE_SUFFIXES:
        if lowered.endswith(suffix):
            return path[: -len(suffix)]
    return path


def _order(file: NoteFile) -> tuple[int, int, str, str]:
    return (file.rel_path.count("/"), len(file.rel_path), file.rel_path, file.source_id)


class Resolver:
    """Resolves link targets against the documents of one store (build once per snapshot)."""

    def __init__(self, files: Iterable[NoteFile]) -> None:
        self._by_name: dict[str, list[NoteFile]] = {}
        self._by_alias: dict[str, list[NoteFile]] = {}
        self._by_path: dict[tuple[str, str], NoteFile] = {}
        self._by_folded_path: dict[tuple[str, str], NoteFile] = {}
        self._files: dict[int, NoteFile] = {}
        for file in files:
            self._files[file.id] = file
            self._by_path[(file.source_id, file.rel_path)] = file
            self._by_folded_path.setdefault((file.source_id, fold(file.rel_path)), file)
            name = file.rel_path.rsplit("/", 1)[-1]
            self._by_name.setdefault(fold(name), []).append(file)
            if file.format in NOTE_FORMATS:
                stem = _stem(name)
                if stem != name:
                    self._by_name.setdefault(fold(stem), []).append(file)
                for alias in file.aliases:
                    self._by_alias.setdefault(fold(alias), []).append(file)
        for table in (self._by_name, self._by_alias):
            for files_of in table.values():
                files_of.sort(key=_order)

    def resolve(self, link: LinkRow) -> int | None:
        """The document ``link`` points at, or ``None`` (dangling)."""
        source = self._files.get(link.document_id)
        if source is None:
            return None
        target = link.target.strip()
        if not target:  # [[#Heading]]: a place in the note itself
            return source.id
        if link.kind == LinkKind.MARKDOWN.value:
            found = self._relative(source, target)
            if found is not None:
                return found.id
            target = target.lstrip("/")
        return self._named(target)

    def _relative(self, source: NoteFile, target: str) -> NoteFile | None:
        if target.startswith("/"):
            path = posixpath.normpath(target.lstrip("/"))
        else:
            path = posixpath.normpath(posixpath.join(posixpath.dirname(source.rel_path), target))
        if path.startswith("../") or path == "..":
            return None
        for candidate in (path, path + ".md"):
            found = self._by_path.get((source.source_id, candidate))
            if found is None:
                found = self._by_folded_path.get((source.source_id, fold(candidate)))
            if found is not None:
                return found
        return None

    def _named(self, target: str) -> int | None:
        folded = fold(target)
        name = folded.rsplit("/", 1)[-1]
        matches = self._by_name.get(name, [])
        if "/" in folded:  # [[folder/Note]]: the files whose path ends with it
            matches = [f for f in matches if _path_key(f, name).endswith("/" + folded)]
        if matches:
            return matches[0].id
        aliases = self._by_alias.get(folded, [])
        return aliases[0].id if aliases else None


def _path_key(file: NoteFile, name: str) -> str:
    """``file``'s path as a name ``name`` matched it (with or without the note suffix), from "/"."""
    base = file.rel_path.rsplit("/", 1)[-1]
    path = file.rel_path if fold(base) == name else _stem(file.rel_path)
    return fold("/" + path)
