"""The "AI Profiles & Roles" tab (docs/DESIGN.md §12): chat-model profiles, who holds the Text and Coding
roles, and which roles each knowledge store serves.

Everything is persisted the moment it changes, through the same core calls the CLI uses
(:class:`ProfileRegistry`, :meth:`Workspace.set_roles`), so the GUI and ``kortty-rag profile …``
always agree and there is no "Apply" to forget. The small settings files are written under a short
lock on the GUI thread: that is quick, unlike the long work that goes to background jobs.

Profiles are added and edited in :class:`~kortty_rag.gui.dialogs.profile_editor.ProfileEditor`,
which validates like ``kortty-rag profile add``. Autonomous flows get excerpts only from stores
explicitly opted in here, never merely because a profile has stores; other AI tools (MCP clients of
``kortty-rag serve``) see only the stores opted in for them. The core has no "unassign role": a role
becomes free when the profile holding it is removed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QLocale, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.profiles import AiProfile, ProfileRegistry, ProfileSettings
from kortty_rag.app.workspace import Workspace
from kortty_rag.errors import KorttyRagError
from kortty_rag.gui.common import (
    confirm,
    describe,
    plain_label,
    role_words,
    set_tab_order,
    show_error,
    what_to_do,
)
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.dialogs.mcp_folders import McpFoldersDialog
from kortty_rag.gui.dialogs.profile_editor import ProfileEditor, backend_label, preset_words
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.shared_columns import SharedColumns
from kortty_rag.gui.status_area import StatusArea
from kortty_rag.models import Role, Store

#: store table columns holding a check box, and the StoreRoles field each one edits
ROLE_COLUMNS = {1: "text", 2: "coding", 3: "autonomous", 4: "mcp"}
LINKED_COLUMN = 5


def unassigned() -> str:
    """A role combo's choice while no profile holds the role."""
    return translate("ProfilesTab", "(unassigned)")


def plain_table(parent: QWidget, name: str, headers: list[str]) -> QTableWidget:
    """A read-only table of whole rows, one selected at a time, its last column stretched."""
    table = QTableWidget(0, len(headers), parent)
    table.setObjectName(name)
    table.setHorizontalHeaderLabels(headers)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    table.setWordWrap(False)
    table.setTabKeyNavigation(False)
    table.verticalHeader().hide()
    SharedColumns(table, grow=(len(headers) - 1,))
    return table


class ProfilesTab(QWidget):
    """Profiles, role holders and per-store roles; each change is saved at once and signalled:
    ``changed()``."""

    changed = Signal()

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        workspace: Workspace | None = None,
        profiles: ProfileRegistry | None = None,
        chooser: PathChooser | None = None,
        status: StatusArea | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("profilesTab")
        self.workspace = workspace or Workspace()
        self.chooser = chooser or PathChooser()
        self.status = status or StatusArea(self)  # says what was saved, always in view
        self.profiles = profiles or ProfileRegistry()
        self.settings = ProfileSettings()
        self.editor: ProfileEditor | None = None
        self.mcp_dialog: McpFoldersDialog | None = None
        self._load_error = ""
        self._build()
        self.reload()

    def _build(self) -> None:
        self.profile_table = plain_table(
            self,
            "profilesTable",
            [
                self.tr("Name"),
                self.tr("Backend"),
                self.tr("Model"),
                self.tr("Context window"),
                self.tr("Preset"),
                self.tr("Endpoint"),
                self.tr("Roles"),
            ],
        )
        describe(
            self.profile_table,
            self.tr(
                "The chat-model profiles and the roles each holds; Enter or a double click edits "
                "the selected one"
            ),
            name=self.tr("AI profiles"),
        )
        self.profile_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.profile_table.itemSelectionChanged.connect(self._update_buttons)
        self.profile_table.activated.connect(lambda _: self.edit_profile())
        self.add_button = self._button(self.tr("&Add…"), "addProfileButton", self.add_profile)
        self.add_button.setToolTip(self.tr("Add a chat-model profile: a GGUF file or a server"))
        self.edit_button = self._button(self.tr("&Edit…"), "editProfileButton", self.edit_profile)
        self.edit_button.setToolTip(self.tr("Change the selected profile, or its API key"))
        self.remove_button = self._button(
            self.tr("&Remove…"), "removeProfileButton", self.remove_profile
        )
        self.remove_button.setToolTip(
            self.tr("Remove the selected profile (after asking); no file is deleted")
        )
        profile_buttons = QHBoxLayout()
        for button in (self.add_button, self.edit_button, self.remove_button):
            profile_buttons.addWidget(button)
        profile_buttons.addStretch(1)
        profile_box = QGroupBox(self.tr("AI profiles (chat models)"), self)
        box_layout = QVBoxLayout(profile_box)
        box_layout.addWidget(self.profile_table)
        box_layout.addLayout(profile_buttons)

        self.role_combos: dict[Role, QComboBox] = {}
        role_box = QGroupBox(self.tr("Roles"), self)
        role_form = QFormLayout(role_box)
        for role, name, label, tip in (
            (
                Role.TEXT,
                "textRoleCombo",
                self.tr("&Text role:"),
                self.tr("The profile that answers questions about text"),
            ),
            (
                Role.CODING,
                "codingRoleCombo",
                self.tr("&Coding role:"),
                self.tr("The profile that answers questions about code"),
            ),
        ):
            combo = QComboBox(role_box)
            combo.setObjectName(name)
            combo.setToolTip(tip)
            combo.setAccessibleName(plain_label(label))  # not its value
            combo.currentIndexChanged.connect(lambda _, r=role: self._assign(r))
            self.role_combos[role] = combo
            role_form.addRow(label, combo)
        role_form.addRow(
            self._note(
                self.tr(
                    "Each role uses one profile at a time; a store serving a role is linked to the "
                    "profile holding it."
                )
            )
        )

        self.store_table = plain_table(
            self,
            "storeRolesTable",
            [
                self.tr("Store"),
                self.tr("Text"),
                self.tr("Coding"),
                self.tr("Autonomous workflows"),
                self.tr("Available to other AI tools (MCP)"),
                self.tr("Linked profiles"),
            ],
        )
        describe(
            self.store_table,
            self.tr(
                "Which roles each knowledge store serves, one check box per role; Space toggles "
                "the selected one and the change is saved at once"
            ),
            name=self.tr("Store roles"),
        )
        #: what each column of the store table means
        self._column_tips = {
            1: self.tr("The store gives excerpts to the Text role's profile"),
            2: self.tr("The store gives excerpts to the Coding role's profile"),
            3: self.tr(
                "Terminal agent, planning, swarm and scheduled agents may receive excerpts from "
                "the store"
            ),
            4: self.tr("MCP clients of the kortty-rag MCP server may search the store"),
            LINKED_COLUMN: self.tr("The profiles holding the roles the store serves"),
        }
        for column, tip in self._column_tips.items():
            if (header := self.store_table.horizontalHeaderItem(column)) is not None:
                header.setToolTip(tip)
        self.store_table.itemChanged.connect(self._store_toggled)
        store_box = QGroupBox(self.tr("Knowledge stores"), self)
        store_layout = QVBoxLayout(store_box)
        store_layout.addWidget(self.store_table)
        self.mcp_folders_button = self._button(
            self.tr("Allowed f&olders…"), "mcpFoldersButton", self.open_mcp_folders
        )
        self.mcp_folders_button.setToolTip(
            self.tr(
                "Folders outside your home folder that other AI tools may add to the selected store"
            )
        )
        self.store_table.itemSelectionChanged.connect(self._update_buttons)
        folders_row = QHBoxLayout()
        folders_row.addWidget(self.mcp_folders_button)
        folders_row.addStretch(1)
        store_layout.addLayout(folders_row)
        store_layout.addWidget(
            self._note(
                self.tr(
                    "Space toggles the selected check box. Autonomous workflows (terminal agent, "
                    "planning, swarm, scheduled agents) receive excerpts only from stores opted "
                    "in here. Other AI tools (MCP clients of the kortty-rag MCP server) see only "
                    "the stores opted in for them, and change one only where the user set their "
                    "server up to allow changes."
                )
            )
        )

        # in a small window the tab scrolls rather than squeezing its tables to a row each
        content = QWidget(self)
        inner = QVBoxLayout(content)
        inner.addWidget(profile_box, 2)
        inner.addWidget(role_box)
        inner.addWidget(store_box, 2)
        for table in (self.profile_table, self.store_table):
            rows = table.verticalHeader().defaultSectionSize()
            table.setMinimumHeight(table.horizontalHeader().sizeHint().height() + 4 * rows)
        scroll = QScrollArea(self)
        scroll.setObjectName("profilesScroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)
        if self.status.parent() is self:  # standalone: its own status area, below the content
            layout.addWidget(self.status)
        order = [self.profile_table, self.add_button, self.edit_button, self.remove_button]
        order += [*self.role_combos.values(), self.store_table, self.mcp_folders_button]
        set_tab_order(order)

    def _button(self, text: str, name: str, slot: Any) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName(name)
        button.clicked.connect(slot)
        return button

    def _note(self, text: str) -> QLabel:
        label = QLabel(text, self)
        label.setWordWrap(True)
        return label

    # -- state -------------------------------------------------------------------------------------

    def reload(self) -> None:
        """Re-read profiles, roles and stores (also after another tool changed them)."""
        try:
            self.settings = self.profiles.load()
        except KorttyRagError as exc:  # shown in place: reload also runs when stores change
            self.settings = ProfileSettings()
            self._load_error = self.tr("{message}. What to do: {hint}").format(
                message=core_words(exc.message), hint=what_to_do(exc)
            )
            self.status.set_text(self._load_error)
        else:
            if self._load_error and self.status.message.text() == self._load_error:
                self.status.set_text("")
            self._load_error = ""
        current = self.selected_profile()
        self.profile_table.setRowCount(0)
        for profile in sorted(self.settings.profiles, key=lambda p: p.name.lower()):
            roles = "+".join(role_words(r) for r in self.settings.roles_of(profile.name))
            row = self.profile_table.rowCount()
            self.profile_table.insertRow(row)
            cells = [profile.name, backend_label(profile.backend), profile.model]
            context = QLocale().toString(profile.context_window)
            cells += [context, preset_words(profile.preset), profile.endpoint or "—"]
            for column, text in enumerate([*cells, roles or "—"]):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.profile_table.setItem(row, column, item)
            if current is not None and profile.name == current.name:
                self.profile_table.selectRow(row)
        self._fill_roles()
        self._fill_stores()
        self._update_buttons()

    def _fill_roles(self) -> None:
        names = sorted((p.name for p in self.settings.profiles), key=str.lower)
        for role, combo in self.role_combos.items():
            holder = self.settings.role_profile(role)
            combo.blockSignals(True)
            combo.clear()
            if holder is None:  # the core has no "unassign": removing the profile frees a role
                combo.addItem(unassigned(), None)
            for name in names:
                combo.addItem(name, name)
            combo.setCurrentIndex(combo.findData(holder.name) if holder else 0)
            combo.setEnabled(bool(names))
            combo.blockSignals(False)

    def _fill_stores(self) -> None:
        table = self.store_table
        cell = (table.currentRow(), table.currentColumn())  # keep the keyboard position
        table.blockSignals(True)
        table.setRowCount(0)
        for store in self.workspace.stores():
            row = table.rowCount()
            table.insertRow(row)
            name = QTableWidgetItem(store.name)
            name.setData(Qt.ItemDataRole.UserRole, store.id)
            table.setItem(row, 0, name)
            for column, field in ROLE_COLUMNS.items():
                item = QTableWidgetItem()
                item.setFlags(
                    Qt.ItemFlag.ItemIsEnabled
                    | Qt.ItemFlag.ItemIsSelectable
                    | Qt.ItemFlag.ItemIsUserCheckable
                )
                on = bool(getattr(store.roles, field))
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
                header = table.horizontalHeaderItem(column)
                if header is not None:  # a screen reader names the box by its column
                    item.setData(Qt.ItemDataRole.AccessibleTextRole, header.text())
                if field == "mcp":
                    item.setToolTip(self._mcp_scope(store))
                else:
                    item.setToolTip(self._column_tips[column])
                table.setItem(row, column, item)
            linked = QTableWidgetItem(self._linked(store))
            linked.setToolTip(linked.text())
            table.setItem(row, LINKED_COLUMN, linked)
        if 0 <= cell[0] < table.rowCount():
            table.setCurrentCell(*cell)
        table.blockSignals(False)

    def _mcp_scope(self, store: Store) -> str:
        allowed = "\n".join(store.roles.mcp_roots) or self.tr("none")
        return self.tr(
            "Other AI tools can add folders inside your home folder that are not hidden, and these "
            "places you allowed:\n{allowed}\nAllowed folders… below changes them."
        ).format(allowed=allowed)

    def _linked(self, store: Store) -> str:
        linked = [
            self.tr("{role}: {profile}").format(role=role_words(role), profile=profile.name)
            for role in Role
            if store.roles.serves(role) and (profile := self.settings.role_profile(role))
        ]
        return ", ".join(linked) or self.tr("none (no profile holds the roles it serves)")

    def selected_profile(self) -> AiProfile | None:
        rows = self.profile_table.selectionModel().selectedRows()
        item = self.profile_table.item(rows[0].row(), 0) if rows else None
        if item is None:
            return None
        return next((p for p in self.settings.profiles if p.name == item.text()), None)

    def select_profile(self, name: str) -> None:
        for row in range(self.profile_table.rowCount()):
            item = self.profile_table.item(row, 0)
            if item is not None and item.text() == name:
                self.profile_table.selectRow(row)

    def _update_buttons(self) -> None:
        selected = self.selected_profile() is not None
        self.edit_button.setEnabled(selected)
        self.remove_button.setEnabled(selected)
        self.mcp_folders_button.setEnabled(self.selected_store() is not None)

    def _saved(self, message: str, *, later: bool = False) -> None:
        """Say what was saved and show it (``later``: once the signal that changed it returned)."""
        self.status.set_text(message)
        if later:
            QTimer.singleShot(0, self, self.reload)
        else:
            self.reload()
        self.changed.emit()

    # -- actions -----------------------------------------------------------------------------------

    def add_profile(self) -> None:
        self._open_editor(None)

    def edit_profile(self) -> None:
        profile = self.selected_profile()
        if profile is not None:
            self._open_editor(profile)

    def _open_editor(self, profile: AiProfile | None) -> None:
        editor = ProfileEditor(self.profiles, self.chooser, profile, parent=self)
        editor.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        editor.accepted.connect(lambda: self._editor_saved(editor))
        self.editor = editor
        editor.open()

    def _editor_saved(self, editor: ProfileEditor) -> None:
        if editor.saved is not None:
            self._saved(self.tr("Saved AI profile {name}.").format(name=repr(editor.saved.name)))
            self.select_profile(editor.saved.name)

    def remove_profile(self) -> None:
        profile = self.selected_profile()
        if profile is None:
            return
        roles = self.settings.roles_of(profile.name)
        kept = self.tr("No model file and no knowledge store is deleted.")
        if len(roles) > 1:
            held = self.tr(
                "It holds the {role} and {other} role; that role becomes unassigned until you "
                "choose another profile for it."
            ).format(role=role_words(roles[0]), other=role_words(roles[1]))
            detail = f"{held} {kept}"
        elif roles:
            held = self.tr(
                "It holds the {role} role; that role becomes unassigned until you choose another "
                "profile for it."
            ).format(role=role_words(roles[0]))
            detail = f"{held} {kept}"
        else:
            detail = kept
        confirm(
            self,
            self.tr("Remove AI profile"),
            self.tr("Remove the AI profile {name}?").format(name=repr(profile.name)),
            detail,
            lambda: self._remove(profile.name),
            yes_text=self.tr("&Remove"),
        )

    def _remove(self, name: str) -> None:
        try:
            freed = self.profiles.remove(name)
        except KorttyRagError as exc:
            show_error(self, self.tr("AI profile not removed"), exc)
            self.reload()
            return
        said = [self.tr("Removed AI profile {name}.").format(name=repr(name))]
        said += [
            self.tr(
                "The {role} role is now unassigned: choose a profile for it under Roles."
            ).format(role=role_words(role))
            for role in freed
        ]
        self._saved(" ".join(said))

    def _assign(self, role: Role) -> None:
        name = self.role_combos[role].currentData()
        if not name:
            return
        try:
            self.profiles.assign(role, name)
        except KorttyRagError as exc:
            show_error(self, self.tr("{role} role not assigned").format(role=role_words(role)), exc)
            QTimer.singleShot(0, self, self.reload)
            return
        self._saved(
            self.tr("The {role} role now uses AI profile {name}.").format(
                role=role_words(role), name=repr(name)
            ),
            later=True,
        )

    def selected_store(self) -> Store | None:
        row = self.store_table.currentRow()
        item = self.store_table.item(row, 0) if row >= 0 else None
        if item is None:
            return None
        store_id = item.data(Qt.ItemDataRole.UserRole)
        return next((s for s in self.workspace.stores() if s.id == store_id), None)

    def open_mcp_folders(self) -> None:
        store = self.selected_store()
        if store is None:
            return
        dialog = McpFoldersDialog(self.workspace, store, self.chooser, self)
        dialog.finished.connect(lambda _: self.reload())
        self.mcp_dialog = dialog
        dialog.open()

    def _store_toggled(self, item: QTableWidgetItem) -> None:
        field = ROLE_COLUMNS.get(item.column())
        name_item = self.store_table.item(item.row(), 0)
        if field is None or name_item is None:
            return
        store_id = name_item.data(Qt.ItemDataRole.UserRole)
        on = item.checkState() == Qt.CheckState.Checked
        flag: dict[str, Any] = {field: on}
        try:  # change only this flag: another tool may have changed the others meanwhile
            self.workspace.set_roles(self.workspace.store(store_id), **flag)
        except KorttyRagError as exc:
            show_error(self, self.tr("Store roles not changed"), exc)
            QTimer.singleShot(0, self, self.reload)
            return
        label = self.store_table.horizontalHeaderItem(item.column())
        what = label.text() if label is not None else field
        said = self.tr("{store}: {what} on.") if on else self.tr("{store}: {what} off.")
        self._saved(said.format(store=name_item.text(), what=what), later=True)
