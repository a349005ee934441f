"""The AI profile editor (docs/DESIGN.md §12): one chat-model profile, validated like ``kortty-rag profile
add``.

The checks are the application layer's (:func:`kortty_rag.app.profiles.checked_profile`, the same
as ``kortty-rag profile add``): a llama.cpp model must be a readable GGUF file (stored as an absolute
path); an endpoint must be https, or plain http only to a loopback address. An endpoint's API key
is either pasted into the API key field — kept in the OS keyring, read back to be sure, never in a
file — or named by an environment variable (a value there that looks like a pasted key is refused
without echoing it). Fields that do not apply to the chosen backend are hidden, and what was typed
for one backend does not carry over into the other. *Test connection* asks the model for one token
(and an OpenAI-compatible server for its model list, offered while typing the model name) without
saving anything. The dialog stays open until the input is valid, and every refusal says what to
change in *this* form.

Saving is :func:`kortty_rag.app.profiles.save_profile`; a renamed profile keeps the roles it held.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
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

from kortty_rag.app.fields import ProfileField, ProfileFieldError
from kortty_rag.app.profiles import (
    PRESET_FAMILIES,
    AiProfile,
    Backend,
    ConnectionCheck,
    ProfileDraft,
    ProfileRegistry,
    check_connection,
    check_keyring,
    check_profile_name,
    checked_profile,
    keep_profile_key,
    looks_like_secret,
    save_profile,
)
from kortty_rag.errors import KorttyRagError, UsageError
from kortty_rag.gui.common import (
    keyboard_friendly,
    plain_label,
    resize_within_screen,
    set_tab_order,
    show_error,
)
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.workers import Job, JobRunner

#: the model of a profile tested before its model name is known (never saved, never shown)
UNNAMED_MODEL = "(the first model the server lists)"


def _local_model_hint() -> str:
    return translate(
        "ProfileEditor",
        "Choose a local GGUF chat model file with Browse… (llama.cpp loads .gguf files).",
    )


def _missing(field: ProfileField) -> tuple[str, str] | None:
    """What to fill in when ``field`` was left empty, in this form's words: (message, hint)."""
    if field is ProfileField.MODEL:
        return (
            translate("ProfileEditor", "No model name given"),
            translate("ProfileEditor", "Type the name of the model the server offers."),
        )
    if field is ProfileField.ENDPOINT:
        return (
            translate("ProfileEditor", "No endpoint URL given"),
            translate(
                "ProfileEditor",
                "Type the server's base URL, e.g. https://api.example.com/v1 "
                "(plain http:// only for 127.0.0.1, [::1] or localhost).",
            ),
        )
    return None


def _key_variable_hint() -> str:
    return translate(
        "ProfileEditor",
        "Paste the key itself into API key (it is kept in the OS keyring), or enter the name of an "
        "environment variable that holds it, e.g. OPENAI_API_KEY.",
    )


def connection_test_tip() -> str:
    return translate(
        "ProfileEditor",
        "Ask the model for one word, without saving: is the server there, and is the key right?",
    )


def _in_form_words(exc: ProfileFieldError, local: bool) -> UsageError:
    """``exc`` with a message and hint about this form's fields."""
    if exc.missing and exc.field is ProfileField.MODEL and local:
        return UsageError(
            translate("ProfileEditor", "No GGUF file chosen"), hint=_local_model_hint()
        )
    missing = _missing(exc.field) if exc.missing else None
    if missing is not None:
        message, hint = missing
        return UsageError(message, hint=hint)
    if exc.field is ProfileField.MODEL and local:
        return UsageError(exc.message, hint=_local_model_hint())
    if exc.field is ProfileField.KEY_VARIABLE:
        return UsageError(exc.message, hint=_key_variable_hint())
    return UsageError(exc.message, hint=exc.hint)


def preset_words(preset: str) -> str:
    """A prompt preset in words: the model families by their names, the fallback described."""
    if preset == "generic":
        return translate("ProfileEditor", "generic")
    return preset


def backend_label(backend: Backend) -> str:
    """A backend in words."""
    if backend is Backend.LLAMA_CPP:
        return translate("ProfileEditor", "llama.cpp (local GGUF file)")
    return translate("ProfileEditor", "OpenAI-compatible endpoint")


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
        self.setWindowTitle(self.tr("Edit AI profile") if profile else self.tr("Add AI profile"))
        self.profiles, self.chooser, self.original = profiles, chooser, profile
        self.saved: AiProfile | None = None

        self.name_edit = self._line(
            "nameEdit",
            self.tr("e.g. Local Llama"),
            self.tr("The profile's name, shown in the role lists"),
        )
        self.backend_combo = QComboBox(self)
        self.backend_combo.setObjectName("backendCombo")
        self.backend_combo.setToolTip(
            self.tr("Where the chat model runs: a GGUF file on this computer, or a server")
        )
        for backend in Backend:
            self.backend_combo.addItem(backend_label(backend), backend.value)
        self.model_edit = self._line("modelEdit", "", "")
        self.browse_button = QPushButton(self.tr("&Browse…"), self)
        self.browse_button.setObjectName("browseButton")
        self.browse_button.setToolTip(self.tr("Choose the GGUF chat model file"))
        self.browse_button.clicked.connect(self._browse)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model_edit, 1)
        model_row.addWidget(self.browse_button)
        self.endpoint_edit = self._line(
            "endpointEdit",
            "https://api.example.com/v1",
            self.tr(
                "The server's base URL: https://, or plain http:// only for this computer "
                "(127.0.0.1, [::1] or localhost)"
            ),
        )
        self.key_value_edit = self._line(
            "apiKeyEdit",
            self.tr("paste the key: it is kept in the OS keyring"),
            self.tr(
                "The server's API key, if it needs one: kept in the OS keyring, never in a file"
            ),
        )
        self.key_value_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit = self._line(
            "apiKeyEnvEdit",
            self.tr("or: e.g. OPENAI_API_KEY (a variable's name)"),
            self.tr(
                "Instead of the key: the name of an environment variable that holds it (not the "
                "key itself)"
            ),
        )
        self.context_spin = QSpinBox(self)
        self.context_spin.setObjectName("contextWindowSpin")
        self.context_spin.setRange(512, 4_194_304)
        self.context_spin.setSingleStep(1024)
        self.context_spin.setSuffix(self.tr(" tokens"))
        self.context_spin.setGroupSeparatorShown(True)  # „8.192 Token“, as the locale writes it
        self.context_spin.setValue(8192)
        self.context_spin.setToolTip(
            self.tr(
                "How many tokens the model reads at once; a quarter of it at most goes to "
                "excerpts from the knowledge stores"
            )
        )
        self.preset_combo = QComboBox(self)
        self.preset_combo.setObjectName("presetCombo")
        for preset in PRESET_FAMILIES:
            self.preset_combo.addItem(preset_words(preset), preset)
        self.preset_combo.setToolTip(self.tr("The prompt format of the model's family"))

        self.form = QFormLayout()
        self.form.addRow(self.tr("&Name:"), self.name_edit)
        self.form.addRow(self.tr("B&ackend:"), self.backend_combo)
        self.model_label = QLabel(self)
        self.model_label.setBuddy(self.model_edit)
        # the endpoint first: the models offered depend on the server it names
        self.form.addRow(self.tr("&Endpoint URL:"), self.endpoint_edit)
        self.form.addRow(self.model_label, model_row)
        self.form.addRow(self.tr("API &key:"), self.key_value_edit)
        self.form.addRow(self.tr("Key &variable:"), self.key_edit)
        self.form.addRow(self.tr("&Context window:"), self.context_spin)
        self.form.addRow(self.tr("&Prompt preset:"), self.preset_combo)

        self.test_button = QPushButton(self.tr("&Test connection"), self)
        self.test_button.setObjectName("testConnectionButton")
        self.test_button.setToolTip(connection_test_tip())
        self.test_button.clicked.connect(self.test_connection)
        self.check_label = QLabel("", self)
        self.check_label.setObjectName("connectionStatus")
        self.check_label.setWordWrap(True)
        self.check_label.setTextFormat(Qt.TextFormat.PlainText)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addWidget(self.check_label, 1)
        self.runner = JobRunner(self, max_threads=1)
        self._check_job: Job | None = None
        #: what was typed as the model for each backend: switching does not carry it over
        self._models: dict[Backend, str] = {}
        self._shown_backend: Backend | None = None

        buttons = QDialogButtonBox(self)
        self.save_button = buttons.addButton(QDialogButtonBox.StandardButton.Save)
        self.save_button.setObjectName("saveProfileButton")
        self.save_button.setToolTip(
            self.tr("Save the profile; the form stays open until its fields are valid")
        )
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setToolTip(self.tr("Close without saving"))
        buttons.accepted.connect(self._save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addLayout(test_row)
        layout.addWidget(buttons)
        order = [self.name_edit, self.backend_combo, self.endpoint_edit, self.model_edit]
        order += [self.browse_button, self.key_value_edit, self.key_edit, self.context_spin]
        order += [self.preset_combo, self.test_button]
        set_tab_order([*order, self.save_button, cancel])

        if profile is not None:
            self.name_edit.setText(profile.name)
            self.backend_combo.setCurrentIndex(self.backend_combo.findData(profile.backend.value))
            self.model_edit.setText(profile.model)
            self.endpoint_edit.setText(profile.endpoint or "")
            self.key_edit.setText(profile.api_key_env or "")
            if profile.api_key_in_keyring:
                self.key_value_edit.setPlaceholderText(
                    self.tr("empty: keep the key stored in the OS keyring")
                )
            self.context_spin.setValue(profile.context_window)
            self.preset_combo.setCurrentIndex(max(0, self.preset_combo.findData(profile.preset)))
        self.backend_combo.currentIndexChanged.connect(self._backend_changed)
        self._backend_changed()
        resize_within_screen(self, 560, 0)
        keyboard_friendly(self)

    def _line(self, name: str, placeholder: str, tip: str) -> QLineEdit:
        edit = QLineEdit(self)
        edit.setObjectName(name)
        edit.setPlaceholderText(placeholder)
        edit.setToolTip(tip)
        return edit

    def backend(self) -> Backend:
        return Backend(self.backend_combo.currentData())

    def _backend_changed(self) -> None:
        """A local model is a GGUF file; an endpoint needs a URL, a model name and maybe a key.
        The other backend's fields are hidden, and its model is put aside, not carried over."""
        backend = self.backend()
        if self._shown_backend is not None and self._shown_backend is not backend:
            self._models[self._shown_backend] = self.model_edit.text()
            self.model_edit.setText(self._models.get(backend, ""))
            self.model_edit.setCompleter(None)  # type: ignore[arg-type]  # None removes it
            self.check_label.clear()
        self._shown_backend = backend
        local = backend is Backend.LLAMA_CPP
        self.model_label.setText(self.tr("GGUF &file:") if local else self.tr("&Model name:"))
        self.model_edit.setAccessibleName(plain_label(self.model_label.text()))
        self.model_edit.setPlaceholderText(
            self.tr("/path/to/chat-model.gguf")
            if local
            else self.tr("the model name the server offers")
        )
        self.model_edit.setToolTip(
            self.tr("The GGUF chat model file on this computer (an absolute path)")
            if local
            else self.tr("The name of the model on the server; Test connection lists them")
        )
        self.browse_button.setVisible(local)
        self.form.setRowVisible(self.endpoint_edit, not local)
        self.form.setRowVisible(self.key_value_edit, not local)
        self.form.setRowVisible(self.key_edit, not local)

    def _browse(self) -> None:
        path = self.chooser.gguf(self)
        if path:
            self.model_edit.setText(path)

    def pasted_key(self) -> str | None:
        """The API key pasted into the form (``None``: none, or not for this backend)."""
        if self.backend() is Backend.LLAMA_CPP:
            return None
        return self.key_value_edit.text().strip() or None

    def profile_from_fields(self, *, model: str | None = None) -> AiProfile:
        """The profile the fields describe (``model``: instead of the model field's text);
        :class:`UsageError` says what to change in this form."""
        if not self.name_edit.text().strip():
            raise UsageError(
                self.tr("Give the profile a name"),
                hint=self.tr("A short name you will recognise, e.g. Local Llama."),
            )
        try:
            name = check_profile_name(self.name_edit.text())
        except KorttyRagError:
            raise UsageError(
                self.tr("{name} cannot be a profile name").format(
                    name=repr(self.name_edit.text().strip())
                ),
                hint=self.tr("Use letters, digits, spaces, dots, dashes or underscores."),
            ) from None
        backend, key_variable = self.backend(), self.key_edit.text().strip() or None
        local = backend is Backend.LLAMA_CPP
        pasted = self.pasted_key()
        if pasted and key_variable:
            raise UsageError(
                self.tr("Give the API key or the name of a variable that holds it, not both"),
                hint=self.tr("Clear one of the two fields."),
            )
        kept = (self.original is not None and self.original.api_key_in_keyring) or bool(pasted)
        draft = ProfileDraft(
            name=name,
            backend=backend,
            model=self.model_edit.text() if model is None else model,
            context_window=self.context_spin.value(),
            preset=self.preset_combo.currentData(),
            endpoint=None if local else self.endpoint_edit.text(),
            key_variable=None if local else key_variable,
            key_in_keyring=not local and kept and key_variable is None,  # keep the keyring key
        )
        try:
            return checked_profile(draft)
        except ProfileFieldError as exc:
            if exc.field is ProfileField.KEY_VARIABLE and looks_like_secret(key_variable or ""):
                self.key_edit.clear()  # the refusal says it is not shown: not left on screen
            raise _in_form_words(exc, local) from None

    def _save(self) -> None:
        try:
            profile = self.profile_from_fields()
            key = self.pasted_key()
            if key:
                check_keyring()  # no keyring: refuse before anything is saved
            self._persist(profile)  # a clash of names is refused here, before a key is touched
            if key:  # after a rename moved the old key: the pasted one wins
                keep_profile_key(profile.name, key)
                self.key_value_edit.clear()
        except KorttyRagError as exc:
            show_error(self, self.tr("AI profile not saved"), exc)
            return
        self.saved = profile
        self.accept()

    def test_connection(self) -> None:
        """One token from the model the fields describe, in the background; nothing is saved."""
        if self._check_job is not None:
            return
        # an endpoint without a model name yet: the check asks the first model the server lists
        unnamed = self.backend() is Backend.OPENAI and not self.model_edit.text().strip()
        try:
            profile = self.profile_from_fields(model=UNNAMED_MODEL if unnamed else None)
        except KorttyRagError as exc:
            self.check_label.setText(
                self.tr("Not tested: {message}. {hint}")
                .format(message=core_words(exc.message), hint=core_words(exc.hint))
                .strip()
            )
            return
        key = self.pasted_key()

        def check(progress: object, cancel: object) -> ConnectionCheck:
            return check_connection(profile, key=key, first_listed_model=unnamed)

        job = Job(check, key="profile-check", name=self.tr("Test connection"))
        job.signals.finished.connect(self._checked)
        job.signals.failed.connect(self._check_failed)
        job.signals.done.connect(self._check_done)
        self._check_job = job
        self.test_button.setEnabled(False)
        local = profile.backend is Backend.LLAMA_CPP
        self.check_label.setText(self.tr("Loading the model…") if local else self.tr("Connecting…"))
        self.runner.start(job)

    def _checked(self, result: ConnectionCheck) -> None:
        text = self.tr("Connected: the model answered.")
        if result.models:
            shown = ", ".join(result.models[:5]) + (" …" if len(result.models) > 5 else "")
            text = self.tr(
                "Connected: the model answered. The server offers %n: {models}.",
                "",
                len(result.models),
            ).format(models=shown)
            completer = QCompleter(list(result.models), self.model_edit)
            completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
            self.model_edit.setCompleter(completer)
            if not self.model_edit.text().strip():
                self.model_edit.setText(result.models[0])
        self.check_label.setText(text)

    def _check_failed(self, exc: BaseException) -> None:
        if isinstance(exc, KorttyRagError):
            message = core_words(exc.message)
            self.check_label.setText(
                self.tr("No answer: {message}. {hint}").format(
                    message=message, hint=core_words(exc.hint)
                )
                if exc.hint
                else self.tr("No answer: {message}.").format(message=message)
            )
        else:
            show_error(self, self.tr("Test connection"), exc)
            self.check_label.setText(self.tr("The test failed unexpectedly."))

    def _check_done(self) -> None:
        self._check_job = None
        self.test_button.setEnabled(True)

    def _persist(self, profile: AiProfile) -> None:
        """Add, or replace the edited profile; a renamed profile keeps the roles it held."""
        try:
            save_profile(self.profiles, profile, self.original)
        except ProfileFieldError as exc:
            raise UsageError(
                exc.message,
                hint=self.tr("Choose another name, or select that profile and use Edit…."),
            ) from None
