"""End to end with the real starter model: scan → extract → chunk → embed → snapshot → search.

Real files (text, Markdown, code, a generated multi-page PDF), the real all-MiniLM-L6-v2 weights
converted to GGUF, real hnswlib snapshots on disk. Queries are paraphrases that share no keyword with
their target (the test checks that itself), so only the embedding model can connect them.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from tests.helpers.pdfs import text_pdf

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.embedding.loader import load_embedder
from kortty_rag.errors import Cancelled
from kortty_rag.index.snapshot import read_pointer
from kortty_rag.models import FileStatus, RelevanceLevel, SourceStatus, Store
from kortty_rag.progress import CancelToken, RecordingProgress
from kortty_rag.retrieval.search import RetrievalService, SearchOptions
from kortty_rag.sync.session import StoreSession

CORPUS = Path(__file__).parent.parent / "data" / "corpus"

PDF_PAGES = [
    "Honeybees carry pollen from blossom to blossom while they gather nectar. A single colony can "
    "visit millions of blooms in a season, and many crops such as almonds and cherries depend on "
    "that transfer for a good harvest.",
    "Glaciers are rivers of ice that creep downhill under their own weight. During the ice ages, "
    "thick sheets covered much of northern Europe and North America, grinding bedrock and leaving "
    "behind moraines and lakes when they melted.",
    "A good chess opening controls the centre squares early, develops the knights and bishops "
    "toward active posts, and castles to shelter the monarch before launching any attack.",
]

# query → (file name, PDF page or None)
PARAPHRASES = {
    "What makes enormous luminous spheres in outer space blow apart?": ("astronomy.md", None),
    "tangy rustic boule fermented with natural leaven": ("sourdough.txt", None),
    "resend a web download that keeps erroring, pausing progressively longer between repetitions": (
        "retry.py",
        None,
    ),
    "delay a handler until keystrokes pause for a moment": ("debounce.js", None),
    "Why do some mountains explode and spew scorching debris?": ("volcano.txt", None),
    "How does making loans costlier tame a surge in the cost of living?": ("inflation.md", None),
    "How does an injection prepare our defences against future infections?": ("vaccines.txt", None),
    "How should I get ready for a 42-km footrace?": ("marathon.md", None),
    "hand positions for a novice player of a popular acoustic instrument": ("guitar.rst", None),
    "cultivating juicy red salad vegetables on vines in a backyard plot": ("tomatoes.md", None),
    "Which buzzing insects help orchards yield apples?": ("handbook.pdf", 1),
    "slowly moving frozen masses that carve valleys": ("handbook.pdf", 2),
    "smart beginning strategy for a board game with kings and pawns": ("handbook.pdf", 3),
}

STOPWORDS = set(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "between",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "get",
        "how",
        "i",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "our",
        "should",
        "some",
        "that",
        "the",
        "their",
        "there",
        "they",
        "this",
        "to",
        "until",
        "what",
        "when",
        "which",
        "while",
        "who",
        "why",
        "with",
        "you",
        "your",
    ]
)


def keywords(text: str) -> set[str]:
    """Five-letter stems of the content words (catches 'explode'/'explosion' style near-matches)."""
    return {
        w[:5] for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 4 and w not in STOPWORDS
    }


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    text_pdf(root / "science" / "handbook.pdf", PDF_PAGES)
    return root


@pytest.fixture
def indexed(corpus: Path, starter_model: InstalledModel) -> Store:
    registry = StoreRegistry()
    store = registry.create("Library", starter_model.identity())
    with StoreSession(store, registry=registry) as job:
        review = job.review_new_sources([corpus])
        assert review.report.summary().to_index == 11
        job.apply(review)
    return registry.get("Library")


def search(
    store: Store, query: str, level: RelevanceLevel | None = RelevanceLevel.OFF
) -> list[tuple[str, int | None]]:
    """Dense-only ranking: these tests are about the embedding model connecting paraphrases (with
    no relevance floor unless ``level`` says so; ``None``: the store's own)."""
    service = RetrievalService()
    try:
        options = SearchOptions(lexical=False, min_relevance=level)
        result = service.search(query, [store], options=options)
    finally:
        service.close()
    return [(Path(e.path).name, e.page) for e in result.excerpts]


def test_paraphrases_share_no_keywords_with_their_targets(corpus: Path) -> None:
    for query, (name, page) in PARAPHRASES.items():
        target = PDF_PAGES[page - 1] if page is not None else next(corpus.rglob(name)).read_text()
        assert not keywords(query) & keywords(target), (query, keywords(query) & keywords(target))


def test_paraphrased_queries_rank_the_right_document_first(indexed: Store) -> None:
    misses = {}
    for query, expected in PARAPHRASES.items():
        results = search(indexed, query)
        if results[0] != expected:
            misses[query] = (expected, results[:3])
    assert not misses

    # the default floor keeps the answers of all but the most far-fetched paraphrase (README)
    kept = [q for q, expected in PARAPHRASES.items() if search(indexed, q, None)[:1] == [expected]]
    assert len(kept) >= len(PARAPHRASES) - 1, set(PARAPHRASES) - set(kept)


def test_store_state_after_indexing(indexed: Store) -> None:
    (source,) = indexed.sources
    assert source.status is SourceStatus.READY
    assert source.counts.files == 11 and source.counts.chunks >= 13
    assert source.last_indexed_at


def test_refresh_without_changes_embeds_nothing(indexed: Store) -> None:
    with StoreSession(indexed) as job:
        review = job.review_refresh()
        assert review.report.summary().to_index == 0
        assert {r.status for r in review.report.rows} == {FileStatus.UNCHANGED}
        summary = job.apply(review)
    assert summary.chunks_embedded == 0 and summary.unchanged == 11


def test_cancelled_run_leaves_the_previous_snapshot_serving(indexed: Store, corpus: Path) -> None:
    folder = StoreRegistry().folder(indexed)
    before = read_pointer(folder)
    results_before = search(indexed, "glaciers")
    (corpus / "kitchen" / "new.md").write_text("Fresh pasta needs only flour and eggs. " * 50)
    cancel = CancelToken()

    class CancelOnFirstChunk(RecordingProgress):
        def count(self, *, documents: int = 0, chunks: int = 0, issues: int = 0) -> None:
            super().count(documents=documents, chunks=chunks, issues=issues)
            if chunks:
                cancel.cancel()

    with StoreSession(indexed, progress=CancelOnFirstChunk(), cancel=cancel) as job:
        review = job.review_refresh()
        with pytest.raises(Cancelled):
            job.apply(review)
    assert read_pointer(folder) == before
    assert search(indexed, "glaciers") == results_before
    assert not [p for p in (folder / "snapshots").iterdir() if p.name != before[0]]  # type: ignore[index]


def test_failed_run_leaves_the_previous_snapshot_serving(indexed: Store, corpus: Path) -> None:
    folder = StoreRegistry().folder(indexed)
    before = read_pointer(folder)
    (corpus / "code" / "extra.py").write_text("def extra():\n    return 42\n")

    class BrokenEmbedder:
        def __init__(self) -> None:
            self.inner = load_embedder(indexed.embedding)

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

        @property
        def identity(self):  # type: ignore[no-untyped-def]
            return self.inner.identity

        def embed_documents(self, texts: list[str]) -> object:
            raise RuntimeError("simulated embedding failure")

    with StoreSession(indexed) as job:
        review = job.review_refresh()
        with pytest.raises(RuntimeError, match="simulated"):
            job.apply(review, BrokenEmbedder())  # type: ignore[arg-type]
    assert read_pointer(folder) == before
    assert ("extra.py", None) not in search(indexed, "function returning forty-two")
    assert StoreRegistry().get(indexed.name).sources[0].counts.files == 11
