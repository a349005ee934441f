"""A reader that goes away ends a command quietly (docs/DESIGN.md §15): ``kortty-rag source list
STORE | head -3`` used to end in a ``BrokenPipeError`` traceback. Now every command stops with exit
141 (128 + SIGPIPE, what a shell shows for ``cat`` in the same place) and writes nothing more,
whether the closed pipe is stdout (a table, ``--json``) or stderr (the progress).

Real processes with the real starter model; the store has 1,500 sources (empty folders, so nothing
is embedded), so ``source list`` writes far more than a pipe holds and must write again after its
reader has gone. Every read has a deadline.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.children import LineReader, started, wait_for_exit

from kortty_rag.embedding.installed import InstalledModel

SOURCES = 1500
#: what a traceback or Python's own complaint at exit would leave on stderr
NOISE = ("Traceback", "BrokenPipeError", "Exception ignored", "Errno 32")


@pytest.fixture
def store(run_cli: Any, starter_model: InstalledModel, tmp_path: Path) -> str:
    folders = [tmp_path / "sources" / f"folder-{i:04d}" for i in range(SOURCES)]
    for folder in folders:
        folder.mkdir(parents=True)
    assert run_cli("store", "create", "Doc", "--model", starter_model.id).returncode == 0
    added = run_cli("source", "add", "Doc", *map(str, folders), "--yes")
    assert added.returncode == 0, added.stderr
    listing = run_cli("source", "list", "Doc")
    assert listing.returncode == 0 and len(listing.stdout) > 2 * 65536  # more than a pipe holds
    return "Doc"


def environment(kortty_home: Path) -> dict[str, str]:
    return dict(os.environ, KORTTY_HOME=str(kortty_home))


def test_source_list_into_head_ends_quietly(store: str, kortty_home: Path) -> None:
    """The finding, as a shell runs it."""
    command = shlex.join([sys.executable, "-m", "kortty_rag", "source", "list", store])
    script = f'{command} | head -3; echo "status=${{PIPESTATUS[0]}}"'
    result = subprocess.run(
        ["bash", "-c", script],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=environment(kortty_home),
        timeout=300,
        check=False,
    )
    lines = result.stdout.splitlines()
    assert len(lines) == 4 and lines[0].startswith("PATH"), result.stdout
    assert lines[-1] == "status=141", (result.stdout, result.stderr)
    assert result.stderr == "", result.stderr


def closed_early(
    args: list[str], kortty_home: Path, *, read_lines: int, stream: str
) -> tuple[int, str, list[str]]:
    """Run ``kortty-rag ARGS``; read ``read_lines`` lines of ``stream`` (``stdout`` or ``stderr``)
    and close it, as ``| head`` does; read the other one to its end. The exit code, the other
    stream's text and the lines read."""
    with started(
        [sys.executable, "-m", "kortty_rag", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(kortty_home),
    ) as proc:
        closed, other = (
            (proc.stdout, proc.stderr) if stream == "stdout" else (proc.stderr, proc.stdout)
        )
        assert closed is not None and other is not None
        reader = LineReader(closed)
        lines = [reader.readline(timeout=300) for _ in range(read_lines)]
        closed.close()
        rest = LineReader(other).read_rest(timeout=300)
        code = wait_for_exit(proc, timeout=60)
    return code, rest, lines


def test_a_table_whose_reader_left_after_one_line(store: str, kortty_home: Path) -> None:
    code, stderr, lines = closed_early(
        ["source", "list", store], kortty_home, read_lines=1, stream="stdout"
    )
    assert lines[0].startswith("PATH")
    assert code == 141, stderr
    assert not any(word in stderr for word in NOISE), stderr


def test_json_whose_reader_is_gone(store: str, kortty_home: Path) -> None:
    """``--json`` writes its document at once: the reader is gone before it starts (``| true``)."""
    for args in (["source", "list", store, "--json"], ["store", "list", "--json"]):
        code, stderr, _ = closed_early(args, kortty_home, read_lines=0, stream="stdout")
        assert code == 141, (args, stderr)
        assert stderr == "", (args, stderr)


def test_progress_whose_reader_is_gone(store: str, kortty_home: Path, tmp_path: Path) -> None:
    """The progress goes to stderr: a closed stderr stops the command quietly too (it used to
    end with a traceback nobody could read, and exit 1)."""
    folder = tmp_path / "more"
    folder.mkdir()
    for i in range(50):
        (folder / f"note-{i}.txt").write_text(f"note {i}\n")
    code, stdout, _ = closed_early(
        ["source", "add", store, str(folder)], kortty_home, read_lines=0, stream="stderr"
    )
    assert code == 141, stdout
    assert not any(word in stdout for word in NOISE), stdout  # it stopped at the progress
