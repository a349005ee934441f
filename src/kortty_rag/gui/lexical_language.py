"""The "Lexical language" choice of the create-store dialog: how the lexical index stems words."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QWidget

from kortty_rag import languages

TIP = (
    "The language whose stemming and stopwords the word search uses, so that “rotate” also finds "
    "“rotating”. Automatic detects it from the store's text when it is first indexed."
)
AUTO_TIP = "Detected from the store's text when it is first indexed (default)"
NONE_TIP = "No stemming and no stopwords: words match only as they are written"


def language_combo(parent: QWidget, value: str) -> QComboBox:
    """Automatic, None, then every language the index can stem, by its English name."""
    combo = QComboBox(parent)
    combo.setToolTip(TIP)
    combo.addItem("Automatic", languages.AUTO)
    combo.setItemData(0, AUTO_TIP, Qt.ItemDataRole.ToolTipRole)
    combo.addItem("None", languages.NONE)
    combo.setItemData(1, NONE_TIP, Qt.ItemDataRole.ToolTipRole)
    for code in sorted(languages.NAMES, key=languages.NAMES.__getitem__):
        combo.addItem(languages.NAMES[code], code)
    select_language(combo, value)
    return combo


def select_language(combo: QComboBox, value: str) -> None:
    combo.setCurrentIndex(max(0, combo.findData(value)))


def selected_language(combo: QComboBox) -> str:
    return str(combo.currentData())
