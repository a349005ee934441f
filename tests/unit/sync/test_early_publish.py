"""A long index searchable early (docs/DESIGN.md §9): parts published while the job runs, and what a
cancel or a failure leaves — the part, when the user keeps it, else the store exactly as before.

The oracle is the store folder itself (its ``CURRENT`` bytes and snapshot folders) and a second,
independent reader of the store opened while the job runs, as a search from another window would.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.helpers.fakes import HashEmbedder

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.errors import Cancelled, EmbeddingError
from kortty_rag.index import early_publish
from kortty_rag.index.early_publish import PartPublisher
from kortty_rag.index.factory import open_vector_store
from kortty_rag.models import SourceStatus, Store
from kortty_rag.progress import CancelToken, NullProgress
from kortty_rag.sync.session import FIRST_INDEX_UNFINISHED, StoreSession

FILES = 20


def _folder(root: Path, name: str, count: int = FILES) -> Path:
    folder = root / name
    folder.mkdir()
    for i in range(count):  # several chunks each: documents finish batch by batch
        words = " ".join(f"{name}{i}w{j}" for j in range(260))
        (folder / f"doc{i:02d}.txt").write_text(f"{name} document {i}. {words}\n")
    return folder


def _served(registry: StoreRegistry, name: str) -> set[str]:
    """The documents a separate reader of the store serves now, as ``source path/relative path``."""
    store = registry.get(name)
    roots = {s.id: s.path for s in store.sources}
    vectors = open_vector_store(store)
    try:
        return {f"{roots.get(d.source_id, '?')}/{d.rel_path}" for d in vectors.documents()}
    finally:
        vectors.close()


def _store_files(store_folder: Path) -> tuple[bytes | None, list[str]]:
    current = store_folder / "CURRENT"
    snapshots = store_folder / "snapshots"
    names = sorted(p.name for p in snapshots.iterdir()) if snapshots.is_dir() else []
    return (current.read_bytes() if current.exists() else None), names


class Watcher(NullProgress):
    """Looks at the store from outside each time the job says a part is searchable; can cancel."""

    def __init__(
        self, registry: StoreRegistry, name: str, cancel: CancelToken | None, after: int
    ) -> None:
        self.registry, self.name, self.cancel, self.after = registry, name, cancel, after
        self.seen: list[tuple[str, set[str], list[str]]] = []

    def message(self, text: str) -> None:
        if getattr(text, "template", "") != "{searchable} of {total} documents searchable":
            return
        store = self.registry.get(self.name)
        self.seen.append(
            (str(text), _served(self.registry, self.name), [s.path for s in store.sources])
        )
        if self.cancel is not None and len(self.seen) >= self.after:
            self.cancel.cancel()


@pytest.fixture
def every_document(monkeypatch: pytest.MonkeyPatch) -> None:
    """A part as soon as a document is finished (the timing is tested on its own below)."""
    monkeypatch.setattr(PartPublisher, "due", lambda self: True)


def _with_first(tmp_path: Path) -> tuple[StoreRegistry, Store, HashEmbedder, Path]:
    embedder = HashEmbedder()
    registry = StoreRegistry()
    store = registry.create("E", embedder.identity)
    first = _folder(tmp_path, "first", 2)
    with StoreSession(store, registry=registry) as job:
        job.apply(job.review_new_sources([first]), embedder, publish_early=False)
    return registry, registry.get("E"), embedder, registry.folder(store)


@pytest.mark.usefixtures("every_document")
def test_parts_are_searchable_while_the_job_runs(tmp_path: Path) -> None:
    registry, store, embedder, folder = _with_first(tmp_path)
    new = _folder(tmp_path, "new")
    watcher = Watcher(registry, "E", None, 0)
    with StoreSession(store, registry=registry, progress=watcher) as job:
        summary = job.apply(job.review_new_sources([new]), embedder)
    assert summary.indexed == FILES and summary.parts_published == len(watcher.seen) >= 3
    counts = [len(served) for _, served, _ in watcher.seen]
    assert counts == sorted(counts) and counts[0] > 2 and counts[-1] < FILES + 2
    for said, served, paths in watcher.seen:  # the new source is configured from the first part
        assert str(new) in paths
        assert said == f"{len(served)} of {FILES + 2} documents searchable"
    wanted = {f"{new}/doc{i:02d}.txt" for i in range(FILES)}
    assert _served(registry, "E") == wanted | {f"{tmp_path}/first/doc0{i}.txt" for i in (0, 1)}
    assert len(_store_files(folder)[1]) == 1  # the snapshot before the job went at the end
    (source,) = [s for s in registry.get("E").sources if s.path == str(new)]
    assert source.status is SourceStatus.READY and source.counts.files == FILES


@pytest.mark.usefixtures("every_document")
def test_a_cancel_that_does_not_keep_puts_the_store_back(tmp_path: Path) -> None:
    registry, store, embedder, folder = _with_first(tmp_path)
    before = _store_files(folder)
    served_before = _served(registry, "E")
    new = _folder(tmp_path, "new")
    cancel = CancelToken()
    watcher = Watcher(registry, "E", cancel, 2)
    with (
        StoreSession(store, registry=registry, progress=watcher, cancel=cancel) as job,
        pytest.raises(Cancelled),
    ):
        job.apply(job.review_new_sources([new]), embedder)
    assert len(watcher.seen) == 2 and len(watcher.seen[-1][1]) > len(served_before)
    assert cancel.published > 0 and cancel.kept == 0
    assert _store_files(folder) == before  # the same pointer, the same single snapshot
    assert _served(registry, "E") == served_before
    assert [s.path for s in registry.get("E").sources] == [str(tmp_path / "first")]


@pytest.mark.usefixtures("every_document")
def test_a_cancel_that_keeps_leaves_the_part_and_the_next_refresh_finishes(tmp_path: Path) -> None:
    registry, store, embedder, _ = _with_first(tmp_path)
    new = _folder(tmp_path, "new")
    cancel = CancelToken(keep_published=True)
    watcher = Watcher(registry, "E", cancel, 2)
    with (
        StoreSession(store, registry=registry, progress=watcher, cancel=cancel) as job,
        pytest.raises(Cancelled),
    ):
        job.apply(job.review_new_sources([new]), embedder)
    part = watcher.seen[-1][1]
    assert _served(registry, "E") == part
    assert 0 < cancel.kept == len({p for p in part if p.startswith(f"{new}/")}) == len(part) - 2
    assert cancel.kept < FILES
    (source,) = [s for s in registry.get("E").sources if s.path == str(new)]
    assert source.status is SourceStatus.PENDING and source.status_reason == FIRST_INDEX_UNFINISHED
    assert source.counts.files == cancel.kept
    with StoreSession(registry.get("E"), registry=registry) as job:
        review = job.review_refresh()
        assert review.report.summary().to_index == FILES - cancel.kept
        job.apply(review, embedder)
    (source,) = [s for s in registry.get("E").sources if s.path == str(new)]
    assert source.status is SourceStatus.READY and source.counts.files == FILES


class FailingEmbedder(HashEmbedder):
    def __init__(self, fail_at: int) -> None:
        super().__init__()
        self.batches = 0
        self.fail_at = fail_at

    def embed_documents(self, texts):  # type: ignore[no-untyped-def]
        self.batches += 1
        if self.batches == self.fail_at:
            raise EmbeddingError("the model stopped")
        return super().embed_documents(texts)


@pytest.mark.usefixtures("every_document")
def test_a_failure_after_parts_empties_a_new_store_again(tmp_path: Path) -> None:
    embedder = FailingEmbedder(fail_at=4)
    registry = StoreRegistry()
    store = registry.create("F", embedder.identity)
    folder = registry.folder(store)
    new = _folder(tmp_path, "new")
    watcher = Watcher(registry, "F", None, 0)
    with (
        StoreSession(store, registry=registry, progress=watcher) as job,
        pytest.raises(EmbeddingError),
    ):
        job.apply(job.review_new_sources([new]), embedder)
    assert watcher.seen and watcher.seen[-1][1]  # something was searchable meanwhile
    current, snapshots = _store_files(folder)
    assert current is None and snapshots == []
    assert _served(registry, "F") == set() and registry.get("F").sources == ()


def test_parts_come_first_soon_then_at_most_a_share_of_the_time(tmp_path: Path) -> None:
    now = [100.0]

    class Update:
        def commit(self) -> None:
            now[0] += cost[0]  # what writing the part takes

    class Store:
        folder = tmp_path

        def begin(self, *, keep: str | None = None) -> Update:
            return Update()

        def release(self) -> None:
            pass

    cost = [1.0]
    publisher = PartPublisher(Store(), first_after=10, every=30, clock=lambda: now[0])  # type: ignore[arg-type]
    now[0] += 9.9
    assert not publisher.due()
    now[0] += 0.1
    assert publisher.due()
    publisher.publish(Update())  # type: ignore[arg-type]
    now[0] += 29.9
    assert not publisher.due()
    now[0] += 0.1
    assert publisher.due()
    cost[0] = 5.0  # a large store: a part takes 5 s, so the next comes after 50 s, not 30
    publisher.publish(Update())  # type: ignore[arg-type]
    now[0] += 49.0
    assert not publisher.due()
    now[0] += 1.0
    assert publisher.due()
    assert publisher.parts == 2 and publisher.seconds == pytest.approx(6.0)
    assert early_publish.COST_SHARE == 0.1  # the figure the docstring and DESIGN.md state


class Interrupter(Watcher):
    """Ctrl-C arriving while the job runs (KeyboardInterrupt in the job's thread, as in the CLI)."""

    def message(self, text: str) -> None:
        super().message(text)
        if len(self.seen) >= 2:
            raise KeyboardInterrupt


@pytest.mark.usefixtures("every_document")
@pytest.mark.parametrize("keep", [False, True], ids=["default", "keep-on-cancel"])
def test_ctrl_c_puts_the_store_back_unless_told_to_keep(tmp_path: Path, keep: bool) -> None:
    registry, store, embedder, folder = _with_first(tmp_path)
    before, served_before = _store_files(folder), _served(registry, "E")
    new = _folder(tmp_path, "new")
    cancel = CancelToken(keep_published=keep)
    watcher = Interrupter(registry, "E", None, 0)
    with (
        StoreSession(store, registry=registry, progress=watcher, cancel=cancel) as job,
        pytest.raises(KeyboardInterrupt),
    ):
        job.apply(job.review_new_sources([new]), embedder)
    if keep:
        assert _served(registry, "E") == watcher.seen[-1][1] != served_before
        assert cancel.kept == len(watcher.seen[-1][1]) - 2
    else:
        assert _store_files(folder) == before and _served(registry, "E") == served_before
        assert cancel.kept == 0 and len(registry.get("E").sources) == 1
