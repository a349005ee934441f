"""Hostile file and folder names and excerpt text through the real CLI (issue 10, finding 5).

Every command runs in a subprocess with the real starter model, and its raw stdout/stderr bytes are
judged by an oracle that knows nothing of the rendering code: no ESC byte, no C0 control other than
newline and tab, no C1 control, no bidirectional control, zero-width or line-separator code point; the
review and source tables have exactly one line per file or source; and each name is recognisable in
the escaped form written out by hand below.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kortty_rag.embedding.installed import InstalledModel

#: hostile file name -> its escaped form (written by hand: the oracle does not call the escaper)
HOSTILE_FILES = {
    "new\nline.txt": "new\\nline.txt",
    "red\x1b[31mname.txt": "red\\x1b[31mname.txt",
    "title\x1b]0;pwned\x07.txt": "title\\x1b]0;pwned\\x07.txt",
    "rlo\u202egnp.txt": "rlo\\u202egnp.txt",
    "para\u2028graph.txt": "para\\u2028graph.txt",
    "zw\u200dj.txt": "zw\\u200dj.txt",
    "csi\x9b2J.txt": "csi\\x9b2J.txt",
    "back\\slash.txt": "back\\\\slash.txt",
}
ROOT_NAME = "root\x1b[2J\u202eend\nfake"
ROOT_ESCAPED = "root\\x1b[2J\\u202eend\\nfake"
#: the file whose text carries escape sequences and invisible characters of its own
LAVA = "red\x1b[31mname.txt"
LAVA_TEXT = (
    "Basaltic lava flows from the volcano \x1b[31mglow red\x1b[0m and \u202ecool into black "
    "rock\u2028while \x1b]0;owned\x1b\\ steam \x9b2Jvents hiss on the slopes of the mountain."
)

_BIDI = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}
_INVISIBLE_OR_BREAKING = {0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x2028, 0x2029}


def terminal_safe(raw: bytes) -> str:
    """The output as text, after checking that a terminal shows every character as itself."""
    assert b"\x1b" not in raw, "an ESC byte reached the terminal"
    text = raw.decode("utf-8")  # strict: no lone surrogates either
    for number, line in enumerate(text.split("\n"), start=1):
        bad = [
            f"U+{ord(c):04X}"
            for c in line
            if (ord(c) < 0x20 and c != "\t")
            or 0x7F <= ord(c) <= 0x9F
            or ord(c) in _BIDI
            or ord(c) in _INVISIBLE_OR_BREAKING
        ]
        assert not bad, f"line {number} holds {bad}: {line!r}"
    return text


def run_raw(kortty_home: Path, *args: str, judged: bool = True) -> tuple[int, str, str]:
    """``kortty-rag ARGS`` with bytes captured, each stream checked by :func:`terminal_safe` (unless
    it is only setting up a test and not ``judged``)."""
    env = dict(os.environ, KORTTY_HOME=str(kortty_home))
    result = subprocess.run(
        [sys.executable, "-m", "kortty_rag", *args],
        capture_output=True,
        env=env,
        timeout=600,
        check=False,
    )
    if not judged:
        return result.returncode, "", result.stderr.decode("utf-8", "backslashreplace")
    return result.returncode, terminal_safe(result.stdout), terminal_safe(result.stderr)


@pytest.fixture
def hostile_root(tmp_path: Path) -> Path:
    root = tmp_path / ROOT_NAME
    root.mkdir()
    for name in HOSTILE_FILES:
        topic = "lava and volcanoes" if name == LAVA else f"gardening note number {len(name)}"
        (root / name).write_text(LAVA_TEXT if name == LAVA else f"A short {topic}.\n")
    return root


@pytest.fixture
def indexed(kortty_home: Path, starter_model: InstalledModel, hostile_root: Path) -> Path:
    code, _, err = run_raw(kortty_home, "store", "create", "S", "--model", starter_model.id)
    assert code == 0, err
    code, _, err = run_raw(
        kortty_home, "source", "add", "S", str(hostile_root), "--yes", judged=False
    )
    assert code == 0, err
    return hostile_root


def table_rows(stdout: str) -> list[str]:
    """The rows of the table at the start of ``stdout``: the lines after the header up to the first
    empty line."""
    lines = stdout.split("\n")
    end = lines.index("") if "" in lines else len(lines)
    return lines[1:end]


def test_review_table_has_one_escaped_row_per_file(
    kortty_home: Path, starter_model: InstalledModel, hostile_root: Path
) -> None:
    assert run_raw(kortty_home, "store", "create", "S", "--model", starter_model.id)[0] == 0
    code, out, err = run_raw(kortty_home, "source", "add", "S", str(hostile_root))
    assert code == 0, err
    rows = table_rows(out)
    assert len(rows) == len(HOSTILE_FILES), out
    for escaped in HOSTILE_FILES.values():
        assert sum(escaped in row for row in rows) == 1, (escaped, out)
    assert all(ROOT_ESCAPED in row for row in rows)
    assert "Not indexed" in err
    code, out, err = run_raw(kortty_home, "source", "add", "S", str(hostile_root), "--json")
    assert code == 0, err
    listed = {row["path"] for source in json.loads(out)["sources"] for row in source["rows"]}
    assert listed == {str(hostile_root / name) for name in HOSTILE_FILES}, "raw paths in JSON"
    code, out, err = run_raw(kortty_home, "source", "add", "S", str(hostile_root), "--yes")
    assert code == 0, err
    assert len(table_rows(out)) == len(HOSTILE_FILES), out


def test_source_list_and_messages_escape_the_root(kortty_home: Path, indexed: Path) -> None:
    code, out, err = run_raw(kortty_home, "source", "list", "S")
    assert code == 0, err
    assert len(table_rows(out)) == 1 and ROOT_ESCAPED in table_rows(out)[0]
    code, out, err = run_raw(kortty_home, "source", "disable", "S", str(indexed))
    assert code == 0, err
    shown = f"{indexed.parent}/{ROOT_ESCAPED}"
    assert out == f"Source {shown} disabled: its chunks are kept but never retrieved.\n"


def test_error_messages_escape_paths(kortty_home: Path, indexed: Path) -> None:
    missing = indexed.parent / "gone\x1b[31m\u202e\nkortty-rag: error: forged line"
    code, out, err = run_raw(kortty_home, "source", "add", "S", str(missing), "--yes")
    assert code != 0 and out == ""
    assert "gone\\x1b[31m\\u202e\\nkortty-rag: error: forged line" in err
    assert all(line.startswith("kortty-rag: ") for line in err.splitlines()), err


def test_search_block_and_explanation_are_terminal_safe(kortty_home: Path, indexed: Path) -> None:
    code, out, err = run_raw(kortty_home, "search", "S", "volcano lava", "--explain")
    assert code == 0, err
    lines = out.split("\n")
    assert lines[0] == "<retrieved_context>"
    first = next(line for line in lines if line.startswith("[R1] source: "))
    assert first.endswith("name.txt"), out
    explained = [line for line in lines if line.startswith("  [R")]
    assert explained and f"{ROOT_ESCAPED}/{HOSTILE_FILES[LAVA]}" in explained[0], out
    assert "Dropped:" in out or len(explained) == len(HOSTILE_FILES), out


def test_search_json_has_neutralised_text_and_raw_text(kortty_home: Path, indexed: Path) -> None:
    code, out, err = run_raw(kortty_home, "search", "S", "volcano lava", "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    first = data["excerpts"][0]
    assert first["path"] == str(indexed / LAVA), "the JSON path is the real path, JSON-escaped"
    assert first["raw_text"].strip() == LAVA_TEXT.strip(), "raw_text is the text as stored"
    assert "\x1b" not in first["text"] and "\u202e" not in first["text"]
    assert "vents hiss" in first["text"]
    for excerpt in data["excerpts"]:
        assert f"[{excerpt['marker']}] source: {excerpt['location']}\n" in data["block"]
        assert f"\n{excerpt['text']}\n" in data["block"], "text is the block's own excerpt text"
        assert set(excerpt) >= {"text", "raw_text", "path", "location"}
