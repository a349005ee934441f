"""The Knowledge Stores tab with real widgets, the real core and the real starter model."""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.helpers.pdfs import text_pdf

from kortty_rag.app.search_results import SearchRequest
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui.main_window import MainWindow
from kortty_rag.gui.stores_tab import STATUS_COLUMN, StoresTab
from kortty_rag.index.snapshot import read_pointer
from kortty_rag.models import SourceStatus, SyncMode

CORPUS = Path(__file__).parents[1] / "data" / "corpus"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    shutil.copytree(CORPUS, root)
    text_pdf(root / "science" / "atlas.pdf", ["Deserts are dry.", "Coral reefs grow in warm seas."])
    return root


def message_box(name: str) -> QMessageBox | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QMessageBox) and widget.objectName() == name and widget.isVisible():
            return widget
    return None


def press(qtbot: QtBot, box_name: str, button_text: str) -> None:
    qtbot.waitUntil(lambda: message_box(box_name) is not None, timeout=10_000)
    box = message_box(box_name)
    assert box is not None
    button = next(b for b in box.buttons() if b.text().replace("&", "") == button_text)
    assert isinstance(button, QPushButton)
    button.click()


def assert_completion_notice(tab: StoresTab) -> None:
    """Indexing ends with a notice in the status area, and no box over the window."""
    assert tab.status_line.text().startswith("Done: ")
    assert tab.status.summary_button.isVisible()
    assert not [
        w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()
    ]


def make_store(model: InstalledModel, name: str = "Docs") -> None:
    StoreRegistry().create(name, model.identity())


def tab_with_store(window: MainWindow, model: InstalledModel) -> StoresTab:
    """The Knowledge Stores tab showing a new, empty store "Docs"."""
    make_store(model)
    tab = window.stores_tab
    tab.reload()
    return tab


class Outcome:
    """Waits for the end of a job and re-raises its failure (instead of timing out)."""

    def __init__(self, qtbot: QtBot, tab: object, signal: str) -> None:
        self.qtbot = qtbot
        self.values: list[object] = []
        self.errors: list[BaseException] = []
        getattr(tab, signal).connect(self.values.append)
        tab.job_failed.connect(self.errors.append)  # type: ignore[attr-defined]

    def wait(self, timeout: int = 300_000) -> object:
        self.qtbot.waitUntil(lambda: bool(self.values or self.errors), timeout=timeout)
        if self.errors:
            raise self.errors[0]
        return self.values[0]


def add_folder_and_index(
    qtbot: QtBot, window: MainWindow, chooser: FixedChooser, folder: Path
) -> None:
    tab = window.stores_tab
    chooser.next_folder = str(folder)
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
        tab.add_folder_button.click()
    qtbot.waitUntil(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    assert tab.review_dialog is not None
    outcome = Outcome(qtbot, tab, "index_finished")
    tab.review_dialog.index_button.click()
    outcome.wait()
    assert_completion_notice(tab)


def review_from_banner(qtbot: QtBot, tab: StoresTab) -> str:
    """Review… on the banner of sources from an import, then Index in the review dialog: the
    review's summary, once the banner is gone."""
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
        tab.review_banner.button.click()
    qtbot.waitUntil(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    assert tab.review_dialog is not None
    summary = tab.review_dialog.summary.text()
    outcome = Outcome(qtbot, tab, "index_finished")
    tab.review_dialog.index_button.click()
    outcome.wait()
    qtbot.waitUntil(lambda: not tab.review_banner.isVisible())
    return summary


def test_add_folder_review_index(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    docs: Path,
    starter_model: InstalledModel,
) -> None:
    tab = tab_with_store(window, starter_model)
    chooser.next_folder = str(docs)
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000) as scanned:
        tab.add_folder_button.click()
        assert tab.status_line.text().startswith(f"Scanning {docs}")
    review = scanned.args[0]
    dialog = tab.review_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.model.rowCount() == len(review.rows) == 11
    assert "To index: 11 (11 new, 0 changed)" in dialog.summary.text()
    assert "PDF 1" in dialog.summary.text()
    dialog.table.sortByColumn(2, dialog.table.horizontalHeader().sortIndicatorOrder())  # sortable
    statuses: list[str] = []
    tab.status_changed.connect(statuses.append)
    outcome = Outcome(qtbot, tab, "index_finished")
    dialog.index_button.click()
    summary: Any = outcome.wait()
    assert summary.indexed == 11 and summary.chunks_embedded >= 11
    during = [s for s in statuses if s.startswith("Indexing")]
    assert during and all(part in during[-1] for part in ("documents", "chunks", "issues", "%"))
    assert_completion_notice(tab)
    assert tab.sources.rowCount() == 1
    source = tab.sources.row(0)
    assert source.status is SourceStatus.READY and source.counts.files == 11
    assert "Done: 11 new or changed, 0 unchanged, 0 removed, 0 skipped" in tab.status_line.text()


def test_cancel_during_scan(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    tmp_path: Path,
    starter_model: InstalledModel,
) -> None:
    make_store(starter_model)
    big = tmp_path / "big"
    for i in range(4000):
        folder = big / f"d{i % 40}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{i}.txt").write_text(f"file number {i} " * 40)
    tab = window.stores_tab
    tab.reload()
    chooser.next_folder = str(big)
    with qtbot.waitSignal(tab.job_cancelled, timeout=60_000):
        tab.add_folder_button.click()
        qtbot.waitUntil(tab.cancel_button.isVisible)
        tab.cancel_button.click()
    assert tab.review_dialog is None
    assert StoreRegistry().get("Docs").sources == ()
    assert "Cancelled" in tab.status_line.text()


def test_cancel_during_indexing_keeps_the_old_snapshot(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    docs: Path,
    tmp_path: Path,
    starter_model: InstalledModel,
) -> None:
    tab = tab_with_store(window, starter_model)
    add_folder_and_index(qtbot, window, chooser, docs / "science")
    store = StoreRegistry().get("Docs")
    before = read_pointer(StoreRegistry().folder(store))
    more = tmp_path / "more"
    more.mkdir()
    for i in range(400):  # minutes of embedding: the cancel always lands while chunks are embedded
        (more / f"m{i}.md").write_text(f"Section {i}. " + "A long paragraph about tides. " * 60)
    chooser.next_folder = str(more)
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
        tab.add_folder_button.click()
    assert tab.review_dialog is not None
    with qtbot.waitSignal(tab.job_cancelled, timeout=120_000):
        tab.review_dialog.index_button.click()
        qtbot.waitUntil(lambda: "chunks/s" in tab.status_line.text(), timeout=120_000)
        tab.cancel_button.click()
    assert read_pointer(StoreRegistry().folder(store)) == before
    assert [s.path for s in StoreRegistry().get("Docs").sources] == [str(docs / "science")]
    assert (
        "Cancelled. Docs still answers from its last completed index; the new folder was not "
        "added." in tab.status_line.text()
    )


def test_refresh_after_an_edit_shows_the_file_as_changed(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    docs: Path,
    starter_model: InstalledModel,
) -> None:
    tab = tab_with_store(window, starter_model)
    add_folder_and_index(qtbot, window, chooser, docs)
    edited = docs / "science" / "volcano.txt"
    edited.write_text(edited.read_text() + "\nEtna erupted again.\n")
    tab.select_source(str(docs))
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000) as scanned:
        tab.refresh_button.click()
    rows = {Path(r.path).name: r for r in scanned.args[0].rows}
    assert (rows["volcano.txt"].status.value, rows["volcano.txt"].reason) == ("index", "changed")
    assert rows["sourdough.txt"].status.value == "unchanged"
    dialog = tab.review_dialog
    assert dialog is not None and "1 changed" in dialog.summary.text()
    outcome = Outcome(qtbot, tab, "index_finished")
    dialog.index_button.click()
    summary: Any = outcome.wait()
    assert summary.indexed == 1 and summary.unchanged == 10
    assert_completion_notice(tab)


def test_change_location_of_a_moved_folder(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    docs: Path,
    starter_model: InstalledModel,
    tmp_path: Path,
) -> None:
    """A folder moved: right away, Change location… (context menu) re-points it with nothing to
    review; moved again and refreshed first, the source is MISSING, the button appears, and the
    review indexes its files from the vectors the store kept — nothing is embedded again."""
    tab = tab_with_store(window, starter_model)
    add_folder_and_index(qtbot, window, chooser, docs)
    tab.select_source(str(docs))
    files = StoreRegistry().get("Docs").sources[0].counts.files
    assert not tab.missing_banner.isVisible() and tab.move_action.isEnabled()
    first = tmp_path / "first"
    docs.rename(first)
    chooser.next_location = str(first)
    outcome = Outcome(qtbot, tab, "index_finished")
    tab.move_action.trigger()
    summary: Any = outcome.wait()
    assert summary.chunks_embedded == 0 and summary.unchanged == files > 0
    assert "now points to" in tab.status_line.text()
    (source,) = StoreRegistry().get("Docs").sources
    assert source.path == str(first) and source.status is SourceStatus.READY

    second = tmp_path / "second"
    first.rename(second)
    tab.select_source(str(first))
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
        tab.refresh_button.click()
    qtbot.waitUntil(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    outcome = Outcome(qtbot, tab, "index_finished")
    tab.review_dialog.index_button.click()  # type: ignore[union-attr]
    outcome.wait()
    tab.select_source(str(first))
    qtbot.waitUntil(tab.missing_banner.isVisible)
    assert tab.move_button.isVisible() and "not found" in tab.missing_text.text()
    status = tab.sources.index(0, 3).data()  # the Status column
    assert "MISSING" in status and "Change location…" in status

    chooser.next_location = str(second)
    tab.review_dialog = None
    tab.move_button.click()
    qtbot.waitUntil(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    # nothing about the source changes before the review is confirmed (issue 23, item 7)
    assert StoreRegistry().get("Docs").sources[0].path == str(first)
    assert f"the source moves from {first} to {second}" in tab.review_dialog.summary.text()  # type: ignore[union-attr]
    tab.review_dialog.reject()  # type: ignore[union-attr]
    assert tab.status_line.text() == f"Nothing was changed; the source still points to {first}."
    assert StoreRegistry().get("Docs").sources[0].path == str(first)
    tab.select_source(str(first))
    tab.review_dialog = None
    tab.move_button.click()
    qtbot.waitUntil(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    outcome = Outcome(qtbot, tab, "index_finished")
    tab.review_dialog.index_button.click()  # type: ignore[union-attr]
    summary = outcome.wait()
    assert summary.indexed == files and summary.chunks_embedded == 0 and summary.chunks_reused > 0
    (source,) = StoreRegistry().get("Docs").sources
    assert source.path == str(second) and source.status is SourceStatus.READY
    assert not tab.missing_banner.isVisible()


def test_remove_asks_and_deletes_only_that_source(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    docs: Path,
    starter_model: InstalledModel,
) -> None:
    tab = tab_with_store(window, starter_model)
    add_folder_and_index(qtbot, window, chooser, docs / "science")
    add_folder_and_index(qtbot, window, chooser, docs / "kitchen")
    tab.select_source(str(docs / "kitchen"))
    tab.remove_button.click()
    box = message_box("confirmBox")
    assert box is not None and "not touched" in box.informativeText()
    press(qtbot, "confirmBox", "Cancel")  # asking first: nothing happens
    assert len(StoreRegistry().get("Docs").sources) == 2
    tab.select_source(str(docs / "kitchen"))
    tab.remove_button.click()
    press(qtbot, "confirmBox", "Remove")
    qtbot.waitUntil(lambda: len(StoreRegistry().get("Docs").sources) == 1, timeout=60_000)
    qtbot.waitUntil(lambda: not window.runner.running)
    assert (docs / "kitchen" / "sourdough.txt").exists()
    from kortty_rag.index.factory import open_vector_store

    vectors = open_vector_store(StoreRegistry().get("Docs"))
    try:
        assert {d.rel_path for d in vectors.documents()} == {
            "astronomy.md",
            "volcano.txt",
            "inflation.md",
            "vaccines.txt",
            "atlas.pdf",
        }
    finally:
        vectors.close()


def test_delete_store_says_what_is_and_is_not_deleted(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    docs: Path,
    starter_model: InstalledModel,
) -> None:
    tab = tab_with_store(window, starter_model)
    add_folder_and_index(qtbot, window, chooser, docs / "kitchen")
    tab.delete_button.click()
    box = message_box("confirmBox")
    assert box is not None
    assert (
        "Deleted:" in box.informativeText() and "Not deleted: your files" in box.informativeText()
    )
    press(qtbot, "confirmBox", "Delete")
    qtbot.waitUntil(lambda: StoreRegistry().list() == [], timeout=60_000)
    assert (docs / "kitchen" / "sourdough.txt").exists()
    qtbot.waitUntil(lambda: tab.store_list.count() == 0)  # the list follows once the job is done


def test_a_rebuild_with_the_same_model_says_it_reused_every_chunk(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    docs: Path,
    starter_model: InstalledModel,
) -> None:
    """Rebuild… reads every file again into a fresh snapshot; with the model unchanged it embeds
    nothing and the status line says how many chunks it took over (counted here from the chunk
    table of the snapshot the first index activated, not from the app's summary)."""
    tab = tab_with_store(window, starter_model)
    add_folder_and_index(qtbot, window, chooser, docs)
    store = tab.current_store()
    assert store is not None
    folder = StoreRegistry().folder(store)
    first = read_pointer(folder)
    assert first is not None
    with sqlite3.connect(folder / "snapshots" / first[0] / "chunks.sqlite") as table:
        (chunks,) = table.execute("SELECT count(*) FROM chunks").fetchone()
        (documents,) = table.execute("SELECT count(*) FROM documents").fetchone()
    assert chunks > documents > 1
    outcome = Outcome(qtbot, tab, "index_finished")
    tab.rebuild_button.click()
    press(qtbot, "confirmBox", "Rebuild")
    summary: Any = outcome.wait()
    assert (summary.chunks_embedded, summary.chunks_reused) == (0, chunks)
    assert tab.status_line.text() == (
        f"Rebuilt Docs from {documents} documents: 0 chunks embedded, {chunks} reused without "
        "embedding again."
    )
    window.status.summary_button.click()  # the summary agrees: read again, not "new or changed"
    box = window.status.summary_box
    assert box is not None and box.isVisible()
    assert box.text().startswith(f"Docs: {documents} documents read again into a fresh index")
    assert f"0 chunks embedded, {chunks} reused without embedding again; it took " in box.text()
    assert "new or changed" not in box.text()
    box.close()
    assert read_pointer(folder) != first  # a fresh snapshot serves


def test_disable_says_so_and_the_status_column_shows_the_whole_word(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    docs: Path,
    starter_model: InstalledModel,
) -> None:
    tab = tab_with_store(window, starter_model)
    add_folder_and_index(qtbot, window, chooser, docs / "kitchen")
    tab.select_source(str(docs / "kitchen"))
    header = tab.source_view.horizontalHeader()
    metrics = tab.source_view.fontMetrics()
    assert header.sectionSize(STATUS_COLUMN) < metrics.horizontalAdvance("READY (disabled): …")
    qtbot.waitUntil(tab.toggle_button.isEnabled)  # the indexing job has handed the store back
    tab.toggle_button.click()
    assert not StoreRegistry().get("Docs").sources[0].enabled
    assert tab.status_line.text() == (
        f"{docs / 'kitchen'} is disabled: it keeps its chunks but is never retrieved."
    )
    cell = tab.source_view.model().index(0, STATUS_COLUMN)
    assert cell.data() == "READY (disabled)"
    # the column is as wide as the whole word while a source is disabled (not "READY (dis…")
    assert header.sectionSize(STATUS_COLUMN) >= metrics.horizontalAdvance("READY (disabled): …")
    assert tab.toggle_button.text().replace("&", "") == "Enable"
    tab.toggle_button.click()
    assert StoreRegistry().get("Docs").sources[0].enabled
    assert tab.status_line.text() == f"{docs / 'kitchen'} is enabled: searches include it again."


def test_restart_restores_the_state(
    qtbot: QtBot, chooser: FixedChooser, docs: Path, starter_model: InstalledModel
) -> None:
    make_store(starter_model, "First")
    make_store(starter_model, "Second")
    win = MainWindow(chooser=chooser, watch=False)
    qtbot.addWidget(win)
    win.show()
    win.stores_tab.select_store("Second")
    add_folder_and_index(qtbot, win, chooser, docs / "garden")
    win.resize(780, 520)  # within the offscreen screen, so nothing is clamped
    saved = (win.size().width(), win.size().height())
    default = MainWindow(chooser=chooser, watch=False)  # what a window without saved state gets
    assert (default.size().width(), default.size().height()) != saved
    default.shutdown()
    win.tabs.setCurrentIndex(2)
    win.close()
    again = MainWindow(chooser=chooser, watch=False)
    qtbot.addWidget(again)
    again.show()
    try:
        assert again.tabs.currentIndex() == 2
        assert again.stores_tab.current_store().name == "Second"  # type: ignore[union-attr]
        assert (again.size().width(), again.size().height()) == saved
        assert again.stores_tab.sources.rowCount() == 1
        assert again.stores_tab.sources.row(0).counts.files == 1
    finally:
        again.shutdown()


def test_the_gui_never_freezes_while_indexing(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    tmp_path: Path,
    starter_model: InstalledModel,
) -> None:
    """A heartbeat on the GUI thread must never wait more than 100 ms while a real corpus indexes."""
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    for i in range(40):
        (corpus / f"extra{i}.md").write_text(f"# Note {i}\n\n" + "Rivers carve valleys. " * 120)
    text_pdf(corpus / "pages.pdf", [f"Page {n} about glaciers and ice." * 20 for n in range(1, 9)])
    tab = tab_with_store(window, starter_model)
    gaps: list[float] = []
    last = [time.monotonic()]

    def beat() -> None:
        now = time.monotonic()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(beat)
    timer.start()
    try:
        chooser.next_folder = str(corpus)
        with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
            tab.add_folder_button.click()
        assert tab.review_dialog is not None
        last[0] = time.monotonic()
        gaps.clear()
        outcome = Outcome(qtbot, tab, "index_finished")
        tab.review_dialog.index_button.click()
        summary: Any = outcome.wait(600_000)
    finally:
        timer.stop()
    assert_completion_notice(tab)
    assert summary.chunks_embedded > 100
    assert len(gaps) > 50
    assert max(gaps) < 0.100, f"the GUI thread waited {max(gaps) * 1000:.0f} ms"


def test_a_damaged_store_is_listed_with_its_reason_and_the_others_keep_working(
    qtbot: QtBot, chooser: FixedChooser, starter_model: InstalledModel
) -> None:
    import json

    from kortty_rag.config.registry import STORE_FILE

    registry = StoreRegistry()
    registry.create("Healthy", starter_model.identity())
    victim = registry.create("Victim", starter_model.identity())
    definition = registry.folder(victim) / STORE_FILE
    data = json.loads(definition.read_text())
    data["store"]["roles"] = None  # the damage the test injects, and the field it must name
    definition.write_text(json.dumps(data))

    win = MainWindow(chooser=chooser, watch=False)
    qtbot.addWidget(win)
    try:
        win.show()
        tab = win.stores_tab
        items = [tab.store_list.item(row) for row in range(tab.store_list.count())]
        assert [item.text() for item in items] == [
            f"Healthy\n{starter_model.id}",
            "Victim\nDAMAGED",
        ]
        tab.store_list.setCurrentItem(items[1])
        header = tab.store_header.text()
        assert "DAMAGED" in header and "field store.roles must be an object, found null" in header
        assert str(definition) in header
        assert tab.current_store() is None
        assert not tab.add_folder_button.isEnabled() and not tab.delete_button.isEnabled()
        tab.store_list.setCurrentItem(items[0])
        assert tab.current_store() is not None and tab.current_store().name == "Healthy"  # type: ignore[union-attr]
        assert tab.add_folder_button.isEnabled()
    finally:
        win.shutdown()


def test_check_stores_finds_and_repairs_what_is_safe(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    docs: Path,
    starter_model: InstalledModel,
) -> None:
    """File → Check stores… lists every check; a leftover and a damaged pointer are repaired by
    Repair, a moved root is a problem whose fix names Change location…"""
    tab_with_store(window, starter_model)
    add_folder_and_index(qtbot, window, chooser, docs)
    folder = StoreRegistry().folder(StoreRegistry().get("Docs"))
    (folder / "snapshots" / ".kortty-tmp-snap-0123abcd").mkdir()
    (folder / "CURRENT").write_text("{damaged")

    window.check_action.trigger()
    dialog = window.check_dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=120_000)
    report = dialog.report
    assert report is not None and not report.healthy
    rows = [
        [dialog.table.topLevelItem(i).text(c) for c in range(5)]  # type: ignore[union-attr]
        for i in range(dialog.table.topLevelItemCount())
    ]
    assert rows[0][0] == "Problem" and rows[0][2] == "pointer"
    assert "Repair" in dialog.summary.text() and dialog.repair_button.isEnabled()
    with qtbot.waitSignal(dialog.checked, timeout=120_000) as repaired:
        dialog.repair_button.click()
    after = repaired.args[0]
    assert after.healthy and any("activated snap-" in line for line in after.repaired)
    assert "Every store is healthy" in dialog.summary.text()
    assert not dialog.repair_button.isEnabled()

    docs.rename(docs.parent / "moved-away")
    with qtbot.waitSignal(dialog.checked, timeout=120_000) as again:
        dialog.again_button.click()
    assert not again.args[0].healthy
    source_rows = [
        dialog.table.topLevelItem(i)
        for i in range(dialog.table.topLevelItemCount())
        if dialog.table.topLevelItem(i).text(2).startswith("source ")  # type: ignore[union-attr]
    ]
    (row,) = source_rows
    assert row is not None and row.text(0) == "Problem"
    assert "Change location…" in row.text(4) and "kortty-rag" not in row.text(4)
    dialog.close()


def test_export_and_import_from_the_file_menu(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    docs: Path,
    starter_model: InstalledModel,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """File → Export store… writes the archive; Import store… of it while the store exists asks
    for another name, then the copy answers a search like the original; its source waits for a
    review (a banner with Review…) before anything is read from it here."""
    monkeypatch.setenv("HOME", str(tmp_path))  # an imported source outside the home is refused
    tab = tab_with_store(window, starter_model)
    add_folder_and_index(qtbot, window, chooser, docs)
    archive = tmp_path / "docs.kortty.tar"
    chooser.next_save = str(archive)
    with qtbot.waitSignal(window.backup.ended, timeout=120_000):
        window.backup.export_action.trigger()
    assert archive.is_file() and "Exported Docs" in tab.status_line.text()

    chooser.next_archive = str(archive)
    with qtbot.waitSignal(window.backup.ended, timeout=120_000):
        window.backup.import_action.trigger()
    qtbot.waitUntil(lambda: getattr(window.backup, "name_dialog", None) is not None)
    dialog = window.backup.name_dialog
    assert "already exists" in dialog.labelText()
    assert dialog.textValue() == "Docs 2"  # a free name is offered (issue 29, point 10)
    # the status line says where things stand, never "Importing a store…" for good
    assert tab.status_line.text().startswith("Not imported yet: ")
    dialog.setTextValue("   ")  # no name: said in a box and in the status line, nothing imported
    dialog.accept()
    assert tab.status_line.text() == "Not imported: no name was given; nothing was changed."
    press(qtbot, "infoBox", "OK")
    assert {s.name for s in StoreRegistry().list()} == {"Docs"}
    with qtbot.waitSignal(window.backup.ended, timeout=120_000):
        window.backup.import_action.trigger()
    qtbot.waitUntil(lambda: window.backup.name_dialog is not dialog)
    cancelled = window.backup.name_dialog
    cancelled.reject()  # Cancel
    assert tab.status_line.text() == "Not imported; nothing was changed."
    with qtbot.waitSignal(window.backup.ended, timeout=120_000):
        window.backup.import_action.trigger()
    qtbot.waitUntil(lambda: window.backup.name_dialog is not cancelled)
    dialog = window.backup.name_dialog
    dialog.setTextValue("Docs copy")
    with qtbot.waitSignal(window.backup.imported, timeout=120_000):
        dialog.accept()
    assert {s.name for s in StoreRegistry().list()} == {"Docs", "Docs copy"}
    qtbot.waitUntil(
        lambda: tab.current_store() is not None and tab.current_store().name == "Docs copy"
    )  # type: ignore[union-attr]
    assert "every checksum verified" in tab.status_line.text()
    original = window.workspace.search(SearchRequest("coral reefs", [StoreRegistry().get("Docs")]))
    copy = window.workspace.search(SearchRequest("coral reefs", [StoreRegistry().get("Docs copy")]))
    assert [e.chunk.text for e in copy.excerpts] == [e.chunk.text for e in original.excerpts]
    assert copy.excerpts

    # the imported source is a proposal: the banner says so, Review… opens the usual review
    banner = tab.review_banner
    assert banner.isVisible() and "not reviewed on this computer" in banner.text.text()
    status = tab.source_view.model().index(0, STATUS_COLUMN).data()
    # not read here yet: no READY from the other machine, only what it needs
    assert str(docs) in banner.text.text() and status == "NEEDS REVIEW"
    assert not tab.rebuild_button.isEnabled()  # a rebuild would read it without a review
    assert "Its sources wait for your review (Review…)." in tab.status_line.text()
    tab.source_view.selectRow(0)
    assert not tab.sync_action.isEnabled()  # never watched before its review
    review = review_from_banner(qtbot, tab)
    assert f"{docs} came with an imported store: this is its first review on this computer." in (
        review
    )
    assert not any(s.needs_review for s in StoreRegistry().get("Docs copy").sources)


def test_watch_and_sync_automatically_from_the_context_menu(
    qtbot: QtBot, chooser: FixedChooser, docs: Path, starter_model: InstalledModel
) -> None:
    """The source's context menu switches it to automatic sync: the window's watcher follows at
    once, and an edit is indexed without a review (real file-system events, the real model);
    switched off, the source is no longer watched."""
    window = MainWindow(chooser=chooser, watch=True)
    qtbot.addWidget(window)
    window.show()
    try:
        tab = tab_with_store(window, starter_model)
        folder = docs / "kitchen"
        add_folder_and_index(qtbot, window, chooser, folder)
        tab.select_source(str(folder))
        assert tab.sync_action in tab.source_view.actions() and not tab.sync_action.isChecked()
        assert window.watcher is not None and window.watcher.watched == []
        (folder / "pasta.txt").write_text("Fresh pasta needs semolina and eggs.\n")  # while manual
        caught_up = Outcome(qtbot, tab, "index_finished")
        said: list[str] = []
        tab.status_changed.connect(said.append)
        qtbot.waitUntil(tab.sync_action.isEnabled)  # the indexing job has handed the store back
        tab.sync_action.trigger()  # checks it, and catches up with what changed meanwhile
        first: Any = caught_up.wait(timeout=120_000)
        assert (first.indexed, first.unchanged) == (1, 1)
        source = StoreRegistry().get("Docs").sources[0]
        assert source.sync_mode is SyncMode.AUTO
        assert any(text.startswith(f"{folder} is watched now") for text in said)
        assert window.watcher.watched == [(StoreRegistry().get("Docs").id, source.id)]
        assert tab.sync_action.isChecked()
        outcome = Outcome(qtbot, tab, "index_finished")  # a fresh one: the catch-up is counted
        (folder / "sourdough.txt").write_text("Rye starter smells of green apples.\n")
        summary: Any = outcome.wait(timeout=120_000)
        assert summary.indexed == 1
        found = tab.workspace.search(
            SearchRequest("rye starter green apples", [StoreRegistry().get("Docs")])
        )
        assert any("green apples" in e.chunk.text for e in found.excerpts)
        tab.select_source(str(folder))
        tab.sync_action.trigger()  # unchecks it
        assert StoreRegistry().get("Docs").sources[0].sync_mode is SyncMode.MANUAL
        assert window.watcher.watched == []
        # a change the watcher saw just before is not indexed unreviewed once it is manual
        (folder / "pasta.txt").write_text("Dried pasta keeps for a year.\n")
        late: list[object] = []
        tab.index_finished.connect(late.append)
        window.refresh_due.emit(StoreRegistry().get("Docs").id, [source.id])
        qtbot.waitUntil(lambda: not tab.runner.busy(StoreRegistry().get("Docs").id), timeout=60_000)
        assert late == []
    finally:
        window.shutdown()


def test_import_from_kortty_leaves_each_review_to_the_banner(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    docs: Path,
    starter_model: InstalledModel,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """File → Import from korTTY… creates the store without reading its sources (a hidden one is
    refused, the autonomous opt-in switched off); the store's banner offers Review…, and only that
    review's confirmation indexes them (docs/DESIGN.md §14)."""
    from tests.helpers.kortty_writer import source_entry, store_entry, write_registry

    monkeypatch.setenv("HOME", str(tmp_path))
    hidden = tmp_path / ".config" / "gh"
    hidden.mkdir(parents=True)
    (hidden / "hosts.yml").write_text("oauth_token: gho_secret\n")
    entry = store_entry(
        "store-1",
        "Research",
        None,
        "another-model",
        384,
        [
            source_entry("s-gh", hidden, automatic=True),
            source_entry("s-docs", docs, automatic=True),
        ],
    )
    entry["store"]["autonomousEnabled"] = True
    kortty = tmp_path / "kortty"
    write_registry(kortty, [entry])
    tab = window.stores_tab
    chooser.next_kortty = str(kortty)
    with qtbot.waitSignal(window.backup.ended, timeout=120_000):
        window.backup.kortty_action.trigger()
    qtbot.waitUntil(lambda: tab.current_store() is not None)
    store = StoreRegistry().get("Research")
    (source,) = store.sources
    assert source.path == str(docs) and source.needs_review and source.sync_mode is SyncMode.MANUAL
    assert not store.roles.autonomous and source.counts.chunks == 0
    window.status.summary_button.click()
    box = window.status.summary_box
    assert isinstance(box, QMessageBox)
    assert "1 source waits for your review: select Research and press Review… there" in box.text()
    assert "hidden file or folder (.config)" in box.informativeText()
    box.close()
    banner = tab.review_banner
    qtbot.waitUntil(banner.isVisible)
    assert str(docs) in review_from_banner(qtbot, tab)
    (source,) = StoreRegistry().get("Research").sources
    assert not source.needs_review and source.counts.chunks > 0
