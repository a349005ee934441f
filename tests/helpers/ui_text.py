"""What a person sees and what a screen reader says, read off real widgets — for the German and
accessibility tests (tests/gui/test_german.py, tests/gui/test_accessibility.py).

``visible_texts`` collects every text a window shows (labels, buttons, titles, tabs, menus, combo
items, table headers and cells, tooltips, placeholders, accessible names and descriptions).
``english_words`` is the judge: a word is English when the English word list has it and the German
one does not. Both lists come from ``pyspellchecker`` (frequency lists built from subtitles), not
from the product: the judge shares nothing with the translation it judges.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterable

from PySide6.QtCore import QAbstractListModel, QModelIndex, Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QWidget,
)

#: proper names, units and the loanwords of korTTY's German documentation (lower case); a word
#: that German writes the same way ("Text", "Download", "offline") is in the German list already
KEPT_WORDS = frozenset(
    {
        # proper names (the product, korTTY, services, formats, libraries)
        "kortty",
        "rag",
        "qdrant",
        "llama",
        "cpp",
        "gguf",
        "mcp",
        "openai",
        "hugging",
        "face",
        "huggingface",
        "pdf",
        "pdfs",
        "markdown",
        "asciidoc",
        "utf",
        "hnsw",
        "bm25",
        "sha",
        "api",
        "url",
        "json",
        "python",
        "qt",
        "pyside6",
        "minilm",
        "qwen3",
        "qwen",
        "bge",
        "nomic",
        "gemma",
        "gitignore",
        "git",
        "tar",
        "linux",
        "xdg",
        "http",
        "https",
        "onnx",
        # language names that German writes the same way (the lexical-language choice)
        "hindi",
        # the role name Coding (kept in German: Rollen Text / Coding)
        "coding",
        # the loanwords korTTY's German documentation itself uses (Chunk, Token, Scan)
        "chunk",
        "chunks",
        "token",
        "tokens",
        "scan",
        # units
        "mib",
        "gib",
        "kib",
        "kb",
        "mb",
        "gb",
        "min",
        "ms",
    }
)

WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+")


@functools.cache
def _dictionaries() -> tuple[object, object]:
    from spellchecker import SpellChecker

    return SpellChecker(language="en"), SpellChecker(language="de")


def english_words(text: str, data: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` that are English and not German, leaving out ``data`` (names,
    paths and file names a test put there) and the kept words."""
    english, german = _dictionaries()
    for item in sorted(data, key=len, reverse=True):
        text = text.replace(item, " ")
    text = re.sub(r"\S*[/\\]\S*", " ", text)  # paths
    text = re.sub(r"\S+\.[A-Za-z0-9]{1,5}\b", " ", text)  # file names
    text = re.sub(r"\S*\d\S*", " ", text)  # identifiers with digits (snap-00000001-fc52ce87, Q8_0)
    found = []
    for word in WORD.findall(text):
        lower = word.lower()
        if len(lower) < 3 or lower in KEPT_WORDS:
            continue
        if lower in english and lower not in german:  # type: ignore[operator]
            found.append(word)
    return found


def _plain(text: str) -> str:
    if "<" in text and ">" in text:
        text = re.sub(r"<[^>]+>", " ", text)
    return html.unescape(text).replace("&&", "\0").replace("&", "").replace("\0", "&")


def _model_texts(view: QAbstractItemView, rows: int = 60) -> list[tuple[str, str]]:
    model = view.model()
    if model is None:
        return []
    found = []
    # a list model's columnCount() is private in Qt (and not callable from Python): one column
    columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount()
    for column in range(columns):
        for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            header = model.headerData(column, Qt.Orientation.Horizontal, role)
            if isinstance(header, str):
                found.append(("header", header))

    def walk(parent: QModelIndex, depth: int) -> None:
        for row in range(min(model.rowCount(parent), rows)):
            for column in range(columns):
                index = model.index(row, column, parent)
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    value = index.data(role)
                    if isinstance(value, str):
                        found.append(("cell", value))
            if depth < 3:
                walk(model.index(row, 0, parent), depth + 1)

    walk(QModelIndex(), 0)
    return found


def visible_texts(window: QWidget, *, data_views: Iterable[str] = ()) -> list[tuple[str, str]]:
    """(where, text) of every text ``window`` and its visible children show, accessible names and
    descriptions included; ``data_views`` names widgets (objectName) that show data, not words of
    the app (the context block a model receives)."""
    skip = set(data_views)
    found: list[tuple[str, str]] = [("window title", window.windowTitle())]
    widgets = [window, *window.findChildren(QWidget)]
    for widget in widgets:
        if not widget.isVisible() or widget.objectName() in skip:
            continue
        where = widget.objectName() or type(widget).__name__
        texts: list[str] = [
            widget.toolTip(),
            widget.accessibleName(),
            widget.accessibleDescription(),
        ]
        if isinstance(widget, (QLabel, QAbstractButton)):
            texts.append(widget.text())
        elif isinstance(widget, QGroupBox):
            texts.append(widget.title())
        elif isinstance(widget, QTabWidget):
            for i in range(widget.count()):
                texts += [widget.tabText(i), widget.tabToolTip(i)]
        elif isinstance(widget, QLineEdit):
            texts.append(widget.placeholderText())
        elif isinstance(widget, QComboBox):
            for i in range(widget.count()):
                texts.append(widget.itemText(i))
                tip = widget.itemData(i, Qt.ItemDataRole.ToolTipRole)
                if isinstance(tip, str):
                    texts.append(tip)
        elif isinstance(widget, (QTextEdit, QPlainTextEdit)):
            texts += [widget.toPlainText(), widget.placeholderText()]
        elif isinstance(widget, QAbstractItemView) and not isinstance(widget, QHeaderView):
            found += [(f"{where} {kind}", text) for kind, text in _model_texts(widget)]
        if isinstance(widget, QMainWindow):
            for action in widget.menuBar().actions():
                texts.append(action.text())
                menu = action.menu()
                if isinstance(menu, QMenu):
                    for item in menu.actions():
                        texts += [item.text(), item.statusTip(), item.toolTip()]
        for action in widget.actions():  # context menus of views
            texts += [action.text(), action.toolTip()]
        found += [(where, text) for text in texts if text]
    return [(where, _plain(text)) for where, text in found if _plain(text).strip()]


#: the widget classes a person operates (a scroll bar is a part of the view it scrolls)
INTERACTIVE = (
    QAbstractButton,
    QComboBox,
    QLineEdit,
    QAbstractSpinBox,
    QAbstractItemView,
    QTextEdit,
    QPlainTextEdit,
    QTabBar,
    QAbstractSlider,
)


def interactive_widgets(window: QWidget) -> list[QWidget]:
    """The visible controls under ``window`` a person operates, without the parts Qt builds into
    another control (a combo box's line edit, a spin box's, a table's headers and corner button,
    the scroll bars, the tab bar's scroll arrows)."""
    found = []
    for widget in window.findChildren(QWidget):
        if not widget.isVisible() or not isinstance(widget, INTERACTIVE):
            continue
        if isinstance(widget, QHeaderView) or type(widget).__name__ in ("QScrollBar",):
            continue
        parent = widget.parentWidget()
        if isinstance(parent, (QComboBox, QAbstractSpinBox, QTabBar)):
            continue
        if isinstance(widget, QAbstractButton) and isinstance(parent, QAbstractItemView):
            continue  # the corner button of a table
        if (
            parent is not None
            and parent.inherits("QAbstractScrollArea")
            and widget.inherits("QScrollBar")
        ):
            continue
        if widget.inherits("QScrollBar"):
            continue
        found.append(widget)
    return found


def spoken(widget: QWidget) -> tuple[str, str]:
    """What a screen reader reads for ``widget``: Qt's accessible name and description (Qt derives
    them from the text, a buddied label or the tooltip where none was set)."""
    interface = QAccessible.queryAccessibleInterface(widget)
    if interface is None:
        return "", ""
    return (
        interface.text(QAccessible.Text.Name).strip(),
        interface.text(QAccessible.Text.Description).strip(),
    )
