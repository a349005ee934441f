"""The main window: the Knowledge Stores, AI Profiles & Roles and Models tabs, a menu bar (File,
Help) and the status area every tab's jobs report to.

It owns what the tabs share — the workspace (the store registry and the retrieval service), the job
runner and the watcher of auto sources — and shuts them down in order: cancel jobs, wait for every
worker thread, stop the watcher, close the stores.
"""

from __future__ import annotations

from dataclasses import replace

import PySide6
from PySide6.QtCore import QByteArray, Qt, QTimer, Signal, qVersion
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import QMainWindow, QMessageBox, QTabWidget, QVBoxLayout, QWidget

from kortty_rag import __version__
from kortty_rag.app.data_folder import data_folder
from kortty_rag.app.watching import Watching
from kortty_rag.app.workspace import Workspace
from kortty_rag.errors import KorttyRagError
from kortty_rag.gui.backup_actions import BackupActions
from kortty_rag.gui.common import (
    describe,
    describe_buttons,
    keep_inside_screen,
    keyboard_friendly,
    open_folder,
    resize_within_screen,
    show_error,
)
from kortty_rag.gui.dialogs.check_stores import JOB_KEY as CHECK_JOB
from kortty_rag.gui.dialogs.check_stores import CheckStoresDialog
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.models_tab import ModelsTab
from kortty_rag.gui.profiles_tab import ProfilesTab
from kortty_rag.gui.quitting import QuitGuard
from kortty_rag.gui.state import decode, encode, load_state, save_state
from kortty_rag.gui.status_area import StatusArea
from kortty_rag.gui.stores_tab import StoresTab
from kortty_rag.gui.workers import JobRunner
from kortty_rag.models import Store


def about_text() -> str:
    """What this build is made of: the versions of llama.cpp's binding, Qt and Python."""
    import platform

    try:
        from importlib.metadata import version

        llama = version("llama-cpp-python")
    except Exception:
        llama = translate("MainWindow", "not installed")
    purpose = translate(
        "MainWindow",
        "Local knowledge stores for retrieval-augmented generation: your files are only read, "
        "and everything is indexed on this computer.",
    )
    folder = translate("MainWindow", "Data folder: {folder}").format(folder=data_folder())
    return (
        f"{purpose}\n\n"
        f"llama-cpp-python {llama}\nQt {qVersion()} (PySide6 {PySide6.__version__})\n"
        f"Python {platform.python_version()}\n{folder}"
    )


class MainWindow(QMainWindow):
    """The window: the three tabs, the shared status area, the menus, and the watcher of auto
    sources.

    Signals: ``refresh_due(str, list)`` — these sources of a store changed (store id, source ids);
    emitted from the watcher's thread, handled on the GUI thread.
    """

    #: emitted from the watcher's thread, handled on the GUI thread
    refresh_due = Signal(str, list)

    def __init__(self, *, chooser: PathChooser | None = None, watch: bool = True) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.workspace = Workspace()
        self.runner = JobRunner(self)
        self.chooser = chooser or PathChooser()

        self.status = StatusArea(self)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("aiTabs")
        self.stores_tab = StoresTab(self.workspace, self.runner, self.chooser, self.status, self)
        self.tabs.addTab(self.stores_tab, self.tr("&Knowledge Stores"))
        self.tabs.setTabToolTip(
            0, self.tr("Knowledge stores and their sources: add, index, refresh and test search")
        )
        self.profiles_tab = ProfilesTab(
            self, workspace=self.workspace, chooser=self.chooser, status=self.status
        )
        self.tabs.addTab(self.profiles_tab, self.tr("AI &Profiles && Roles"))
        self.tabs.setTabToolTip(
            1, self.tr("AI profiles, and which knowledge stores each role and MCP may use")
        )
        self.models_tab = ModelsTab(self.runner, self.chooser, self, models=self.workspace.models)
        self.tabs.addTab(self.models_tab, self.tr("Model&s"))
        self.tabs.setTabToolTip(2, self.tr("The embedding models installed on this computer"))
        self.tabs.currentChanged.connect(self._show_title)
        self._show_title(self.tabs.currentIndex())
        describe(
            self.tabs.tabBar(),
            self.tr("Switch between knowledge stores, AI profiles and models"),
            name=self.tr("Main areas"),
        )

        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.status)  # below the tabs: seen from every one of them
        self.setCentralWidget(central)
        self._build_menus()
        keyboard_friendly(self)
        resize_within_screen(self, 1200, 760)
        self._restore()
        #: quitting while a job runs asks first, then waits for the cancelled jobs (gui/quitting.py)
        self.quit_guard = QuitGuard(self, self.runner, self.status)
        self.quit_guard.ready.connect(self.close)
        #: set by SIGTERM / SIGINT: close without asking (the jobs are cancelled and waited for)
        self.force_quit = False
        QTimer.singleShot(0, self._offer_interrupted)

        self.refresh_due.connect(self.stores_tab.start_auto_refresh)
        self.stores_tab.stores_changed.connect(self._stores_changed)
        self.stores_tab.models_changed.connect(self.models_tab.reload)
        # the welcome page offers the starter model only while no model is installed
        self.models_tab.models_changed.connect(self.stores_tab.reload)
        # roles shown in the stores tab follow the profiles tab
        self.profiles_tab.changed.connect(lambda *_: self.stores_tab.reload())
        self.watcher: Watching | None = None
        if watch:  # follows every change of a store's sources by itself (app/watching.py)
            self.watcher = self.workspace.watch(
                lambda store_id, sources, reason: self.refresh_due.emit(store_id, sorted(sources))
            ).start()

    def _build_menus(self) -> None:
        """File (Open data folder, Quit) and Help (About), with the platform's shortcuts."""
        bar = self.menuBar()
        file_menu = bar.addMenu(self.tr("&File"))
        self.open_data_action = QAction(self.tr("&Open data folder"), self)
        self.open_data_action.setObjectName("openDataFolderAction")
        self.open_data_action.setStatusTip(
            self.tr("Open {folder} in the file manager").format(folder=data_folder())
        )
        self.open_data_action.triggered.connect(self.open_data_folder)
        file_menu.addAction(self.open_data_action)
        self.check_action = QAction(self.tr("&Check stores…"), self)
        self.check_action.setObjectName("checkStoresAction")
        self.check_action.setStatusTip(
            self.tr(
                "Verify every store's index, sources and model, and say what to do about each "
                "problem"
            )
        )
        self.check_action.triggered.connect(self.check_stores)
        file_menu.addAction(self.check_action)
        self.check_dialog: CheckStoresDialog | None = None
        file_menu.addSeparator()
        self.backup = BackupActions(
            self,
            workspace=self.workspace,
            runner=self.runner,
            chooser=self.chooser,
            status=self.status,
            current_store=self.stores_tab.current_store,
        )
        self.backup.imported.connect(lambda store_id: self.stores_tab.reload(select_id=store_id))
        self.backup.imported.connect(lambda _: self._stores_changed())
        for action in self.backup.actions():
            file_menu.addAction(action)
        file_menu.addSeparator()
        self.quit_action = QAction(self.tr("&Quit"), self)
        self.quit_action.setObjectName("quitAction")
        self.quit_action.setStatusTip(
            self.tr("Close kortty-rag; a running job is cancelled after you confirm it")
        )
        self.quit_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Quit))
        if self.quit_action.shortcut().isEmpty():  # no platform default (some desktops)
            self.quit_action.setShortcut(QKeySequence("Ctrl+Q"))
        self.quit_action.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
        self.quit_action.triggered.connect(self.close)
        file_menu.addAction(self.quit_action)
        help_menu = bar.addMenu(self.tr("&Help"))
        self.about_action = QAction(self.tr("&About kortty-rag"), self)
        self.about_action.setObjectName("aboutAction")
        self.about_action.setStatusTip(
            self.tr("The versions of kortty-rag and its parts, and where its data is kept")
        )
        self.about_action.triggered.connect(self.show_about)
        help_menu.addAction(self.about_action)
        self.about_box: QMessageBox | None = None

    def open_data_folder(self) -> None:
        folder = data_folder()
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            show_error(
                self,
                self.tr("Open data folder"),
                KorttyRagError(
                    self.tr("Cannot create {folder}: {reason}").format(
                        folder=folder, reason=exc.strerror or exc
                    )
                ),
            )
            return
        open_folder(self, folder, self.tr("Open data folder"))

    def check_stores(self) -> None:
        """Every store checked in the background (``kortty-rag doctor``), the findings in a window."""
        if self.check_dialog is None:
            self.check_dialog = CheckStoresDialog(self.workspace, self.runner, self)
            self.check_dialog.checked.connect(lambda _: self.stores_tab.reload())
        self.check_dialog.show()
        self.check_dialog.activateWindow()
        if not self.runner.busy(CHECK_JOB):
            self.check_dialog.check()

    def show_about(self) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Information,
            self.tr("About kortty-rag"),
            f"kortty-rag {__version__}",
            QMessageBox.StandardButton.Ok,
            self,
        )
        box.setObjectName("aboutBox")
        box.setInformativeText(about_text())
        describe_buttons(box)
        self.about_box = box
        box.open()

    def _show_title(self, tab: int) -> None:
        """The window's title names the tab in view (a task switcher shows where one is)."""
        titles = (
            self.tr("kortty-rag — knowledge stores"),
            self.tr("kortty-rag — AI profiles & roles"),
            self.tr("kortty-rag — models"),
        )
        self.setWindowTitle(titles[tab] if 0 <= tab < len(titles) else titles[0])

    def _stores_changed(self) -> None:
        self.profiles_tab.reload()

    # -- persistence --------------------------------------------------------------------------------

    def _restore(self) -> None:
        state = load_state()
        geometry = decode(state.get("geometry"))
        if geometry:
            self.restoreGeometry(QByteArray(geometry))
        tab = state.get("tab")
        if isinstance(tab, int) and 0 <= tab < self.tabs.count():
            self.tabs.setCurrentIndex(tab)
        store = state.get("store")
        if isinstance(store, str):
            self.stores_tab.reload(select_id=store)

    def save(self) -> None:
        store = self.stores_tab.current_store()
        save_state(
            {
                "geometry": encode(bytes(self.saveGeometry().data())),
                "tab": self.tabs.currentIndex(),
                "store": store.id if store else None,
            }
        )

    def shutdown(self) -> None:
        """Stop everything that runs in the background; safe to call twice."""
        self.runner.cancel_all()
        self.runner.wait(5_000 if self.quit_guard.gave_up else 60_000)
        self.quit_guard.remember_interrupted()
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None
        self.workspace.close()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        keep_inside_screen(self)  # a saved place from a larger screen, or a bottom below the edge

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.quit_guard.may_close(ask=not self.force_quit):
            event.ignore()  # it asks, or waits for the cancelled jobs and closes then
            return
        self.save()
        self.shutdown()
        super().closeEvent(event)

    def _offer_interrupted(self) -> None:
        """A folder whose first index the last quit interrupted: say so and offer to index it."""
        for first in self.quit_guard.take_interrupted():
            store = next((s for s in self.workspace.stores() if s.id == first.store_id), None)
            have = {source.path for source in store.sources} if store is not None else set()
            if store is None or set(first.paths) <= have:
                continue
            paths = [path for path in first.paths if path not in have]

            def index_now(store: Store = store, paths: list[str] = paths) -> None:
                self.tabs.setCurrentWidget(self.stores_tab)
                self.stores_tab.reload(select_id=store.id)
                self.stores_tab.start_scan(store, paths=paths)

            self.quit_guard.offer(replace(first, paths=tuple(paths)), store.name, index_now)
            return  # one at a time; the next start offers another
