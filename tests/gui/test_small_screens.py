"""Small screens and 200 % (issue 29, point 3): the Create dialog with Advanced open stays inside the
screen with its buttons in reach (its fields scroll) and shrinks back when Advanced closes; a window
never hangs off the screen; a dialog opens no larger than the window it belongs to. The 200 % case
runs in a child process with Qt's own ``QT_SCALE_FACTOR=2``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtWidgets import QDialog, QWidget
from pytestqt.qtbot import QtBot

from kortty_rag.gui.common import available_room, keep_inside_screen, resize_within_screen

CHILD = textwrap.dedent(
    """
    import json, sys
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv)
    from kortty_rag.gui import i18n
    i18n.install("en")
    from kortty_rag.app.workspace import Workspace
    from kortty_rag.gui.file_dialogs import PathChooser
    from kortty_rag.gui.dialogs.create_store import CreateStoreDialog

    def seen(dialog):
        room = dialog.screen().availableGeometry()
        frame = dialog.frameGeometry()
        button = dialog.create_button
        corner = button.mapToGlobal(button.rect().bottomRight())
        return {
            "inside": room.contains(frame),
            "button_inside": room.contains(corner) and button.isVisible(),
            "height": dialog.height(),
            "scrolls": dialog.fields_view.verticalScrollBar().maximum() > 0,
            "content_width": dialog.fields_view.widget().width(),
            "content_needs": dialog.fields_view.widget().minimumSizeHint().width(),
        }

    dialog = CreateStoreDialog(Workspace(), PathChooser())
    dialog.show()
    app.processEvents()
    closed = seen(dialog)
    dialog.advanced_toggle.setChecked(True)
    app.processEvents()
    opened = seen(dialog)
    dialog.advanced_toggle.setChecked(False)
    app.processEvents()
    again = seen(dialog)
    print(json.dumps({"scale": dialog.devicePixelRatioF(), "closed": closed, "opened": opened,
                      "again": again}))
    """
)


def test_create_with_advanced_open_at_200_percent_keeps_its_buttons_in_reach(
    tmp_path: Path,
) -> None:
    env = dict(
        os.environ, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR="2", KORTTY_HOME=str(tmp_path)
    )
    result = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["scale"] == 2.0
    for state in ("closed", "opened", "again"):
        assert seen[state]["inside"] and seen[state]["button_inside"], seen
        assert seen[state]["content_width"] >= seen[state]["content_needs"], seen  # nothing cut
    assert seen["opened"]["scrolls"]  # more fields than screen: they scroll, the buttons stay
    assert seen["again"]["height"] == seen["closed"]["height"]  # it shrinks back


def test_a_window_off_the_screen_is_moved_back_onto_it(qtbot: QtBot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    room = available_room(window)
    window.resize(400, 300)
    window.show()
    window.move(room.right() - 100, room.bottom() - 50)  # a place saved on a larger screen
    keep_inside_screen(window)
    assert room.contains(window.frameGeometry())


def test_a_dialog_opens_no_larger_than_its_window(qtbot: QtBot) -> None:
    owner = QWidget()
    qtbot.addWidget(owner)
    owner.resize(600, 450)
    owner.show()
    dialog = QDialog(owner)
    resize_within_screen(dialog, 1250, 720)  # Test search's preferred size
    assert (dialog.width(), dialog.height()) == (600, 450)
