"""SIGINT and SIGTERM stop ``watch`` and ``serve`` cleanly, also when SIGINT was inherited ignored.

A job in the background of a non-interactive shell starts with SIGINT ignored (POSIX), and Python
then installs no KeyboardInterrupt handler: before the fix, ``watch`` and ``serve`` ignored Ctrl-C
there, and SIGTERM ended them without cleanup (exit -15). Every child here starts with SIGINT ignored;
each must end within a deadline with 130 after SIGINT and 143 after SIGTERM, and is killed in
``finally`` whatever happens.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.helpers.children import LineReader, ignoring_sigint, started, wait_for_exit
from tests.helpers.reliability import record_figure

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.index.factory import open_vector_store
from kortty_rag.index.lock import StoreLock
from kortty_rag.models import SyncMode
from kortty_rag.sync.session import StoreSession

CORPUS = Path(__file__).parent.parent / "data" / "corpus" / "science"
STOP_SECONDS = 30.0
EXPECTED = {signal.SIGINT: 130, signal.SIGTERM: 143}
SIGNALS = pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])


def kortty(kortty_home: Path, *args: str, **popen: object) -> dict[str, object]:
    return {
        "args": [sys.executable, "-m", "kortty_rag", *args],
        "env": dict(os.environ, KORTTY_HOME=str(kortty_home)),
        "preexec_fn": ignoring_sigint,
        **popen,
    }


def test_the_children_really_start_with_sigint_ignored(kortty_home: Path) -> None:
    """The premise of this file: ``ignoring_sigint`` gives the child SIG_IGN for SIGINT."""
    code = "import signal; print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)"
    options = kortty(kortty_home, stdout=subprocess.PIPE)
    options["args"] = [sys.executable, "-c", code]
    with started(**options) as proc:  # type: ignore[arg-type]
        assert LineReader(proc.stdout).readline(60) == "True\n"


@SIGNALS
def test_watch_stops_on_signal_with_sigint_ignored(
    kortty_home: Path, signum: signal.Signals
) -> None:
    with started(
        **kortty(kortty_home, "watch", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    ) as proc:  # type: ignore[arg-type]
        out = LineReader(proc.stdout)
        out.read_until(lambda line: line.startswith("Watching "), timeout=120)
        proc.send_signal(signum)
        assert wait_for_exit(proc, STOP_SECONDS) == EXPECTED[signum]
        err = LineReader(proc.stderr).read_rest(timeout=10)
    assert f"stopped by {signum.name}" in err
    assert "Traceback" not in err


def test_watch_cancels_a_running_refresh_on_sigterm(
    starter_model: InstalledModel, kortty_home: Path, tmp_path: Path
) -> None:
    """SIGTERM while the start-up refresh of 300 new files runs (minutes of embedding on a shared 2-core machine): the
    refresh is cancelled, the process ends within seconds instead of finishing it, and the store keeps
    its previous snapshot, with its lock free."""
    docs = tmp_path / "docs"
    docs.mkdir()
    registry = StoreRegistry()
    store = registry.create("Auto", starter_model.identity())
    (docs / "first.txt").write_text("Volcanoes erupt when magma rises.\n")
    with StoreSession(store, registry=registry) as job:
        job.apply(job.review_new_sources([docs], sync_mode=SyncMode.AUTO))
    text = CORPUS.joinpath("volcano.txt").read_text()
    for n in range(300):  # the reconcile at start-up finds them: a long refresh
        (docs / f"note-{n}.txt").write_text(f"{text}\nNote {n}.\n" * 4)
    options = kortty(kortty_home, "watch", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with started(**options) as proc:  # type: ignore[arg-type]
        LineReader(proc.stdout).read_until(lambda line: line.startswith("Watching "), timeout=120)
        time.sleep(1.0)  # the refresh is embedding now
        signalled = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert wait_for_exit(proc, STOP_SECONDS) == 143
        stopped_in = time.monotonic() - signalled
        err = LineReader(proc.stderr).read_rest(timeout=10)
    record_figure("stop_watch_during_refresh", files=300, stopped_in_s=round(stopped_in, 2))
    assert "failed" not in err and "Traceback" not in err, err
    after = StoreRegistry().get("Auto")
    StoreLock(
        StoreRegistry().folder(after), purpose="probe"
    ).acquire().release()  # the lock is free
    vectors = open_vector_store(after)
    try:
        indexed = {d.rel_path for d in vectors.documents()}
    finally:
        vectors.close()
    assert indexed == {"first.txt"}  # cancelled: the previous snapshot is still the active one


def initialize(server: subprocess.Popen[str], out: LineReader) -> dict[str, object]:
    assert server.stdin is not None
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    }
    server.stdin.write(json.dumps(request) + "\n")
    server.stdin.flush()
    answer: dict[str, object] = json.loads(out.readline(timeout=120))
    return answer


@SIGNALS
def test_serve_stops_on_signal_with_sigint_ignored(
    kortty_home: Path, signum: signal.Signals
) -> None:
    """The client keeps stdin open (it has not gone away); the signal alone must end the server."""
    options = kortty(
        kortty_home,
        "serve",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    with started(**options) as server:  # type: ignore[arg-type]
        out = LineReader(server.stdout)
        assert initialize(server, out)["id"] == 1
        server.send_signal(signum)
        assert wait_for_exit(server, STOP_SECONDS) == EXPECTED[signum]
        assert out.read_rest(timeout=10) == ""  # stdout stays the protocol's: nothing after
        err = LineReader(server.stderr).read_rest(timeout=10)
    assert f"stopped by {signum.name}" in err
    assert "Traceback" not in err
