"""A long first index answers searches before it ends: the real starter model embeds a folder while
another thread searches the store, as the desktop app's Test search or an AI profile would.

The parts come every second here (the product waits 10 s for the first and 30 s between them); the
oracle is what the files say — a sighting's animal and place are written into each file here.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from tests.helpers.children import LineReader, started, wait_for_exit
from tests.integration.test_measured_speed import ANIMALS, PLACES, write_notes

from kortty_rag.app.workspace import Workspace
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.errors import Cancelled
from kortty_rag.index import early_publish
from kortty_rag.index.factory import open_vector_store
from kortty_rag.models import SourceStatus
from kortty_rag.progress import CancelToken
from kortty_rag.retrieval.search import RetrievalService
from kortty_rag.sync.session import FIRST_INDEX_UNFINISHED

NOTES = 240


def test_searches_find_finished_documents_while_the_first_index_runs(
    tmp_path: Path,
    starter_model: InstalledModel,
    kortty_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(early_publish, "FIRST_AFTER", 0.5)
    monkeypatch.setattr(early_publish, "EVERY", 1.0)
    folder = tmp_path / "sightings"
    write_notes(folder, NOTES)
    with Workspace() as workspace:
        store = workspace.create_store("Field notes", starter_model.identity())
        review = workspace.review_add(store, [folder])
        outcome: dict[str, object] = {}

        def index() -> None:
            try:
                outcome["summary"] = workspace.apply(store, review)
            except BaseException as exc:  # reported below, not lost in the thread
                outcome["error"] = exc

        job = threading.Thread(target=index)
        service = RetrievalService()
        during: list[tuple[int, set[str]]] = []
        job.start()
        deadline = time.monotonic() + 300
        while job.is_alive() and time.monotonic() < deadline:
            current = workspace.store(store.id)
            result = service.search("an otter near the river bank", [current])
            if job.is_alive():  # answered while the job still ran: an early part
                paths = {Path(e.path).name for e in result.excerpts}
                searchable = sum(s.counts.files for s in current.sources)
                during.append((len(result.excerpts), paths))
                if result.excerpts:  # the source is configured (unfinished) before its first part
                    assert [s.status_reason for s in current.sources] == [FIRST_INDEX_UNFINISHED]
                    assert searchable == 0  # its counts come when the index ends
            time.sleep(0.2)
        job.join(timeout=60)
        assert not job.is_alive() and "error" not in outcome, outcome
        answered = [paths for count, paths in during if count]
        assert answered, f"no search found anything before the end ({len(during)} tried)"
        # every excerpt is a real sighting of an otter (i % 10 == 0) or at least of the river bank
        for paths in answered:
            for name in paths:
                number = int(name.removeprefix("sighting-").removesuffix(".txt"))
                assert number % 10 == 0 or number % 6 == 0, name
        summary = outcome["summary"]
        assert getattr(summary, "parts_published", 0) >= 1
        (source,) = workspace.store(store.id).sources
        assert source.status is SourceStatus.READY and source.counts.files == NOTES
        service.forget(store.id)


def test_cancel_keeping_the_part_then_refresh_indexes_the_rest(
    tmp_path: Path,
    starter_model: InstalledModel,
    kortty_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(early_publish, "FIRST_AFTER", 0.5)
    monkeypatch.setattr(early_publish, "EVERY", 1.0)
    folder = tmp_path / "sightings"
    write_notes(folder, NOTES)
    with Workspace() as workspace:
        store = workspace.create_store("Field notes", starter_model.identity())
        review = workspace.review_add(store, [folder])
        cancel = CancelToken(keep_published=True)
        stopper = threading.Thread(target=_cancel_after_first_part, args=(cancel,))
        stopper.start()
        with pytest.raises(Cancelled):
            workspace.apply(store, review, cancel=cancel)
        stopper.join(timeout=60)
        assert 0 < cancel.kept < NOTES
        (source,) = workspace.store(store.id).sources
        assert source.status is SourceStatus.PENDING and source.counts.files == cancel.kept
        service = RetrievalService()
        result = service.search("a heron", [workspace.store(store.id)])
        assert result.excerpts  # the kept part answers
        service.forget(store.id)
        again = workspace.review_refresh(workspace.store(store.id))
        assert again.report.summary().to_index == NOTES - cancel.kept
        summary = workspace.apply(workspace.store(store.id), again)
        assert summary.indexed == NOTES - cancel.kept and summary.chunks_embedded == summary.indexed
        (source,) = workspace.store(store.id).sources
        assert source.status is SourceStatus.READY and source.counts.files == NOTES


#: field journal pages of about two full chunks each: about 40 s of embedding here, so the
#: command's own first part (after 10 s) comes well before its end
LONG_NOTES = 400


def write_long_notes(folder: Path, count: int) -> None:
    folder.mkdir(parents=True)
    for i in range(count):
        lines = [
            f"Day {i}, entry {j}: the {ANIMALS[(i + j) % len(ANIMALS)]} crossed the "
            f"{PLACES[(i * j) % len(PLACES)]} {j + 2} times before noon, wind from the "
            f"{'west' if (i + j) % 3 else 'east'}, {10 + (i * 7 + j) % 20} degrees."
            for j in range(24)
        ]
        (folder / f"journal-{i:03d}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _cancel_after_first_part(cancel: CancelToken) -> None:
    deadline = time.monotonic() + 120
    while not cancel.published and time.monotonic() < deadline:
        time.sleep(0.05)
    cancel.cancel()


def test_ctrl_c_with_keep_on_cancel_keeps_what_the_cli_made_searchable(
    tmp_path: Path, starter_model: InstalledModel, kortty_home: Path
) -> None:
    """The real command with the product's own timing (first part after 10 s), stopped by SIGINT
    once its progress line says documents are searchable."""
    folder = tmp_path / "journal"
    write_long_notes(folder, LONG_NOTES)
    registry = StoreRegistry()
    registry.create("Field notes", starter_model.identity())
    args = [sys.executable, "-m", "kortty_rag", "source", "add", "Field notes", str(folder)]
    env = dict(os.environ, KORTTY_HOME=str(kortty_home))
    with started(
        [*args, "--yes", "--keep-on-cancel"],
        env=env,
        stdout=subprocess.DEVNULL,  # the review table of 600 files: nobody reads it here
        stderr=subprocess.PIPE,
    ) as proc:
        reader = LineReader(proc.stderr)
        said = reader.read_until(lambda line: "documents searchable" in line, timeout=240)
        assert re.search(rf"\d+ of {LONG_NOTES} documents searchable", said), said
        proc.send_signal(signal.SIGINT)
        assert wait_for_exit(proc, 60) == 130
        rest = reader.read_rest(timeout=10)
    found = re.search(r"Interrupted; the (\d+) documents indexed so far stay searchable", rest)
    assert found, rest
    kept = int(found.group(1))
    assert 0 < kept < LONG_NOTES
    (source,) = registry.get("Field notes").sources
    assert source.status is SourceStatus.PENDING and source.counts.files == kept
    vectors = open_vector_store(registry.get("Field notes"))
    try:
        assert len(vectors.documents()) == kept
    finally:
        vectors.close()
