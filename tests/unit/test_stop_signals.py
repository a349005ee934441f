"""``stopping_on_signals``: SIGINT and SIGTERM raise ``StopSignal`` whatever was installed before, and the
previous handlers come back afterwards. Signals are sent to this process itself; the handlers under test
are installed before each ``os.kill``, and the original ones are restored in ``finally``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from tests.helpers.children import LineReader, ignoring_sigint, started, wait_for_exit

from kortty_rag.stop_signals import StopSignal, exit_code_for, stopping_on_signals


def deliver(signum: signal.Signals) -> None:
    """Send ``signum`` to this process and give Python the chance to run its handler."""
    os.kill(os.getpid(), signum)
    for _ in range(100):  # the handler runs at the next bytecode boundary; this loop is one
        time.sleep(0.01)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_signal_raises_stop_even_when_sigint_was_ignored(signum: signal.Signals) -> None:
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as inherited in a background job of a script
    ignored_term = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        with pytest.raises(StopSignal) as stopped, stopping_on_signals():
            deliver(signum)
        assert stopped.value.signum == signum
        assert stopped.value.exit_code == {signal.SIGINT: 130, signal.SIGTERM: 143}[signum]
        assert isinstance(stopped.value, KeyboardInterrupt)  # unwinds like Ctrl-C everywhere
        # the previous (ignoring) handlers are back
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, ignored_term)
        for signum_, handler in before.items():
            signal.signal(signum_, handler)


def test_exit_codes_are_128_plus_the_signal_number() -> None:
    assert exit_code_for(signal.SIGINT) == 130
    assert exit_code_for(signal.SIGTERM) == 143


_BUSY_EVENT_LOOP = """
import sys, anyio
from kortty_rag.stop_signals import exiting_on_signals

async def main():
    print("ready", flush=True)
    while True:  # anyio's bookkeeping runs all the time: a signal lands inside it
        await anyio.to_thread.run_sync(lambda: None)

with exiting_on_signals(lambda: print("cleaned up", file=sys.stderr, flush=True)):
    anyio.run(main)
"""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_exiting_on_signals_never_raises_into_an_event_loop(signum: signal.Signals) -> None:
    """``serve`` runs anyio: an exception raised at an arbitrary point of its loop could break a cancel
    scope and end in a traceback. ``exiting_on_signals`` runs the cleanup and exits instead."""
    for _ in range(8):
        with started(
            [sys.executable, "-c", _BUSY_EVENT_LOOP],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=ignoring_sigint,
        ) as child:
            assert LineReader(child.stdout).readline(60) == "ready\n"
            time.sleep(0.05)
            child.send_signal(signum)
            assert wait_for_exit(child, 30) == exit_code_for(signum)
            err = LineReader(child.stderr).read_rest(timeout=10)
        assert err == f"cleaned up\nkortty-rag: stopped by {signum.name}.\n"
