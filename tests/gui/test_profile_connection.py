"""The profile editor as a first-time user meets it (issue 13, point 6): Test connection against a
real OpenAI-compatible server on loopback (llama-cpp-python's, with the small gemma model) and
against a closed port, a pasted API key kept in the real keyring (a file backend in this test's
folder) and read back, fields that follow the backend, and plain-language refusals."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.gui.test_profiles_tab import open_editor, wait_box
from tests.helpers.chat_model import chat_model_path
from tests.helpers.chat_server import free_port, serving
from tests.helpers.qdrant import isolate_keyring

from kortty_rag.config.secrets import profile_account, read_secret
from kortty_rag.gui.dialogs.profile_editor import ProfileEditor
from kortty_rag.gui.profiles_tab import ProfilesTab
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import ProfileRegistry


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(chat_model_path(), tmp_path_factory.mktemp("chat-server")) as base:
        yield base


@pytest.fixture
def tab(qtbot: QtBot, chooser: FixedChooser) -> Iterator[ProfilesTab]:
    widget = ProfilesTab(None, chooser=chooser)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget


def endpoint_editor(qtbot: QtBot, tab: ProfilesTab, endpoint: str) -> ProfileEditor:
    editor = open_editor(qtbot, tab, tab.add_button)
    editor.name_edit.setText("Server")
    editor.backend_combo.setCurrentIndex(editor.backend_combo.findData(Backend.OPENAI.value))
    editor.endpoint_edit.setText(endpoint)
    return editor


def test_test_connection_asks_the_real_server_and_offers_its_models(
    qtbot: QtBot, tab: ProfilesTab, server: str
) -> None:
    editor = endpoint_editor(qtbot, tab, f"{server}/v1")
    assert editor.model_edit.text() == ""
    qtbot.mouseClick(editor.test_button, Qt.MouseButton.LeftButton)
    assert not editor.test_button.isEnabled() and "Connecting" in editor.check_label.text()
    qtbot.waitUntil(editor.test_button.isEnabled, timeout=120_000)
    assert editor.check_label.text().startswith("Connected: the model answered.")
    assert "The server offers 1:" in editor.check_label.text()
    offered = editor.model_edit.text()
    assert offered and offered in editor.check_label.text()  # the listed model, filled in
    completer = editor.model_edit.completer()
    assert completer is not None and completer.model().rowCount() == 1
    assert ProfileRegistry().load().profiles == ()  # testing saves nothing
    editor.reject()


def test_test_connection_to_a_closed_port_says_so_in_the_form(
    qtbot: QtBot, tab: ProfilesTab
) -> None:
    editor = endpoint_editor(qtbot, tab, f"http://127.0.0.1:{free_port()}/v1")
    editor.model_edit.setText("any")
    qtbot.mouseClick(editor.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(editor.test_button.isEnabled, timeout=60_000)
    text = editor.check_label.text()
    assert text.startswith("No answer:") and "connection refused" in text
    assert "Check that the server is running" in text
    editor.reject()


def test_a_pasted_key_is_kept_in_the_keyring_and_read_back(
    qtbot: QtBot, tab: ProfilesTab, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolate_keyring(monkeypatch, tmp_path / "keyring", "keyrings.alt.file.PlaintextKeyring")
    editor = endpoint_editor(qtbot, tab, "https://api.example.com/v1")
    editor.model_edit.setText("some-model")
    assert editor.key_value_edit.echoMode() == editor.key_value_edit.EchoMode.Password
    editor.key_value_edit.setText("sk-pasted-0123456789abcdef")
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not editor.isVisible())
    saved = ProfileRegistry().get("Server")
    assert saved.api_key_in_keyring and saved.api_key_env is None
    assert read_secret(profile_account("Server")) == "sk-pasted-0123456789abcdef"
    settings_file = next(Path(tmp_path).rglob("kortty-rag-settings.json"), None)
    if settings_file is not None:
        assert "sk-pasted" not in settings_file.read_text(encoding="utf-8")


def test_fields_follow_the_backend_and_refusals_are_plain(
    qtbot: QtBot, tab: ProfilesTab, tmp_path: Path
) -> None:
    editor = open_editor(qtbot, tab, tab.add_button)
    local_file = str(tmp_path / "chat.gguf")
    editor.backend_combo.setCurrentIndex(editor.backend_combo.findData(Backend.LLAMA_CPP.value))
    editor.model_edit.setText(local_file)
    assert not editor.endpoint_edit.isVisible() and not editor.key_value_edit.isVisible()
    editor.backend_combo.setCurrentIndex(editor.backend_combo.findData(Backend.OPENAI.value))
    assert editor.model_edit.text() == ""  # the GGUF path does not become a model name
    assert editor.endpoint_edit.isVisible() and editor.key_value_edit.isVisible()
    editor.backend_combo.setCurrentIndex(editor.backend_combo.findData(Backend.LLAMA_CPP.value))
    assert editor.model_edit.text() == local_file  # and it is back for llama.cpp
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)  # no name given
    box = wait_box(qtbot, "errorBox")
    assert box.text() == "Give the profile a name"
    box.close()
    assert editor.isVisible()
    editor.reject()
