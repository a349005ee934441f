"""The review table sorts paths as people count: doc2 before doc10 (real model, Qt's own proxy
sort). The expected order is written out, not computed with the product's key."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from pytestqt.qtbot import QtBot

from kortty_rag.gui.table_models import RemovedRow, ReviewTableModel

NAMES = ["doc10.md", "Doc2.md", "doc100.md", "doc1.md", "notes/a-3.txt", "notes/a-20.txt"]


def sorted_paths(column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> list[str]:
    model = ReviewTableModel([RemovedRow(path=f"/r/{n}", rel_path=n) for n in NAMES])
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setSortRole(Qt.ItemDataRole.UserRole)
    proxy.sort(column, order)
    return [proxy.index(row, 0).data() for row in range(proxy.rowCount())]


def test_paths_sort_with_their_numbers_counted(qtbot: QtBot) -> None:
    expected = ["doc1.md", "Doc2.md", "doc10.md", "doc100.md", "notes/a-3.txt", "notes/a-20.txt"]
    assert sorted_paths(0) == expected
    assert sorted_paths(0, Qt.SortOrder.DescendingOrder) == expected[::-1]
    # the default order (changes first) keeps the same order within one status
    assert sorted_paths(ReviewTableModel.CHANGES_FIRST) == expected
