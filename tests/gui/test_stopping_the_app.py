"""SIGINT and SIGTERM close the desktop app cleanly, also when SIGINT was inherited ignored.

The app runs as a real process (``python -m kortty_rag``, Qt's offscreen platform) started with SIGINT
ignored, as from the background of a non-interactive shell. Once it has installed its handlers, the
signal must end it within a deadline, with 130 or 143, through the main window's normal close: the
window state file it writes on closing is the proof (a process killed by the signal writes none).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from tests.helpers.children import (
    LineReader,
    ignoring_sigint,
    started,
    wait_for_exit,
    wait_until_catching,
)

from kortty_rag.gui.state import STATE_FILE

STOP_SECONDS = 60.0


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_signal_closes_the_app_cleanly(kortty_home: Path, signum: signal.Signals) -> None:
    env = dict(os.environ, KORTTY_HOME=str(kortty_home), QT_QPA_PLATFORM="offscreen")
    with started(
        [sys.executable, "-m", "kortty_rag"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=ignoring_sigint,
    ) as app:
        wait_until_catching(app, {signal.SIGINT, signal.SIGTERM}, timeout=120)
        assert not (kortty_home / "rag" / STATE_FILE).exists()
        app.send_signal(signum)
        code = wait_for_exit(app, STOP_SECONDS)
        err = LineReader(app.stderr).read_rest(timeout=10)
    assert code == 128 + signum, err
    assert "Traceback" not in err
    assert (kortty_home / "rag" / STATE_FILE).exists()  # closeEvent ran: the state was saved
