"""The folders other AI tools (MCP clients) may add as sources of one store, besides the user's
home folder (docs/DESIGN.md §12): listed, added with the folder chooser, removed — each change saved
at once through the workspace, with the same rules as everywhere else (real absolute paths)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.mcp_scope import allowed_root
from kortty_rag.app.workspace import Workspace
from kortty_rag.errors import KorttyRagError
from kortty_rag.gui.common import describe, keyboard_friendly, resize_within_screen, show_error
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.models import Store


class McpFoldersDialog(QDialog):
    def __init__(
        self,
        workspace: Workspace,
        store: Store,
        chooser: PathChooser,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("mcpFoldersDialog")
        self.setWindowTitle(
            self.tr("Folders for other AI tools — {store}").format(store=store.name)
        )
        self.workspace = workspace
        self.store = store
        self.chooser = chooser
        note = QLabel(
            self.tr(
                "Other AI tools may add sources to this store from inside your home folder (not "
                "hidden folders) and from the folders listed here."
            ),
            self,
        )
        note.setWordWrap(True)
        self.folder_list = QListWidget(self)
        self.folder_list.setObjectName("mcpFolderList")
        describe(
            self.folder_list,
            self.tr(
                "Folders outside your home folder from which other AI tools may add sources to "
                "this store"
            ),
            name=self.tr("Allowed folders"),
        )
        self.add_button = QPushButton(self.tr("&Add folder…"), self)
        self.add_button.setObjectName("addMcpFolderButton")
        self.add_button.setToolTip(
            self.tr("Choose a folder other AI tools may add sources from; saved at once")
        )
        self.add_button.clicked.connect(self.add_folder)
        self.remove_button = QPushButton(self.tr("&Remove"), self)
        self.remove_button.setObjectName("removeMcpFolderButton")
        self.remove_button.setToolTip(
            self.tr("Take the selected folder off the list; saved at once")
        )
        self.remove_button.clicked.connect(self.remove_folder)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        if close is not None:
            close.setToolTip(self.tr("Close; every change is already saved"))
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addWidget(self.folder_list, 1)
        layout.addLayout(row)
        layout.addWidget(buttons)
        self.folder_list.currentRowChanged.connect(lambda _: self._update())
        self._show(store)
        resize_within_screen(self, 520, 320)
        keyboard_friendly(self)

    def _show(self, store: Store) -> None:
        self.store = store
        self.folder_list.clear()
        self.folder_list.addItems(list(store.roles.mcp_roots))
        self._update()

    def _update(self) -> None:
        self.remove_button.setEnabled(self.folder_list.currentRow() >= 0)

    def add_folder(self) -> None:
        path = self.chooser.folder(self)
        if not path:
            return
        try:
            store = self.workspace.set_roles(self.store, allow_roots=[allowed_root(path)])
        except KorttyRagError as exc:
            show_error(self, self.tr("Folder not allowed"), exc)
            return
        self._show(store)

    def remove_folder(self) -> None:
        if self.folder_list.currentRow() < 0:
            return
        folder = self.folder_list.currentItem().text()
        try:
            store = self.workspace.set_roles(self.store, forget_roots=[folder])
        except KorttyRagError as exc:
            show_error(self, self.tr("Folder not removed"), exc)
            return
        self._show(store)
