"""``kortty-rag`` without arguments: the desktop app.

Closing the window, SIGINT (Ctrl-C in the terminal that started it) and SIGTERM all end it the same
way: the main window saves its state, cancels running jobs, waits for them and stops the watcher —
closing the window while a job runs asks first (gui/quitting.py), a signal does not. The exit code
is 0 after closing the window, 130 after SIGINT and 143 after SIGTERM.
"""

from __future__ import annotations

import sys


def run_gui() -> int:
    from PySide6.QtWidgets import QApplication

    from kortty_rag.app.diagnostics import start_log
    from kortty_rag.app_id import APP_ID
    from kortty_rag.gui import i18n
    from kortty_rag.gui.app_icon import app_icon
    from kortty_rag.gui.main_window import MainWindow
    from kortty_rag.gui.stop_signals import StopSignalNotifier
    from kortty_rag.stop_signals import exit_code_for

    start_log("gui")  # the app and its watcher; unexpected errors with their tracebacks
    app = QApplication.instance() or QApplication(sys.argv)
    app.setApplicationName("kortty-rag")
    QApplication.setDesktopFileName(APP_ID)  # the desktop entry (Wayland app id): `desktop install`
    QApplication.setWindowIcon(app_icon())  # every window and dialog, and the taskbar
    i18n.install(i18n.chosen_language())  # KORTTY_LANG=de|en, else the system locale
    signals = StopSignalNotifier()  # before the window: a signal during start-up is handled too

    window: MainWindow | None = None

    def stop(signum: int) -> None:
        if window is not None:
            window.force_quit = True  # a signal does not ask: the jobs are cancelled cleanly
        QApplication.closeAllWindows()
        QApplication.exit(exit_code_for(signum))

    signals.stop_requested.connect(stop)
    try:
        window = MainWindow()
        window.show()
        code = app.exec()
    finally:
        signals.close()
        if window is not None:
            window.shutdown()
    return int(code)
