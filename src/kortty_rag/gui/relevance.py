"""The "Minimum relevance" choice, shared by the create-store and test search dialogs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QWidget

from kortty_rag.models import RelevanceLevel

#: what each level means, in plain words (the numbers depend on the embedding model)
LEVEL_TIPS = {
    RelevanceLevel.OFF: "Every candidate may enter, however loosely it matches",
    RelevanceLevel.LOW: "Excerpts need some evidence that they are about the question (default)",
    RelevanceLevel.MEDIUM: "Excerpts need to match the question clearly",
    RelevanceLevel.HIGH: "Only excerpts that match the question closely, or most of its words",
}
TIP = (
    "How closely an excerpt must match the question to be given to a model. When none matches "
    "closely enough, nothing is added to the prompt."
)


def relevance_combo(parent: QWidget, level: RelevanceLevel) -> QComboBox:
    combo = QComboBox(parent)
    combo.setToolTip(TIP)
    for choice in RelevanceLevel:
        combo.addItem(choice.value.capitalize(), choice.value)
        combo.setItemData(combo.count() - 1, LEVEL_TIPS[choice], Qt.ItemDataRole.ToolTipRole)
    select_level(combo, level)
    return combo


def select_level(combo: QComboBox, level: RelevanceLevel) -> None:
    combo.setCurrentIndex(combo.findData(level.value))


def selected_level(combo: QComboBox) -> RelevanceLevel:
    return RelevanceLevel(combo.currentData())
