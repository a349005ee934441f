"""The Create dialog's Advanced section sets the store's minimum relevance."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFormLayout, QLabel
from pytestqt.qtbot import QtBot
from tests.helpers.qdrant_server import FaultyQdrant

from kortty_rag.app.workspace import Workspace
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui.dialogs.create_store import CreateStoreDialog
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.relevance_combo import selected_level
from kortty_rag.models import RelevanceLevel, Store, StoreType
from kortty_rag.retrieval.relevance import store_level


def create(qtbot: QtBot, docs: Path, name: str, presses: int, qdrant: str | None = None) -> Store:
    """Create a store, moving the minimum relevance ``presses`` down from the default (keyboard)."""
    dialog = CreateStoreDialog(Workspace(), PathChooser())
    qtbot.addWidget(dialog)
    dialog.name_edit.setText(name)
    dialog.path_list.addItem(str(docs))
    dialog.advanced_toggle.setChecked(True)
    combo = dialog.relevance_combo
    assert selected_level(combo) is RelevanceLevel.LOW
    layout = dialog.advanced.layout()
    assert isinstance(layout, QFormLayout)
    label = layout.labelForField(combo)
    assert isinstance(label, QLabel) and label.buddy() is combo
    assert label.text() == "Minimum &relevance"
    combo.setFocus()
    for _ in range(presses):
        QTest.keyClick(combo, Qt.Key.Key_Down)
    if qdrant:  # a Qdrant store is created only once the service answered
        dialog.type_combo.setCurrentIndex(dialog.type_combo.findData(StoreType.QDRANT.value))
        dialog.qdrant_url.setText(qdrant)
    with qtbot.waitSignal(dialog.created, timeout=60_000) as signal:
        dialog.create_button.click()
    store: Store = signal.args[0]
    return store


def test_the_minimum_relevance_goes_into_the_definition(
    qtbot: QtBot, starter_model: InstalledModel, tmp_path: Path, kortty_home: Path
) -> None:
    medium = create(qtbot, tmp_path, "Careful", presses=1)
    assert store_level(medium) is RelevanceLevel.MEDIUM
    assert StoreRegistry().get("Careful").settings == {"retrieval": {"min_relevance": "medium"}}
    definition = next(p for p in kortty_home.rglob("store.json") if medium.id in str(p))
    saved = json.loads(definition.read_text(encoding="utf-8"))
    assert saved["store"]["settings"]["retrieval"]["min_relevance"] == "medium"

    default = create(qtbot, tmp_path, "Plain", presses=0)
    assert default.settings == {} and store_level(default) is RelevanceLevel.LOW

    server = FaultyQdrant().start()  # a real Qdrant front end on loopback
    try:
        remote = create(qtbot, tmp_path, "Remote", presses=2, qdrant=server.url)  # both sections
    finally:
        server.stop()
    saved_remote = StoreRegistry().get("Remote")
    assert saved_remote.settings["retrieval"] == {"min_relevance": "high"}
    assert saved_remote.settings["qdrant"]["url"] == server.url
    assert store_level(remote) is RelevanceLevel.HIGH
