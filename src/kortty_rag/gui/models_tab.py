"""The Models tab: the installed embedding models and the way to set up another one.

The table shows what a store gets bound to (docs/DESIGN.md §3): id, name, dimensions, pooling, chunk length,
size and origin (starter, catalog or import). It reads ``~/.kortty/models`` afresh whenever it is
shown, because a model can also arrive through the wizard that "Create" opens on the Knowledge
Stores tab, or from the CLI while the window is open.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.model_library import InstalledModel, ModelLibrary
from kortty_rag.gui.common import describe, set_tab_order
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.dialogs.model_wizard import ElidedLabel, ModelWizard
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.table_models import Index, RowsModel
from kortty_rag.gui.workers import JobRunner
from kortty_rag.messages import human_size


def empty_hint() -> str:
    return translate(
        "ModelsTab",
        "No embedding model is installed yet. A knowledge store needs one: press “Set up a "
        "model…” to download one, import a GGUF file, or install the offline starter model.",
    )


def pooling_words(pooling: str) -> str:
    """How a model pools its token vectors into one, in words (the GGUF's own name otherwise)."""
    if pooling == "mean":
        return translate("InstalledModelTableModel", "mean")
    if pooling == "cls":
        return translate("InstalledModelTableModel", "cls")
    if pooling == "last":
        return translate("InstalledModelTableModel", "last")
    if pooling == "rank":
        return translate("InstalledModelTableModel", "rank")
    if pooling == "none":
        return translate("InstalledModelTableModel", "none")
    if pooling == "unknown":
        return translate("InstalledModelTableModel", "unknown")
    return pooling


def origin_words(origin: str) -> str:
    """Where an installed model came from, in words."""
    if origin == "starter":
        return translate("InstalledModelTableModel", "starter")
    if origin == "catalog":
        return translate("InstalledModelTableModel", "catalog")
    if origin == "import":
        return translate("InstalledModelTableModel", "import")
    return origin


class InstalledModelTableModel(RowsModel[InstalledModel]):
    columns = (
        (lambda: translate("InstalledModelTableModel", "Id"), lambda m: m.id, lambda m: m.id),
        (
            lambda: translate("InstalledModelTableModel", "Name"),
            lambda m: core_words(m.name),
            lambda m: m.name.lower(),
        ),
        (
            lambda: translate("InstalledModelTableModel", "Dimensions"),
            lambda m: str(m.dimensions),
            lambda m: m.dimensions,
        ),
        (
            lambda: translate("InstalledModelTableModel", "Pooling"),
            lambda m: pooling_words(m.pooling),
            lambda m: m.pooling,
        ),
        (
            lambda: translate("InstalledModelTableModel", "Chunk tokens"),
            lambda m: str(m.chunk_tokens),
            lambda m: m.chunk_tokens,
        ),
        (
            lambda: translate("InstalledModelTableModel", "Size"),
            lambda m: core_words(human_size(m.size)),
            lambda m: m.size,
        ),
        (
            lambda: translate("InstalledModelTableModel", "Origin"),
            lambda m: origin_words(m.origin),
            lambda m: m.origin,
        ),
    )

    def data(self, index: Index, role: int = 0) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and index.isValid():
            model = self.row(index.row())
            return f"{core_words(model.name)}\n{model.path}\nSHA-256 {model.sha256}"
        return super().data(index, role)


class ModelsTab(QWidget):
    """The installed embedding models, and *Set up a model…*.

    Signals: ``models_changed()`` — a model was installed from here.
    """

    models_changed = Signal()

    def __init__(
        self,
        runner: JobRunner,
        chooser: PathChooser,
        parent: QWidget | None = None,
        *,
        models: ModelLibrary | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("modelsTab")
        self.models_library = models or ModelLibrary()
        self.runner = runner
        self.chooser = chooser
        self.wizard: ModelWizard | None = None

        self.model = InstalledModelTableModel()
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(Qt.ItemDataRole.UserRole)
        self.table = QTableView(self)
        self.table.setObjectName("modelsTable")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        describe(
            self.table,
            self.tr(
                "The installed embedding models: id, name, dimensions, pooling, chunk length, size "
                "and origin"
            ),
            name=self.tr("Installed models"),
        )

        self.empty_hint = QLabel(empty_hint(), self)
        self.empty_hint.setObjectName("modelsEmptyHint")
        self.empty_hint.setWordWrap(True)
        self.setup_button = QPushButton(self.tr("Set up a &model…"), self)
        self.setup_button.setObjectName("setupModelButton")
        self.setup_button.setToolTip(
            self.tr("Download a model, import a GGUF file or install the offline starter model")
        )
        self.setup_button.clicked.connect(self.open_wizard)
        self.reload_button = QPushButton(self.tr("&Reload"), self)
        self.reload_button.setObjectName("reloadModelsButton")
        self.reload_button.setToolTip(self.tr("Read the models folder again"))
        self.reload_button.clicked.connect(self.reload)
        self.folder = ElidedLabel(self._folder_text(), self)
        self.folder.setObjectName("modelsFolderLabel")

        buttons = QHBoxLayout()
        buttons.addWidget(self.setup_button)
        buttons.addWidget(self.reload_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.empty_hint)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.folder)
        set_tab_order([self.setup_button, self.reload_button, self.table])
        self.reload()

    def models(self) -> list[InstalledModel]:
        return self.model.rows

    def reload(self) -> None:
        """Read the models folder again, keeping the selected model selected."""
        selected = self.selected_id()
        self.model.set_rows(self.models_library.installed())
        self.empty_hint.setVisible(not self.model.rows)
        self.folder.set_full_text(self._folder_text())
        if selected is not None:
            self.select(selected)

    def _folder_text(self) -> str:
        return self.tr("Installed in {path}").format(path=self.models_library.folder())

    def selected_id(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return str(rows[0].data(Qt.ItemDataRole.UserRole)) if rows else None

    def select(self, model_id: str) -> None:
        for row in range(self.proxy.rowCount()):
            if self.proxy.index(row, 0).data(Qt.ItemDataRole.UserRole) == model_id:
                self.table.selectRow(row)

    def open_wizard(self) -> None:
        if self.wizard is not None and self.wizard.isVisible():
            self.wizard.raise_()
            self.wizard.activateWindow()
            return
        wizard = ModelWizard(
            self.runner, self.chooser, role="embedding", parent=self, models=self.models_library
        )
        wizard.installed.connect(self._installed)
        self.wizard = wizard
        wizard.open()

    def _installed(self, model: InstalledModel) -> None:
        self.reload()
        self.select(model.id)
        self.models_changed.emit()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.reload()
