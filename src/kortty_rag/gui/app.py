"""``kortty-rag`` without arguments: the desktop app."""

from __future__ import annotations

import sys


def run_gui() -> int:
    from PySide6.QtWidgets import QApplication

    from kortty_rag.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv)
    app.setApplicationName("kortty-rag")
    window = MainWindow()
    window.show()
    code = app.exec()
    window.shutdown()
    return int(code)
