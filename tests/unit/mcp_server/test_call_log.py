"""The MCP call log: one JSON line per call, no query unless asked, bounded in size."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kortty_rag.mcp_server.call_log import CallLog, mcp_log_file


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="ascii").splitlines()]


def test_a_call_is_one_json_line_without_the_query(kortty_home: Path) -> None:
    calls = CallLog()
    assert calls.path == kortty_home / "rag" / "logs" / "mcp.log" == mcp_log_file()
    calls.record("search", {"store": "Notes", "query": "my secret question"}, "ok", seconds=0.25)
    calls.record("add_source", {"store": "Notes", "path": "/x/\u202e\n.txt"}, "error", "refused")
    (first, second) = lines(calls.path)
    assert first["tool"] == "search" and first["store"] == "Notes" and first["paths"] == []
    assert first["outcome"] == "ok" and first["ms"] == 250.0 and "query" not in first
    assert second["paths"] == ["/x/\u202e\n.txt"] and second["message"] == "refused"
    raw = calls.path.read_text(
        encoding="ascii"
    )  # escaped: no control or bidi character reaches a terminal
    assert "secret" not in raw and "\u202e" not in raw and raw.count("\n") == 2
    assert calls.path.stat().st_mode & 0o777 == 0o600
    assert calls.path.parent.stat().st_mode & 0o777 == 0o700


def test_the_query_is_logged_only_when_asked(kortty_home: Path) -> None:
    CallLog(log_queries=True).record("search", {"store": "N", "query": "q?"}, "ok")
    assert lines(mcp_log_file())[0]["query"] == "q?"


def test_the_log_is_bounded_by_rotation(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "mcp.log"
    calls = CallLog(path, max_bytes=1000, kept_files=2)
    for number in range(100):
        calls.record("list_stores", {"store": f"s{number}"}, "ok")
    files = sorted(p.name for p in path.parent.iterdir())
    assert files == ["mcp.log", "mcp.log.1", "mcp.log.2"]
    assert all((path.parent / name).stat().st_size <= 1000 for name in files)
    newest = lines(path)[-1]
    assert newest["store"] == "s99"
    kept = [e["store"] for name in reversed(files) for e in lines(path.parent / name)]
    assert kept == [f"s{n}" for n in range(100 - len(kept), 100)]  # the newest, in order


def test_a_symlinked_log_is_not_followed_and_never_fails_the_call(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("kept\n", encoding="utf-8")
    path = tmp_path / "logs" / "mcp.log"
    path.parent.mkdir()
    os.symlink(target, path)
    CallLog(path).record("list_stores", {}, "ok")  # no exception
    assert target.read_text(encoding="utf-8") == "kept\n"
    assert "Could not write the MCP call log" in caplog.text
