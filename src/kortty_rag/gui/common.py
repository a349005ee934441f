"""Small shared pieces of the GUI: error and confirmation boxes, status texts (file choosers:
:mod:`kortty_rag.gui.file_dialogs`).

Message boxes are opened window-modal with ``open()`` (never ``exec()``): the event loop keeps running,
so background jobs keep reporting and tests can find and press the buttons of a real box.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QWidget,
)

from kortty_rag.app.diagnostics import log_folder, log_unexpected
from kortty_rag.errors import KorttyRagError
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.i18n import translate
from kortty_rag.models import Role


def generic_next_step() -> str:
    """What to do about an error nobody raised on purpose."""
    return translate(
        "Common",
        "Try again. If it keeps happening, Show Details… has the full error, and the log folder "
        "keeps it for later (for a bug report).",
    )


def open_log_folder_text() -> str:
    """The error box's button that opens the log folder."""
    return translate("Common", "Open log folder")


def role_words(role: Role) -> str:
    """A role's name: Text and Coding are names, in every language (korTTY's German too)."""
    if role is Role.TEXT:
        return translate("Roles", "Text")
    return translate("Roles", "Coding")


def what_to_do(exc: BaseException) -> str:
    """The error's hint in the app's words (its buttons, not commands), or a general next step."""
    if isinstance(exc, KorttyRagError) and exc.hint:
        return core_words(exc.hint)
    return generic_next_step()


def error_words(exc: BaseException) -> str:
    """An error in one line in the app's words: what happened — and, for an error raised on
    purpose, what to do (in English the same text as ``str(exc)``)."""
    if not isinstance(exc, KorttyRagError):
        return str(exc)
    if not exc.hint:
        return core_words(exc.message)
    return translate("Common", "{message} — {hint}").format(
        message=core_words(exc.message), hint=core_words(exc.hint)
    )


def show_error(parent: QWidget, title: str, exc: BaseException) -> QMessageBox:
    """Says what happened and what to do next. An error nobody raised on purpose (a bug) is
    logged with its traceback, which the box shows under Show Details…, next to a button that
    opens the log folder."""
    expected = isinstance(exc, KorttyRagError)
    message = (
        core_words(exc.message)
        if isinstance(exc, KorttyRagError)
        else f"{type(exc).__name__}: {exc}"
    )
    box = QMessageBox(
        QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, parent
    )
    box.setObjectName("errorBox")
    box.setInformativeText(translate("Common", "What to do: {step}").format(step=what_to_do(exc)))
    if not expected:
        box.setDetailedText(log_unexpected(title, exc))
        folder = box.addButton(open_log_folder_text(), QMessageBox.ButtonRole.ActionRole)
        folder.setToolTip(
            translate("Common", "Open the folder of the app's logs, which keep this error")
        )
        folder.clicked.connect(lambda: open_log_folder(parent))
    describe_buttons(box)
    box.open()
    return box


def describe_buttons(box: QMessageBox) -> None:
    """Every button of ``box`` says what it does — a screen reader reads the tooltip as its
    description —, also the ones Qt adds itself (OK, Cancel, Show Details…)."""
    for button in box.buttons():
        if button.toolTip():
            continue
        if box.standardButton(button) == QMessageBox.StandardButton.Cancel:
            tip = translate("Common", "Close this question without doing anything")
        elif box.buttonRole(button) == QMessageBox.ButtonRole.ActionRole:
            tip = translate("Common", "Show or hide the details")  # the only one Qt adds
        else:
            tip = translate("Common", "Close this message")
        button.setToolTip(tip)


def open_log_folder(parent: QWidget) -> None:
    folder = log_folder()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    open_folder(parent, folder, open_log_folder_text())


def open_folder(parent: QWidget, folder: Path, title: str) -> QMessageBox | None:
    """``folder`` in the desktop's file manager. Where none could be started (no ``xdg-open``, a
    bare window manager), a box says where the folder is, its path selectable to copy."""
    if QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))):
        return None
    box = show_info(
        parent,
        title,
        translate(
            "Common", "No file manager could be started to show the folder. It is here:\n{folder}"
        ).format(folder=folder),
    )
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return box


def show_info(parent: QWidget, title: str, text: str, detail: str = "") -> QMessageBox:
    box = QMessageBox(
        QMessageBox.Icon.Information, title, text, QMessageBox.StandardButton.Ok, parent
    )
    box.setObjectName("infoBox")
    if detail:
        box.setInformativeText(detail)
    describe_buttons(box)
    box.open()
    return box


def confirm(
    parent: QWidget,
    title: str,
    text: str,
    detail: str,
    on_yes: Callable[[], object],
    *,
    yes_text: str = "",
) -> QMessageBox:
    """Ask first; ``on_yes`` runs only when the user confirms (with ``yes_text``, else "OK")."""
    box = QMessageBox(
        QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.NoButton, parent
    )
    box.setObjectName("confirmBox")
    box.setInformativeText(detail)
    yes = box.addButton(yes_text or translate("Common", "OK"), QMessageBox.ButtonRole.AcceptRole)
    yes.setToolTip(text)  # what it does: the question it answers
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    describe_buttons(box)

    def finished() -> None:
        if box.clickedButton() is yes:
            on_yes()

    box.finished.connect(finished)
    box.open()
    return box


def ask(
    parent: QWidget,
    name: str,
    question: tuple[str, str, str],
    buttons: Sequence[tuple[str, QMessageBox.ButtonRole]],
    answered: Callable[[int | None], object],
    *,
    default: int,
    icon: QMessageBox.Icon = QMessageBox.Icon.Question,
) -> QMessageBox:
    """A window-modal box (object name ``name``) asking ``question`` — its title, text and
    detail — with its own ``buttons``; ``default`` is Enter's button and the Reject one Esc's.
    ``answered`` gets the index of the button pressed (``None`` when the box closed otherwise);
    the box deletes itself afterwards."""
    title, text, detail = question
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.NoButton, parent)
    box.setObjectName(name)
    box.setInformativeText(detail)
    added = [box.addButton(label, role) for label, role in buttons]
    box.setDefaultButton(added[default])
    for button, (_label, role) in zip(added, buttons, strict=True):
        if role is QMessageBox.ButtonRole.RejectRole:
            box.setEscapeButton(button)
    describe_buttons(box)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def finished() -> None:
        chosen = box.clickedButton()
        answered(added.index(chosen) if chosen in added else None)

    box.finished.connect(lambda _result: finished())
    box.open()
    return box


def keyboard_friendly(root: QWidget) -> None:
    """Everything under ``root`` works from the keyboard and with a screen reader the way people
    expect: Tab moves on from a table or list to the next control (arrows move inside it) instead
    of walking its cells, Enter presses the focused button — also outside dialogs, where Qt leaves
    that off — and a field labelled by a buddied label is named by it (Qt does this itself for
    line edits and spin boxes, not for combo boxes, whose name would otherwise be their value)."""
    for view in root.findChildren(QAbstractItemView):
        view.setTabKeyNavigation(False)
    for text in root.findChildren(QTextEdit):
        text.setTabChangesFocus(True)  # a Tab typed into text is rarely wanted here
    for plain in root.findChildren(QPlainTextEdit):
        plain.setTabChangesFocus(True)
    for button in root.findChildren(QPushButton):
        button.setAutoDefault(True)
    for label in root.findChildren(QLabel):
        field = label.buddy()
        if field is not None and not field.accessibleName():
            field.setAccessibleName(plain_label(label.text()))
    for edit in root.findChildren(QLineEdit):
        edit.installEventFilter(_NO_ALT_TYPING)


class _NoAltTyping(QObject):
    """An Alt+letter that is no shortcut of the window does not type its letter into a field (Qt
    would: a mistyped mnemonic would change the name a person typed)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress:
            modifiers = event.modifiers()
            alt_only = modifiers & Qt.KeyboardModifier.AltModifier and not (
                modifiers & Qt.KeyboardModifier.ControlModifier
            )
            if alt_only and event.text().isprintable() and event.text():
                return True
        return super().eventFilter(watched, event)


_NO_ALT_TYPING = _NoAltTyping()


def plain_label(text: str) -> str:
    """A label's text as a name: without its mnemonic marker and trailing colon."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").strip().rstrip(":")


def describe(widget: QWidget, description: str, *, name: str = "") -> None:
    """What a screen reader says of ``widget``: ``description`` (what it does or holds) and, for
    a widget whose own text or buddied label does not name it (a table, a list, a text view, a
    button with an icon only), ``name``."""
    widget.setAccessibleDescription(description)
    if name:
        widget.setAccessibleName(name)


def resize_within_screen(window: QWidget, width: int, height: int) -> None:
    """Give ``window`` its preferred size, or less where the screen is smaller (at 200 % a 1920×1080
    screen is 960×540 for the layout): a window never starts larger than the screen it opens on, and
    a dialog never larger than the window it belongs to (a person who made that window small wants
    its dialogs small too)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is not None:
        room = screen.availableGeometry().size()
        width, height = min(width, room.width()), min(height, room.height())
    parent = window.parentWidget()
    owner = parent.window() if parent is not None else None
    if owner is not None and owner is not window and owner.isVisible():
        width, height = min(width, owner.width()), min(height, owner.height())
    window.resize(width, height)


def available_room(window: QWidget) -> QRect:
    """The part of the screen ``window`` is on that windows may use (no panels, no task bar)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1024, 768)


def keep_inside_screen(window: QWidget) -> None:
    """Move ``window`` (and shrink it where it must) so that all of it, frame included, is on the
    available screen: a saved position or a dialog grown by its content never hangs off an edge."""
    room = available_room(window)
    frame = window.frameGeometry()
    extra_w, extra_h = frame.width() - window.width(), frame.height() - window.height()
    width = min(window.width(), room.width() - extra_w)
    height = min(window.height(), room.height() - extra_h)
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
        frame = window.frameGeometry()
    x = min(max(frame.x(), room.left()), room.right() + 1 - frame.width())
    y = min(max(frame.y(), room.top()), room.bottom() + 1 - frame.height())
    if (x, y) != (frame.x(), frame.y()):
        window.move(x, y)


def set_tab_order(widgets: Iterable[QWidget]) -> None:
    """Keyboard focus moves through ``widgets`` in this order."""
    for first, second in itertools.pairwise(widgets):
        QWidget.setTabOrder(first, second)
