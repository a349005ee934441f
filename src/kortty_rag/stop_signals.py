"""SIGINT and SIGTERM stop the long-running commands, whatever disposition the parent left.

A process started in the background of a non-interactive shell inherits SIGINT *ignored* (POSIX), and
Python then installs no ``KeyboardInterrupt`` handler: Ctrl-C or ``kill -INT`` would do nothing, and
``kill`` (SIGTERM) would end the process without any cleanup. So ``watch`` and ``serve`` install
their own handlers with :func:`stopping_on_signals` (the desktop app does the same through Qt, see
``kortty_rag.gui.app``).

Either signal raises :class:`StopSignal` in the main thread. It is a ``KeyboardInterrupt``, so every
library on the way up (asyncio, anyio, threading) unwinds it exactly like Ctrl-C: ``finally`` blocks
stop the watcher, cancel a running refresh and close the stores, and the command exits with
``128 + signal number`` — 130 after SIGINT, 143 after SIGTERM, the codes a shell reports for a process
ended by that signal. A second signal during that cleanup stops it the same way.

``serve`` uses :func:`exiting_on_signals` instead, which raises nothing: an exception raised at an
arbitrary point of an async event loop can land inside anyio's own bookkeeping (measured under load:
about 1 stop in 8 ended in "Attempted to exit a cancel scope that isn't the current task's" and a
traceback), and the MCP SDK reads stdin in a worker thread that neither cancellation nor interpreter
exit can interrupt while the client keeps the pipe open. So the handler itself runs the command's
cleanup (closing its stores), says why it stops and ends the process at once. A change the server
was making at that moment is abandoned exactly as after a crash: its build folder is removed on the
next open and the store keeps serving its previous snapshot.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from kortty_rag.messages import msg

#: The signals that ask a long-running command to stop.
STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM)

_Handler = Callable[[int, FrameType | None], object] | int | None


def exit_code_for(signum: int) -> int:
    """The exit code after stopping on ``signum``: 130 for SIGINT, 143 for SIGTERM."""
    return 128 + signum


def signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


class StopSignal(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived; raised in the main thread by :func:`stopping_on_signals`."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal_name(signum))
        self.signum = signum
        self.exit_code = exit_code_for(signum)
        self.message = msg("stopped by {signal}.", signal=signal_name(signum))


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise StopSignal(signum)


@contextmanager
def _handling(handler: Callable[[int, FrameType | None], None]) -> Iterator[None]:
    """``handler`` for SIGINT and SIGTERM within the block, the previous handlers afterwards; in a
    thread other than the main one (which alone can handle signals) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[signal.Signals, _Handler] = {}
    try:
        for signum in STOP_SIGNALS:
            previous[signum] = signal.signal(signum, handler)
        yield
    finally:
        for signum, earlier in previous.items():
            signal.signal(signum, earlier if earlier is not None else signal.SIG_DFL)


@contextmanager
def stopping_on_signals() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise :class:`StopSignal`; the previous handlers return
    afterwards. Only the main thread can handle signals: elsewhere (a command run from a test's
    worker thread) this does nothing."""
    with _handling(_raise_stop):
        yield


@contextmanager
def exiting_on_signals(cleanup: Callable[[], object] | None = None) -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM end the process at once with their exit code, after
    ``cleanup`` (errors in it are ignored: the process is ending) and a line on stderr. Nothing is
    raised into the code that was running. Only the main thread can handle signals: elsewhere this
    does nothing."""

    def stop(signum: int, frame: FrameType | None) -> None:
        if cleanup is not None:
            with contextlib.suppress(Exception):
                cleanup()
        with contextlib.suppress(OSError, ValueError):  # the client may have closed the pipes
            sys.stdout.flush()
        with contextlib.suppress(OSError, ValueError):
            print(f"kortty-rag: stopped by {signal_name(signum)}.", file=sys.stderr, flush=True)
        os._exit(exit_code_for(signum))

    with _handling(stop):
        yield
