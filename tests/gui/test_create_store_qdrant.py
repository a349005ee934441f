"""The Advanced section of the Create dialog makes Qdrant stores: URL and collection go into the
definition, the API key into the OS keyring, and the store exists only once the service answered
(a real Qdrant front end on loopback); a refused URL or keyring, or a service that cannot be reached,
creates nothing."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog, QMessageBox
from pytestqt.qtbot import QtBot
from tests.helpers.qdrant import isolate_keyring
from tests.helpers.qdrant_server import FaultyQdrant

from kortty_rag.app.workspace import Workspace
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.config.secrets import read_api_key
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui.dialogs.create_store import CreateStoreDialog
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.models import StoreType

KEY = "qk-gui-test-secret"


def dialog_for(qtbot: QtBot, docs: Path) -> CreateStoreDialog:
    dialog = CreateStoreDialog(Workspace(), PathChooser())
    qtbot.addWidget(dialog)
    dialog.name_edit.setText("Team docs")
    dialog.path_list.addItem(str(docs))
    dialog.advanced_toggle.setChecked(True)
    return dialog


def choose_qdrant(dialog: CreateStoreDialog, url: str, collection: str = "", key: str = "") -> None:
    index = dialog.type_combo.findData(StoreType.QDRANT.value)
    assert index >= 0
    dialog.type_combo.setCurrentIndex(index)
    assert dialog.qdrant_url.isEnabled() and dialog.qdrant_key.isEnabled()
    dialog.qdrant_url.setText(url)
    dialog.qdrant_collection.setText(collection)
    dialog.qdrant_key.setText(key)


def test_creates_a_qdrant_store_with_the_key_in_the_keyring(
    qtbot: QtBot,
    starter_model: InstalledModel,
    tmp_path: Path,
    kortty_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    isolate_keyring(monkeypatch, tmp_path / "keyring", "keyrings.alt.file.PlaintextKeyring")
    server = FaultyQdrant(api_key=KEY).start()
    try:
        dialog = dialog_for(qtbot, tmp_path)
        assert not dialog.qdrant_url.isEnabled()  # Local is the default type
        choose_qdrant(dialog, server.url, "team_docs", KEY)
        with qtbot.waitSignal(dialog.created, timeout=60_000) as signal:
            dialog.create_button.click()
            assert "Connecting to Qdrant" in dialog.busy_label.text()  # in the background
            assert not dialog.create_button.isEnabled()
        assert server.db.collection_exists("team_docs")  # connected: the collection was created
    finally:
        server.stop()
    store, paths = signal.args
    assert paths == [str(tmp_path)]
    assert store.type is StoreType.QDRANT
    assert store.settings == {"qdrant": {"url": server.url, "collection": "team_docs"}}
    assert read_api_key(store.id) == KEY
    assert dialog.qdrant_key.text() == ""  # not kept in the widget either
    (definition,) = kortty_home.rglob("store.json")
    assert KEY not in definition.read_text()
    assert json.loads(definition.read_text())["store"]["type"] == "qdrant"


@pytest.mark.parametrize(
    ("url", "backend", "message"),
    [
        ("http://qdrant.example.com:6333", "keyrings.alt.file.PlaintextKeyring", "plain http://"),
        ("https://qdrant.example.com", "keyring.backends.fail.Keyring", "No OS keyring"),
    ],
)
def test_refusals_show_an_error_and_create_nothing(
    qtbot: QtBot,
    starter_model: InstalledModel,
    tmp_path: Path,
    kortty_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    url: str,
    backend: str,
    message: str,
) -> None:
    isolate_keyring(monkeypatch, tmp_path / "keyring", backend)
    dialog = dialog_for(qtbot, tmp_path)
    choose_qdrant(dialog, url, key=KEY)
    with qtbot.assertNotEmitted(dialog.created):
        dialog.create_button.click()
    box = dialog.findChild(QMessageBox, "errorBox")
    assert box is not None and message in box.text()
    assert KEY not in box.text() + box.informativeText()
    box.close()
    assert list(kortty_home.rglob("store.json")) == []
    assert dialog.result() != QDialog.DialogCode.Accepted  # still open for a correction


def test_a_service_that_cannot_be_reached_creates_nothing(
    qtbot: QtBot,
    starter_model: InstalledModel,
    tmp_path: Path,
    kortty_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    isolate_keyring(monkeypatch, tmp_path / "keyring", "keyrings.alt.file.PlaintextKeyring")
    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    dialog = dialog_for(qtbot, tmp_path)
    choose_qdrant(dialog, f"http://127.0.0.1:{port}", key=KEY)
    with qtbot.assertNotEmitted(dialog.created, wait=0):
        dialog.create_button.click()
        qtbot.waitUntil(
            lambda: dialog.findChild(QMessageBox, "errorBox") is not None, timeout=120_000
        )
    box = dialog.findChild(QMessageBox, "errorBox")
    assert box is not None and "'Team docs' was not created" in box.text()
    assert "create the store again" in box.informativeText()  # not a hint about a store that exists
    assert "kortty-rag" not in box.informativeText()  # no command line in the app
    assert KEY not in box.text() + box.informativeText() + box.detailedText()
    box.close()
    assert list(kortty_home.rglob("store.json")) == []
    assert StoreRegistry().list() == []
    assert dialog.create_button.isEnabled() and not dialog.busy_label.isVisible()
    assert dialog.result() != QDialog.DialogCode.Accepted  # still open for a correction
    dialog.runner.wait()
