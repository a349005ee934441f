"""A document a store indexed with an older reader of its format (a Markdown note before links were
read, a web page before its markup was left out) is read again at the next refresh: the review
says why, nothing whose text stays the same is embedded again, and the refresh after that finds it
unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.extract import formats
from kortty_rag.models import FileStatus
from kortty_rag.sources.review import READ_AGAIN_REASON
from kortty_rag.sync.session import StoreSession


def test_documents_of_an_older_reader_are_read_again(
    tmp_path: Path, starter_model: InstalledModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "alpha.md").write_text("# Alpha\n\nAlpha stores vectors as [[Beta]] says.\n")
    (vault / "beta.md").write_text("# Beta\n\nBeta chose a vector database for its filters.\n")
    (vault / "notes.txt").write_text("Plain text has no reader version.\n")
    registry = StoreRegistry()
    store = registry.create("Vault", starter_model.identity())
    with monkeypatch.context() as older:
        older.setattr(formats, "READERS", {})  # what an older version wrote: no reader versions
        with StoreSession(store, registry=registry) as job:
            job.apply(job.review_new_sources([vault]))
        store = registry.get("Vault")
        with StoreSession(store, registry=registry) as job:
            assert job.vectors.documents()[0].reader == 0
    with StoreSession(store, registry=registry) as job:
        review = job.review_refresh()
        rows = {Path(r.path).name: r for s in review.report.sources for r in s.rows}
        assert rows["alpha.md"].status is FileStatus.INDEX
        assert rows["alpha.md"].reason == READ_AGAIN_REASON
        assert rows["beta.md"].reason == READ_AGAIN_REASON
        assert rows["notes.txt"].status is FileStatus.UNCHANGED
        summary = job.apply(review)
        assert summary.indexed == 2 and summary.chunks_embedded == 0  # same text, same vectors
        assert {d.rel_path: d.reader for d in job.vectors.documents()} == {
            "alpha.md": 1,
            "beta.md": 1,
            "notes.txt": 0,
        }
    with StoreSession(registry.get("Vault"), registry=registry) as job:
        again = job.review_refresh()
        assert {r.status for s in again.report.sources for r in s.rows} == {FileStatus.UNCHANGED}
