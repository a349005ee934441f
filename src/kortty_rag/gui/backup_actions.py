"""File → *Export store…*, *Import store…* and *Import from korTTY…* (docs/DESIGN.md §14): the
same operations as ``store export``, ``store import`` and ``import kortty``, each a background job
whose end is a notice in the status area."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QLineEdit, QWidget

from kortty_rag.app.kortty_import import KorttyOutcome
from kortty_rag.app.store_archive import ExportResult, ImportResult
from kortty_rag.app.workspace import Workspace
from kortty_rag.errors import AlreadyExistsError, StoreBusyError
from kortty_rag.gui.common import PathChooser, show_error, show_info
from kortty_rag.gui.status_area import StatusArea
from kortty_rag.gui.workers import Job, JobRunner
from kortty_rag.models import Store
from kortty_rag.progress import CancelToken, ProgressTracker


def kortty_summary(outcomes: list[KorttyOutcome]) -> str:
    if not outcomes:
        return "korTTY has no stores to import."
    lines = []
    for outcome in outcomes:
        if outcome.store is None:
            lines.append(f"{outcome.kortty_name}: not imported — {outcome.skipped}")
        elif outcome.reused:
            lines.append(
                f"{outcome.kortty_name}: imported as {outcome.store.name}, with korTTY's vectors "
                f"for {outcome.reused} chunks (nothing embedded)"
            )
        else:
            lines.append(f"{outcome.kortty_name}: imported as {outcome.store.name}, indexed here")
    return "\n".join(lines)


class BackupActions(QObject):
    """The three actions and what they run; ``current_store`` tells which store to export."""

    #: a store was imported (its id): the stores tab shows it
    imported = Signal(str)
    #: the job ended (for tests): its result, or the exception
    ended = Signal(object)

    def __init__(
        self,
        window: QWidget,
        *,
        workspace: Workspace,
        runner: JobRunner,
        chooser: PathChooser,
        status: StatusArea,
        current_store: Callable[[], Store | None],
    ) -> None:
        super().__init__(window)
        self.window = window
        self.workspace = workspace
        self.runner = runner
        self.chooser = chooser
        self.status = status
        self.current_store = current_store
        self.export_action = QAction("&Export store…", window)
        self.export_action.setObjectName("exportStoreAction")
        self.export_action.setStatusTip(
            "Write the selected store's definition and index to one archive (a backup)"
        )
        self.export_action.triggered.connect(self.export_store)
        self.import_action = QAction("&Import store…", window)
        self.import_action.setObjectName("importStoreAction")
        self.import_action.setStatusTip(
            "Create a store from an exported archive; every byte checked"
        )
        self.import_action.triggered.connect(self.import_store)
        self.kortty_action = QAction("Import from &korTTY…", window)
        self.kortty_action.setObjectName("importKorttyAction")
        self.kortty_action.setStatusTip(
            "Create stores from korTTY's knowledge stores (korTTY's files are only read)"
        )
        self.kortty_action.triggered.connect(self.import_kortty)

    def actions(self) -> list[QAction]:
        return [self.export_action, self.import_action, self.kortty_action]

    def _run(
        self,
        key: str,
        title: str,
        function: Callable[[ProgressTracker, CancelToken], Any],
        done: Callable[[Any], None],
        *,
        failed: Callable[[BaseException], None] | None = None,
        cancellable: bool = False,
    ) -> None:
        job = Job(function, key=key, name=title)
        job.signals.finished.connect(done)
        job.signals.finished.connect(self.ended.emit)
        job.signals.failed.connect(failed or (lambda exc: self._failed(title, exc)))
        job.signals.failed.connect(self.ended.emit)
        try:
            self.runner.start(job)
        except StoreBusyError as exc:
            show_error(self.window, "Store busy", exc)
            return
        self.status.track(job, title, cancellable=cancellable)

    def _failed(self, title: str, exc: BaseException) -> None:
        self.status.set_text(f"{title} failed; nothing was changed.")
        show_error(self.window, f"{title} failed", exc)

    # -- export ---------------------------------------------------------------------------------

    def export_store(self) -> None:
        store = self.current_store()
        if store is None:
            show_info(self.window, "Export store", "Select the store to export first.", "")
            return
        path = self.chooser.save_archive(self.window, f"{store.name}.kortty.tar")
        if not path:
            return
        workspace = self.workspace

        def run(progress: ProgressTracker, cancel: CancelToken) -> ExportResult:
            return workspace.export_store(store, Path(path))

        def done(result: ExportResult) -> None:
            self.status.finish(
                f"Exported {store.name} ({result.documents} documents, {result.chunks} chunks) to "
                f"{result.path}. API keys are not in it."
            )

        self._run(store.id, f"Exporting {store.name}", run, done)

    # -- import ---------------------------------------------------------------------------------

    def import_store(self) -> None:
        path = self.chooser.archive(self.window)
        if path:
            self.import_archive(path)

    def import_archive(self, path: str, name: str | None = None) -> None:
        workspace = self.workspace

        def run(progress: ProgressTracker, cancel: CancelToken) -> ImportResult:
            return workspace.import_store(Path(path), name=name)

        def done(result: ImportResult) -> None:
            self.imported.emit(result.store.id)
            self.status.finish(
                f"Imported {result.store.name}: {result.documents} documents, {result.chunks} "
                "chunks, every checksum verified.",
                title="Store imported",
                summary=f"Imported {result.store.name} from {path}.",
                detail="\n".join(result.notes),
            )

        def failed(exc: BaseException) -> None:
            if isinstance(exc, AlreadyExistsError):
                self._ask_name(path, exc)
                return
            self._failed("Import", exc)

        self._run("import-store", "Importing a store", run, done, failed=failed)

    def _ask_name(self, path: str, exc: AlreadyExistsError) -> None:
        dialog = QInputDialog(self.window)
        dialog.setObjectName("importNameDialog")
        dialog.setWindowTitle("Import store")
        dialog.setLabelText(f"{exc.message}.\nImport it under this name:")
        dialog.setTextEchoMode(QLineEdit.EchoMode.Normal)
        self.name_dialog = dialog
        dialog.textValueSelected.connect(
            lambda text: self.import_archive(path, text.strip()) if text.strip() else None
        )
        dialog.open()

    def import_kortty(self) -> None:
        folder = self.chooser.kortty_folder(self.window)
        if not folder:
            return
        workspace = self.workspace

        def run(progress: ProgressTracker, cancel: CancelToken) -> list[KorttyOutcome]:
            return workspace.import_kortty(Path(folder), progress=progress, cancel=cancel)

        def done(outcomes: list[KorttyOutcome]) -> None:
            for outcome in outcomes:
                if outcome.store is not None:
                    self.imported.emit(outcome.store.id)
            stores = sum(o.store is not None for o in outcomes)
            notes = [f"{o.kortty_name}: {n}" for o in outcomes for n in o.notes]
            self.status.finish(
                f"Imported {stores} of korTTY's {len(outcomes)} stores.",
                title="Imported from korTTY",
                summary=kortty_summary(outcomes),
                detail="\n".join(notes),
            )

        self._run("import-kortty", "Importing from korTTY", run, done, cancellable=True)
