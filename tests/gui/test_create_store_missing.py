"""The Create dialog says what to do about each missing field, in its own words, and hands the
keyboard to the first of them (found by hand: a store without sources was told "Fill in the
missing fields")."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from kortty_rag.app.workspace import Workspace
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui.dialogs.create_store import CreateStoreDialog
from kortty_rag.gui.file_dialogs import PathChooser


def error_box() -> QMessageBox | None:
    for widget in QApplication.topLevelWidgets():
        if (
            isinstance(widget, QMessageBox)
            and widget.objectName() == "errorBox"
            and widget.isVisible()
        ):
            return widget
    return None


def test_a_store_without_sources_is_told_to_add_a_folder_or_files(
    qtbot: QtBot, starter_model: InstalledModel
) -> None:
    dialog = CreateStoreDialog(Workspace(), PathChooser())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.name_edit.setText("Garden")
    dialog.create_button.click()
    qtbot.waitUntil(lambda: error_box() is not None)
    box = error_box()
    assert box is not None
    assert box.text() == "The store needs at least one file or folder."
    assert box.informativeText() == (
        "What to do: Add what it makes searchable with Add folder… or Add files…, then press "
        "Create and review… again."
    )
    box.accept()
    qtbot.waitUntil(lambda: error_box() is None)
    qtbot.waitUntil(lambda: dialog.focusWidget() is dialog.add_folder_button)


def test_every_missing_field_is_named_and_the_first_gets_the_keyboard(qtbot: QtBot) -> None:
    dialog = CreateStoreDialog(Workspace(), PathChooser())  # no model installed here
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.create_button.setFocus()  # as if the person had tabbed there
    dialog.create_button.click()
    qtbot.waitUntil(lambda: error_box() is not None)
    box = error_box()
    assert box is not None
    assert box.text() == (
        "The store needs a name, an installed embedding model, and at least one file or folder."
    )
    assert box.informativeText().startswith(
        "What to do: Type a name into Name, choose one under Embedding model, and add what it "
        "makes searchable with Add folder… or Add files…"
    )
    box.accept()
    qtbot.waitUntil(lambda: dialog.focusWidget() is dialog.name_edit)
