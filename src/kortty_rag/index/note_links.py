"""The notes and links of a snapshot: two tables of its chunk database (docs/DESIGN.md §9).

``notes`` holds what each Markdown note says about itself (front matter title, aliases, tags and
type, and why its front matter was not read); ``links`` holds each note's links as written and the
document each one resolves to (``target_document``, NULL for a dangling link). Both live in
``chunks.sqlite``, so the manifest's checksum covers them like the chunks. A document keeps its rows
while it is unchanged (they are copied with the table, moved with a renamed file); every build
resolves all links again before it commits (:func:`resolve_links`), so a renamed or removed note's
backlinks follow it — resolving is a lookup per link, a few milliseconds for thousands.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from kortty_rag.notes.reader import NoteFacts
from kortty_rag.notes.resolve import NOTE_FORMATS, LinkRow, NoteFile, Resolver

SCHEMA = """
CREATE TABLE IF NOT EXISTS notes (
    document_id INTEGER PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    aliases TEXT NOT NULL DEFAULT '[]',
    tags TEXT NOT NULL DEFAULT '[]',
    type TEXT NOT NULL DEFAULT '',
    problem TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS links (
    document_id INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    anchor TEXT NOT NULL,
    label TEXT NOT NULL,
    target_document INTEGER,
    PRIMARY KEY (document_id, ordinal)
);
CREATE INDEX IF NOT EXISTS links_target ON links (target_document);
"""


def has_notes(db: sqlite3.Connection) -> bool:
    """Whether the database has the tables (snapshots written before notes were read have not)."""
    row = db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'links'")
    return bool(row.fetchone()[0])


def add_note(db: sqlite3.Connection, document_id: int, facts: NoteFacts) -> None:
    db.execute(
        "INSERT OR REPLACE INTO notes (document_id, title, aliases, tags, type, problem)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (
            document_id,
            facts.title,
            json.dumps(facts.aliases, ensure_ascii=False),
            json.dumps(facts.tags, ensure_ascii=False),
            facts.type,
            facts.problem,
        ),
    )
    db.executemany(
        "INSERT INTO links (document_id, ordinal, kind, target, anchor, label)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [
            (document_id, n, link.kind.value, link.target, link.anchor, link.label)
            for n, link in enumerate(facts.links)
        ],
    )


def forget_note(db: sqlite3.Connection, document_id: int) -> None:
    db.execute("DELETE FROM notes WHERE document_id = ?", (document_id,))
    db.execute("DELETE FROM links WHERE document_id = ?", (document_id,))


def copy_note(db: sqlite3.Connection, from_id: int, to_id: int) -> bool:
    """Give document ``to_id`` the note rows of ``from_id`` (same content); whether it had any."""
    copied = db.execute(
        "INSERT OR REPLACE INTO notes (document_id, title, aliases, tags, type, problem)"
        " SELECT ?, title, aliases, tags, type, problem FROM notes WHERE document_id = ?",
        (to_id, from_id),
    ).rowcount
    db.execute(
        "INSERT INTO links (document_id, ordinal, kind, target, anchor, label)"
        " SELECT ?, ordinal, kind, target, anchor, label FROM links WHERE document_id = ?",
        (to_id, from_id),
    )
    return copied > 0


def _aliases(raw: str) -> tuple[str, ...]:
    try:
        value = json.loads(raw)
    except ValueError:
        return ()
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def resolve_links(db: sqlite3.Connection) -> None:
    """Resolve every link of the database against its documents (see the module docstring);
    only rows whose target changed are written."""
    aliases = {
        int(r[0]): _aliases(str(r[1]))
        for r in db.execute("SELECT document_id, aliases FROM notes WHERE aliases != '[]'")
    }
    files = [
        NoteFile(int(r[0]), str(r[1]), str(r[2]), str(r[3]), aliases.get(int(r[0]), ()))
        for r in db.execute("SELECT id, source_id, rel_path, format FROM documents")
    ]
    resolver = Resolver(files)
    changes = []
    rows = db.execute(
        "SELECT document_id, ordinal, kind, target, target_document FROM links"
    ).fetchall()
    for document_id, ordinal, kind, target, old in rows:
        new = resolver.resolve(LinkRow(int(document_id), str(kind), str(target)))
        if new != old:
            changes.append((new, document_id, ordinal))
    db.executemany(
        "UPDATE links SET target_document = ? WHERE document_id = ? AND ordinal = ?", changes
    )


@dataclass(frozen=True)
class NoteLink:
    """One resolved link between two documents of a snapshot."""

    from_document: int
    to_document: int
    kind: str
    anchor: str


def links_of(db: sqlite3.Connection, document_ids: Iterable[int], limit: int) -> list[NoteLink]:
    """The resolved links from and to ``document_ids`` (not to themselves), at most ``limit`` in
    each direction per document, in the order they are written (a note's backlinks in the order
    of their notes' paths)."""
    found: list[NoteLink] = []
    for document in sorted(set(document_ids)):
        out = db.execute(
            "SELECT target_document, kind, anchor FROM links WHERE document_id = ?"
            " AND target_document IS NOT NULL AND target_document != document_id"
            " ORDER BY ordinal LIMIT ?",
            (document, limit),
        )
        found += [NoteLink(document, int(r[0]), str(r[1]), str(r[2])) for r in out]
        back = db.execute(
            "SELECT l.document_id, l.kind, l.anchor FROM links l JOIN documents d"
            " ON d.id = l.document_id WHERE l.target_document = ? AND l.document_id != ?"
            " GROUP BY l.document_id ORDER BY d.rel_path LIMIT ?",
            (document, document, limit),
        )
        found += [NoteLink(int(r[0]), document, str(r[1]), str(r[2])) for r in back]
    return found


def titles(db: sqlite3.Connection, document_ids: Iterable[int]) -> dict[int, str]:
    """The title of each document: its front matter title, else its file name without ``.md``."""
    wanted = sorted(set(document_ids))
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    rows = db.execute(
        f"SELECT d.id, d.rel_path, d.format, COALESCE(n.title, '') FROM documents d"
        f" LEFT JOIN notes n ON n.document_id = d.id WHERE d.id IN ({marks})",
        wanted,
    )
    result = {}
    for document_id, rel_path, fmt, title in rows:
        name = str(rel_path).rsplit("/", 1)[-1]
        if fmt in NOTE_FORMATS and name.lower().endswith(".md"):
            name = name[:-3]
        result[int(document_id)] = str(title) or name
    return result


@dataclass(frozen=True)
class DanglingLink:
    source_id: str
    rel_path: str
    target: str
    label: str


@dataclass(frozen=True)
class NoteProblem:
    source_id: str
    rel_path: str
    problem: str


def dangling_links(db: sqlite3.Connection, limit: int) -> tuple[list[DanglingLink], int]:
    """Links that point at no document of the store (at most ``limit``), and how many there are."""
    where = " FROM links l JOIN documents d ON d.id = l.document_id WHERE l.target_document IS NULL"
    total = int(db.execute("SELECT COUNT(*)" + where).fetchone()[0])
    rows = db.execute(
        "SELECT d.source_id, d.rel_path, l.target, l.label"
        + where
        + " ORDER BY d.source_id, d.rel_path, l.ordinal LIMIT ?",
        (limit,),
    )
    return [DanglingLink(str(a), str(b), str(c), str(e)) for a, b, c, e in rows], total


def note_problems(db: sqlite3.Connection, limit: int) -> list[NoteProblem]:
    rows = db.execute(
        "SELECT d.source_id, d.rel_path, n.problem FROM notes n JOIN documents d"
        " ON d.id = n.document_id WHERE n.problem != '' ORDER BY d.source_id, d.rel_path LIMIT ?",
        (limit,),
    )
    return [NoteProblem(str(a), str(b), str(c)) for a, b, c in rows]


def graph_counts(db: sqlite3.Connection) -> tuple[int, int, int]:
    """Notes, links, and links that resolve to another document."""
    notes = int(db.execute("SELECT COUNT(*) FROM notes").fetchone()[0])
    links = int(db.execute("SELECT COUNT(*) FROM links").fetchone()[0])
    resolved = int(
        db.execute(
            "SELECT COUNT(*) FROM links WHERE target_document IS NOT NULL"
            " AND target_document != document_id"
        ).fetchone()[0]
    )
    return notes, links, resolved
