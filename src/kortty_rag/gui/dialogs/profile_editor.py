"""The AI profile editor (docs/DESIGN.md §12): one chat-model profile, validated like ``kortty-rag profile
add``.

The checks are the application layer's (:func:`kortty_rag.app.profiles.checked_profile`, the same
as ``kortty-rag profile add``): a llama.cpp model must be a readable GGUF file (stored as an absolute
path); an endpoint must be https, or plain http only to a loopback address; the API key is named by
an environment variable and never stored — a value that looks like a pasted key is refused without
echoing it. The dialog stays open until the input is valid, and every refusal says what to change in
*this* form: each refusal names its field, and the hint is worded here for the form's own fields.

Saving is :func:`kortty_rag.app.profiles.save_profile`; a renamed profile keeps the roles it held.
"""

from __future__ import annotations

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

from kortty_rag.app.fields import FieldError, ProfileField
from kortty_rag.app.profiles import ProfileDraft, checked_profile, save_profile
from kortty_rag.config.registry import validate_name
from kortty_rag.errors import KorttyRagError, UsageError
from kortty_rag.gui.common import PathChooser, set_tab_order, show_error
from kortty_rag.profiles.profiles import PRESET_FAMILIES, AiProfile, Backend, ProfileRegistry

_LOCAL_MODEL_HINT = (
    "Choose a local GGUF chat model file with Browse… (llama.cpp loads .gguf files)."
)
#: what to fill in when a field was left empty, in this form's words
_MISSING = {
    ProfileField.MODEL: ("No model name given", "Type the name of the model the server offers."),
    ProfileField.ENDPOINT: (
        "No endpoint URL given",
        "Type the server's base URL, e.g. https://api.example.com/v1 "
        "(plain http:// only for 127.0.0.1, [::1] or localhost).",
    ),
}
_KEY_VARIABLE_HINT = "Enter e.g. OPENAI_API_KEY and put the key in that variable before starting."


def _in_form_words(exc: FieldError, local: bool) -> UsageError:
    """``exc`` with a message and hint about this form's fields."""
    if exc.missing and exc.field is ProfileField.MODEL and local:
        return UsageError("No GGUF file chosen", hint=_LOCAL_MODEL_HINT)
    if exc.missing and exc.field in _MISSING:
        message, hint = _MISSING[exc.field]
        return UsageError(message, hint=hint)
    if exc.field is ProfileField.MODEL and local:
        return UsageError(exc.message, hint=_LOCAL_MODEL_HINT)
    if exc.field is ProfileField.KEY_VARIABLE:
        return UsageError(exc.message, hint=_KEY_VARIABLE_HINT)
    return UsageError(exc.message, hint=exc.hint)


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
        """The profile the fields describe; :class:`UsageError` says what to change in this form."""
        name = validate_name(self.name_edit.text(), "AI profile")
        backend, key_variable = self.backend(), self.key_edit.text().strip() or None
        local = backend is Backend.LLAMA_CPP
        kept = self.original is not None and self.original.api_key_in_keyring
        draft = ProfileDraft(
            name=name,
            backend=backend,
            model=self.model_edit.text(),
            context_window=self.context_spin.value(),
            preset=self.preset_combo.currentText(),
            endpoint=None if local else self.endpoint_edit.text(),
            key_variable=None if local else key_variable,
            key_in_keyring=not local and kept and key_variable is None,  # keep the keyring key
        )
        try:
            return checked_profile(draft)
        except FieldError as exc:
            raise _in_form_words(exc, local) from None

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
        try:
            save_profile(self.profiles, profile, self.original)
        except FieldError as exc:
            raise UsageError(
                exc.message, hint="Choose another name, or select that profile and use Edit…."
            ) from None
