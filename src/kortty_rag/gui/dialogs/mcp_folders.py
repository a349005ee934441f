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
from kortty_rag.gui.common import PathChooser, keyboard_friendly, show_error
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
        self.setWindowTitle(f"Folders for other AI tools — {store.name}")
        self.workspace = workspace
        self.store = store
        self.chooser = chooser
        note = QLabel(
            "Other AI tools may add sources to this store from inside your home folder (not hidden "
            "folders) and from the folders listed here.",
            self,
        )
        note.setWordWrap(True)
        self.folder_list = QListWidget(self)
        self.folder_list.setObjectName("mcpFolderList")
        self.folder_list.setAccessibleName("Allowed folders")
        self.add_button = QPushButton("&Add folder…", self)
        self.add_button.setObjectName("addMcpFolderButton")
        self.add_button.clicked.connect(self.add_folder)
        self.remove_button = QPushButton("&Remove", self)
        self.remove_button.setObjectName("removeMcpFolderButton")
        self.remove_button.clicked.connect(self.remove_folder)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
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
        self.resize(520, 320)
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
            show_error(self, "Folder not allowed", exc)
            return
        self._show(store)

    def remove_folder(self) -> None:
        if self.folder_list.currentRow() < 0:
            return
        folder = self.folder_list.currentItem().text()
        try:
            store = self.workspace.set_roles(self.store, forget_roots=[folder])
        except KorttyRagError as exc:
            show_error(self, "Folder not removed", exc)
            return
        self._show(store)
