"""Child processes in tests: every read has a deadline, and whatever a test starts is killed.

A test that reads a child's pipe without a deadline hangs when the child does not answer, and a
child left running after its test poisons the next one (its pipes are found unclosed later, a
ResourceWarning that ``filterwarnings = error`` turns into a failure). So:

- :func:`started` is ``subprocess.Popen`` as a context manager that kills the child (if it still
  runs), reaps it with a deadline and closes its pipes in ``finally``; ``Popen``'s own ``with`` waits
  for the child without one.
- :class:`LineReader` reads lines from a child's pipe with a deadline: ``select`` on the file
  descriptor and ``os.read`` with its own buffer (no thread, nothing left blocked in a read).
- :func:`ignoring_sigint` is a ``preexec_fn`` that starts the child with SIGINT ignored, as a job in
  the background of a non-interactive shell starts.
- :func:`catches_signals` tells from ``/proc/<pid>/status`` whether a child has installed its own
  handlers for some signals (it is ready to be stopped by them).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import IO, Any

#: how long a killed child may take to be reaped
REAP_SECONDS = 30.0


class ChildTimeout(AssertionError):
    """A child did not answer (or end) within its deadline."""


def ignoring_sigint() -> None:
    """``preexec_fn``: the child starts with SIGINT ignored (inherited through ``exec``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_child(proc: subprocess.Popen[Any]) -> None:
    """Kill ``proc`` if it still runs, reap it within :data:`REAP_SECONDS`, close its pipes."""
    try:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=REAP_SECONDS)
    finally:
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):  # a stdin whose reader is gone
                    stream.close()


@contextlib.contextmanager
def started(args: list[str], **popen: Any) -> Iterator[subprocess.Popen[Any]]:
    """``subprocess.Popen(args, **popen)``, killed and reaped when the block ends, however it ends."""
    proc: subprocess.Popen[Any] = subprocess.Popen(args, **popen)
    try:
        yield proc
    finally:
        stop_child(proc)


def wait_for_exit(proc: subprocess.Popen[Any], timeout: float) -> int:
    """The child's exit code; :class:`ChildTimeout` if it still runs after ``timeout`` seconds."""
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ChildTimeout(f"pid {proc.pid} still runs after {timeout:g} s") from None


class LineReader:
    """Lines from a child's pipe, each read with a deadline.

    Reads the file descriptor directly: do not also read the pipe through its file object.
    """

    def __init__(self, stream: IO[Any]) -> None:
        self.fd = stream.fileno()
        self._buffer = b""
        self._eof = False
        self.lines: list[str] = []  # every line returned so far, for failure messages

    def readline(self, timeout: float) -> str:
        """The next line (with its newline); ``""`` at end of file; :class:`ChildTimeout` after
        ``timeout`` seconds without a complete line."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer and not self._eof:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ChildTimeout(
                    f"no line within {timeout:g} s; read so far: {''.join(self.lines)!r}"
                    f" + {self._buffer!r}"
                )
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if ready:
                chunk = os.read(self.fd, 65536)
                self._buffer += chunk
                self._eof = not chunk
        if b"\n" in self._buffer:
            raw, self._buffer = self._buffer.split(b"\n", 1)
            line = raw.decode("utf-8", errors="replace") + "\n"
        else:
            line, self._buffer = self._buffer.decode("utf-8", errors="replace"), b""
        self.lines.append(line)
        return line

    def read_until(self, found: Callable[[str], bool], timeout: float) -> str:
        """Lines until one for which ``found`` is true (returned); all within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.readline(max(0.0, deadline - time.monotonic()))
            if not line:
                raise ChildTimeout(f"end of output before the line; read: {''.join(self.lines)!r}")
            if found(line):
                return line

    def read_rest(self, timeout: float) -> str:
        """Everything up to end of file, within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        rest: list[str] = []
        while line := self.readline(max(0.0, deadline - time.monotonic())):
            rest.append(line)
        return "".join(rest)


def caught_signals(pid: int) -> set[int]:
    """The signals ``pid`` has handlers for (``SigCgt`` in ``/proc/<pid>/status``)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("SigCgt:"):
                mask = int(line.split()[1], 16)
                return {n for n in range(1, 65) if mask & (1 << (n - 1))}
    return set()


def wait_until_catching(proc: subprocess.Popen[Any], signals: set[int], timeout: float) -> None:
    """Wait until ``proc`` has its own handlers for ``signals``; :class:`ChildTimeout` if not within
    ``timeout`` seconds (or if it ended)."""
    deadline = time.monotonic() + timeout
    while not signals <= caught_signals(proc.pid):
        if proc.poll() is not None:
            raise ChildTimeout(
                f"pid {proc.pid} ended with {proc.returncode} before catching {signals}"
            )
        if time.monotonic() > deadline:
            raise ChildTimeout(f"pid {proc.pid} catches no {signals} after {timeout:g} s")
        time.sleep(0.05)
