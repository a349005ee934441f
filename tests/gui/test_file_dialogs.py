"""Qt's own file dialog speaks the app's language in its dates and sizes too (issue 29, point 10):
a file's date reads "07.12.26" in German whatever the system's locale is, and the Type column is
as wide as its words. The expected texts are written here by hand, not computed with QLocale."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QModelIndex,
    QSettings,
    QStandardPaths,
)
from PySide6.QtWidgets import QFileDialog, QTreeView, QWidget
from pytestqt.qtbot import QtBot

from kortty_rag.gui import i18n
from kortty_rag.gui.file_dialogs import DATE_COLUMN, SIZE_COLUMN, TYPE_COLUMN, file_dialog


def _rows(
    qtbot: QtBot, parent: QWidget, folder: Path
) -> tuple[QFileDialog, QTreeView, Callable[[str, int], str]]:
    dialog = file_dialog(parent, "Add files", QFileDialog.FileMode.ExistingFiles)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    dialog.setViewMode(QFileDialog.ViewMode.Detail)
    dialog.setDirectory(str(folder))
    dialog.open()
    view = dialog.findChild(QTreeView, "treeView")
    assert view is not None
    model = view.model()

    def names() -> dict[str, QModelIndex]:
        root = view.rootIndex()
        found = {}
        for row in range(model.rowCount(root)):
            index = model.index(row, 0, root)
            found[str(index.data())] = index
        return found

    def cell(name: str, column: int) -> str:
        """The text of ``name``'s cell in ``column``, looked up afresh (the model sorts rows)."""
        return str(names()[name].siblingAtColumn(column).data() or "")

    qtbot.waitUntil(lambda: {"notes.txt", "archive"} <= set(names()), timeout=10_000)
    qtbot.waitUntil(lambda: cell("notes.txt", DATE_COLUMN) != "", timeout=10_000)
    return dialog, view, cell


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "files"
    (folder / "archive").mkdir(parents=True)
    note = folder / "notes.txt"
    note.write_bytes(b"x" * 3000)
    stamp = datetime(2026, 12, 7, 14, 30).timestamp()
    os.utime(note, (stamp, stamp))
    return folder


@pytest.fixture
def parent(tmp_path: Path) -> Iterator[QWidget]:
    """The dialogs' parent; Qt's dialog saves its settings for every program (QtProject.conf),
    here into the test's folder, when it is destroyed with its parent after the test."""
    location = QStandardPaths.StandardLocation.GenericConfigLocation
    default = QStandardPaths.writableLocation(location)
    scope = (QSettings.Format.NativeFormat, QSettings.Scope.UserScope)
    QSettings.setPath(*scope, str(tmp_path / "config"))
    widget = QWidget()
    try:
        yield widget
    finally:
        widget.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        QSettings.setPath(*scope, default)


def test_dates_and_sizes_in_german(
    qtbot: QtBot, parent: QWidget, tmp_path: Path, german: i18n.Translations
) -> None:
    dialog, view, cell = _rows(qtbot, parent, _folder(tmp_path))
    date = cell("notes.txt", DATE_COLUMN)
    assert date.startswith("07.12.26") and "14:30" in date
    size = cell("notes.txt", SIZE_COLUMN)
    assert size.endswith("KiB") and "," in size  # 2,93 KiB: the German decimal comma
    assert cell("archive", SIZE_COLUMN) == ""  # a folder has no size
    # the Type column is as wide as the word for a folder (it was cut to "Ver…nis")
    kind = cell("archive", TYPE_COLUMN)
    header = view.header()
    qtbot.waitUntil(
        lambda: header.sectionSize(TYPE_COLUMN) > view.fontMetrics().horizontalAdvance(kind),
        timeout=5_000,
    )
    assert header.length() <= view.viewport().width()  # and no sideways scrolling
    dialog.reject()
    # Qt saves its dialog's header for every program: it is saved as Qt's own dialog has it
    plain = QFileDialog(parent, "plain")
    plain.setOption(QFileDialog.Option.DontUseNativeDialog)
    plain_view = plain.findChild(QTreeView, "treeView")
    assert plain_view is not None
    qt_header = plain_view.header()
    assert header.stretchLastSection() == qt_header.stretchLastSection()
    assert header.defaultAlignment() == qt_header.defaultAlignment()
    assert [header.sectionResizeMode(c) for c in range(4)] == [
        qt_header.sectionResizeMode(c) for c in range(4)
    ]
    plain.deleteLater()


def test_dates_in_english(qtbot: QtBot, parent: QWidget, tmp_path: Path) -> None:
    dialog, _view, cell = _rows(qtbot, parent, _folder(tmp_path))
    date = cell("notes.txt", DATE_COLUMN)
    assert date.startswith("12/7/26") and "2:30" in date and "PM" in date
    dialog.reject()
