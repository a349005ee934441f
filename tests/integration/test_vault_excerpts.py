"""Excerpts a model can use, with the real starter model on a vault of real-looking notes:

- a note of short sections is one chunk, every heading line kept, so no excerpt is a bare heading;
  the review's estimate is what indexing makes;
- unrelated questions inject nothing at the default level, paraphrases that share no word with
  their note still find it;
- the store's relevance calibration is kept in the snapshot's checksummed manifest and recomputed
  when a refresh activates a new snapshot;
- one relevance value: every excerpt at or above the floor's value, every candidate dropped below
  the floor under it.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from tests.helpers.garden_vault import NOTES, write_vault

from kortty_rag.config.paths import store_dir
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.embedding.probes import PROBES
from kortty_rag.models import Store
from kortty_rag.retrieval.search import (
    DROP_BELOW_FLOOR,
    NOTHING_RELEVANT,
    RetrievalResult,
    RetrievalService,
    SearchOptions,
)
from kortty_rag.sync.session import StoreSession

#: questions about anything but gardening (none of them is one of the product's probes)
UNRELATED = [
    "What is the weather like on Mars today?",
    "Who won the Champions League final?",
    "How do I file my tax return?",
    "Which train goes from Vienna to Budapest in the morning?",
    "How do I reset the password of my router?",
    "What is a good recipe for lasagne?",
    "Wie spät ist es gerade in Tokio?",
    "How do I merge two branches in git?",
    "What does the HTTP status 404 mean?",
    "Who painted The Night Watch?",
    "How many calories are in a croissant?",
    "What is the exchange rate of the dollar to the pound?",
]
#: questions that name none of their note's content words, and the note
PARAPHRASES = {
    "How often should I give my tomato plants a drink?": "tomatoes.md",
    "keeping snails away from seedlings": "slugs.md",
    "When is the right month to put in cloves for next summer's bulbs?": "garlic.md",
    "How do I turn kitchen scraps into soil for the beds?": "compost.md",
}
_HEADING_OR_META = re.compile(r"^\s*$|^#{1,6} |^---$|^\w+: ")


def body(text: str) -> list[str]:
    """Lines that are neither blank, a Markdown heading nor front matter."""
    return [line for line in text.splitlines() if not _HEADING_OR_META.match(line)]


def index_vault(tmp_path: Path, model: InstalledModel) -> tuple[StoreRegistry, Store, int]:
    vault = write_vault(tmp_path / "vault")
    registry = StoreRegistry()
    store = registry.create("Garden", model.identity())
    with StoreSession(store, registry=registry) as job:
        review = job.review_new_sources([vault])
        estimate = review.report.summary().estimated_chunks
        summary = job.apply(review)
    assert summary.chunks_embedded == len(NOTES)  # every note is short: one chunk each
    return registry, registry.get("Garden"), estimate


def search(service: RetrievalService, store: Store, query: str) -> RetrievalResult:
    return service.search(query, [store], options=SearchOptions(explain=True))


def manifest(store: Store) -> dict[str, object]:
    folder = store_dir(store.id)
    pointer = json.loads((folder / "CURRENT").read_text())
    raw = (folder / "snapshots" / pointer["snapshot"] / "manifest.json").read_bytes()
    assert hashlib.sha256(raw).hexdigest() == pointer["manifest_sha256"]  # under the checksum
    data: dict[str, object] = json.loads(raw)
    return data


def test_excerpts_carry_text_and_unrelated_questions_inject_nothing(
    tmp_path: Path, starter_model: InstalledModel
) -> None:
    assert not set(UNRELATED) & set(PROBES)  # the calibration never saw these questions
    _, store, estimate = index_vault(tmp_path, starter_model)
    assert estimate == len(NOTES)  # counted by the chunker, not guessed from characters
    service = RetrievalService()
    try:
        water = search(service, store, "How should I water my tomatoes?")
        assert Path(water.excerpts[0].path).name == "tomatoes.md"
        assert "Water deeply twice a week" in water.excerpts[0].chunk.text
        for question in ["How should I water my tomatoes?", "when to prune roses"]:
            result = search(service, store, question)
            assert result.excerpts
            for excerpt in result.excerpts:
                assert body(excerpt.chunk.text), excerpt.chunk.text  # never a bare heading
        roses = search(service, store, "when to prune roses")
        assert Path(roses.excerpts[0].path).name == "roses.md"
        assert "late winter" in roses.excerpts[0].chunk.text

        for question in UNRELATED:
            result = search(service, store, question)
            best = max((d.candidate.dense_score or 0.0 for d in result.dropped), default=None)
            assert not result.excerpts, (question, [e.location() for e in result.excerpts])
            assert result.note == NOTHING_RELEVANT and result.block == "", (question, best)
        for question, note in PARAPHRASES.items():
            result = search(service, store, question)
            found = [Path(e.path).name for e in result.excerpts]
            assert note in found, (
                question,
                found,
                [d.candidate.dense_score for d in result.dropped],
            )
            floor = result.relevance[0]
            assert floor.calibrated and floor.threshold == 0.5
            for excerpt in result.excerpts:
                assert excerpt.candidate.relevance >= floor.threshold - 1e-6
            for dropped in result.dropped:
                if dropped.reason == DROP_BELOW_FLOOR:
                    assert dropped.candidate.relevance < floor.threshold + 1e-6
    finally:
        service.close()


def test_the_calibration_is_kept_in_the_snapshot_and_follows_a_refresh(
    tmp_path: Path, starter_model: InstalledModel
) -> None:
    registry, store, _ = index_vault(tmp_path, starter_model)
    before = manifest(store)["calibration"]
    assert isinstance(before, list) and len(before) == len(PROBES)
    assert before == sorted(before) and all(-1.0 <= v <= 1.0 for v in before)
    # a note about the planets brings the store closer to some of the probes' topics
    (tmp_path / "vault" / "planets.md").write_text(
        "# Night sky\n\nJupiter has dozens of moons; Mars has two small ones. The Moon is about "
        "384,000 km from the Earth, and a total solar eclipse crosses Europe in August 2026.\n"
    )
    with StoreSession(store, registry=registry) as job:
        job.apply(job.review_refresh())
    after = manifest(registry.get("Garden"))["calibration"]
    assert isinstance(after, list) and len(after) == len(PROBES)
    assert max(after) > max(before)  # recomputed against the new snapshot
