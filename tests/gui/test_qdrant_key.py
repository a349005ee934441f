"""API key… of a Qdrant store (issue 13) against a real Qdrant front end on loopback that requires a
key, with a real keyring (a file backend in this test's folder): a key the service refuses is not
kept — the working one stays — an empty field changes nothing, and an accepted key is kept and read
back. Driven through the real dialog: the text typed is what is used."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QInputDialog
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.gui.test_stores_tab import message_box
from tests.helpers.qdrant import isolate_keyring
from tests.helpers.qdrant_server import FaultyQdrant

from kortty_rag.app.stores import QdrantTarget
from kortty_rag.app.workspace import Workspace
from kortty_rag.config.secrets import read_api_key, store_api_key
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui.main_window import MainWindow

RIGHT, OLD_WRONG = "qk-right-key", "qk-old-key"


@pytest.fixture
def server() -> Iterator[FaultyQdrant]:
    running = FaultyQdrant(api_key=RIGHT).start()
    yield running
    running.stop()


def enter_key(qtbot: QtBot, window: MainWindow, text: str) -> None:
    tab = window.stores_tab
    tab.key_button.click()
    dialog = tab.key_dialog
    assert isinstance(dialog, QInputDialog) and dialog.isVisible()
    dialog.setTextValue(text)
    dialog.accept()
    qtbot.waitUntil(lambda: not window.runner.running, timeout=60_000)
    QApplication.processEvents()


def test_a_refused_key_is_not_kept_and_an_accepted_one_is(
    qtbot: QtBot,
    starter_model: InstalledModel,
    server: FaultyQdrant,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    isolate_keyring(monkeypatch, tmp_path / "keyring", "keyrings.alt.file.PlaintextKeyring")
    store = Workspace().create_store(  # connected: its collection exists
        "Remote", starter_model.identity(), qdrant=QdrantTarget(server.url, api_key=RIGHT)
    )
    store_api_key(store.id, OLD_WRONG)  # the key went stale
    window = MainWindow(chooser=FixedChooser(), watch=False)
    qtbot.addWidget(window)
    window.show()
    try:
        tab = window.stores_tab
        tab.reload(select_id=store.id)
        assert tab.key_button.isVisible()

        enter_key(qtbot, window, "qk-not-this-one")  # the service refuses it
        box = message_box("errorBox")
        assert box is not None and box.windowTitle() == "API key not changed"
        box.close()
        assert read_api_key(store.id) == OLD_WRONG  # what was kept before stays
        assert "the API key was not changed" in window.status.message.text()

        enter_key(qtbot, window, "")  # nothing typed: nothing dropped
        assert read_api_key(store.id) == OLD_WRONG
        assert "no key entered" in window.status.message.text()

        enter_key(qtbot, window, RIGHT)
        assert read_api_key(store.id) == RIGHT
        assert "the service accepted it" in window.status.message.text()
        assert tab.key_dialog is None or tab.key_dialog.textValue() == ""
    finally:
        window.shutdown()
