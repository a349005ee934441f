"""The desktop app's main flows, walked with real widgets, the real core and the starter model, so
a test can look at every window they open: the first screen and the three tabs, Create (plain and
Advanced), the model wizard, the review (with every kind of skip), the finished notice and its
summary, the scan report, Test search (with and without an answer), the profile editor (both
backends), the confirmations (remove, rebuild, delete), the MCP folders, Check stores, About, an
error box and Qt's own file dialog.

``walk_main_flows(qtbot, window, chooser, folder, visit)`` calls ``visit(name, window)`` for each
window while it is open; the test decides what to check.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.gui.test_stores_tab import Outcome, message_box

from kortty_rag.gui import i18n
from kortty_rag.gui.dialogs.test_search import TestSearchDialog
from kortty_rag.gui.file_dialogs import file_dialog
from kortty_rag.gui.main_window import MainWindow

Visit = Callable[[str, QWidget], None]


@pytest.fixture(name="window")
def german_main_window(qtbot: QtBot, german: i18n.Translations) -> Iterator[MainWindow]:
    """The main window in German (KORTTY_LANG=de), shown, with a chooser that answers for the user."""
    win = MainWindow(chooser=FixedChooser(), watch=False)
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.shutdown()


#: the store and the folder of the walk (German words, so that data is not taken for English)
STORE = "Notizen"
NOTES = (
    "Die Gezeiten im Hafen steigen und fallen zweimal am Tag. Bei Springflut steht das Wasser "
    "am höchsten, bei Nippflut am niedrigsten."
)


def german_notes(folder: Path) -> Path:
    """A folder with notes to index and one file of every kind the review skips."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(3):
        (folder / f"notiz{i}.md").write_text(f"# Notiz {i}\n\n{NOTES}\n" * 4, encoding="utf-8")
    (folder / ".versteckt.md").write_text("versteckt", encoding="utf-8")  # hidden
    (folder / ".gitignore").write_text("ignoriert.md\n", encoding="utf-8")
    (folder / "ignoriert.md").write_text("ignoriert", encoding="utf-8")  # ignored
    (folder / "leer.txt").write_text("", encoding="utf-8")  # empty
    (folder / "bild.jpg").write_bytes(b"\xff\xd8\xff\xe0" + bytes(64))  # unsupported
    (folder / "kaputt.txt").write_bytes(b"Text\x00mit NUL")  # a problem: binary
    (folder / "latin.txt").write_bytes("Grüße".encode("latin-1"))  # a problem: not UTF-8
    return folder


def _top(kind: type[QWidget], name: str = "") -> QWidget | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, kind) and widget.isVisible() and name in ("", widget.objectName()):
            return widget
    return None


def _box(qtbot: QtBot, name: str) -> QMessageBox:
    qtbot.waitUntil(lambda: message_box(name) is not None, timeout=30_000)
    box = message_box(name)
    assert box is not None
    return box


def _close(qtbot: QtBot, widget: QWidget) -> None:
    if isinstance(widget, QDialog):
        widget.reject()
    widget.close()
    qtbot.waitUntil(lambda: not widget.isVisible(), timeout=10_000)


def walk_main_flows(
    qtbot: QtBot, window: MainWindow, chooser: FixedChooser, folder: Path, visit: Visit
) -> None:
    tab = window.stores_tab
    # the first screen (the starter model is installed: Create opens at once)
    window.tabs.setCurrentIndex(0)
    visit("first screen", window)
    for index in (1, 2):
        window.tabs.setCurrentIndex(index)
        visit(f"tab {index}", window)
    window.tabs.setCurrentIndex(0)

    # Create, plain and Advanced; then the review of a folder with every kind of skip
    tab.first_store_button.click()
    create = tab.create_dialog
    assert create is not None and create.isVisible()
    visit("create", create)
    create.advanced_toggle.setChecked(True)
    visit("create advanced", create)
    create.advanced_toggle.setChecked(False)
    create.name_edit.setText(STORE)
    chooser.next_folder = str(german_notes(folder))
    create._add_folder()
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
        create.create_button.click()
    qtbot.waitUntil(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    review = tab.review_dialog
    assert review is not None
    visit("review", review)
    outcome = Outcome(qtbot, tab, "index_finished")
    review.index_button.click()
    outcome.wait()
    tab.select_source(str(folder))
    visit("stores after indexing", window)

    window.status.show_summary()
    summary = window.status.summary_box
    assert summary is not None
    visit("summary", summary)
    _close(qtbot, summary)

    tab.show_scan_report()
    report = tab.report_dialog
    assert report is not None and report.isVisible()
    visit("scan report", report)
    _close(qtbot, report)

    # Test search: an answer, then a question the notes cannot answer
    tab.open_test_search()
    qtbot.waitUntil(lambda: _top(TestSearchDialog) is not None)
    search = _top(TestSearchDialog)
    assert isinstance(search, TestSearchDialog)
    visit("test search (empty)", search)
    for question in ("Wann steht das Wasser im Hafen am höchsten?", "Rezept für Apfelkuchen"):
        qtbot.waitUntil(lambda: not search.busy, timeout=120_000)  # the last search has ended
        search.query_edit.setText(question)
        with qtbot.waitSignal(search.searched, timeout=120_000):
            search.search_button.click()
        visit(f"test search: {question}", search)
    _close(qtbot, search)

    # the confirmations: each asked, then cancelled
    tab.remove_source()
    box = _box(qtbot, "confirmBox")
    visit("confirm remove", box)
    box.reject()
    tab.rebuild_store()
    box = _box(qtbot, "confirmBox")
    visit("confirm rebuild", box)
    box.reject()
    tab.delete_store()
    box = _box(qtbot, "confirmBox")
    visit("confirm delete", box)
    box.reject()

    # an error box: a folder that is not there
    chooser.next_folder = str(folder.parent / "fehlt")
    tab.add_folder()
    box = _box(qtbot, "errorBox")
    visit("error", box)
    box.accept()

    # the model wizard, opened from the Models tab
    window.tabs.setCurrentIndex(2)
    window.models_tab.setup_button.click()
    qtbot.waitUntil(lambda: _top(QDialog, "modelWizard") is not None)
    wizard = _top(QDialog, "modelWizard")
    assert wizard is not None
    visit("model wizard", wizard)
    _close(qtbot, wizard)

    # the profiles tab with the store, the profile editor (both backends), the MCP folders
    window.tabs.setCurrentIndex(1)
    profiles = window.profiles_tab
    profiles.reload()
    visit("profiles with a store", window)
    profiles.add_profile()
    editor = profiles.editor
    assert editor is not None and editor.isVisible()
    for row in range(editor.backend_combo.count()):
        editor.backend_combo.setCurrentIndex(row)
        visit(f"profile editor {row}", editor)
    _close(qtbot, editor)
    profiles.store_table.setCurrentCell(0, 0)
    profiles.open_mcp_folders()
    mcp = profiles.mcp_dialog
    assert mcp is not None and mcp.isVisible()
    visit("mcp folders", mcp)
    _close(qtbot, mcp)
    window.tabs.setCurrentIndex(0)

    # Check stores, About
    window.check_stores()
    check = window.check_dialog
    assert check is not None
    qtbot.waitUntil(lambda: not window.runner.busy("check-stores"), timeout=120_000)
    qtbot.waitUntil(check.again_button.isEnabled, timeout=120_000)
    visit("check stores", check)
    _close(qtbot, check)
    window.show_about()
    about = window.about_box
    assert about is not None
    visit("about", about)
    about.accept()

    # Qt's own file dialog (not the platform's), as Add folder… opens it
    dialog = file_dialog(window, "x", QFileDialog.FileMode.Directory, directory=str(folder))
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    dialog.open()
    qtbot.waitUntil(dialog.isVisible)
    dialog.setWindowTitle("")
    visit("Qt file dialog", dialog)
    _close(qtbot, dialog)
