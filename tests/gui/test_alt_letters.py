"""An Alt+letter that matches no shortcut does not type into a field (issue 29, point 10): Qt
would put the letter into the Name field of the Create dialog; a real key event through Qt's test
driver, in the real dialog."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kortty_rag.app.workspace import Workspace
from kortty_rag.gui.dialogs.create_store import CreateStoreDialog
from kortty_rag.gui.file_dialogs import PathChooser


def test_a_stray_alt_letter_types_nothing_but_letters_still_type(qtbot: QtBot) -> None:
    dialog = CreateStoreDialog(Workspace(), PathChooser())
    qtbot.addWidget(dialog)
    dialog.show()
    edit = dialog.name_edit
    edit.setFocus()
    qtbot.keyClicks(edit, "Garden")
    qtbot.keyClick(edit, Qt.Key.Key_J, Qt.KeyboardModifier.AltModifier)  # no shortcut has J
    assert edit.text() == "Garden"
    qtbot.keyClicks(edit, "jA")  # without Alt, letters type as always
    assert edit.text() == "GardenjA"
