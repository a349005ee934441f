from __future__ import annotations

import pytest

from kortty_rag.extract.formats import SUFFIX_FORMATS, detect_format


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("notes.TXT", "Text"),
        ("a.Md", "Markdown"),
        ("x.pdf", "PDF"),
        ("X.PDF", "PDF"),
        ("main.rs", "Rust"),
        ("Makefile", "Makefile"),
        ("readme", "Text"),
        ("data.JSONL", "JSON"),
        ("cfg.yml", "YAML"),
        ("page.htm", "HTML"),
        ("paper.tex", "TeX"),
        ("run.log", "Log"),
        ("Bericht.DOCX", "DOCX"),
        ("brief.odt", "ODT"),
        ("buch.epub", "EPUB"),
        ("talk.pptx", "PPTX"),
        ("old.rtf", "RTF"),
        ("page.xhtml", "HTML"),
    ],
)
def test_allowlist_is_case_insensitive(name: str, fmt: str) -> None:
    assert detect_format(name) == fmt


@pytest.mark.parametrize(
    "name",
    [
        "a.doc",
        "a.xlsx",
        "a.ppt",
        "a.odp",
        "a.png",
        "a.jpg",
        "a.zip",
        "a.tar.gz",
        "a.sqlite",
        "a.mp3",
        "a.mp4",
        "a.exe",
        "a.so",
        "a.bin",
        "unknownname",
        "a.svg",
    ],
)
def test_not_indexed_formats(name: str) -> None:
    assert detect_format(name) is None


def test_spec_allowlist_is_covered() -> None:
    spec = [
        "txt",
        "md",
        "markdown",
        "rst",
        "adoc",
        "asciidoc",
        "org",
        "tex",
        "csv",
        "tsv",
        "json",
        "jsonl",
        "yaml",
        "yml",
        "toml",
        "ini",
        "cfg",
        "conf",
        "xml",
        "html",
        "htm",
        "log",
        "pdf",
    ]
    assert all(s in SUFFIX_FORMATS for s in spec)
