"""The AI Profiles & Roles tab with real widgets and the real core: everything the user does is
checked where it ends up, through ``ProfileRegistry().load()`` and ``StoreRegistry().get()``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui import i18n
from kortty_rag.gui.dialogs.profile_editor import ProfileEditor
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.profiles_tab import LINKED_COLUMN, ProfilesTab, unassigned
from kortty_rag.models import Role, Store, StoreRoles
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import AiProfile, ProfileRegistry


@pytest.fixture
def tab(qtbot: QtBot, chooser: FixedChooser) -> Iterator[ProfilesTab]:
    widget = ProfilesTab(None, chooser=chooser)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget


@pytest.fixture
def store(starter_model: InstalledModel) -> Store:
    return StoreRegistry().create("Notes", starter_model.identity())


def message_box(name: str) -> QMessageBox | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QMessageBox) and widget.objectName() == name and widget.isVisible():
            return widget
    return None


def wait_box(qtbot: QtBot, name: str) -> QMessageBox:
    qtbot.waitUntil(lambda: message_box(name) is not None, timeout=10_000)
    box = message_box(name)
    assert box is not None
    return box


def press(qtbot: QtBot, box_name: str, button_text: str) -> None:
    box = wait_box(qtbot, box_name)
    button = next(b for b in box.buttons() if b.text().replace("&", "") == button_text)
    assert isinstance(button, QPushButton)
    button.click()
    qtbot.waitUntil(lambda: message_box(box_name) is None)


def open_editor(qtbot: QtBot, tab: ProfilesTab, button: QPushButton) -> ProfileEditor:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    editor = tab.editor
    assert editor is not None
    qtbot.waitExposed(editor)
    return editor


def save(qtbot: QtBot, editor: ProfileEditor) -> None:
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)


def test_add_a_llama_cpp_profile_with_a_gguf_file(
    qtbot: QtBot,
    tab: ProfilesTab,
    chooser: FixedChooser,
    starter_model: InstalledModel,
    tmp_path: Path,
) -> None:
    editor = open_editor(qtbot, tab, tab.add_button)
    assert editor.backend_combo.currentData() == Backend.LLAMA_CPP.value
    assert editor.browse_button.isVisible() and not editor.endpoint_edit.isVisible()
    qtbot.keyClicks(editor.name_edit, "Local chat")

    not_gguf = tmp_path / "notes.txt"
    not_gguf.write_text("hello", encoding="utf-8")
    chooser.next_gguf = str(not_gguf)
    qtbot.mouseClick(editor.browse_button, Qt.MouseButton.LeftButton)
    assert editor.model_edit.text() == str(not_gguf)
    save(qtbot, editor)
    box = wait_box(qtbot, "errorBox")
    assert "is not a GGUF file" in box.text()
    assert box.informativeText().startswith("What to do: Choose a local GGUF chat model file")
    press(qtbot, "errorBox", "OK")
    assert editor.isVisible() and not ProfileRegistry().load().profiles

    chooser.next_gguf = str(starter_model.path)
    qtbot.mouseClick(editor.browse_button, Qt.MouseButton.LeftButton)
    editor.context_spin.setValue(4096)
    editor.preset_combo.setCurrentText("llama3")
    save(qtbot, editor)
    qtbot.waitUntil(lambda: not editor.isVisible())

    (profile,) = ProfileRegistry().load().profiles
    assert profile == AiProfile(
        "Local chat", Backend.LLAMA_CPP, str(starter_model.path), 4096, "llama3"
    )
    row = [tab.profile_table.item(0, c).text() for c in range(6)]  # type: ignore[union-attr]
    assert row[0] == "Local chat" and row[2] == str(starter_model.path)
    assert row[3] == "4,096" and row[4] == "llama3"
    assert tab.selected_profile() == profile


def test_an_endpoint_must_be_https_unless_it_is_loopback(qtbot: QtBot, tab: ProfilesTab) -> None:
    editor = open_editor(qtbot, tab, tab.add_button)
    editor.backend_combo.setCurrentIndex(editor.backend_combo.findData(Backend.OPENAI.value))
    assert editor.endpoint_edit.isVisible() and not editor.browse_button.isVisible()
    qtbot.keyClicks(editor.name_edit, "Remote")
    qtbot.keyClicks(editor.model_edit, "gpt-4o-mini")
    qtbot.keyClicks(editor.endpoint_edit, "http://models.example.com/v1")
    save(qtbot, editor)
    box = wait_box(qtbot, "errorBox")
    assert "plain http://" in box.text()
    assert "Use https://" in box.informativeText()
    press(qtbot, "errorBox", "OK")
    assert editor.isVisible() and not ProfileRegistry().load().profiles

    editor.endpoint_edit.setText("https://models.example.com/v1/")
    qtbot.keyClicks(editor.key_edit, "sk-live-0123456789")  # a pasted key, not a variable name
    save(qtbot, editor)
    box = wait_box(qtbot, "errorBox")
    assert "sk-live" not in box.text() + box.informativeText()
    assert "OPENAI_API_KEY" in box.informativeText()
    press(qtbot, "errorBox", "OK")
    groq_key = "gsk_" + "Xq7Lp2Rt9Vb4Nm8Kd3Wz6Hj1Fs5Gc0Ya" * 2  # a valid variable name, but a key
    editor.key_edit.setText(groq_key)
    save(qtbot, editor)
    box = wait_box(qtbot, "errorBox")
    assert "looks like an API key" in box.text()
    assert groq_key[4:20] not in box.text() + box.informativeText()
    assert editor.key_edit.text() == ""  # "not shown": not left on screen either
    press(qtbot, "errorBox", "OK")
    assert not ProfileRegistry().load().profiles

    editor.key_edit.setText("OPENAI_API_KEY")
    save(qtbot, editor)
    qtbot.waitUntil(lambda: not editor.isVisible())
    profile = ProfileRegistry().get("Remote")
    assert profile.backend is Backend.OPENAI and profile.model == "gpt-4o-mini"
    assert profile.endpoint == "https://models.example.com/v1"
    assert profile.api_key_env == "OPENAI_API_KEY"


def test_roles_and_store_roles_persist_and_removing_a_profile_frees_its_role(
    qtbot: QtBot, tab: ProfilesTab, store: Store
) -> None:
    profiles = ProfileRegistry()
    profiles.add(AiProfile("Writer", Backend.LLAMA_CPP, "/models/writer.gguf"))
    profiles.add(AiProfile("Coder", Backend.OPENAI, "coder-1", endpoint="http://127.0.0.1:8080"))
    tab.reload()
    text, coding = tab.role_combos[Role.TEXT], tab.role_combos[Role.CODING]
    assert text.objectName() == "textRoleCombo" and coding.objectName() == "codingRoleCombo"
    assert text.itemText(0) == unassigned()

    text.setFocus()
    while text.currentText() != "Writer":  # the keyboard way: arrow keys on the closed combo
        qtbot.keyClick(text, Qt.Key.Key_Down)
    coding.setCurrentIndex(coding.findText("Coder"))
    qtbot.waitUntil(
        lambda: text.findText(unassigned()) == -1 and coding.findText(unassigned()) == -1
    )
    settings = ProfileRegistry().load()
    assert settings.role_profile(Role.TEXT).name == "Writer"  # type: ignore[union-attr]
    assert settings.role_profile(Role.CODING).name == "Coder"  # type: ignore[union-attr]

    table = tab.store_table
    assert table.objectName() == "storeRolesTable" and table.rowCount() == 1
    assert table.item(0, LINKED_COLUMN).text() == "Text: Writer"  # type: ignore[union-attr]
    table.setFocus()
    for column in (2, 3):  # Coding, then Autonomous workflows, with the space bar
        table.setCurrentCell(0, column)
        qtbot.keyClick(table, Qt.Key.Key_Space)
        qtbot.waitUntil(lambda c=column: table.currentColumn() == c)  # type: ignore[misc]
    qtbot.waitUntil(
        lambda: "Coding: Coder" in table.item(0, LINKED_COLUMN).text()  # type: ignore[union-attr]
    )
    assert StoreRegistry().get(store.id).roles == StoreRoles(
        text=True, coding=True, autonomous=True
    )
    table.item(0, 1).setCheckState(Qt.CheckState.Unchecked)  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: StoreRegistry().get(store.id).roles.text is False)
    assert "Notes: Text off." in tab.status.message.text()

    tab.select_profile("Writer")
    qtbot.mouseClick(tab.remove_button, Qt.MouseButton.LeftButton)
    box = wait_box(qtbot, "confirmBox")
    assert "holds the Text role" in box.informativeText()
    press(qtbot, "confirmBox", "Cancel")
    assert ProfileRegistry().load().role_profile(Role.TEXT) is not None

    qtbot.mouseClick(tab.remove_button, Qt.MouseButton.LeftButton)
    press(qtbot, "confirmBox", "Remove")
    settings = ProfileRegistry().load()
    assert [p.name for p in settings.profiles] == ["Coder"]
    assert settings.role_profile(Role.TEXT) is None
    assert settings.role_profile(Role.CODING).name == "Coder"  # type: ignore[union-attr]
    assert text.currentText() == unassigned()
    assert "The Text role is now unassigned" in tab.status.message.text()


def test_the_mcp_opt_in_is_a_check_box_beside_the_roles(
    qtbot: QtBot, tab: ProfilesTab, store: Store
) -> None:
    """Off by default; the space bar turns it on and off, and only that flag changes."""
    tab.reload()
    table = tab.store_table
    header = table.horizontalHeaderItem(4)
    assert header is not None and header.text() == "Available to other AI tools (MCP)"
    assert table.item(0, 4).checkState() == Qt.CheckState.Unchecked  # type: ignore[union-attr]
    assert StoreRegistry().get(store.id).roles.mcp is False
    table.setFocus()
    table.setCurrentCell(0, 4)
    qtbot.keyClick(table, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: StoreRegistry().get(store.id).roles.mcp is True)
    assert StoreRegistry().get(store.id).roles == StoreRoles(text=True, mcp=True)
    qtbot.waitUntil(lambda: "Available to other AI tools (MCP) on." in tab.status.message.text())
    qtbot.waitUntil(
        lambda: table.item(0, 4).checkState() == Qt.CheckState.Checked  # type: ignore[union-attr]
    )
    table.item(0, 4).setCheckState(Qt.CheckState.Unchecked)  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: StoreRegistry().get(store.id).roles.mcp is False)
    assert StoreRegistry().get(store.id).roles == StoreRoles()

    allowed = "/srv/shared-notes"  # set elsewhere (the CLI); the check box's tip shows it
    StoreRegistry().update(
        store.id, lambda s: s.evolve(roles=StoreRoles(mcp=True, mcp_roots=(allowed,)))
    )
    tab.reload()
    assert table.item(0, 4).checkState() == Qt.CheckState.Checked  # type: ignore[union-attr]
    tip = table.item(0, 4).toolTip()  # type: ignore[union-attr]
    assert allowed in tip and "Allowed folders…" in tip


def test_allowed_folders_for_other_ai_tools_are_added_and_removed_here(
    qtbot: QtBot, tab: ProfilesTab, store: Store, chooser: FixedChooser, tmp_path: Path
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    tab.reload()
    assert not tab.mcp_folders_button.isEnabled()  # no store selected yet
    tab.store_table.setCurrentCell(0, 0)
    assert tab.mcp_folders_button.isEnabled()
    qtbot.mouseClick(tab.mcp_folders_button, Qt.MouseButton.LeftButton)
    dialog = tab.mcp_dialog
    assert dialog is not None and dialog.isVisible() and dialog.folder_list.count() == 0
    chooser.next_folder = str(shared)
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert StoreRegistry().get(store.id).roles.mcp_roots == (str(shared.resolve()),)
    assert dialog.folder_list.item(0).text() == str(shared.resolve())
    dialog.folder_list.setCurrentRow(0)
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    assert StoreRegistry().get(store.id).roles.mcp_roots == ()
    assert dialog.folder_list.count() == 0
    chooser.next_folder = str(tmp_path / "gone")  # refused with a reason, nothing saved
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    box = wait_box(qtbot, "errorBox")
    assert "does not exist" in box.text()
    box.close()
    assert StoreRegistry().get(store.id).roles.mcp_roots == ()
    dialog.reject()


def test_editing_and_renaming_keeps_the_roles(qtbot: QtBot, tab: ProfilesTab) -> None:
    profiles = ProfileRegistry()
    profiles.add(AiProfile("Old", Backend.OPENAI, "m", endpoint="https://a.example.com"))
    profiles.assign(Role.TEXT, "Old")
    profiles.assign(Role.CODING, "Old")
    tab.reload()
    assert not tab.edit_button.isEnabled()
    tab.select_profile("Old")
    editor = open_editor(qtbot, tab, tab.edit_button)
    assert editor.endpoint_edit.text() == "https://a.example.com"
    editor.name_edit.setText("New")
    editor.context_spin.setValue(32768)
    save(qtbot, editor)
    qtbot.waitUntil(lambda: not editor.isVisible())
    settings = ProfileRegistry().load()
    assert [(p.name, p.context_window) for p in settings.profiles] == [("New", 32768)]
    assert settings.roles_of("New") == [Role.TEXT, Role.CODING]


def test_lives_in_the_main_window_and_follows_store_changes(
    qtbot: QtBot, starter_model: InstalledModel
) -> None:
    from kortty_rag.gui.main_window import MainWindow

    window = MainWindow(chooser=FixedChooser(), watch=False)
    qtbot.addWidget(window)
    try:
        tab = window.profiles_tab
        assert isinstance(tab, ProfilesTab) and tab.workspace is window.workspace
        # it speaks in the window's status area, in view below every tab (issue 29, point 6)
        assert tab.status is window.status
        assert window.windowTitle() == "kortty-rag — knowledge stores"
        window.tabs.setCurrentWidget(tab)
        assert window.windowTitle() == "kortty-rag — AI profiles & roles"  # the tab in view
        assert tab.store_table.rowCount() == 0
        StoreRegistry().create("Later", starter_model.identity())
        window.stores_tab.stores_changed.emit()
        assert tab.store_table.rowCount() == 1
        assert tab.store_table.item(0, 0).text() == "Later"  # type: ignore[union-attr]
    finally:
        window.shutdown()


def test_editing_and_renaming_keeps_a_key_kept_in_the_keyring(
    qtbot: QtBot, tab: ProfilesTab, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.helpers.qdrant import isolate_keyring

    from kortty_rag.config.secrets import profile_account, read_secret, store_secret

    isolate_keyring(monkeypatch, tmp_path / "keyring", "keyrings.alt.file.PlaintextKeyring")
    key = "gsk_Xq7Lp2Rt9Vb4Nm8Kd3Wz6Hj1Fs5Gc0Ya"
    profiles = ProfileRegistry()
    profiles.add(
        AiProfile(
            "Old", Backend.OPENAI, "m", endpoint="https://a.example.com", api_key_in_keyring=True
        )
    )
    store_secret(profile_account("Old"), key)
    tab.reload()
    tab.select_profile("Old")
    editor = open_editor(qtbot, tab, tab.edit_button)
    assert (
        editor.key_value_edit.text() == "" and "keyring" in editor.key_value_edit.placeholderText()
    )
    editor.name_edit.setText("New")
    save(qtbot, editor)
    qtbot.waitUntil(lambda: not editor.isVisible())
    assert ProfileRegistry().get("New").api_key_in_keyring
    assert read_secret(profile_account("New")) == key  # moved with the name …
    assert read_secret(profile_account("Old")) is None  # … and not left behind


def test_the_context_window_is_written_as_the_locale_writes_numbers(
    qtbot: QtBot, german: i18n.Translations
) -> None:
    editor = ProfileEditor(ProfileRegistry(), PathChooser())
    qtbot.addWidget(editor)
    assert editor.context_spin.text() == "8.192 Token"  # German groups thousands with a dot
    editor.context_spin.setValue(131072)
    assert editor.context_spin.text() == "131.072 Token"
