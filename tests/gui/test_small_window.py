"""At 800×600 the essential columns stay in view (issue 13, point 7): no table of the main window,
the review or Test search needs a horizontal scroll bar, paths give way (elided in the middle,
whole in the tooltip), and the profiles table keeps room for several rows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QTableView, QWidget
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.gui.test_first_use import index_folder, notes
from tests.gui.test_stores_tab import tab_with_store

from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui.main_window import MainWindow
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import AiProfile, ProfileRegistry


@pytest.fixture
def small(
    qtbot: QtBot, starter_model: InstalledModel, chooser: FixedChooser
) -> Iterator[MainWindow]:
    win = MainWindow(chooser=chooser, watch=False)
    qtbot.addWidget(win)
    win.resize(800, 600)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.shutdown()


def assert_columns_in_view(table: QTableView) -> None:
    header = table.horizontalHeader()

    def out_of_view() -> list[object]:
        width = table.viewport().width()
        assert width > 0
        return [
            table.model().headerData(i, Qt.Orientation.Horizontal)
            for i in range(header.count())
            if not header.isSectionHidden(i)
            and (
                header.sectionViewportPosition(i) + header.sectionSize(i) > width + 1
                or header.sectionSize(i) < 24
            )
        ]

    # the widths settle within a few turns of the event loop: a header that goes on two lines
    # makes room for a vertical scroll bar, whose width the columns then share again
    for _ in range(100):
        QTest.qWait(10)
        if not out_of_view() and not table.horizontalScrollBar().isVisible():
            break
    width = table.viewport().width()
    hidden_by_scrolling = out_of_view()
    sizes = [header.sectionSize(i) for i in range(header.count())]
    assert hidden_by_scrolling == [], (
        f"{table.objectName()}: {hidden_by_scrolling} out of view (widths {sizes} in {width})"
    )
    assert not table.horizontalScrollBar().isVisible()


def test_the_stores_tab_shows_every_column_at_800_by_600(
    qtbot: QtBot,
    small: MainWindow,
    chooser: FixedChooser,
    tmp_path: Path,
    starter_model: InstalledModel,
) -> None:
    tab = tab_with_store(small, starter_model)
    deep = tmp_path / "a rather long folder name for notes" / "and another level" / "notes"
    index_folder(qtbot, small, chooser, notes(deep))
    assert small.width() <= 800 and small.height() <= 600
    assert_columns_in_view(tab.source_view)
    path_index = tab.proxy.index(0, 0)
    tip = tab.source_view.model().data(path_index, Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith(str(deep)) and "folder source, syncs manual" in tip
    assert tab.source_view.horizontalHeader().sectionSize(0) >= 120  # the path keeps some room

    chooser.next_folder = str(notes(tmp_path / "more", files=2))
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
        tab.add_folder_button.click()
    review = tab.review_dialog
    assert review is not None
    review.resize(780, 560)
    qtbot.waitExposed(review)
    assert_columns_in_view(review.table)
    review.reject()


def test_profiles_and_models_tabs_fit_at_800_by_600(
    qtbot: QtBot, small: MainWindow, starter_model: InstalledModel
) -> None:
    profiles = ProfileRegistry()
    for i in range(4):
        profiles.add(AiProfile(f"P{i}", Backend.OPENAI, "m", endpoint="https://a.example.com"))
    tab_with_store(small, starter_model)
    small.profiles_tab.reload()
    small.tabs.setCurrentWidget(small.profiles_tab)
    QApplication.processEvents()
    table = small.profiles_tab.profile_table
    assert table.viewport().height() >= 3 * table.verticalHeader().defaultSectionSize()
    for widget in small.profiles_tab.findChildren(QWidget):
        if widget.isVisible() and widget.width() > 0:
            assert widget.geometry().right() <= small.profiles_tab.width() + 1
    small.tabs.setCurrentWidget(small.models_tab)
    QApplication.processEvents()
    assert_columns_in_view(small.models_tab.table)


def test_test_search_keeps_paths_readable_at_800_by_600(
    qtbot: QtBot,
    small: MainWindow,
    chooser: FixedChooser,
    tmp_path: Path,
    starter_model: InstalledModel,
) -> None:
    tab = tab_with_store(small, starter_model)
    folder = tmp_path / "project notes"
    index_folder(qtbot, small, chooser, notes(folder))
    tab.open_test_search()
    dialog = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "testSearchDialog")
    dialog.resize(780, 560)
    qtbot.waitExposed(dialog)
    dialog.query_edit.setText("harbour tides")
    with qtbot.waitSignal(dialog.searched, timeout=120_000):
        dialog.search_button.click()
    table = dialog.results_table
    assert table.rowCount() > 0
    assert_columns_in_view(table)
    dialog.resize(1100, 760)  # and at the usual size: the tables get their share of the width
    qtbot.wait(50)
    assert_columns_in_view(table)
    item = table.item(0, 1)
    assert item is not None
    assert item.text().startswith("note")  # relative to the source root, not "/tmp/…"
    assert item.toolTip().startswith(str(folder))
    dialog.close()
