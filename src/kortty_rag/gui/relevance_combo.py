"""The "Minimum relevance" choice, shared by the create-store and test search dialogs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QWidget

from kortty_rag.gui.i18n import translate
from kortty_rag.models import RelevanceLevel


def level_name(level: RelevanceLevel) -> str:
    """A level as people read it: Off, Low, Medium, High."""
    if level is RelevanceLevel.OFF:
        return translate("Relevance", "Off")
    if level is RelevanceLevel.LOW:
        return translate("Relevance", "Low")
    if level is RelevanceLevel.MEDIUM:
        return translate("Relevance", "Medium")
    return translate("Relevance", "High")


def level_tip(level: RelevanceLevel) -> str:
    """What a level means, in plain words (the numbers depend on the embedding model)."""
    if level is RelevanceLevel.OFF:
        return translate("Relevance", "Every candidate may enter, however loosely it matches")
    if level is RelevanceLevel.LOW:
        return translate(
            "Relevance", "Excerpts need some evidence that they are about the question (default)"
        )
    if level is RelevanceLevel.MEDIUM:
        return translate("Relevance", "Excerpts need to match the question clearly")
    return translate(
        "Relevance", "Only excerpts that match the question closely, or most of its words"
    )


def tip() -> str:
    """What the choice is for."""
    return translate(
        "Relevance",
        "How closely an excerpt must match the question to be given to a model. When none "
        "matches closely enough, nothing is added to the prompt.",
    )


def relevance_combo(parent: QWidget, level: RelevanceLevel) -> QComboBox:
    combo = QComboBox(parent)
    combo.setToolTip(tip())
    for choice in RelevanceLevel:
        combo.addItem(level_name(choice), choice.value)
        combo.setItemData(combo.count() - 1, level_tip(choice), Qt.ItemDataRole.ToolTipRole)
    select_level(combo, level)
    return combo


def select_level(combo: QComboBox, level: RelevanceLevel) -> None:
    combo.setCurrentIndex(combo.findData(level.value))


def selected_level(combo: QComboBox) -> RelevanceLevel:
    return RelevanceLevel(combo.currentData())
