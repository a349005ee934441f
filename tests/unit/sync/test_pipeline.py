"""The indexing job with a fake embedder: stage-weighted progress, the completion summary, batching."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from tests.helpers.fakes import HashEmbedder

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.errors import RemovalIncompleteError, SnapshotError
from kortty_rag.index.factory import open_vector_store
from kortty_rag.index.snapshot_builder import SnapshotBuilder
from kortty_rag.progress import ProgressState, ProgressTracker
from kortty_rag.sync.session import StoreSession


def test_progress_and_summary(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(12):
        (docs / f"d{i}.txt").write_text(f"document {i} " + "word " * (40 * (i + 1)))
    (docs / "skip.bin.txt").write_bytes(b"\x00")
    embedder = HashEmbedder()
    registry = StoreRegistry()
    store = registry.create("P", embedder.identity)
    states: list[ProgressState] = []
    tracker = ProgressTracker(states.append)
    with StoreSession(store, registry=registry, progress=tracker) as job:
        review = job.review_new_sources([docs])
        summary = job.apply(review, embedder)
    stages = [s.stage for s in states]
    assert stages.index("scan") < stages.index("index") < stages.index("activate")
    percents = [s.percent for s in states]
    assert percents == sorted(percents) and percents[-1] == 100.0
    last = states[-1]
    assert (last.documents, last.issues) == (12, 1)
    assert last.chunks == summary.chunks_embedded == len(embedder.calls)
    assert summary.indexed == 12 and summary.skipped == 1 and summary.removed == 0
    # embedding requests go in batches of at most 32 chunks
    assert summary.chunks_embedded > 32
    assert "Indexed 12 new or changed, 0 unchanged, 0 removed, 1 skipped" in summary.line()
    source = registry.get("P").sources[0]
    assert (source.counts.files, source.counts.issues) == (12, 1)
    assert source.counts.chunks == summary.chunks_embedded + summary.chunks_reused


def test_file_changed_after_review_is_not_indexed(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text("reviewed content")
    (docs / "b.txt").write_text("stays the same")
    embedder = HashEmbedder()
    registry = StoreRegistry()
    store = registry.create("R", embedder.identity)
    with StoreSession(store, registry=registry) as job:
        review = job.review_new_sources([docs])
        (docs / "a.txt").write_text("content nobody reviewed")
        summary = job.apply(review, embedder)
    assert summary.indexed == 1
    (outcome,) = summary.sources
    assert outcome.failed == [
        (str(docs / "a.txt"), "changed after it was checked; refresh to review it again")
    ]
    assert all("nobody reviewed" not in text for text in embedder.calls)


def test_failed_chunk_deletion_after_removal_is_finished_by_the_next_refresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Removal forgets the source first; if deleting its chunks then fails (a full disk), the error
    says so, nothing of the source is served, and the next refresh deletes the chunks."""
    keep, drop = tmp_path / "keep", tmp_path / "drop"
    for folder in (keep, drop):
        folder.mkdir()
        (folder / "note.txt").write_text(f"a note in {folder.name}")
    embedder = HashEmbedder()
    registry = StoreRegistry()
    with StoreSession(registry.create("D", embedder.identity), registry=registry) as job:
        job.apply(job.review_new_sources([keep, drop]), embedder)
        dropped = next(s for s in job.store.sources if s.path == str(drop))

    def full_disk(self: SnapshotBuilder) -> None:
        raise SnapshotError("Could not write the new snapshot (No space left on device)") from (
            OSError(errno.ENOSPC, "No space left on device")
        )

    with monkeypatch.context() as patch:
        patch.setattr(SnapshotBuilder, "commit", full_disk)
        with (
            StoreSession(registry.get("D"), registry=registry) as job,
            pytest.raises(
                RemovalIncompleteError, match=r"removed from the store.*No space left on device"
            ),
        ):
            job.remove_source(dropped.id)
    store = registry.get("D")
    assert [s.path for s in store.sources] == [str(keep)]

    def sources_indexed() -> set[str]:
        vectors = open_vector_store(registry.get("D"))
        try:
            return {d.source_id for d in vectors.documents()}
        finally:
            vectors.close()

    assert dropped.id in sources_indexed()  # still on disk, but no longer configured: never served
    with StoreSession(store, registry=registry) as job:
        job.apply(job.review_refresh(), embedder)
    assert sources_indexed() == {store.sources[0].id}
