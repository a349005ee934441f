"""Promise 5: a hostile folder is scanned and indexed without a crash or a hang; every entry gets exactly
one status, every skipped one exactly one stated reason, and no file takes longer than its time limit
(docs/DESIGN.md §6, §7).

The folder (``tests/helpers/hostile.py``) holds symlink loops, a FIFO, a socket, device files, empty
and binary files, invalid UTF-8 in contents and in a file name, a 1 GiB sparse file, a 1,100-level-deep
tree, an unreadable file and folder, encrypted, image-only, malformed and decompression-bomb PDFs,
identical copies and hostile file names. It is indexed in a child process (timeout: a hang fails the
test) that, as root, has dropped the capabilities that would let it read anything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.helpers.hostile import DEEP_REL, build, remove
from tests.helpers.privileges import permission_checked_preexec
from tests.helpers.reliability import record_figure, size

from kortty_rag.models import GiB, MiB

REPO = Path(__file__).resolve().parents[2]
PDF_TIMEOUT = 20.0
PDF_MEMORY = 384 * MiB
BOMB_MIB = size(512, 2048)
#: text files have no limit of their own; none of these may take anywhere near this long
TEXT_SECONDS = 5.0


def test_hostile_corpus_gives_one_reason_per_file(tmp_path: Path, kortty_home: Path) -> None:
    root = tmp_path / "hostile"
    expect = build(root, bomb_mib=BOMB_MIB)
    expect["sparse.txt"] = ("skipped", "NUL byte")  # read under a 1 GiB limit, refused at once
    try:
        spec = tmp_path / "spec.json"
        spec.write_text(
            json.dumps(
                {
                    "root": str(root),
                    "max_file_size": GiB,
                    "pdf_timeout": PDF_TIMEOUT,
                    "pdf_memory": PDF_MEMORY,
                }
            )
        )
        proc = subprocess.run(
            [sys.executable, "-m", "tests.helpers.hostile", str(spec)],
            capture_output=True,
            text=True,
            cwd=REPO,
            env=dict(os.environ, KORTTY_HOME=str(kortty_home)),
            timeout=600,
            check=False,
            preexec_fn=permission_checked_preexec(),
        )
    finally:
        remove(root)
    assert proc.returncode == 0, proc.stderr[-4000:]  # no crash (and the timeout caught any hang)
    result = json.loads(proc.stdout)

    rows = Counter(row["rel"] for row in result["rows"])
    assert [rel for rel, n in rows.items() if n > 1] == []  # one row, so one status, per entry
    assert set(rows) == set(expect)
    by_rel = {row["rel"]: row for row in result["rows"]}
    for rel, (status, phrase) in expect.items():
        row = by_rel[rel]
        assert row["status"] == ("index" if status == "index" else "skipped"), (rel, row)
        if status == "skipped":
            assert phrase in row["reason"] and "\n" not in row["reason"], (rel, row)
    assert result["failed"] == []  # nothing that passed the review failed later
    indexed = {rel for rel, (status, _) in expect.items() if status == "index"}
    assert set(result["indexed"]) == indexed
    assert DEEP_REL in result["indexed"] and {"copy-1.txt", "copy-2.txt"} <= indexed

    slowest: dict[str, tuple[str, float]] = {}
    for phase, timings in result["timings"].items():
        for name, seconds in timings.items():
            limit = PDF_TIMEOUT + 5 if name.endswith(".pdf") else TEXT_SECONDS
            assert seconds <= limit, f"{phase} of {name} took {seconds:.1f} s"
            kind = "pdf" if name.endswith(".pdf") else "other"
            if seconds > slowest.get(kind, ("", 0.0))[1]:
                slowest[kind] = (name.rsplit("/", 1)[-1], seconds)
    record_figure(
        "hostile corpus",
        entries=len(expect),
        skipped=sum(1 for status, _ in expect.values() if status == "skipped"),
        indexed=len(indexed),
        bomb_mib=BOMB_MIB,
        bomb_reason=by_rel["pdf/bomb.pdf"]["reason"],
        slowest={kind: f"{name}: {seconds:.2f} s" for kind, (name, seconds) in slowest.items()},
        scan_seconds=round(result["scan_seconds"], 2),
        total_seconds=round(result["total_seconds"], 2),
    )
