"""Create a knowledge store: the beginner flow, with the rest under "Advanced".

Beginner fields: a name, an installed embedding model, the roles the store serves (Text, Coding), and
at least one file or folder, which is scanned and reviewed right after the store is created (cancelling
that first review removes the store again). The minimum relevance of excerpts, the lexical language,
store type, vector dimensions and the Qdrant connection fields stay hidden under Advanced; the HNSW
parameters are internal and never shown.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QLocale, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from kortty_rag import languages
from kortty_rag.app.model_library import InstalledModel
from kortty_rag.app.search_results import DEFAULT_LEVEL
from kortty_rag.app.stores import QdrantTarget, check_qdrant_target
from kortty_rag.app.workspace import Workspace
from kortty_rag.errors import KorttyRagError
from kortty_rag.gui.common import (
    available_room,
    describe,
    keep_inside_screen,
    keyboard_friendly,
    show_error,
)
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.lexical_language import language_combo, selected_language
from kortty_rag.gui.relevance_combo import relevance_combo, selected_level
from kortty_rag.gui.workers import Job, JobRunner
from kortty_rag.models import Store, StoreRoles, StoreType
from kortty_rag.untrusted import escape_line


class CreateStoreDialog(QDialog):
    """Name, model, files and folders of a new store (and, under *Advanced*, its type, roles,
    language and minimum relevance).

    Signals: ``created(Store, list)`` — the store was created; the paths chosen are reviewed next.
    """

    created = Signal(object, list)  # Store, paths to review

    def __init__(
        self,
        workspace: Workspace,
        chooser: PathChooser,
        parent: QWidget | None = None,
        *,
        runner: JobRunner | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("createStoreDialog")
        self.setWindowTitle(self.tr("Create knowledge store"))
        self.workspace = workspace
        self.chooser = chooser
        #: runs the Qdrant connection check, which must not block the window
        self.runner = runner or JobRunner(self)
        self._connecting = False
        self._abandoned = False

        self.name_edit = QLineEdit(self)
        self.name_edit.setObjectName("storeNameEdit")
        self.name_edit.setPlaceholderText(self.tr("e.g. Project notes"))
        self.name_edit.setToolTip(
            self.tr("The store's name, as AI tools and the store list show it")
        )
        self.model_combo = QComboBox(self)
        self.model_combo.setObjectName("modelCombo")
        self.model_combo.setToolTip(
            self.tr("The installed model that turns the store's text into vectors for search")
        )
        self.text_role = QCheckBox(self.tr("&Text"), self)
        self.text_role.setObjectName("textRoleCheck")
        self.text_role.setChecked(True)
        self.text_role.setToolTip(self.tr("Use this store for the Text role (writing, questions)"))
        self.coding_role = QCheckBox(self.tr("C&oding"), self)
        self.coding_role.setObjectName("codingRoleCheck")
        self.coding_role.setToolTip(self.tr("Use this store for the Coding role"))
        roles = QHBoxLayout()
        roles.addWidget(self.text_role)
        roles.addWidget(self.coding_role)
        roles.addStretch(1)

        self.path_list = QListWidget(self)
        self.path_list.setObjectName("pathList")
        self.path_list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        describe(
            self.path_list,
            self.tr("The files and folders to index; they are reviewed before anything is indexed"),
            name=self.tr("Sources"),
        )
        add_folder = QPushButton(self.tr("Add &folder…"), self)
        self.add_folder_button = add_folder
        add_folder.setObjectName("dialogAddFolderButton")
        add_folder.setToolTip(self.tr("Choose a folder to add to the sources"))
        add_folder.clicked.connect(self._add_folder)
        add_files = QPushButton(self.tr("Add f&iles…"), self)
        add_files.setObjectName("dialogAddFilesButton")
        add_files.setToolTip(self.tr("Choose files to add to the sources"))
        add_files.clicked.connect(self._add_files)
        remove = QPushButton(self.tr("Remo&ve"), self)
        remove.setToolTip(self.tr("Take the selected file or folder off the list"))
        remove.clicked.connect(lambda: self.path_list.takeItem(self.path_list.currentRow()))
        path_buttons = QHBoxLayout()
        for button in (add_folder, add_files, remove):
            path_buttons.addWidget(button)
        path_buttons.addStretch(1)

        form = QFormLayout()
        form.addRow(self.tr("&Name"), self.name_edit)
        form.addRow(self.tr("Embedding &model"), self.model_combo)
        roles_label = QLabel(self.tr("Roles"), self)
        roles_label.setBuddy(self.text_role)  # the first of its check boxes
        form.addRow(roles_label, roles)
        form.addRow(self.tr("Sources"), self.path_list)
        form.addRow("", path_buttons)

        self.advanced_toggle = QCheckBox(self.tr("&Advanced"), self)
        self.advanced_toggle.setObjectName("advancedToggle")
        self.advanced_toggle.setToolTip(
            self.tr("Show the minimum relevance, lexical language, store type and Qdrant fields")
        )
        self.advanced = QGroupBox(self)
        self.advanced.setObjectName("advancedGroup")
        self.type_combo = QComboBox(self.advanced)
        self.type_combo.setObjectName("storeTypeCombo")
        self.type_combo.addItem(self.tr("Local (HNSW snapshot)"), StoreType.LOCAL.value)
        self.type_combo.addItem(self.tr("Qdrant service"), StoreType.QDRANT.value)
        self.type_combo.setToolTip(
            self.tr("Where the vectors are kept: on this computer, or in a Qdrant service")
        )
        self.dimensions = QLabel(self.advanced)
        self.dimensions.setObjectName("dimensionsLabel")
        self.qdrant_url = QLineEdit(self.advanced)
        self.qdrant_url.setObjectName("qdrantUrlEdit")
        self.qdrant_url.setPlaceholderText("https://qdrant.example.com:6333")
        self.qdrant_url.setToolTip(self.tr("The address of the Qdrant service"))
        self.qdrant_collection = QLineEdit(self.advanced)
        self.qdrant_collection.setObjectName("qdrantCollectionEdit")
        self.qdrant_collection.setPlaceholderText(self.tr("default: named after the store"))
        self.qdrant_collection.setToolTip(self.tr("The Qdrant collection that holds the vectors"))
        self.qdrant_key = QLineEdit(self.advanced)
        self.qdrant_key.setObjectName("qdrantKeyEdit")
        self.qdrant_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.qdrant_key.setPlaceholderText(self.tr("optional; kept in the OS keyring"))
        self.qdrant_key.setToolTip(self.tr("The Qdrant service's API key, if it needs one"))
        self.relevance_combo = relevance_combo(self.advanced, DEFAULT_LEVEL)
        self.relevance_combo.setObjectName("minRelevanceCombo")
        self.language_combo = language_combo(self.advanced, languages.AUTO)
        self.language_combo.setObjectName("lexicalLanguageCombo")
        advanced_form = QFormLayout(self.advanced)
        advanced_form.addRow(self.tr("Minimum &relevance"), self.relevance_combo)
        advanced_form.addRow(self.tr("Lexical &language"), self.language_combo)
        advanced_form.addRow(self.tr("Store t&ype"), self.type_combo)
        advanced_form.addRow(self.tr("Vector &dimensions"), self.dimensions)
        advanced_form.addRow(self.tr("Qdrant &URL"), self.qdrant_url)
        advanced_form.addRow(self.tr("Coll&ection"), self.qdrant_collection)
        advanced_form.addRow(self.tr("API &key"), self.qdrant_key)
        self.advanced.setVisible(False)
        self.advanced_toggle.toggled.connect(self.advanced.setVisible)
        self.type_combo.currentIndexChanged.connect(self._type_changed)
        self.model_combo.currentIndexChanged.connect(self._model_changed)

        buttons = QDialogButtonBox(self)
        self.create_button = buttons.addButton(
            self.tr("Create and revie&w…"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.create_button.setObjectName("createButton")
        self.create_button.setToolTip(
            self.tr("Create the store, then review what its sources hold before indexing")
        )
        self.cancel_button = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.setToolTip(self.tr("Close without creating a store"))
        buttons.accepted.connect(self._create)
        buttons.rejected.connect(self.reject)
        self.busy_label = QLabel(self)
        self.busy_label.setObjectName("createBusyLabel")
        self.busy_label.setVisible(False)

        # the fields scroll when the screen is too small for them (200 % on a laptop: Advanced
        # open needs more height than there is); the buttons below them stay in view
        content = QWidget(self)
        fields = QVBoxLayout(content)
        fields.setContentsMargins(0, 0, 0, 0)
        fields.addLayout(form)
        fields.addWidget(self.advanced_toggle)
        fields.addWidget(self.advanced)
        fields.addStretch(1)
        self.fields_view = QScrollArea(self)
        self.fields_view.setObjectName("createFields")
        self.fields_view.setWidgetResizable(True)
        self.fields_view.setFrameShape(QFrame.Shape.NoFrame)
        self.fields_view.setWidget(content)
        layout = QVBoxLayout(self)
        layout.addWidget(self.fields_view, 1)
        layout.addWidget(self.busy_label)
        layout.addWidget(buttons)
        self.reload_models()
        self._type_changed()
        keyboard_friendly(self)
        self.advanced_toggle.toggled.connect(lambda _: self.fit())

    def fit(self) -> None:
        """As large as the fields need, no larger than the screen (they scroll then), and inside
        it: it grows when Advanced opens and shrinks back when it closes."""
        content = self.fields_view.widget()
        layout = self.layout()
        assert content is not None and layout is not None
        inner = content.layout()
        if inner is not None:
            inner.activate()
        need = content.sizeHint()
        margins = layout.contentsMargins()
        below = sum(
            widget.sizeHint().height() + layout.spacing()
            for widget in (self.busy_label, self.create_button.parentWidget())
            if widget is not None and widget.isVisibleTo(self)
        )
        chrome_h = margins.top() + margins.bottom() + below
        chrome_w = margins.left() + margins.right()
        frame = self.frameGeometry()
        room = available_room(self)
        room_w = room.width() - (frame.width() - self.width())
        room_h = room.height() - (frame.height() - self.height())
        bar = (
            self.fields_view.verticalScrollBar().sizeHint().width()
            if need.height() + chrome_h > room_h
            else 0
        )
        self.fields_view.setMinimumSize(
            max(0, min(need.width() + bar, room_w - chrome_w)),
            max(0, min(need.height(), room_h - chrome_h)),
        )
        layout.activate()
        self.resize(
            min(max(self.minimumSizeHint().width(), need.width() + bar + chrome_w), room_w),
            min(need.height() + chrome_h, room_h),
        )
        keep_inside_screen(self)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.fit()

    def reload_models(self, select: str | None = None) -> None:
        self.model_combo.clear()
        for model in self.workspace.models.installed():
            self.model_combo.addItem(
                self.tr("{name} ({dimensions} dimensions)").format(
                    name=core_words(model.name), dimensions=model.dimensions
                ),
                model.id,
            )
            if model.id == select:
                self.model_combo.setCurrentIndex(self.model_combo.count() - 1)

    def selected_model(self) -> InstalledModel | None:
        model_id = self.model_combo.currentData()
        return self.workspace.models.find(model_id)

    def _model_changed(self) -> None:
        model = self.selected_model()
        self.dimensions.setText(
            self.tr("{dimensions} (from the model)").format(dimensions=model.dimensions)
            if model
            else "—"
        )

    def _settings(self) -> dict[str, Any] | None:
        """The store's first settings: the minimum relevance and the lexical language, each only
        when it is not the default."""
        retrieval: dict[str, Any] = {}
        level = selected_level(self.relevance_combo)
        if level is not DEFAULT_LEVEL:
            retrieval["min_relevance"] = level.value
        language = selected_language(self.language_combo)
        if language != languages.AUTO:
            retrieval["language"] = language
        return {"retrieval": retrieval} if retrieval else None

    def _qdrant_target(self) -> QdrantTarget:
        return QdrantTarget(
            self.qdrant_url.text(),
            self.qdrant_collection.text(),
            self.qdrant_key.text().strip() or None,
        )

    def _start_qdrant(self, model: InstalledModel, roles: StoreRoles) -> None:
        """Refuse a bad URL, collection or missing keyring at once; then create and connect in
        the background (:func:`kortty_rag.app.stores.create_store`): the store exists only once
        the service answered and the collection was created or validated."""
        target = self._qdrant_target()
        check_qdrant_target(target)
        workspace, name, paths = self.workspace, self.name_edit.text(), self.paths()
        identity, settings = model.identity(), self._settings()

        def create(progress: object, cancel: object) -> Store:
            return workspace.create_store(
                name, identity, roles=roles, settings=settings, qdrant=target
            )

        job = Job(create, key=f"create-store:{name}", name=self.tr("Create store"))
        job.signals.finished.connect(lambda store: self._created(store, paths))
        job.signals.failed.connect(self._connection_failed)
        self._set_connecting(True, target.url)
        self.runner.start(job)

    def _created(self, store: Store, paths: list[str]) -> None:
        self._set_connecting(False)
        self.qdrant_key.clear()  # in the keyring now, not kept in the widget
        if self._abandoned:  # cancelled while connecting: nothing is left behind
            self.workspace.discard_new_store(store)
            return
        self.created.emit(store, paths)
        self.accept()

    def _connection_failed(self, exc: BaseException) -> None:
        self._set_connecting(False)
        if not self._abandoned:
            show_error(self, self.tr("Create knowledge store"), exc)

    def _set_connecting(self, connecting: bool, url: str = "") -> None:
        self._connecting = connecting
        self.busy_label.setText(
            self.tr("Connecting to Qdrant at {url}…").format(url=escape_line(url))
            if connecting
            else ""
        )
        self.busy_label.setVisible(connecting)
        self.create_button.setEnabled(not connecting)

    def reject(self) -> None:
        """Cancel; while connecting, the store is removed again as soon as the attempt ends."""
        self._abandoned = self._connecting
        super().reject()

    def _type_changed(self) -> None:
        qdrant = self.type_combo.currentData() == StoreType.QDRANT.value
        for widget in (self.qdrant_url, self.qdrant_collection, self.qdrant_key):
            widget.setEnabled(qdrant)

    def _add_folder(self) -> None:
        folder = self.chooser.folder(self)
        if folder:
            self.path_list.addItem(folder)

    def _add_files(self) -> None:
        for name in self.chooser.files(self):
            self.path_list.addItem(name)

    def paths(self) -> list[str]:
        return [self.path_list.item(i).text() for i in range(self.path_list.count())]

    def _create(self) -> None:
        model = self.selected_model()
        problems: list[str] = []
        steps: list[str] = []  # what to do about each, in the dialog's own words
        first: QWidget | None = None
        if not self.name_edit.text().strip():
            problems.append(self.tr("a name"))
            steps.append(self.tr("type a name into Name"))
            first = first or self.name_edit
        if model is None:
            problems.append(self.tr("an installed embedding model"))
            steps.append(self.tr("choose one under Embedding model"))
            first = first or self.model_combo
        if not self.paths():
            problems.append(self.tr("at least one file or folder"))
            steps.append(self.tr("add what it makes searchable with Add folder… or Add files…"))
            first = first or self.add_folder_button
        if problems:
            if first is not None:
                first.setFocus()  # where the box hands the keyboard back to
            listed = QLocale().createSeparatedList(steps)
            show_error(
                self,
                self.tr("Create knowledge store"),
                KorttyRagError(
                    self.tr("The store needs {missing}.").format(
                        missing=QLocale().createSeparatedList(problems)
                    ),
                    hint=self.tr("{steps}, then press Create and review… again.").format(
                        steps=listed[:1].upper() + listed[1:]
                    ),
                ),
            )
            return
        assert model is not None
        roles = StoreRoles(text=self.text_role.isChecked(), coding=self.coding_role.isChecked())
        try:
            if self.type_combo.currentData() == StoreType.QDRANT.value:
                self._start_qdrant(model, roles)
                return
            store = self.workspace.create_store(
                self.name_edit.text(),
                model.identity(),
                roles=roles,
                settings=self._settings(),
            )
        except KorttyRagError as exc:
            show_error(self, self.tr("Create knowledge store"), exc)
            return
        self.created.emit(store, self.paths())
        self.accept()
