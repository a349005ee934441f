"""The AI profile editor (docs/DESIGN.md §12): one chat-model profile, validated like ``kortty-rag profile
add``.

A llama.cpp model must be a readable GGUF file (the CLI's own check, stored as an absolute path); an
endpoint must be https, or plain http only to a loopback address; the API key is named by an
environment variable and never stored — a value that looks like a pasted key is refused without
echoing it. The dialog stays open until the input is valid, and every refusal says what to change in
*this* form (the CLI's hints name command-line options, so they are replaced here).

Saving goes straight through :class:`ProfileRegistry`; a renamed profile keeps the roles it held.
"""

from __future__ import annotations

import argparse
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.cli.profiles_cmd import checked_profile
from kortty_rag.config.endpoints import check_endpoint
from kortty_rag.config.key_variables import check_key_variable
from kortty_rag.config.registry import validate_name
from kortty_rag.config.secrets import profile_account, read_secret, store_secret
from kortty_rag.errors import KorttyRagError, UsageError
from kortty_rag.gui.common import PathChooser, set_tab_order, show_error
from kortty_rag.profiles.profiles import PRESET_FAMILIES, AiProfile, Backend, ProfileRegistry

BACKEND_LABELS = {
    Backend.LLAMA_CPP: "llama.cpp (local GGUF file)",
    Backend.OPENAI: "OpenAI-compatible endpoint",
}


class ProfileEditor(QDialog):
    """Add or edit one AI profile; stays open with an explanation until the input is valid."""

    def __init__(
        self,
        profiles: ProfileRegistry,
        chooser: PathChooser,
        profile: AiProfile | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("profileEditor")
        self.setWindowTitle("Edit AI profile" if profile else "Add AI profile")
        self.profiles, self.chooser, self.original = profiles, chooser, profile
        self.saved: AiProfile | None = None

        self.name_edit = self._line("nameEdit", "e.g. Local Llama")
        self.backend_combo = QComboBox(self)
        self.backend_combo.setObjectName("backendCombo")
        for backend, label in BACKEND_LABELS.items():
            self.backend_combo.addItem(label, backend.value)
        self.model_edit = self._line("modelEdit", "")
        self.browse_button = QPushButton("&Browse…", self)
        self.browse_button.setObjectName("browseButton")
        self.browse_button.clicked.connect(self._browse)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model_edit, 1)
        model_row.addWidget(self.browse_button)
        self.endpoint_edit = self._line("endpointEdit", "https://api.example.com/v1")
        self.key_edit = self._line("apiKeyEnvEdit", "e.g. OPENAI_API_KEY (the variable's name)")
        self.context_spin = QSpinBox(self)
        self.context_spin.setObjectName("contextWindowSpin")
        self.context_spin.setRange(512, 4_194_304)
        self.context_spin.setSingleStep(1024)
        self.context_spin.setSuffix(" tokens")
        self.context_spin.setValue(8192)
        self.preset_combo = QComboBox(self)
        self.preset_combo.setObjectName("presetCombo")
        self.preset_combo.addItems(list(PRESET_FAMILIES))

        self.form = QFormLayout()
        self.form.addRow("&Name:", self.name_edit)
        self.form.addRow("B&ackend:", self.backend_combo)
        self.model_label = QLabel(self)
        self.model_label.setBuddy(self.model_edit)
        self.form.addRow(self.model_label, model_row)
        self.form.addRow("&Endpoint URL:", self.endpoint_edit)
        self.form.addRow("API &key variable:", self.key_edit)
        self.form.addRow("&Context window:", self.context_spin)
        self.form.addRow("&Prompt preset:", self.preset_combo)

        buttons = QDialogButtonBox(self)
        self.save_button = buttons.addButton(QDialogButtonBox.StandardButton.Save)
        self.save_button.setObjectName("saveProfileButton")
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(buttons)
        order = [self.name_edit, self.backend_combo, self.model_edit, self.browse_button]
        order += [self.endpoint_edit, self.key_edit, self.context_spin, self.preset_combo]
        set_tab_order([*order, self.save_button, cancel])

        if profile is not None:
            self.name_edit.setText(profile.name)
            self.backend_combo.setCurrentIndex(self.backend_combo.findData(profile.backend.value))
            self.model_edit.setText(profile.model)
            self.endpoint_edit.setText(profile.endpoint or "")
            self.key_edit.setText(profile.api_key_env or "")
            if profile.api_key_in_keyring:
                self.key_edit.setPlaceholderText("empty: keep the key stored in the OS keyring")
            self.context_spin.setValue(profile.context_window)
            self.preset_combo.setCurrentText(profile.preset)
        self.backend_combo.currentIndexChanged.connect(self._backend_changed)
        self._backend_changed()
        self.resize(560, 0)

    def _line(self, name: str, placeholder: str) -> QLineEdit:
        edit = QLineEdit(self)
        edit.setObjectName(name)
        edit.setPlaceholderText(placeholder)
        return edit

    def backend(self) -> Backend:
        return Backend(self.backend_combo.currentData())

    def _backend_changed(self) -> None:
        """A local model is a GGUF file; an endpoint needs a URL, a model name and maybe a key."""
        local = self.backend() is Backend.LLAMA_CPP
        self.model_label.setText("GGUF &file:" if local else "&Model name:")
        self.model_edit.setPlaceholderText(
            "/path/to/chat-model.gguf" if local else "the model name the server offers"
        )
        self.browse_button.setVisible(local)
        self.form.setRowVisible(self.endpoint_edit, not local)
        self.form.setRowVisible(self.key_edit, not local)

    def _browse(self) -> None:
        path = self.chooser.gguf(self)
        if path:
            self.model_edit.setText(path)

    def profile_from_fields(self) -> AiProfile:
        """The profile the fields describe; :class:`UsageError` says what to change."""
        name = validate_name(self.name_edit.text(), "AI profile")
        backend, model = self.backend(), self.model_edit.text().strip()
        values: dict[str, Any] = dict(
            name=name,
            backend=backend.value,
            model=model,
            context_window=self.context_spin.value(),
            preset=self.preset_combo.currentText(),
            endpoint=None,
            api_key_env=None,
        )
        if backend is Backend.LLAMA_CPP:
            hint = "Choose a local GGUF chat model file with Browse… (llama.cpp loads .gguf files)."
            if not model:
                raise UsageError("No GGUF file chosen", hint=hint)
            try:
                return checked_profile(argparse.Namespace(**values))
            except UsageError as exc:  # the CLI's hint names command-line options
                raise UsageError(exc.message, hint=hint) from exc
        if not model:
            raise UsageError(
                "No model name given", hint="Type the name of the model the server offers."
            )
        endpoint = self.endpoint_edit.text().strip()
        if not endpoint:
            raise UsageError(
                "No endpoint URL given",
                hint="Type the server's base URL, e.g. https://api.example.com/v1 "
                "(plain http:// only for 127.0.0.1, [::1] or localhost).",
            )
        values["endpoint"] = check_endpoint(endpoint, what="endpoint URL").url
        key_env = self.key_edit.text().strip()
        if key_env:
            try:
                check_key_variable(key_env)
            except UsageError as exc:  # never echo it: it may be a pasted key
                raise UsageError(
                    "The API key field takes the name of an environment variable, not the key "
                    f"itself: {exc.message[0].lower()}{exc.message[1:]}",
                    hint="Enter e.g. OPENAI_API_KEY and put the key in that variable before "
                    "starting.",
                ) from None
        values["api_key_env"] = key_env or None
        kept = self.original is not None and self.original.api_key_in_keyring
        values["api_key_from_stdin"] = kept and not key_env  # keep the keyring key
        return checked_profile(argparse.Namespace(**values))

    def _save(self) -> None:
        try:
            profile = self.profile_from_fields()
            self._persist(profile)
        except KorttyRagError as exc:
            show_error(self, "AI profile not saved", exc)
            return
        self.saved = profile
        self.accept()

    def _persist(self, profile: AiProfile) -> None:
        """Add, or replace the edited profile; a renamed profile keeps the roles it held."""
        old = self.original
        same = old is not None and old.name.lower() == profile.name.lower()
        settings = self.profiles.load()
        if not same and any(p.name.lower() == profile.name.lower() for p in settings.profiles):
            raise UsageError(
                f"An AI profile named {profile.name!r} already exists",
                hint="Choose another name, or select that profile and use Edit….",
            )
        held = settings.roles_of(old.name) if old is not None else []
        self.profiles.add(profile, replace_existing=same)
        if old is not None and not same and old.api_key_in_keyring and profile.api_key_in_keyring:
            key = read_secret(profile_account(old.name))  # the key moves with the name
            if key:
                store_secret(profile_account(profile.name), key)
        if old is not None and not same:
            self.profiles.remove(old.name)
        for role in held:
            self.profiles.assign(role, profile.name)
