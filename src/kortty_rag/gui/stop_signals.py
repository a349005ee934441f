"""SIGINT and SIGTERM close the desktop app cleanly, even when SIGINT was inherited ignored.

Python runs its signal handlers only between bytecodes, and while Qt's event loop waits in C++ no
Python runs: a plain handler would fire at the next mouse move, if ever. So the handlers installed here
do nothing themselves; Python's C-level handler writes the signal number to one end of a socket pair
(``signal.set_wakeup_fd``), a ``QSocketNotifier`` on the other end wakes the event loop, and
:attr:`StopSignalNotifier.stop_requested` is emitted on the GUI thread, where it is safe to close
windows (``kortty_rag.gui.app``: the main window saves its state, cancels running jobs, waits for the
workers and stops the watcher; the app exits with 130 after SIGINT, 143 after SIGTERM).
"""

from __future__ import annotations

import signal
import socket
from types import FrameType

from PySide6.QtCore import QObject, QSocketNotifier, Signal

from kortty_rag.stop_signals import STOP_SIGNALS


def _wake_only(signum: int, frame: FrameType | None) -> None:
    """The work happens on the GUI thread, when the notifier reads the signal number."""


class StopSignalNotifier(QObject):
    """Turns SIGINT and SIGTERM into a Qt signal; :meth:`close` restores the previous handlers.

    Signals: ``stop_requested(int)`` — the signal number (SIGINT or SIGTERM).
    """

    #: the signal number (SIGINT or SIGTERM)
    stop_requested = Signal(int)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._reader, self._writer = socket.socketpair()
        self._reader.setblocking(False)
        self._writer.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        self._previous = {signum: signal.signal(signum, _wake_only) for signum in STOP_SIGNALS}
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._read)
        self._closed = False

    def _read(self) -> None:
        try:
            received = self._reader.recv(256)
        except (BlockingIOError, InterruptedError):
            return
        for signum in received:
            if signum in STOP_SIGNALS:
                self.stop_requested.emit(signum)

    def close(self) -> None:
        """Stop listening; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self._notifier.setEnabled(False)
        for signum, handler in self._previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        signal.set_wakeup_fd(self._previous_fd)
        self._reader.close()
        self._writer.close()
