"""The diagnostic log: private, bounded, never through a link, and never on stdout."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from kortty_rag.app import diagnostics
from kortty_rag.app.diagnostics import log_file, log_unexpected, start_log, stop_log


def test_records_and_tracebacks_go_to_a_private_bounded_file(
    kortty_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(diagnostics, "MAX_BYTES", 4096)
    path = start_log("watch")
    assert path == kortty_home / "rag" / "logs" / "watch.log"
    try:
        assert start_log("watch") == path  # once per file
        assert path.read_text(encoding="utf-8").count("watch started: kortty-rag") == 1
        try:
            raise ValueError("boom")
        except ValueError as exc:
            text = log_unexpected("automatic refresh", exc)
        assert "ValueError: boom" in text and "test_records_and_tracebacks" in text
        for i in range(200):
            logging.getLogger("kortty_rag.sync").warning("line %d %s", i, "x" * 60)
    finally:
        stop_log("watch")
    files = sorted(path.parent.iterdir())
    assert [f.name for f in files] == ["watch.log", "watch.log.1", "watch.log.2", "watch.log.3"]
    assert all(f.stat().st_size <= 4096 + 200 for f in files)  # bounded: about 4 × MAX_BYTES
    assert all(f.stat().st_mode & 0o077 == 0 for f in files)
    assert path.parent.stat().st_mode & 0o077 == 0
    logged = path.read_text(encoding="utf-8")
    assert "line 199" in logged
    out, _ = capsys.readouterr()
    assert "line 199" not in out  # never stdout (the MCP server's protocol is there)


def test_a_link_in_place_of_the_log_is_not_followed(kortty_home: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep\n")
    log_file("gui").parent.mkdir(parents=True)
    log_file("gui").symlink_to(target)
    assert start_log("gui") is None  # left out; nothing fails
    logging.getLogger("kortty_rag").error("not written anywhere")
    assert target.read_text() == "keep\n"
