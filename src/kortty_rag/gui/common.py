"""Small shared pieces of the GUI: error and confirmation boxes, file choosers, status texts.

Message boxes are opened window-modal with ``open()`` (never ``exec()``): the event loop keeps running,
so background jobs keep reporting and tests can find and press the buttons of a real box.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QWidget,
)

from kortty_rag.app.diagnostics import log_folder, log_unexpected
from kortty_rag.errors import KorttyRagError
from kortty_rag.gui.hints import gui_hint

GENERIC_NEXT_STEP = (
    "Try again. If it keeps happening, Show Details… has the full error, and the log folder keeps "
    "it for later (for a bug report)."
)
OPEN_LOG_FOLDER = "Open log folder"


def what_to_do(exc: BaseException) -> str:
    """The error's hint in the app's words (its buttons, not commands), or a general next step."""
    if isinstance(exc, KorttyRagError) and exc.hint:
        return gui_hint(exc.hint)
    return GENERIC_NEXT_STEP


def show_error(parent: QWidget, title: str, exc: BaseException) -> QMessageBox:
    """Says what happened and what to do next. An error nobody raised on purpose (a bug) is
    logged with its traceback, which the box shows under Show Details…, next to a button that
    opens the log folder."""
    expected = isinstance(exc, KorttyRagError)
    message = (
        gui_hint(exc.message) if isinstance(exc, KorttyRagError) else f"{type(exc).__name__}: {exc}"
    )
    box = QMessageBox(
        QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, parent
    )
    box.setObjectName("errorBox")
    box.setInformativeText(f"What to do: {what_to_do(exc)}")
    if not expected:
        box.setDetailedText(log_unexpected(title, exc))
        folder = box.addButton(OPEN_LOG_FOLDER, QMessageBox.ButtonRole.ActionRole)
        folder.clicked.connect(open_log_folder)
    box.open()
    return box


def open_log_folder() -> None:
    folder = log_folder()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))


def show_info(parent: QWidget, title: str, text: str, detail: str = "") -> QMessageBox:
    box = QMessageBox(
        QMessageBox.Icon.Information, title, text, QMessageBox.StandardButton.Ok, parent
    )
    box.setObjectName("infoBox")
    if detail:
        box.setInformativeText(detail)
    box.open()
    return box


def confirm(
    parent: QWidget,
    title: str,
    text: str,
    detail: str,
    on_yes: Callable[[], object],
    *,
    yes_text: str = "OK",
) -> QMessageBox:
    """Ask first; ``on_yes`` runs only when the user confirms."""
    box = QMessageBox(
        QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.NoButton, parent
    )
    box.setObjectName("confirmBox")
    box.setInformativeText(detail)
    yes = box.addButton(yes_text, QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)

    def finished() -> None:
        if box.clickedButton() is yes:
            on_yes()

    box.finished.connect(finished)
    box.open()
    return box


class PathChooser:
    """File and folder choosers; a test replaces these with fixed answers."""

    def files(self, parent: QWidget) -> list[str]:
        names, _ = QFileDialog.getOpenFileNames(parent, "Add files")
        return list(names)

    def folder(self, parent: QWidget) -> str | None:
        name = QFileDialog.getExistingDirectory(parent, "Add folder")
        return name or None

    def new_location(self, parent: QWidget, old: str, *, folder: bool) -> str | None:
        """Where a source's folder (or file) is now."""
        title = f"New location of {old}"
        if folder:
            name = QFileDialog.getExistingDirectory(parent, title)
        else:
            name, _ = QFileDialog.getOpenFileName(parent, title)
        return name or None

    def save_archive(self, parent: QWidget, suggested: str) -> str | None:
        """Where an exported store goes."""
        name, _ = QFileDialog.getSaveFileName(
            parent, "Export store", suggested, "kortty-rag archives (*.tar)"
        )
        return name or None

    def archive(self, parent: QWidget) -> str | None:
        """An exported store to import."""
        name, _ = QFileDialog.getOpenFileName(
            parent, "Import store", "", "kortty-rag archives (*.tar);;All files (*)"
        )
        return name or None

    def kortty_folder(self, parent: QWidget) -> str | None:
        """korTTY's data folder (the one holding rag/stores.json), ~/.kortty by default."""
        name = QFileDialog.getExistingDirectory(
            parent, "korTTY's data folder", str(Path.home() / ".kortty")
        )
        return name or None

    def gguf(self, parent: QWidget) -> str | None:
        name, _ = QFileDialog.getOpenFileName(
            parent, "Import GGUF file", "", "GGUF models (*.gguf)"
        )
        return name or None


def keyboard_friendly(root: QWidget) -> None:
    """Everything under ``root`` works from the keyboard the way people expect: Tab moves on from a
    table or list to the next control (arrows move inside it) instead of walking its cells, and
    Enter presses the focused button — also outside dialogs, where Qt leaves that off."""
    for view in root.findChildren(QAbstractItemView):
        view.setTabKeyNavigation(False)
    for text in root.findChildren(QTextEdit):
        text.setTabChangesFocus(True)  # a Tab typed into text is rarely wanted here
    for plain in root.findChildren(QPlainTextEdit):
        plain.setTabChangesFocus(True)
    for button in root.findChildren(QPushButton):
        button.setAutoDefault(True)


def set_tab_order(widgets: Iterable[QWidget]) -> None:
    """Keyboard focus moves through ``widgets`` in this order."""
    for first, second in itertools.pairwise(widgets):
        QWidget.setTabOrder(first, second)
