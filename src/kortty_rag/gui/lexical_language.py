"""The "Lexical language" choice of the create-store dialog: how the lexical index stems words."""

from __future__ import annotations

import functools

from PySide6.QtCore import QCollator, QLocale, Qt
from PySide6.QtWidgets import QComboBox, QWidget

from kortty_rag import languages
from kortty_rag.gui.i18n import translate


def language_names() -> dict[str, str]:
    """The name of every language the index can stem (:data:`kortty_rag.languages.NAMES`), in
    the app's language, by code."""
    names = {
        "ar": translate("LexicalLanguage", "Arabic"),
        "ca": translate("LexicalLanguage", "Catalan"),
        "da": translate("LexicalLanguage", "Danish"),
        "de": translate("LexicalLanguage", "German"),
        "el": translate("LexicalLanguage", "Greek"),
        "en": translate("LexicalLanguage", "English"),
        "es": translate("LexicalLanguage", "Spanish"),
        "fi": translate("LexicalLanguage", "Finnish"),
        "fr": translate("LexicalLanguage", "French"),
        "hi": translate("LexicalLanguage", "Hindi"),
        "hu": translate("LexicalLanguage", "Hungarian"),
        "id": translate("LexicalLanguage", "Indonesian"),
        "it": translate("LexicalLanguage", "Italian"),
        "nl": translate("LexicalLanguage", "Dutch"),
        "no": translate("LexicalLanguage", "Norwegian"),
        "pt": translate("LexicalLanguage", "Portuguese"),
        "ro": translate("LexicalLanguage", "Romanian"),
        "ru": translate("LexicalLanguage", "Russian"),
        "sv": translate("LexicalLanguage", "Swedish"),
        "tr": translate("LexicalLanguage", "Turkish"),
    }
    # a language added to the core before it is named here keeps its English name
    return {code: names.get(code, str(name)) for code, name in languages.NAMES.items()}


def tip() -> str:
    return translate(
        "LexicalLanguage",
        "The language whose stemming and stopwords the word search uses, so that “rotate” also "
        "finds “rotating”. Automatic detects it from the store's text when it is first indexed.",
    )


def language_combo(parent: QWidget, value: str) -> QComboBox:
    """Automatic, None, then every language the index can stem, by its name in the app's
    language (in that language's alphabetical order)."""
    combo = QComboBox(parent)
    combo.setToolTip(tip())
    combo.addItem(translate("LexicalLanguage", "Automatic"), languages.AUTO)
    combo.setItemData(
        0,
        translate(
            "LexicalLanguage", "Detected from the store's text when it is first indexed (default)"
        ),
        Qt.ItemDataRole.ToolTipRole,
    )
    combo.addItem(translate("LexicalLanguage", "None"), languages.NONE)
    combo.setItemData(
        1,
        translate(
            "LexicalLanguage", "No stemming and no stopwords: words match only as they are written"
        ),
        Qt.ItemDataRole.ToolTipRole,
    )
    names = language_names()
    collator = QCollator(QLocale())
    order = functools.cmp_to_key(collator.compare)
    for code in sorted(names, key=lambda code: order(names[code])):
        combo.addItem(names[code], code)
    select_language(combo, value)
    return combo


def select_language(combo: QComboBox, value: str) -> None:
    combo.setCurrentIndex(max(0, combo.findData(value)))


def selected_language(combo: QComboBox) -> str:
    return str(combo.currentData())
