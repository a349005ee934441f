"""Documents people keep, indexed end to end with the real starter model and real snapshots: a German
garden book written by pandoc as DOCX, ODT, EPUB, PPTX, RTF and HTML.

- the review shows each format group, and one reason for each file it skips (a damaged DOCX, an
  old binary ``.doc``); its chunk estimate is within ±25 % of what indexing makes;
- every candidate excerpt carries text, never markup, and says where it is: the section's heading path
  (``garten.docx § Gartenjahr / Rosen schneiden / Kletterrosen``), or the slide of a presentation;
- a question about one section finds that section in every format.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.helpers.documents import write_with_pandoc

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.models import LOCATION_SEPARATOR, FileStatus, RelevanceLevel
from kortty_rag.retrieval.search import RetrievalService, SearchOptions
from kortty_rag.sync.session import StoreSession

SUFFIXES = ("docx", "odt", "epub", "pptx", "rtf", "html")
GROUPS = {"DOCX", "ODT", "EPUB", "PPTX", "RTF", "HTML"}


def _section(title: str, sentences: list[str]) -> str:
    """A section long enough to be a chunk of its own (about 200 tokens)."""
    return f"## {title}\n\n" + " ".join(sentences * 3) + "\n"


BOOK = "\n".join(
    [
        "---\ntitle: Gartenjahr\nlang: de-DE\n---\n",
        "# Tomaten im Gewächshaus\n",
        _section(
            "Gießen am Morgen",
            [
                "Morgens an der Wurzel gießen, nie über die Blätter, damit keine Braunfäule entsteht.",
                "Regenwasser aus der Tonne ist besser als kaltes Leitungswasser.",
                "An heißen Tagen brauchen die Pflanzen im Gewächshaus bis zu zwei Liter.",
            ],
        ),
        _section(
            "Düngen mit Jauche",
            [
                "Alle zwei Wochen mit verdünnter Brennnesseljauche düngen.",
                "Ein Teil Jauche auf zehn Teile Wasser genügt, sonst verbrennen die Wurzeln.",
                "Ab der ersten Blüte braucht die Pflanze mehr Kalium als Stickstoff.",
            ],
        ),
        "# Rosen schneiden\n",
        _section(
            "Kletterrosen",
            [
                "Bei Kletterrosen nur die alten, verholzten Triebe dicht über dem Boden entfernen.",
                "Die jungen Langtriebe waagerecht am Rankgitter festbinden, dann blühen sie reicher.",
                "Geschnitten wird im März, wenn die Forsythien blühen.",
            ],
        ),
        _section(
            "Beetrosen",
            [
                "Beetrosen im Frühjahr kräftig auf drei bis fünf Augen zurückschneiden.",
                "Erfrorene und nach innen wachsende Triebe kommen ganz heraus.",
                "Die Schere vorher mit Spiritus reinigen, damit kein Pilz übertragen wird.",
            ],
        ),
    ]
)
#: question → the heading of the section that answers it, and a sentence of that section
QUESTIONS = {
    "Brennnesseljauche düngen Kalium": ("Düngen mit Jauche", "verdünnter Brennnesseljauche"),
    "Kletterrosen alte Triebe Rankgitter": ("Kletterrosen", "verholzten Triebe"),
}
_MARKUP = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*[\s>/]|\\[a-z]+-?\d*[ \\{]|\{\\|xmlns|w:t\b")


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = tmp_path / "Bibliothek"
    folder.mkdir()
    for suffix in SUFFIXES:
        write_with_pandoc(BOOK, folder / f"garten.{suffix}")
    damaged = folder / "kaputt.docx"
    damaged.write_bytes((folder / "garten.docx").read_bytes()[:2000])  # a truncated container
    (folder / "alt.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    return folder


def test_documents_are_indexed_with_their_headings_and_slides(
    library: Path, starter_model: InstalledModel
) -> None:
    registry = StoreRegistry()
    store = registry.create("Garten", starter_model.identity())
    with StoreSession(store, registry=registry) as job:
        review = job.review_new_sources([library])
        rows = {Path(row.rel_path).name: row for row in review.report.rows}
        summary = job.apply(review)
    report = review.report.summary()

    assert {rows[f"garten.{s}"].status for s in SUFFIXES} == {FileStatus.INDEX}
    assert {rows[f"garten.{s}"].format for s in SUFFIXES} == GROUPS
    assert set(report.formats) == GROUPS
    assert rows["garten.pptx"].pages and rows["garten.pptx"].pages >= 4  # slides counted
    broken = rows["kaputt.docx"]
    assert broken.status is FileStatus.SKIPPED and broken.problem
    assert "damaged DOCX file" in broken.reason
    assert rows["alt.doc"].status is FileStatus.SKIPPED and rows["alt.doc"].reason
    assert not rows["alt.doc"].problem  # not a supported format: a rule, not a problem
    made = summary.chunks_embedded
    assert made >= len(SUFFIXES) * 3  # the sections are long enough to be chunks of their own
    assert abs(report.estimated_chunks - made) <= 0.25 * made, (report.estimated_chunks, made)

    service = RetrievalService()
    try:
        for question, (heading, sentence) in QUESTIONS.items():
            result = service.search(
                question,
                [registry.get("Garten")],
                options=SearchOptions(min_relevance=RelevanceLevel.OFF, candidates=60),
            )
            found: dict[str, str] = {}
            candidates = [e.candidate for e in result.excerpts]
            candidates += [d.candidate for d in result.dropped]  # beyond the block's excerpt limit
            for candidate in candidates:
                text = candidate.chunk.text
                assert not _MARKUP.search(text), (candidate.location, text)
                name = Path(candidate.path).name
                if sentence in " ".join(text.split()):
                    found.setdefault(name, candidate.location)
                    if name.endswith(".pptx"):
                        assert candidate.chunk.page is not None
                        assert re.search(r", slide \d+$", candidate.location)
                    else:
                        assert candidate.chunk.heading.endswith(heading), candidate.chunk.heading
                        assert LOCATION_SEPARATOR in candidate.location
                        assert candidate.chunk.page is None
            missing = {f"garten.{s}" for s in SUFFIXES} - set(found)
            assert not missing, (question, missing, [c.location for c in candidates])
    finally:
        service.close()
