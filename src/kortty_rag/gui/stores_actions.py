"""What the Knowledge Stores tab does to sources and stores besides indexing: enable, watch,
remove and move sources, show their scan report; rebuild, delete and create stores, their Qdrant
key, Test search. The third part of :class:`~kortty_rag.gui.stores_tab.StoresTab`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QModelIndex,
    Qt,
)
from PySide6.QtWidgets import (
    QInputDialog,
    QLineEdit,
)

from kortty_rag.app.workspace import IndexSummary, Reviewed
from kortty_rag.errors import KorttyRagError
from kortty_rag.gui.common import (
    confirm,
    show_error,
)
from kortty_rag.gui.dialogs.scan_report import ScanReportDialog
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.stores_indexing import StoresIndexing
from kortty_rag.gui.stores_words import chunks_text, rebuild_text
from kortty_rag.gui.table_models import (
    SourceTableModel,
)
from kortty_rag.models import Source, SourceKind, Store, StoreType, SyncMode
from kortty_rag.progress import CancelToken, ProgressTracker

if TYPE_CHECKING:  # imported when first opened
    pass


class StoresActions(StoresIndexing):
    """The source and store actions of the tab's buttons and menus."""

    # -- lifecycle ------------------------------------------------------------------------------------

    def toggle_source(self) -> None:
        store, source = self.current_store(), self.selected_source()
        if store is None or source is None:
            return
        if source.enabled:
            said = self.tr("{path} is disabled: it keeps its chunks but is never retrieved.")
        else:
            said = self.tr("{path} is enabled: searches include it again.")
        self._change_source(
            source,
            lambda: self.workspace.set_source_enabled(store, source, not source.enabled),
            said,
        )

    def _change_source(self, source: Source, change: Callable[[], object], said: str) -> bool:
        """Apply ``change`` to ``source``'s settings and say ``said`` (``{path}``), or show why
        not; the window's watcher follows (it watches enabled auto sources only)."""
        try:
            change()
        except KorttyRagError as exc:
            show_error(self, self.tr("Could not change the source"), exc)
            changed = False
        else:
            self.set_status(said.format(path=source.path))
            self.stores_changed.emit()
            changed = True
        self.reload()
        self.select_source(source.path)
        return changed

    def set_automatic_sync(self, automatic: bool) -> None:
        """The selected source watched and synced without a review (``auto``), or only when asked
        (``manual``); the window's watcher follows at once."""
        store, source = self.current_store(), self.selected_source()
        if store is None or source is None:
            return
        mode = SyncMode.AUTO if automatic else SyncMode.MANUAL
        if automatic and not source.enabled:
            said = self.tr("{path} is watched once you enable it again.")
        elif automatic:
            said = self.tr(
                "{path} is watched now: its changes are indexed without a review while the app "
                "runs."
            )
        else:
            said = self.tr("{path} is synced only when you press Refresh now.")
        changed = self._change_source(
            source, lambda: self.workspace.set_sync_mode(store, source, mode), said
        )
        if changed and automatic and source.enabled:
            # catch up with what changed while it was manual, as at the app's start
            self.start_auto_refresh(store.id, [source.id])

    def remove_source(self) -> None:
        store, source = self.current_store(), self.selected_source()
        if store is None or source is None:
            return
        workspace = self.workspace

        def remove(progress: ProgressTracker, cancel: CancelToken) -> int:
            return workspace.remove_source(store, source, progress=progress, cancel=cancel)

        def removed(count: int) -> None:
            self.set_status(
                translate(
                    "StoresActions", "Removed {path} and its %n chunk(s).", None, count
                ).format(path=source.path)
            )

        confirm(
            self,
            self.tr("Remove source"),
            self.tr("Remove {path} from {store}?").format(path=source.path, store=store.name),
            translate(
                "StoresActions",
                "Its %n chunk(s) are deleted from the index. The files themselves are not touched.",
                None,
                source.counts.chunks,
            ),
            lambda: self._start(
                store,
                self.tr("Remove"),
                remove,
                removed,
                status=self.tr("Removing {path}…").format(path=source.path),
            ),
            yes_text=self.tr("&Remove"),
        )

    def change_location(self) -> None:
        """Re-point the selected source at the place its folder moved to, then index what changed
        there (usually nothing: unchanged documents keep their chunks and vectors)."""
        store, source = self.current_store(), self.selected_source()
        if store is None or source is None:
            return
        path = self.chooser.new_location(self, source.path, folder=source.kind is SourceKind.FOLDER)
        if not path:
            return
        workspace = self.workspace

        def move(progress: ProgressTracker, cancel: CancelToken) -> Reviewed:
            # the person chose the new place: when every document is where it was there is
            # nothing else to confirm, and the move is recorded at once
            return workspace.move_source(
                store,
                source,
                path,
                confirm=lambda review: not review.changes_besides_move,
                progress=progress,
                cancel=cancel,
            )

        def moved(reviewed: Reviewed) -> None:
            self.reload()
            if reviewed.summary is None:  # files to index or remove there: the usual review,
                self.select_source(source.path)  # whose confirmation moves the source
                self.open_review(store, reviewed.review)
                return
            self.select_source(path)
            self.last_summary = reviewed.summary
            self.status.finish(
                self.tr("{old} now points to {new}; every document was unchanged.").format(
                    old=source.path, new=path
                ),
                title=self.tr("Location changed"),
                summary=self._summary_text(store, reviewed.summary),
            )
            self.index_finished.emit(reviewed.summary)

        job = self._start(
            store,
            self.tr("Change location"),
            move,
            moved,
            status=self.tr("Looking at {path}").format(path=path),
            cancelled=self.tr("Nothing was changed; the source still points to {path}.").format(
                path=source.path
            ),
        )
        if job is not None:  # however it ends, the source points elsewhere: the watcher follows
            job.signals.done.connect(self.stores_changed.emit)

    def _source_activated(self, index: QModelIndex) -> None:
        if index.column() in (SourceTableModel.SKIPPED, SourceTableModel.ISSUES):
            self.show_scan_report()

    def show_scan_report(self) -> None:
        """Which files the selected source's last indexing left out, and why."""
        store, source = self.current_store(), self.selected_source()
        if store is None or source is None:
            return
        dialog = ScanReportDialog(source, self.workspace.scan_report(store, source), self)
        self.report_dialog = dialog
        dialog.open()

    def rebuild_store(self) -> None:
        """Everything embedded again into a fresh snapshot; the current one serves until then."""
        store = self.current_store()
        if store is None:
            return
        workspace = self.workspace

        def rebuild(progress: ProgressTracker, cancel: CancelToken) -> IndexSummary:
            return workspace.rebuild_store(store, progress=progress, cancel=cancel)

        def rebuilt(summary: IndexSummary) -> None:
            self.last_summary = summary
            self.status.finish(
                translate(
                    "StoresActions",
                    "Rebuilt {store} from %n document(s): {chunks}.",
                    None,
                    summary.indexed,
                ).format(store=store.name, chunks=chunks_text(summary)),
                title=self.tr("Rebuild finished"),
                summary=self._summary_text(store, summary, rebuild_text(summary)),
            )
            self.index_finished.emit(summary)

        confirm(
            self,
            self.tr("Rebuild store"),
            self.tr("Rebuild {store}?").format(store=store.name),
            translate(
                "StoresActions",
                "Every file of its %n source(s) is read again into a fresh index; text a local "
                "store already holds keeps its vectors when the model is the same, the rest is "
                "embedded. Until that is complete the store keeps answering from its current one; "
                "your files are only read.",
                None,
                len(store.sources),
            ),
            lambda: self._start(
                store,
                self.tr("Rebuild"),
                rebuild,
                rebuilt,
                status=self.tr("Rebuilding {store}").format(store=store.name),
                cancelled=self.tr(
                    "The store still answers from its last completed index; the rebuild was "
                    "stopped."
                ),
            ),
            yes_text=self.tr("&Rebuild"),
        )

    def change_qdrant_key(self) -> None:
        """Keep a new API key for a Qdrant store's service, then check that the service takes it."""
        store = self.current_store()
        if store is None or store.type is not StoreType.QDRANT:
            return
        dialog = QInputDialog(self)
        dialog.setObjectName("qdrantKeyDialog")
        dialog.setWindowTitle(self.tr("API key — {store}").format(store=store.name))
        dialog.setLabelText(
            self.tr(
                "The new API key of the Qdrant service at {url}. It is kept in the OS keyring, "
                "never in a file, and only once the service accepted it."
            ).format(url=store.options.qdrant.url)
        )
        dialog.setTextEchoMode(QLineEdit.EchoMode.Password)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # the secret goes with it

        def chosen(key: str) -> None:  # emitted after finished: the text is read here, then cleared
            dialog.setTextValue("")
            self._keep_qdrant_key(store, key.strip())

        dialog.textValueSelected.connect(chosen)
        dialog.rejected.connect(lambda: dialog.setTextValue(""))
        dialog.destroyed.connect(lambda: setattr(self, "key_dialog", None))
        self.key_dialog = dialog
        dialog.open()

    def _keep_qdrant_key(self, store: Store, key: str) -> None:
        """A new key replaces the old one only once the service accepted it."""
        workspace = self.workspace

        if not key:  # an empty field changes nothing: a stored key is never dropped by accident
            self.set_status(
                self.tr("{store}: no key entered; the API key was not changed.").format(
                    store=store.name
                )
            )
            return

        def keep(progress: ProgressTracker, cancel: CancelToken) -> str:
            return str(workspace.qdrant.replace_key(store, key))  # the keyring's backend

        def kept(backend: str) -> None:
            self.status.finish(
                self.tr(
                    "{store}: The API key is kept in the keyring ({backend}) and the service "
                    "accepted it."
                ).format(store=store.name, backend=backend)
            )

        def refused(exc: BaseException) -> None:
            self.set_status(
                self.tr("{store}: the API key was not changed.").format(store=store.name)
            )
            show_error(self, self.tr("API key not changed"), exc)

        self._start(
            store,
            self.tr("API key"),
            keep,
            kept,
            status=self.tr("Checking the connection"),
            on_failed=refused,
            cancellable=False,
        )

    def delete_store(self) -> None:
        store = self.current_store()
        if store is None:
            return
        workspace = self.workspace
        folder = self.workspace.store_folder(store)

        def delete(progress: ProgressTracker, cancel: CancelToken) -> object:
            return workspace.delete_store(store, progress=progress, cancel=cancel)

        def deleted(_: object) -> None:
            self.set_status(
                self.tr("Deleted store {store}; no source file was touched.").format(
                    store=store.name
                )
            )
            self.stores_changed.emit()

        confirm(
            self,
            self.tr("Delete store"),
            self.tr("Delete the knowledge store {store}?").format(store=store.name),
            translate(
                "StoresActions",
                "Deleted: its index folder {folder} (%n source definition(s), their chunks and "
                "vectors).\nNot deleted: your files and folders, the embedding model, and any file "
                "in that folder that kortty-rag did not create.",
                None,
                len(store.sources),
            ).format(folder=folder),
            lambda: self._start(
                store, self.tr("Delete store"), delete, deleted, status=self.tr("Deleting…")
            ),
            yes_text=self.tr("&Delete"),
        )

    def open_test_search(self) -> None:
        from kortty_rag.gui.dialogs.test_search import TestSearchDialog

        store = self.current_store()
        if store is not None:
            dialog = TestSearchDialog(store, self.workspace, parent=self, runner=self.runner)
            dialog.open()

    def create_store(self) -> None:
        """Without an installed embedding model, set one up first and come back here."""
        from kortty_rag.gui.dialogs.create_store import CreateStoreDialog

        if not self.workspace.models.installed():
            from kortty_rag.gui.dialogs.model_wizard import ModelWizard

            models = self.workspace.models
            wizard = ModelWizard(self.runner, self.chooser, parent=self, models=models)
            wizard.installed.connect(lambda _model: self._model_installed_for_create())
            self.model_wizard = wizard
            wizard.open()
            return
        dialog = CreateStoreDialog(self.workspace, self.chooser, parent=self, runner=self.runner)
        dialog.created.connect(self._on_created)
        self.create_dialog = dialog
        dialog.open()

    def _model_installed_for_create(self) -> None:
        """The model wizard opened by Create installed a model: the welcome page and the Models tab
        know it at once (even if the Create dialog is then cancelled), then Create goes on."""
        self.reload()
        self.models_changed.emit()
        self.create_store()

    def _on_created(self, store: Store, paths: list[str]) -> None:
        """The beginner flow ends with at least one reviewed source; without it, no store."""
        self.reload(select_id=store.id)
        self.stores_changed.emit()

        def forget_empty_store() -> None:
            fresh = next((s for s in self.workspace.stores() if s.id == store.id), None)
            if fresh is not None and not fresh.sources:  # nothing in it: no service to reach
                self.workspace.discard_new_store(fresh)
                self.reload()
                self.stores_changed.emit()

        self.start_scan(store, paths=paths, on_rejected=forget_empty_store)
