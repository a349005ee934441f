"""Office documents, books, RTF and HTML go through the isolated worker as PDFs do: one segment per
document (one per slide for PPTX), a skipped file has one reason in the review, the time limit holds
and the next file still works."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.helpers.documents import FORMATS, garden_documents, write_with_pandoc
from tests.helpers.hostile_documents import zip_bomb

from kortty_rag.errors import ExtractionError
from kortty_rag.extract.document import ExtractionCache, extract_file, open_document
from kortty_rag.extract.pdf import PdfExtractor, PdfLimits
from kortty_rag.models import FileStatus, MiB, Source, SourceKind
from kortty_rag.sources.scan import Scanner

LIMIT = 50 * MiB


@pytest.fixture(scope="module")
def garden(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return garden_documents(tmp_path_factory.mktemp("garden"))


@pytest.fixture
def worker() -> Iterator[PdfExtractor]:
    with PdfExtractor() as extractor:
        yield extractor


@pytest.mark.parametrize("suffix", list(FORMATS))
def test_the_worker_reads_every_format(
    garden: dict[str, Path], worker: PdfExtractor, suffix: str
) -> None:
    path = garden[suffix]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    result = extract_file(
        path, FORMATS[suffix], size_limit=LIMIT, expected_sha256=digest, pdf=worker
    )
    pages = [s.page for s in result.segments]
    if suffix == "pptx":
        assert pages == list(range(1, len(pages) + 1)) and len(pages) >= 3
    else:
        assert pages == [None]
    text = "".join(s.text for s in result.segments)
    assert "Brennnesseljauche" in text and "Kletterrosen" in text
    opened = open_document(
        path, FORMATS[suffix], size_limit=LIMIT, expected_sha256=digest, pdf=worker
    )
    assert opened.pages == (len(pages) if suffix == "pptx" else None)


def test_a_hostile_document_is_a_reason_and_the_next_one_works(
    garden: dict[str, Path], worker: PdfExtractor, tmp_path: Path
) -> None:
    bomb = tmp_path / "bomb.docx"
    bomb.write_bytes(zip_bomb(garden["docx"], "word/document.xml"))
    with pytest.raises(ExtractionError) as info:
        worker.extract(bomb, LIMIT, fmt="DOCX")
    assert "zip bomb" in info.value.reason
    assert "Kletterrosen" in worker.extract(garden["odt"], LIMIT, fmt="ODT").pages[0]


def test_the_time_limit_stops_a_slow_document(garden: dict[str, Path], tmp_path: Path) -> None:
    long = "# Lang\n\n" + "".join(f"Absatz {n} über Bohnen und Erbsen.\n\n" for n in range(20_000))
    slow = write_with_pandoc(long, tmp_path / "lang.docx")
    with PdfExtractor(PdfLimits(timeout_seconds=0.05)) as worker:
        started = time.monotonic()
        with pytest.raises(ExtractionError, match="DOCX extraction took longer than"):
            worker.extract(slow, LIMIT, fmt="DOCX")
        assert time.monotonic() - started < 10
    with PdfExtractor() as worker:
        assert "Absatz 19999" in worker.extract(slow, LIMIT, fmt="DOCX").pages[0]


def test_too_much_text_stops_extraction(tmp_path: Path, worker: PdfExtractor) -> None:
    text = "# Viel\n\n" + "Wort Wort Wort Wort Wort Wort Wort Wort.\n\n" * 4000
    path = write_with_pandoc(text, tmp_path / "viel.docx")
    size = path.stat().st_size
    assert size < 40_000  # 160,000 characters pack into a few kB
    with pytest.raises(ExtractionError, match="too much text: more than 40,000 characters"):
        worker.extract(path, 40_000, fmt="DOCX")  # a 40 kB limit: at most 40,000 characters
    assert "Wort" in worker.extract(path, LIMIT, fmt="DOCX").pages[0]


def test_the_review_lists_the_formats_and_skips_a_damaged_one_with_its_reason(
    garden: dict[str, Path], worker: PdfExtractor, tmp_path: Path
) -> None:
    folder = tmp_path / "ablage"
    folder.mkdir()
    for path in garden.values():
        (folder / path.name).write_bytes(path.read_bytes())
    (folder / "kaputt.docx").write_bytes(garden["docx"].read_bytes()[:3000])
    cache = ExtractionCache()
    report = Scanner(pdf=worker, cache=cache).scan(
        [Source(id="s1", path=str(folder), kind=SourceKind.FOLDER)]
    )
    rows = {row.rel_path: row for row in report.rows}
    for suffix, fmt in FORMATS.items():
        row = rows[f"garten.{suffix}"]
        assert row.status is FileStatus.INDEX and row.format == fmt and row.characters > 300
        assert cache.get(row.sha256) is not None  # indexing will not parse it again
    assert rows["garten.pptx"].pages and rows["garten.pptx"].pages >= 3
    assert rows["garten.docx"].pages is None
    broken = rows["kaputt.docx"]
    assert broken.status is FileStatus.SKIPPED and broken.reason.startswith("damaged DOCX file")
