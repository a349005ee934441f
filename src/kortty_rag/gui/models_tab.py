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

from kortty_rag.config.paths import models_dir
from kortty_rag.embedding.installed import InstalledModel, list_models
from kortty_rag.gui.common import PathChooser, set_tab_order
from kortty_rag.gui.dialogs.model_wizard import ElidedLabel, ModelWizard
from kortty_rag.gui.table_models import Index, RowsModel
from kortty_rag.gui.workers import JobRunner
from kortty_rag.sources.scan import human_size

EMPTY_HINT = (
    "No embedding model is installed yet. A knowledge store needs one: press “Set up a model…” "
    "to download one, import a GGUF file, or install the offline starter model."
)


class InstalledModelTableModel(RowsModel[InstalledModel]):
    columns = (
        ("Id", lambda m: m.id, lambda m: m.id),
        ("Name", lambda m: m.name, lambda m: m.name.lower()),
        ("Dimensions", lambda m: str(m.dimensions), lambda m: m.dimensions),
        ("Pooling", lambda m: m.pooling, lambda m: m.pooling),
        ("Chunk tokens", lambda m: str(m.chunk_tokens), lambda m: m.chunk_tokens),
        ("Size", lambda m: human_size(m.size), lambda m: m.size),
        ("Origin", lambda m: m.origin, lambda m: m.origin),
    )

    def data(self, index: Index, role: int = 0) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and index.isValid():
            model = self.row(index.row())
            return f"{model.name}\n{model.path}\nSHA-256 {model.sha256}"
        return super().data(index, role)


class ModelsTab(QWidget):
    models_changed = Signal()

    def __init__(
        self, runner: JobRunner, chooser: PathChooser, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("modelsTab")
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

        self.empty_hint = QLabel(EMPTY_HINT, self)
        self.empty_hint.setObjectName("modelsEmptyHint")
        self.empty_hint.setWordWrap(True)
        self.setup_button = QPushButton("Set up a &model…", self)
        self.setup_button.setObjectName("setupModelButton")
        self.setup_button.clicked.connect(self.open_wizard)
        self.reload_button = QPushButton("&Reload", self)
        self.reload_button.setObjectName("reloadModelsButton")
        self.reload_button.clicked.connect(self.reload)
        self.folder = ElidedLabel(f"Installed in {models_dir()}", self)
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
        self.model.set_rows(list_models())
        self.empty_hint.setVisible(not self.model.rows)
        self.folder.set_full_text(f"Installed in {models_dir()}")
        if selected is not None:
            self.select(selected)

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
        wizard = ModelWizard(self.runner, self.chooser, role="embedding", parent=self)
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
