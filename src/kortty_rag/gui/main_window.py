"""The main window: an "AI" area with the Knowledge Stores, AI Profiles & Roles and Models tabs.

It owns what the tabs share — the workspace (the store registry and the retrieval service), the job
runner and the watcher of auto sources — and shuts them down in order: cancel jobs, wait for every
worker thread, stop the watcher, close the stores.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QLabel, QMainWindow, QTabWidget, QVBoxLayout, QWidget

from kortty_rag.app.workspace import Workspace
from kortty_rag.gui.common import PathChooser
from kortty_rag.gui.models_tab import ModelsTab
from kortty_rag.gui.profiles_tab import ProfilesTab
from kortty_rag.gui.state import decode, encode, load_state, save_state
from kortty_rag.gui.stores_tab import StoresTab
from kortty_rag.gui.workers import JobRunner
from kortty_rag.sync.watch import SourceWatcher


class MainWindow(QMainWindow):
    #: emitted from the watcher's thread, handled on the GUI thread
    refresh_due = Signal(str, list)

    def __init__(self, *, chooser: PathChooser | None = None, watch: bool = True) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("kortty-rag — knowledge stores")
        self.workspace = Workspace()
        self.registry = self.workspace.registry
        self.runner = JobRunner(self)
        self.chooser = chooser or PathChooser()

        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("aiTabs")
        self.stores_tab = StoresTab(self.workspace, self.runner, self.chooser, self)
        self.tabs.addTab(self.stores_tab, "Knowledge Stores")
        self.profiles_tab = ProfilesTab(self, workspace=self.workspace, chooser=self.chooser)
        self.tabs.addTab(self.profiles_tab, "AI Profiles && Roles")
        self.models_tab = ModelsTab(self.runner, self.chooser, self)
        self.tabs.addTab(self.models_tab, "Models")

        central = QWidget(self)
        layout = QVBoxLayout(central)
        heading = QLabel("<b>AI</b>", central)
        heading.setObjectName("aiHeading")
        layout.addWidget(heading)
        layout.addWidget(self.tabs)
        self.setCentralWidget(central)
        self.resize(1200, 760)
        self._restore()

        self.refresh_due.connect(self.stores_tab.start_auto_refresh)
        self.stores_tab.stores_changed.connect(self._stores_changed)
        # roles shown in the stores tab follow the profiles tab
        self.profiles_tab.changed.connect(lambda *_: self.stores_tab.reload())
        self.watcher: SourceWatcher | None = None
        if watch:
            self.watcher = SourceWatcher(
                lambda store_id, sources, reason: self.refresh_due.emit(store_id, sorted(sources)),
                registry=self.registry,
            )
            self.watcher.start()

    def _stores_changed(self) -> None:
        if self.watcher is not None:
            for store in self.registry.list():
                self.watcher.resync(store)
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
        self.runner.wait()
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None
        self.workspace.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save()
        self.shutdown()
        super().closeEvent(event)
