"""``stopping_on_signals``: SIGINT and SIGTERM raise ``StopSignal`` whatever was installed before, and the
previous handlers come back afterwards. Signals are sent to this process itself; the handlers under test
are installed before each ``os.kill``, and the original ones are restored in ``finally``."""

from __future__ import annotations

import os
import signal
import time

import pytest

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
