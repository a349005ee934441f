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
from kortty_rag.gui.common import show_error, show_info
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.status_area import StatusArea
from kortty_rag.gui.workers import Job, JobRunner
from kortty_rag.messages import Message
from kortty_rag.models import Store
from kortty_rag.progress import CancelToken, ProgressTracker


def kortty_summary(outcomes: list[KorttyOutcome]) -> str:
    if not outcomes:
        return translate("BackupActions", "korTTY has no stores to import.")
    lines = []
    for outcome in outcomes:
        if outcome.store is None:
            lines.append(
                translate("BackupActions", "{name}: not imported — {reason}").format(
                    name=outcome.kortty_name, reason=core_words(outcome.skipped)
                )
            )
        elif outcome.reused:
            lines.append(
                translate(
                    "BackupActions",
                    "{name}: imported as {store}, with korTTY's vectors for %n chunk(s) "
                    "(nothing embedded)",
                    None,
                    outcome.reused,
                ).format(name=outcome.kortty_name, store=outcome.store.name)
            )
        else:
            lines.append(
                translate("BackupActions", "{name}: imported as {store}").format(
                    name=outcome.kortty_name, store=outcome.store.name
                )
            )
        if outcome.store is not None and outcome.store.sources:
            lines.append(
                translate(
                    "BackupActions",
                    "  %n source(s) wait for your review: select {store} and press Review… there",
                    None,
                    len(outcome.store.sources),
                ).format(store=outcome.store.name)
            )
    return "\n".join(lines)


class BackupActions(QObject):
    """The three actions and what they run; ``current_store`` tells which store to export.

    Signals: ``imported(str)`` — a store was imported (its id); ``ended(object)`` — a job ended,
    with its result or the exception.
    """

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
        self.export_action = QAction(self.tr("&Export store…"), window)
        self.export_action.setObjectName("exportStoreAction")
        self.export_action.setStatusTip(
            self.tr("Write the selected store's definition and index to one archive (a backup)")
        )
        self.export_action.triggered.connect(self.export_store)
        self.import_action = QAction(self.tr("&Import store…"), window)
        self.import_action.setObjectName("importStoreAction")
        self.import_action.setStatusTip(
            self.tr("Create a store from an exported archive; every byte checked")
        )
        self.import_action.triggered.connect(self.import_store)
        self.kortty_action = QAction(self.tr("Import from &korTTY…"), window)
        self.kortty_action.setObjectName("importKorttyAction")
        self.kortty_action.setStatusTip(
            self.tr("Create stores from korTTY's knowledge stores (korTTY's files are only read)")
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
        failure: str,
        failed: Callable[[BaseException], None] | None = None,
        cancellable: bool = False,
    ) -> None:
        """Run a job titled ``title`` (what runs: "Importing from korTTY"); ``failure`` is the
        title of its failure ("Import from korTTY failed"), a sentence of its own in every
        language, not built from the running job's words."""
        job = Job(function, key=key, name=title)
        job.signals.finished.connect(done)
        job.signals.finished.connect(self.ended.emit)
        job.signals.failed.connect(failed or (lambda exc: self._failed(failure, exc)))
        job.signals.failed.connect(self.ended.emit)
        try:
            self.runner.start(job)
        except StoreBusyError as exc:
            show_error(self.window, self.tr("Store busy"), exc)
            return
        self.status.track(job, title, cancellable=cancellable)

    def _failed(self, failure: str, exc: BaseException) -> None:
        self.status.set_text(self.tr("{failure}; nothing was changed.").format(failure=failure))
        show_error(self.window, failure, exc)

    # -- export ---------------------------------------------------------------------------------

    def export_store(self) -> None:
        store = self.current_store()
        if store is None:
            show_info(
                self.window,
                self.tr("Export store"),
                self.tr("Select the store to export first."),
                "",
            )
            return
        path = self.chooser.save_archive(self.window, f"{store.name}.kortty.tar")
        if not path:
            return
        workspace = self.workspace

        def run(progress: ProgressTracker, cancel: CancelToken) -> ExportResult:
            return workspace.export_store(store, Path(path))

        def done(result: ExportResult) -> None:
            self.status.finish(
                self.tr(
                    "Exported {store} ({documents}, {chunks}) to {path}. API keys are not in it."
                ).format(
                    store=store.name,
                    documents=self.tr("%n document(s)", "", result.documents),
                    chunks=self.tr("%n chunk(s)", "", result.chunks),
                    path=result.path,
                )
            )

        self._run(
            store.id,
            self.tr("Exporting {store}").format(store=store.name),
            run,
            done,
            failure=self.tr("Export of {store} failed").format(store=store.name),
        )

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
            said = [
                self.tr("Imported {store}: {documents}, {chunks}, every checksum verified.").format(
                    store=result.store.name,
                    documents=self.tr("%n document(s)", "", result.documents),
                    chunks=self.tr("%n chunk(s)", "", result.chunks),
                )
            ]
            refused = len(result.admission.refused)
            if refused:  # the reasons are in the summary
                said.append(self.tr("%n source(s) left out (Show summary says why).", "", refused))
            if result.admission.sources:
                said.append(self.tr("Its sources wait for your review (Review…)."))
            self.status.finish(
                " ".join(said),
                title=self.tr("Store imported"),
                summary=self.tr("Imported {store} from {path}.").format(
                    store=result.store.name, path=path
                ),
                detail="\n".join(core_words(note) for note in result.notes),
            )

        def failed(exc: BaseException) -> None:
            if isinstance(exc, AlreadyExistsError):
                self.status.set_text(
                    self.tr("Not imported yet: {problem}.").format(problem=core_words(exc.message))
                )
                self._ask_name(path, exc)
                return
            self._failed(self.tr("Store import failed"), exc)

        self._run(
            "import-store",
            self.tr("Importing a store"),
            run,
            done,
            failure=self.tr("Store import failed"),
            failed=failed,
        )

    def _ask_name(self, path: str, exc: AlreadyExistsError) -> None:
        dialog = QInputDialog(self.window)
        dialog.setObjectName("importNameDialog")
        dialog.setWindowTitle(self.tr("Import store"))
        dialog.setLabelText(
            self.tr("{problem}.\nImport it under this name:").format(
                problem=core_words(exc.message)
            )
        )
        dialog.setTextEchoMode(QLineEdit.EchoMode.Normal)
        values = exc.message.values if isinstance(exc.message, Message) else {}
        taken = {store.name.lower() for store in self.workspace.stores()}
        dialog.setTextValue(free_name(str(values.get("name", "")), taken))  # a name to accept
        self.name_dialog = dialog
        dialog.textValueSelected.connect(lambda text: self._import_as(path, text.strip()))
        dialog.rejected.connect(
            lambda: self.status.set_text(self.tr("Not imported; nothing was changed."))
        )
        dialog.open()

    def _import_as(self, path: str, name: str) -> None:
        if name:
            self.import_archive(path, name)
            return
        self.status.set_text(self.tr("Not imported: no name was given; nothing was changed."))
        show_info(
            self.window,
            self.tr("Import store"),
            self.tr("Not imported: the store needs a name."),
            self.tr("Use Import store… again and type a name no other store has."),
        )

    def import_kortty(self) -> None:
        folder = self.chooser.kortty_folder(self.window)
        if not folder:
            return
        workspace = self.workspace

        def run(progress: ProgressTracker, cancel: CancelToken) -> list[KorttyOutcome]:
            # nothing is read from korTTY's sources here: each new store's banner offers their
            # review (docs/DESIGN.md §14)
            return workspace.import_kortty(Path(folder), progress=progress, cancel=cancel)

        def done(outcomes: list[KorttyOutcome]) -> None:
            for outcome in outcomes:
                if outcome.store is not None:
                    self.imported.emit(outcome.store.id)
            stores = sum(o.store is not None for o in outcomes)
            notes = [
                self.tr("{name}: {note}").format(name=o.kortty_name, note=core_words(n))
                for o in outcomes
                for n in o.notes
            ]
            self.status.finish(
                self.tr("Imported {count} of korTTY's %n store(s).", "", len(outcomes)).format(
                    count=stores
                ),
                title=self.tr("Imported from korTTY"),
                summary=kortty_summary(outcomes),
                detail="\n".join(notes),
            )

        self._run(
            "import-kortty",
            self.tr("Importing from korTTY"),
            run,
            done,
            failure=self.tr("Import from korTTY failed"),
            cancellable=True,
        )


def free_name(name: str, taken: set[str]) -> str:
    """``name`` with the first number after it that no store has ("Garden 2"), or "" without a
    name; ``taken`` holds the names in use, in lower case."""
    if not name:
        return ""
    number = 2
    while f"{name} {number}".lower() in taken:
        number += 1
    return f"{name} {number}"
