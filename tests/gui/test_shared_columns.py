"""Columns share a table's width (issue 29, points 4 and 5): every column stays in view without
sideways scrolling, a short column keeps what it needs, and long columns are cut only as far as
they must — not a reason cut beside an empty, wide column. The widths are checked against cases
worked out by hand, and on the real source table in German at 800×600."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QStyle, QTableWidget, QTableWidgetItem
from pytestqt.qtbot import QtBot

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui import i18n
from kortty_rag.gui.main_window import MainWindow
from kortty_rag.gui.shared_columns import MIN_SHARE, SharedColumns, shares
from kortty_rag.models import Source, SourceCounts, SourceKind, SourceStatus


def test_columns_that_fit_get_what_they_need_and_the_rest_goes_to_the_growing_one() -> None:
    assert shares({0: 300, 1: 50, 2: 80}, 600, grow=(0,)) == {0: 470, 1: 50, 2: 80}
    assert shares({0: 100, 1: 100}, 301, grow=(0, 1)) == {0: 151, 1: 150}


def test_when_they_do_not_fit_the_short_keep_their_width_and_the_long_share_the_rest() -> None:
    assert shares({0: 300, 1: 50, 2: 80}, 300) == {0: 170, 1: 50, 2: 80}
    # a long path and a long reason beside a count: the count whole, the two long ones even
    assert shares({0: 500, 4: 400, 1: 50}, 450) == {0: 200, 1: 50, 4: 200}
    # never below the floor, even when that means the table must scroll after all
    assert shares({0: 500, 1: 500}, 60) == {0: MIN_SHARE, 1: MIN_SHARE}


def test_a_long_reason_is_not_cut_while_another_column_has_room(qtbot: QtBot) -> None:
    table = QTableWidget(1, 3)
    qtbot.addWidget(table)
    table.setHorizontalHeaderLabels(["Path", "Status", "Reason"])
    reason = "deleted since the last index: its chunks are removed"
    for column, text in enumerate(["/home/a/notes/a.md", "REMOVED", reason]):
        table.setItem(0, column, QTableWidgetItem(text))
    SharedColumns(table, grow=(0,))
    table.resize(900, 200)
    table.show()
    qtbot.waitUntil(lambda: table.horizontalHeader().sectionSize(0) > 0)
    qtbot.wait(50)
    header = table.horizontalHeader()
    assert header.sectionSize(2) >= table.sizeHintForColumn(2)  # the reason whole
    assert table.horizontalScrollBar().maximum() == 0


def source_header(window: MainWindow, column: int) -> object:
    return window.stores_tab.sources.headerData(
        column, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole
    )


def test_the_source_table_in_german_at_800_by_600_needs_no_sideways_scrolling(
    qtbot: QtBot, german: i18n.Translations, starter_model: InstalledModel
) -> None:
    store = StoreRegistry().create("Garten", starter_model.identity())
    window = MainWindow(watch=False)
    qtbot.addWidget(window)
    try:
        window.resize(800, 600)
        window.show()
        window.stores_tab.reload(select_id=store.id)
        source = Source(
            id="s1",
            path="/home/anna/Dokumente/Projekte/Gartenplanung/Notizen und Skizzen",
            kind=SourceKind.FOLDER,
            status=SourceStatus.READY,
            counts=SourceCounts(files=1234, chunks=56789, skipped=12, issues=3),
            last_indexed_at="2026-12-03T10:11:12+00:00",
        )
        view = window.stores_tab.source_view
        window.stores_tab.sources.set_rows([source])
        qtbot.waitUntil(lambda: view.isVisible() and view.horizontalHeader().sectionSize(0) > 0)
        qtbot.wait(100)
        header = view.horizontalHeader()
        assert view.horizontalScrollBar().maximum() == 0
        for column in range(header.count()):  # every header in view and readable
            if not header.isSectionHidden(column) and column != 0:
                assert header.sectionSize(column) >= min(header.sectionSizeHint(column), MIN_SHARE)
        # every label whole, on two lines where it must: laid out by Qt's own word wrap in its
        # section (less the header's margins), it needs no more width than that and no more
        # height than the header has
        margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        metrics = header.fontMetrics()
        two_lines = False
        for column in range(header.count()):
            if header.isSectionHidden(column):
                continue
            label = str(source_header(window, column))
            room = header.sectionSize(column) - 2 * margin
            if column == header.sortIndicatorSection():
                room -= metrics.height() + margin  # the arrow's place
            laid = metrics.boundingRect(QRect(0, 0, room, 1000), Qt.TextFlag.TextWordWrap, label)
            assert laid.width() <= room, label
            assert laid.height() <= header.height() - margin, label
            two_lines |= laid.height() > metrics.height()
        assert two_lines  # in German at 800×600 some labels need their second line
        last = header.count() - 1
        assert header.sectionViewportPosition(last) + header.sectionSize(last) <= (
            view.viewport().width()
        )
    finally:
        window.shutdown()
