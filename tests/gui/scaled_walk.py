"""The main flows in German at 200 % (run by tests/gui/test_scaling.py in a process of its own, with
QT_SCALE_FACTOR=2 on an offscreen screen of 1920×1080 pixels: 960×540 for the layout, what a laptop
at 200 % offers). Not collected by the normal suite: its name does not start with ``test_``.

Every window of the main flows must fit the screen, and every label and button must get the size
its text needs (its size hint; the height for its width when it wraps). Each window is saved as a
PNG (at 2× its layout size) to $KORTTY_SCREENSHOTS for a person to look at.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.gui.main_flows import walk_main_flows

from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui import i18n
from kortty_rag.gui.main_window import MainWindow

SCREENSHOTS = Path(os.environ.get("KORTTY_SCREENSHOTS", "scaled-screenshots"))


def clipped(window: QWidget) -> list[str]:
    """Labels and buttons under ``window`` that show less than their text needs."""
    found = []
    for widget in [window, *window.findChildren(QWidget)]:
        if not widget.isVisible():
            continue
        if isinstance(widget, QLabel) and widget.text():
            if widget.wordWrap():
                need = widget.heightForWidth(widget.width())
                if widget.height() + 1 < need:
                    found.append(
                        f"{widget.objectName() or 'label'} {widget.text()[:60]!r}: height "
                        f"{widget.height()} < {need} at width {widget.width()}"
                    )
            elif widget.width() + 1 < widget.sizeHint().width():
                found.append(
                    f"{widget.objectName() or 'label'} {widget.text()[:60]!r}: width "
                    f"{widget.width()} < {widget.sizeHint().width()}"
                )
        elif isinstance(widget, QAbstractButton) and widget.text():
            hint = widget.sizeHint()
            if widget.width() + 1 < hint.width() or widget.height() + 1 < hint.height():
                found.append(
                    f"{widget.objectName() or 'button'} {widget.text()!r}: "
                    f"{widget.width()}×{widget.height()} < {hint.width()}×{hint.height()}"
                )
    return found


@pytest.fixture
def window(qtbot: QtBot, german: i18n.Translations) -> Iterator[MainWindow]:
    win = MainWindow(chooser=FixedChooser(), watch=False)
    qtbot.addWidget(win)
    win.show()  # at the size it chooses for itself on this screen
    qtbot.waitExposed(win)
    yield win
    win.shutdown()


def test_walk_at_200_percent(
    qtbot: QtBot, window: MainWindow, starter_model: InstalledModel, tmp_path: Path
) -> None:
    screen = QGuiApplication.primaryScreen()
    assert screen.devicePixelRatio() == 2.0, "QT_SCALE_FACTOR=2 was not in effect"
    available = screen.availableGeometry().size()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    shots: list[str] = []

    def visit(name: str, shown: QWidget) -> None:
        qtbot.wait(50)  # layouts settle
        minimum = shown.minimumSizeHint().expandedTo(shown.minimumSize())
        if minimum.width() > available.width() or minimum.height() > available.height():
            problems.append(
                f"{name}: needs at least {minimum.width()}×{minimum.height()}, the screen "
                f"has {available.width()}×{available.height()}"
            )
        if shown.width() > available.width() or shown.height() > available.height():
            problems.append(
                f"{name}: opens at {shown.width()}×{shown.height()}, larger than the screen "
                f"({available.width()}×{available.height()})"
            )
        problems.extend(f"{name}: {problem}" for problem in clipped(shown))
        file = SCREENSHOTS / f"{len(shots):02d}-{name.replace(' ', '-').replace('/', '')[:40]}.png"
        image = shown.grab()
        assert image.devicePixelRatio() == 2.0
        image.save(str(file))
        shots.append(str(file))

    walk_main_flows(qtbot, window, window.chooser, tmp_path / "notizen", visit)  # type: ignore[arg-type]
    (SCREENSHOTS / "walk.json").write_text(json.dumps({"shots": shots, "problems": problems}))
    assert problems == [], "\n".join(problems)
