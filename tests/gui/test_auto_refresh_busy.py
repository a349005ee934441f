"""Automatic refresh in the app while another process holds the store (a CLI refresh, say): the app
waits and catches up, with no error dialog (real processes, the real store lock, the real starter
model)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.gui.test_stores_tab import (
    Outcome,
    add_folder_and_index,
    docs,  # noqa: F401 (fixture)
    message_box,
    tab_with_store,
)
from tests.helpers.children import LineReader, started, wait_for_exit

from kortty_rag.app.search_results import SearchRequest
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui.main_window import MainWindow
from kortty_rag.models import SyncMode

ROOT = Path(__file__).resolve().parents[2]


def test_a_refresh_held_up_by_another_process_waits_and_catches_up(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    docs: Path,  # noqa: F811
    starter_model: InstalledModel,
    kortty_home: Path,
) -> None:
    tab = tab_with_store(window, starter_model)
    add_folder_and_index(qtbot, window, chooser, docs)
    store = tab.current_store()
    assert store is not None and len(store.sources) == 1
    # only an enabled source that syncs automatically is refreshed without a review
    store = tab.workspace.set_sync_mode(store, store.sources[0], SyncMode.AUTO)
    source = store.sources[0]
    tab.refreshes.retry_delay = 0.5
    edited = docs / "science" / "volcano.txt"
    edited.write_text(edited.read_text() + "\nEtna erupted again in a crimson fountain.\n")
    failures: list[BaseException] = []
    tab.job_failed.connect(failures.append)
    statuses: list[str] = []
    tab.status_changed.connect(statuses.append)

    env = dict(os.environ, KORTTY_HOME=str(kortty_home))
    holder_args = [sys.executable, "-m", "tests.helpers.lock_holder", store.name]
    pipes: dict[str, Any] = dict(stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    with started(holder_args, cwd=ROOT, env=env, **pipes) as holder:
        lines = LineReader(holder.stdout)  # type: ignore[arg-type]
        assert lines.readline(timeout=60).strip() == "holding"
        window.refresh_due.emit(store.id, [source.id])  # what the watcher sends
        # several retries while the other process still holds the store; between two of them the
        # request is queued again (while a retry runs it is out of the queue, in that job)
        qtbot.waitUntil(
            lambda: sum("busy with another job" in s for s in statuses) >= 3, timeout=30_000
        )
        qtbot.waitUntil(lambda: bool(tab.refreshes), timeout=10_000)  # still waiting, nothing lost
        assert not failures and message_box("errorBox") is None
        outcome = Outcome(qtbot, tab, "index_finished")
        assert holder.stdin is not None
        holder.stdin.write("go\n")
        holder.stdin.flush()
        assert lines.readline(timeout=30).strip() == "released"
        assert wait_for_exit(holder, timeout=30) == 0
        summary: Any = outcome.wait(timeout=120_000)
    assert summary.indexed == 1 and summary.unchanged == 10
    assert statuses[-1].startswith("Synced automatically")
    assert not failures and message_box("errorBox") is None
    assert not tab.refreshes
    found = tab.workspace.search(
        SearchRequest("crimson fountain Etna", [tab.workspace.store(store.id)])
    )
    assert any(e.candidate.chunk.rel_path.endswith("volcano.txt") for e in found.excerpts)
