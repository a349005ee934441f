"""The test search dialog with real widgets, the real core and the real starter model.

The store is indexed once per module (the real pipeline: scan, extract, chunk, embed, snapshot) in a
KORTTY_HOME of its own; every test gets a copy of that home, so a test that disables a source changes
nothing for the others.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QTableWidget
from pytestqt.qtbot import QtBot
from tests.helpers.pdfs import text_pdf
from tests.helpers.search_dialog import SEARCH_MSECS, run_query

from kortty_rag.app.workspace import Workspace
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.gui.dialogs.test_search import TestSearchDialog
from kortty_rag.gui.dialogs.test_search_words import (
    empty_block_text,
    nothing_relevant_text,
    weak_results_guidance,
)
from kortty_rag.gui.relevance_combo import selected_level
from kortty_rag.gui.workers import Job, JobRunner
from kortty_rag.models import RelevanceLevel, Role, Store
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import AiProfile, ProfileRegistry
from kortty_rag.retrieval.search import (
    DROP_BELOW_FLOOR,
    DROP_DISABLED,
    RetrievalResult,
    RetrievalService,
)
from kortty_rag.sync.session import StoreSession

CORPUS = Path(__file__).parents[1] / "data" / "corpus"
PDF_PAGES = [
    "Honeybees carry pollen from blossom to blossom while they gather nectar; orchards depend on it.",
    "Glaciers are rivers of ice that creep downhill under their own weight and carve valleys.",
    "A good chess opening controls the centre squares and develops the knights early.",
]
NOTES = "Lighthouse keepers trimmed the lamp wicks every evening and logged passing ships."


@pytest.fixture(scope="module")
def built_home(tmp_path_factory: pytest.TempPathFactory, starter_cache: Path) -> Path:
    """A KORTTY_HOME with store "S": the corpus folder (with a PDF) and a separate notes file."""
    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.installed import get_model

    root = tmp_path_factory.mktemp("test-search")
    home = root / "home"
    shutil.copytree(starter_cache / "models" / STARTER_ID, home / "models" / STARTER_ID)
    corpus = root / "corpus"
    shutil.copytree(CORPUS, corpus)
    text_pdf(corpus / "science" / "handbook.pdf", PDF_PAGES)
    notes = root / "notes" / "lighthouse.txt"
    notes.parent.mkdir()
    notes.write_text(NOTES, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KORTTY_HOME", str(home))
        registry = StoreRegistry()
        store = registry.create("S", get_model(STARTER_ID).identity())
        with StoreSession(store, registry=registry) as job:
            job.apply(job.review_new_sources([corpus, notes]))
    return home


@pytest.fixture
def store(built_home: Path, kortty_home: Path) -> Store:
    def link(source: str, target: str) -> None:
        try:
            os.link(source, target)
        except OSError:
            shutil.copy2(source, target)

    shutil.copytree(built_home, kortty_home, dirs_exist_ok=True, copy_function=link)
    return StoreRegistry().get("S")


@pytest.fixture
def open_dialog(qtbot: QtBot, store: Store) -> Iterator[Callable[..., TestSearchDialog]]:
    """Opens dialogs the way the stores tab does; closes any still open after the test."""
    service = RetrievalService()
    dialogs: list[TestSearchDialog] = []

    def make(runner: JobRunner | None = None) -> TestSearchDialog:
        dialog = TestSearchDialog(store, Workspace(retrieval=service), runner=runner)
        dialogs.append(dialog)
        dialog.open()
        qtbot.waitExposed(dialog)
        return dialog

    yield make
    for dialog in dialogs:
        if shiboken6.isValid(dialog):
            dialog.close()
    service.close()


def choose_level(dialog: TestSearchDialog, level: RelevanceLevel) -> None:
    """Pick ``level`` with the keyboard: Home, then Down."""
    combo = dialog.relevance_combo
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Home)
    for _ in range(list(RelevanceLevel).index(level)):
        QTest.keyClick(combo, Qt.Key.Key_Down)
    assert selected_level(combo) is level


def column(table: QTableWidget, index: int, *, tips: bool = False) -> list[str]:
    """A column's texts (``tips``: its tooltips, where a path is whole)."""
    cells = [table.item(row, index) for row in range(table.rowCount())]
    return [(c.toolTip() if tips else c.text()) if c is not None else "" for c in cells]


def test_shows_the_exact_block_markers_paths_pages_and_scores(
    qtbot: QtBot, open_dialog: Callable[..., TestSearchDialog]
) -> None:
    dialog = open_dialog()
    assert dialog.focusWidget() is dialog.query_edit
    choose_level(dialog, RelevanceLevel.OFF)  # the display is under test: more than one excerpt
    result = run_query(qtbot, dialog, "honeybees carry pollen to orchards")

    block = dialog.block_view.toPlainText()
    assert block == result.block
    assert block.startswith("<retrieved_context>") and block.endswith("</retrieved_context>")
    assert dialog.block_view.isReadOnly()

    table = dialog.results_table
    markers = column(table, 0)
    assert markers == [f"R{n}" for n in range(1, len(result.excerpts) + 1)]
    assert len(markers) >= 2
    assert all(f"[{m}] source:" in block for m in markers)
    positions = [block.index(f"[{m}] source:") for m in markers]
    assert positions == sorted(positions)  # the table lists the block's order

    paths, pages = column(table, 1, tips=True), column(table, 2)
    assert paths == [e.path for e in result.excerpts]  # whole in the tooltip
    assert column(table, 1)[0] == "science/handbook.pdf"  # shown relative to the source
    assert paths[0].endswith("handbook.pdf") and pages[0] == "1"
    assert table.textElideMode() == Qt.TextElideMode.ElideMiddle
    top = result.excerpts[0].candidate
    assert top.lexical_rank is not None and top.dense_rank is not None
    assert column(table, 3)[0] == f"{top.relevance:.2f}"
    assert column(table, 4)[0] == f"{top.dense_score:.3f}"
    assert column(table, 5)[0] == f"{top.coverage * 100:.0f}%"  # type: ignore[operator]
    details = column(table, 3, tips=True)[0].splitlines()  # the parts' raw scores: the tooltip
    assert details == [
        f"Dense search: rank {top.dense_rank}, similarity {top.dense_score:.3f}",
        f"Lexical search: rank {top.lexical_rank}, BM25 score {top.lexical_score:.2f}",
        f"Fused: {top.fused:.4f} (the order of this question's results, not comparable with "
        "other questions)",
    ]

    dropped = dialog.dropped_table
    assert dropped.rowCount() == len(result.dropped) > 0
    assert set(column(dropped, 0)) <= {d.reason for d in result.dropped}
    budget = dialog.budget_label.text()
    assert f"{result.used_tokens:,} of {result.budget_tokens:,} tokens" in budget
    assert result.budget_tokens == 4000
    assert not dialog.guidance_label.isVisible()

    table.selectRow(1)  # selecting an excerpt shows it in the block
    assert dialog.block_view.textCursor().selectedText() == "[R2] source:"


def test_a_nonsense_query_shows_the_guidance(
    qtbot: QtBot, open_dialog: Callable[..., TestSearchDialog]
) -> None:
    dialog = open_dialog()
    qtbot.keyClicks(dialog.query_edit, "xqzv blorfang quux zzyzx")
    with qtbot.waitSignal(dialog.searched, timeout=SEARCH_MSECS):
        qtbot.mouseClick(dialog.search_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.busy)
    assert dialog.guidance_label.isVisible()
    assert (
        dialog.guidance_label.text() == nothing_relevant_text()
    )  # nearest neighbours, not relevant

    result = run_query(qtbot, dialog, "glaciers carve valleys")  # a good query hides it again
    assert result.excerpts and not dialog.guidance_label.isVisible()

    dialog.dense_check.click()  # lexical only: the nonsense finds nothing at all
    result = run_query(qtbot, dialog, "xqzv blorfang quux zzyzx")
    assert not result.excerpts and dialog.block_view.toPlainText() == ""
    assert dialog.results_table.rowCount() == 0
    assert "No excerpts found." in dialog.guidance_label.text()
    assert weak_results_guidance() in dialog.guidance_label.text()
    assert "`" not in dialog.guidance_label.text()  # no command-line commands in the app
    assert "source list" not in dialog.guidance_label.text()
    assert dialog.guidance_label.isVisible()

    dialog.lexical_check.click()  # both parts off: nothing to search with
    assert not dialog.search_button.isEnabled()
    assert "Switch on dense or lexical" in dialog.status_label.text()
    dialog.dense_check.click()
    assert dialog.search_button.isEnabled()
    assert "nothing is sent to a chat model" in dialog.status_label.text()


def test_a_disabled_source_never_appears(
    qtbot: QtBot, store: Store, open_dialog: Callable[..., TestSearchDialog]
) -> None:
    dialog = open_dialog()  # opened before the change: the search reads the current store
    corpus = next(s for s in store.sources if s.path.endswith("corpus"))
    Workspace().set_source_enabled(store, corpus, False)
    choose_level(dialog, RelevanceLevel.OFF)  # the lighthouse note is not about bees
    result = run_query(qtbot, dialog, "honeybees carry pollen to orchards")
    assert result.excerpts
    assert all(p.endswith("lighthouse.txt") for p in column(dialog.results_table, 1))
    assert corpus.path not in dialog.block_view.toPlainText()
    reasons = dict(
        zip(
            column(dialog.dropped_table, 1, tips=True),
            column(dialog.dropped_table, 0),
            strict=True,
        )
    )
    assert reasons[str(Path(corpus.path) / "science" / "handbook.pdf")] == DROP_DISABLED


def test_the_budget_follows_a_role_profiles_context_window(
    qtbot: QtBot, open_dialog: Callable[..., TestSearchDialog]
) -> None:
    profiles = ProfileRegistry()
    profiles.add(AiProfile("Small", Backend.LLAMA_CPP, "/models/small.gguf", context_window=2048))
    profiles.assign(Role.TEXT, "Small")
    dialog = open_dialog()
    assert dialog.budget_combo.count() == 2
    dialog.budget_combo.setCurrentIndex(1)
    result = run_query(qtbot, dialog, "glaciers carve valleys")
    assert result.budget_tokens == 512  # 25 % of 2,048
    assert result.used_tokens <= 512
    assert "of 512 tokens" in dialog.budget_label.text()


UNRELATED = "What is the capital of Mongolia?"


def test_an_unrelated_question_says_plainly_that_nothing_is_relevant(
    qtbot: QtBot, open_dialog: Callable[..., TestSearchDialog]
) -> None:
    dialog = open_dialog()
    assert selected_level(dialog.relevance_combo) is RelevanceLevel.LOW  # the default
    result = run_query(qtbot, dialog, UNRELATED)
    scores = [d.candidate.dense_score for d in result.dropped]
    assert result.nothing_relevant, f"dense scores {scores} (the floor is provisional)"
    assert result.block == "" and dialog.block_view.toPlainText() == ""
    assert dialog.block_view.placeholderText() == empty_block_text()
    assert dialog.results_table.rowCount() == 0
    assert set(column(dialog.dropped_table, 0)) == {DROP_BELOW_FLOOR}
    assert dialog.guidance_label.isVisible()
    assert dialog.guidance_label.text() == nothing_relevant_text()
    assert "nothing would be added to the prompt" in nothing_relevant_text()
    shown = [dialog.guidance_label.text(), dialog.status_label.text(), dialog.budget_label.text()]
    assert not any("`" in text or "kortty-rag" in text for text in shown)  # no commands in the GUI
    assert "Minimum relevance: low" in dialog.budget_label.text()


def test_the_minimum_relevance_is_tried_live_and_kept_for_the_store(
    qtbot: QtBot, open_dialog: Callable[..., TestSearchDialog], store: Store, run_cli: Any
) -> None:
    dialog = open_dialog()
    label = next(w for w in dialog.findChildren(QLabel) if w.buddy() is dialog.relevance_combo)
    assert label.text() == "&Minimum relevance:"
    assert [dialog.relevance_combo.itemText(i) for i in range(4)] == [
        "Off",
        "Low",
        "Medium",
        "High",
    ]
    assert not dialog.use_relevance_button.isEnabled()  # the store's own level is selected
    assert run_query(qtbot, dialog, UNRELATED).nothing_relevant

    with qtbot.waitSignal(dialog.searched, timeout=SEARCH_MSECS) as searched:
        choose_level(dialog, RelevanceLevel.OFF)  # searches again at once
    qtbot.waitUntil(lambda: not dialog.busy)
    result = searched.args[0]
    assert result.query == UNRELATED and result.excerpts and not result.nothing_relevant
    assert dialog.results_table.rowCount() == len(result.excerpts)
    assert dialog.block_view.toPlainText().startswith("<retrieved_context>")

    assert dialog.use_relevance_button.isEnabled()
    dialog.use_relevance_button.setFocus()
    QTest.keyClick(dialog.use_relevance_button, Qt.Key.Key_Space)  # keyboard only
    assert not dialog.use_relevance_button.isEnabled()
    saved = StoreRegistry().get(store.id)
    assert saved.settings["retrieval"]["min_relevance"] == "off"
    (definition,) = (Path(os.environ["KORTTY_HOME"]) / "rag" / "stores").glob("*/store.json")
    assert '"min_relevance": "off"' in definition.read_text(encoding="utf-8")

    # the CLI changes it; a dialog opened afterwards shows the new level
    assert run_cli("store", "retrieval", "S", "--min-relevance", "medium").returncode == 0
    again = TestSearchDialog(StoreRegistry().get(store.id), dialog.workspace)
    qtbot.addWidget(again)
    assert selected_level(again.relevance_combo) is RelevanceLevel.MEDIUM


class SlowRetrieval(RetrievalService):
    """The real retrieval, after a pause: long enough to close the dialog while it runs."""

    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Event()

    def search(self, *args: Any, **kwargs: Any) -> RetrievalResult:
        self.started.set()
        time.sleep(0.5)
        return super().search(*args, **kwargs)


def test_closing_waits_for_the_running_search(
    qtbot: QtBot, open_dialog: Callable[..., TestSearchDialog]
) -> None:
    dialog = open_dialog()
    slow = SlowRetrieval()
    dialog.workspace = Workspace(retrieval=slow)
    results: list[object] = []
    dialog.searched.connect(results.append)
    qtbot.keyClicks(dialog.query_edit, "sourdough starter")
    dialog.search_button.click()
    assert dialog.busy and not dialog.search_button.isEnabled()
    dialog.search_button.click()  # ignored while one runs
    assert slow.started.wait(30)
    runner = dialog.runner
    dialog.close()
    assert runner.pool.activeThreadCount() == 0  # waited before closing
    qtbot.waitUntil(lambda: not shiboken6.isValid(dialog))  # deleted on close
    assert results == []  # a closed dialog shows nothing more
    slow.close()


def test_a_shared_runner_is_not_waited_for_beyond_the_dialogs_own_search(
    qtbot: QtBot, open_dialog: Callable[..., TestSearchDialog]
) -> None:
    runner = JobRunner(max_threads=1)
    gate = threading.Event()
    runner.start(Job(lambda progress, cancel: gate.wait(30), key="store", name="Indexing"))
    queued = open_dialog(runner)
    qtbot.keyClicks(queued.query_edit, "glaciers")
    queued.search_button.click()
    assert queued.busy  # queued behind the "indexing" job
    queued.close()  # returns at once: the search is taken off the queue and never runs
    assert [job.name for job in runner.running] == ["Indexing"]
    gate.set()
    qtbot.waitUntil(lambda: not runner.running)

    dialog = open_dialog(runner)
    result = run_query(qtbot, dialog, "glaciers carve valleys")
    assert result.excerpts
    dialog.close()
    runner.wait()


def test_a_store_with_nothing_enabled_says_so_instead_of_tuning_advice(
    qtbot: QtBot, store: Store, open_dialog: Callable[..., TestSearchDialog]
) -> None:
    dialog = open_dialog()
    workspace = Workspace()
    for source in store.sources:
        store = workspace.set_source_enabled(store, source, False)
    result = run_query(qtbot, dialog, "honeybees carry pollen to orchards")
    assert not result.excerpts
    guidance = dialog.guidance_label.text()
    assert guidance.startswith("This store has no enabled source to search yet")
    assert "Weak or no results?" not in guidance and dialog.guidance_label.isVisible()
    # the question quoted as the language quotes, not as Python writes a string
    assert dialog.status_label.text().startswith(
        "No excerpts for “honeybees carry pollen to orchards”."
    )
    # both parts switched off: the last search's advice goes, the reason to switch one on stays
    dialog.dense_check.setChecked(False)
    dialog.lexical_check.setChecked(False)
    assert dialog.guidance_label.isHidden()
    assert not dialog.search_button.isEnabled()
