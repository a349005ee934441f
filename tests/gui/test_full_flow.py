"""The beginner flow end to end with real widgets and the real starter model (docs/DESIGN.md §3–§5, §13):
Create with no model installed → model wizard (import the GGUF) → back to Create → add a folder →
review → index → test search."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.gui.test_stores_tab import CORPUS, Outcome
from tests.helpers.pdfs import text_pdf

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import list_models
from kortty_rag.gui.dialogs.test_search import TestSearchDialog
from kortty_rag.gui.main_window import MainWindow


def test_create_wizard_add_review_index_test_search(
    qtbot: QtBot, starter_cache: Path, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(CORPUS, docs)
    text_pdf(docs / "reefs.pdf", ["Deserts are dry places.", "Coral reefs grow in warm seas."])
    gguf = tmp_path / "minilm.gguf"
    shutil.copyfile(next((starter_cache / "models").glob("*/model.gguf")), gguf)
    chooser = FixedChooser()
    window = MainWindow(chooser=chooser, watch=False)
    qtbot.addWidget(window)
    window.show()
    tab = window.stores_tab
    try:
        assert list_models() == []
        # the first screen: what a store is, and the one button to press
        assert tab.pages.currentWidget() is tab.welcome and tab.starter_button.isVisible()
        qtbot.mouseClick(tab.first_store_button, Qt.MouseButton.LeftButton)
        wizard = tab.model_wizard  # no model yet: the wizard opens, embedding role preselected
        assert wizard.isVisible() and "Embedding" in wizard.role_combo.currentText()
        chooser.next_gguf = str(gguf)
        with qtbot.waitSignal(wizard.installed, timeout=120_000):
            qtbot.mouseClick(wizard.import_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(
            lambda: (
                getattr(tab, "create_dialog", None) is not None and tab.create_dialog.isVisible()
            )
        )
        create = tab.create_dialog  # back to Create, with the new model selectable
        assert create.model_combo.count() == 1
        create.name_edit.setText("Library")
        chooser.next_folder = str(docs)
        qtbot.mouseClick(
            create.findChild(type(tab.create_button), "dialogAddFolderButton"),
            Qt.MouseButton.LeftButton,
        )
        with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
            qtbot.mouseClick(create.create_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
        assert tab.review_dialog is not None
        outcome = Outcome(qtbot, tab, "index_finished")
        qtbot.mouseClick(tab.review_dialog.index_button, Qt.MouseButton.LeftButton)
        summary = outcome.wait()
        assert summary.indexed == 11  # type: ignore[attr-defined]
        assert tab.status.summary_button.isVisible()  # a notice, not a box over the window
        assert [s.name for s in StoreRegistry().list()] == ["Library"]
        assert tab.pages.currentWidget() is tab.stores_page  # the list, now that a store exists

        qtbot.mouseClick(tab.search_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(
            lambda: any(
                isinstance(w, TestSearchDialog) and w.isVisible()
                for w in QApplication.topLevelWidgets()
            )
        )
        dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, TestSearchDialog))
        dialog.query_edit.setText("underwater colonies in tropical oceans")
        with qtbot.waitSignal(dialog.searched, timeout=120_000) as searched:
            qtbot.mouseClick(dialog.search_button, Qt.MouseButton.LeftButton)
        result = searched.args[0]
        assert result.block.startswith("<retrieved_context>")
        assert "[R1] source: " in result.block and "reefs.pdf, page 2" in result.block
        dialog.close()
    finally:
        window.shutdown()


def test_cancelling_the_first_review_removes_the_new_store(
    qtbot: QtBot, starter_model: object, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(CORPUS / "kitchen", docs)
    chooser = FixedChooser()
    window = MainWindow(chooser=chooser, watch=False)
    qtbot.addWidget(window)
    window.show()
    tab = window.stores_tab
    try:
        qtbot.mouseClick(tab.first_store_button, Qt.MouseButton.LeftButton)
        create = tab.create_dialog
        create.name_edit.setText("Temp")
        chooser.next_folder = str(docs)
        create._add_folder()
        with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
            create.create_button.click()
        qtbot.waitUntil(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
        assert tab.review_dialog is not None
        tab.review_dialog.cancel_button.click()
        qtbot.waitUntil(lambda: StoreRegistry().list() == [])
        assert (docs / "sourdough.txt").exists()
    finally:
        window.shutdown()
