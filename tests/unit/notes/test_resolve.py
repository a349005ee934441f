"""Links resolved as Obsidian resolves them: file name, then alias, case-insensitive, the shortest
path when ambiguous; Markdown links relative to their note. Expected targets are written by hand."""

from __future__ import annotations

import unicodedata

from kortty_rag.notes.resolve import LinkRow, NoteFile, Resolver

FILES = [
    NoteFile(1, "s1", "projects/Project Alpha.md", "Markdown"),
    NoteFile(2, "s1", "decisions/Vector store choice.md", "Markdown", ("VSC", "storage decision")),
    NoteFile(3, "s1", "Qdrant.md", "Markdown"),
    NoteFile(4, "s1", "archive/old/Qdrant.md", "Markdown"),
    NoteFile(5, "s1", "img/diagram.png", "Image"),
    NoteFile(6, "s2", "manual.pdf", "PDF"),
    NoteFile(7, "s1", "docs/setup.md", "Markdown"),
    NoteFile(8, "s1", "docs/guide/intro.md", "Markdown"),
    NoteFile(9, "s2", "Zürich.md", "Markdown"),
    NoteFile(10, "s1", "Setup.md", "Markdown", ("Qdrant",)),  # an alias never beats a file name
]


def resolve(kind: str, target: str, source: int = 1) -> int | None:
    return Resolver(FILES).resolve(LinkRow(source, kind, target))


def test_by_file_name_case_insensitive_and_shortest_path() -> None:
    assert resolve("wiki", "Vector store choice") == 2
    assert resolve("wiki", "vector STORE choice") == 2
    assert resolve("wiki", "Vector store choice.md") == 2
    assert resolve("wiki", "Qdrant") == 3  # the shorter of two paths
    assert resolve("wiki", "old/Qdrant") == 4  # a folder part picks the other one
    assert resolve("wiki", "archive/old/Qdrant") == 4
    assert resolve("wiki", "other/Qdrant") is None


def test_then_by_alias_and_other_files_by_full_name() -> None:
    assert resolve("wiki", "VSC") == 2
    assert resolve("wiki", "storage Decision") == 2
    assert resolve("embed", "diagram.png") == 5
    assert resolve("embed", "diagram") is None  # a picture is named with its extension
    assert resolve("wiki", "manual.pdf") == 6  # across sources


def test_unicode_forms_and_dangling_and_self() -> None:
    assert resolve("wiki", unicodedata.normalize("NFD", "Zürich")) == 9
    assert resolve("wiki", "Nowhere") is None
    assert resolve("wiki", "") == 1  # [[#Heading]]: the note itself


def test_markdown_links_are_relative_to_their_note() -> None:
    assert resolve("markdown", "../docs/setup.md") == 7
    assert resolve("markdown", "guide/intro.md", source=7) == 8
    assert resolve("markdown", "guide/intro", source=7) == 8  # without the extension
    assert resolve("markdown", "/docs/setup.md", source=8) == 7  # from the source's root
    assert resolve("markdown", "../../../outside.md") is None
    assert resolve("markdown", "Qdrant.md", source=8) == 3  # a shortest-path link by name
