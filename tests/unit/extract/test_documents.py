"""The format readers on documents pandoc wrote (DOCX, ODT, EPUB, PPTX, RTF, HTML): headings as the
outline, tables as rows, lists as items, German text intact, no markup. The expected text comes from
the Markdown pandoc was given, never from the libraries the product reads with."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.helpers.documents import FORMATS, GARDEN, garden_documents, write_with_pandoc

from kortty_rag.extract.readers import read_document

#: every paragraph of the garden note's body, as pandoc was given it (footnote marks removed)
SENTENCES = [
    line.replace("[^jauche]", "")
    for line in GARDEN.split("---", 2)[2].splitlines()
    if line and line[0].isupper() and not line.startswith("Sprechernotiz")
]
HEADINGS = re.findall(r"^#+ (.+)$", GARDEN, flags=re.MULTILINE)


@pytest.fixture(scope="module")
def garden(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return garden_documents(tmp_path_factory.mktemp("garden"))


def read(path: Path) -> list[str]:
    answer = read_document(FORMATS[path.suffix[1:]], path.read_bytes())
    assert answer["ok"], answer
    return list(answer["pages"])


@pytest.mark.parametrize("suffix", list(FORMATS))
def test_every_format_gives_its_text_without_markup(garden: dict[str, Path], suffix: str) -> None:
    text = "\n".join(read(garden[suffix]))
    flat = " ".join(text.split())
    for sentence in SENTENCES:
        assert sentence in flat, (suffix, sentence)
    assert "Gartenjahr" in flat
    assert not re.search(r"</?[a-z]+[ >/]|\\[a-z]+\d* |\{\\|w:t|xmlns", text), text
    assert "Ochsenherz | zwei Liter" in text and "Kirschtomate | ein Liter" in text  # table rows
    assert "Regenwasser aus der Tonne" in text


@pytest.mark.parametrize("suffix", ["docx", "odt", "epub", "html", "rtf"])
def test_headings_are_outline_lines_in_order(garden: dict[str, Path], suffix: str) -> None:
    (text,) = read(garden[suffix])
    found = [m.group(2) for m in re.finditer(r"^(#+) (.+)$", text, flags=re.MULTILINE)]
    assert [h for h in found if h in HEADINGS] == HEADINGS
    levels = {m.group(2): len(m.group(1)) for m in re.finditer(r"^(#+) (.+)$", text, re.MULTILINE)}
    # a section's subsections are one level below it
    assert levels["Gießen am Morgen"] == levels["Tomaten im Gewächshaus"] + 1
    assert levels["Kletterrosen"] == levels["Rosen schneiden"] + 1


@pytest.mark.parametrize("suffix", ["docx", "odt", "html"])
def test_the_title_is_above_the_sections(garden: dict[str, Path], suffix: str) -> None:
    (text,) = read(garden[suffix])
    assert text.startswith("# Gartenjahr\n") and "\n## Tomaten im Gewächshaus\n" in text


@pytest.mark.parametrize("suffix", ["docx", "odt"])
def test_footnotes_follow_the_paragraph_that_cites_them(
    garden: dict[str, Path], suffix: str
) -> None:
    (text,) = read(garden[suffix])
    citing = text.index("Brennnesseljauche düngen.[1]")
    note = text.index("[1] Ein Teil Jauche auf zehn Teile Wasser.")
    assert citing < note < text.index("# Rosen schneiden")


def test_slides_are_pages_with_their_titles_and_speaker_notes(garden: dict[str, Path]) -> None:
    slides = read(garden["pptx"])
    titles = [s.splitlines()[0] for s in slides]
    assert "# Tomaten im Gewächshaus" in titles and "# Rosen schneiden" in titles
    tomatoes = slides[titles.index("# Tomaten im Gewächshaus")]
    assert "Sprechernotiz: an die Mulchschicht aus Stroh erinnern." in tomatoes
    assert "Kletterrosen" not in tomatoes  # the next slide's text stays on it


def test_tracked_changes_keep_insertions_and_drop_deletions(tmp_path: Path) -> None:
    note = (
        "# Protokoll\n\nBeschlossen: [Variante A]{.deletion author=Eva date=2026-01-01T00:00:00Z}"
        "[Variante B]{.insertion author=Eva date=2026-01-01T00:00:00Z} wird gebaut.\n"
    )
    (text,) = read(write_with_pandoc(note, tmp_path / "protokoll.docx"))
    assert "Beschlossen: Variante B wird gebaut." in text and "Variante A" not in text


def test_a_body_line_that_looks_like_a_heading_is_escaped(tmp_path: Path) -> None:
    note = "# Echt\n\n\\# keine Überschrift, nur Text\n\n## Auch echt\n\nInhalt.\n"
    for suffix in ("docx", "odt", "html"):
        (text,) = read(write_with_pandoc(note, tmp_path / f"escape.{suffix}"))
        assert "\n\\# keine Überschrift, nur Text\n" in text, suffix
        assert re.findall(r"^#+ .*$", text, re.MULTILINE) == ["# Echt", "## Auch echt"], suffix
