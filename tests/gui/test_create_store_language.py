"""The Create dialog's Advanced section sets the store's lexical language, by keyboard."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFormLayout, QLabel
from pytestqt.qtbot import QtBot
from tests.helpers.qdrant_server import FaultyQdrant

from kortty_rag.app.workspace import Workspace
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui.dialogs.create_store import CreateStoreDialog
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.lexical_language import selected_language
from kortty_rag.index.factory import lexical_language
from kortty_rag.languages import CHOICES, NAMES
from kortty_rag.models import Store, StoreType


def dialog_for(qtbot: QtBot, docs: Path, name: str) -> CreateStoreDialog:
    dialog = CreateStoreDialog(Workspace(), PathChooser())
    qtbot.addWidget(dialog)
    dialog.name_edit.setText(name)
    dialog.path_list.addItem(str(docs))
    dialog.advanced_toggle.setChecked(True)
    return dialog


def create(qtbot: QtBot, dialog: CreateStoreDialog) -> Store:
    with qtbot.waitSignal(dialog.created, timeout=60_000) as signal:
        dialog.create_button.click()
    store: Store = signal.args[0]
    return store


def saved_retrieval(kortty_home: Path, store: Store) -> dict[str, object]:
    definition = next(p for p in kortty_home.rglob("store.json") if store.id in str(p))
    saved = json.loads(definition.read_text(encoding="utf-8"))
    retrieval: dict[str, object] = saved["store"]["settings"].get("retrieval", {})
    return retrieval


def test_the_combo_offers_automatic_none_and_the_languages_by_name(
    qtbot: QtBot, starter_model: InstalledModel, tmp_path: Path
) -> None:
    dialog = dialog_for(qtbot, tmp_path, "Any")
    combo = dialog.language_combo
    items = [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())]
    assert items[:2] == [("Automatic", "auto"), ("None", "none")]
    assert [text for text, _ in items[2:]] == sorted(NAMES.values())
    assert {code for _, code in items} == set(CHOICES)
    assert selected_language(combo) == "auto"
    layout = dialog.advanced.layout()
    assert isinstance(layout, QFormLayout)
    label = layout.labelForField(combo)
    assert isinstance(label, QLabel) and label.buddy() is combo
    assert label.text() == "Lexical &language"
    assert combo.focusPolicy() & Qt.FocusPolicy.TabFocus


def test_the_lexical_language_round_trips_to_the_definition(
    qtbot: QtBot, starter_model: InstalledModel, tmp_path: Path, kortty_home: Path
) -> None:
    dialog = dialog_for(qtbot, tmp_path, "Deutsch")
    combo = dialog.language_combo
    with qtbot.waitActive(dialog):
        dialog.show()
        dialog.activateWindow()
    focused = QApplication.focusWidget() or dialog
    QTest.keyClick(focused, Qt.Key.Key_L, Qt.KeyboardModifier.AltModifier)  # the mnemonic
    qtbot.waitUntil(combo.hasFocus, timeout=5000)
    QTest.keyClick(combo, Qt.Key.Key_Down)  # Automatic → None
    assert selected_language(combo) == "none"
    while combo.currentText() != "German":  # the languages follow, by English name
        QTest.keyClick(combo, Qt.Key.Key_Down)
    german = create(qtbot, dialog)
    assert lexical_language(german) == "de"
    assert saved_retrieval(kortty_home, german) == {"language": "de"}
    assert lexical_language(StoreRegistry().get("Deutsch")) == "de"

    plain = dialog_for(qtbot, tmp_path, "Plain")
    default = create(qtbot, plain)  # Automatic is the default: nothing is written
    assert default.settings == {} and lexical_language(default) == "auto"

    both = dialog_for(qtbot, tmp_path, "Both")
    both.relevance_combo.setCurrentIndex(both.relevance_combo.findData("high"))
    both.language_combo.setCurrentIndex(both.language_combo.findData("none"))
    made = create(qtbot, both)
    assert saved_retrieval(kortty_home, made) == {"min_relevance": "high", "language": "none"}

    remote = dialog_for(qtbot, tmp_path, "Remote")
    remote.language_combo.setCurrentIndex(remote.language_combo.findData("fr"))
    remote.type_combo.setCurrentIndex(remote.type_combo.findData(StoreType.QDRANT.value))
    server = FaultyQdrant().start()  # created only once the service answered
    try:
        remote.qdrant_url.setText(server.url)
        create(qtbot, remote)
    finally:
        server.stop()
    saved_remote = StoreRegistry().get("Remote")
    assert saved_remote.settings["retrieval"] == {"language": "fr"}
    assert saved_remote.settings["qdrant"]["url"] == server.url
