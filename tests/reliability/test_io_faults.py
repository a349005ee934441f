"""Promise 3: a full disk or an I/O error at any write keeps the previous snapshot and gives one clear
error (docs/DESIGN.md §9).

``tests/helpers/iofault.c`` (loaded with ``LD_PRELOAD`` into a real indexing process) counts every
file-system modification under ``KORTTY_HOME`` — Python's writes, SQLite's page writes, hnswlib's
stream writes, fsyncs, renames, creations and removals alike — and fails the k-th one with ENOSPC (EIO
for fsync and removals). The job runs once for every k from 1 to the number of modifications of a
clean run. Each time, the store must afterwards serve the complete old or the complete new snapshot
(old whenever the error says so), keep a complete store definition, leave nothing behind after the
next open, and the job must have failed with exactly one product error — or, for failures the product
tolerates on purpose (the lock file's holder note, cleanup of retired snapshots), not at all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.reliability import record_figure
from tests.helpers.storage_driver import REPO, ForkServer
from tests.reliability.test_crash_points import STORE, baseline

STILL_ACTIVE = "still answers from its last completed index"


def sweep(library: Path, spec: dict[str, Any], tmp_path: Path) -> list[dict[str, Any]]:
    spec_file = tmp_path / f"spec-{spec['first']}.json"
    spec_file.write_text(json.dumps(spec, default=str))
    env = dict(os.environ, LD_PRELOAD=str(library), PYTHONDONTWRITEBYTECODE="1")
    result = subprocess.run(
        [sys.executable, "-m", "tests.helpers.storage_driver", "iofault", str(spec_file)],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=1800,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]  # no crash, whatever failed
    return [json.loads(line) for line in result.stdout.splitlines()]


SCENARIOS = ["refresh", "first index", "remove source"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_failing_the_kth_write_for_every_k(
    iofault_library: Path,
    server: ForkServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    scenario: str,
) -> None:
    base = baseline(server, tmp_path, monkeypatch, scenario)
    old, new, definitions = base.old, base.new, base.definitions
    spec = {
        "home": base.home,
        "template": base.template,
        "store": STORE,
        "folder": base.folder,
        "job": base.job,
    }
    (dry,) = sweep(iofault_library, spec | {"first": 0, "last": 0}, tmp_path)
    total = dry["ops"]
    assert dry["error"] is None and dry["docs"] == new["docs"] and total > 20
    results = sweep(iofault_library, spec | {"first": 1, "last": total}, tmp_path)
    assert [r["k"] for r in results] == list(range(1, total + 1))

    outcomes: Counter[str] = Counter()
    failed_ops: Counter[str] = Counter()
    for r in results:
        where = f"k={r['k']} ({r['failed_op']})"
        failed_ops[r["failed_op"].split(" ")[0]] += 1
        assert "error" not in r or r["error"] is None or r["error_type"], where
        assert r.get("docs") is not None, f"{where}: the store cannot be read afterwards"
        assert r["docs"] in (old["docs"], new["docs"]), f"{where}: neither old nor new served"
        assert r["store"] in definitions, f"{where}: store definition torn"
        assert r["leftovers"] == [], f"{where}: leftovers {r['leftovers']}"
        assert r["searchable"], where
        served = "new" if r["docs"] == new["docs"] else "old"
        if r["error_type"] is None:
            assert served == "new", f"{where}: no error reported, but the update was lost"
            outcomes["tolerated, new"] += 1
            continue
        assert r["error_is_product"], f"{where}: raw {r['error_type']}: {r['error']}"
        if r["error_type"] == "RemovalIncompleteError":  # the definition no longer has the source
            assert served == "new" and STILL_ACTIVE not in r["error"], f"{where}: {r['error']}"
        elif STILL_ACTIVE in r["error"]:
            assert served == "old", f"{where}: says the previous snapshot is active, serves new"
        outcomes[f"{r['error_type']}, {served}"] += 1
    record_figure(
        "I/O faults",
        scenario=scenario,
        writes=total,
        outcomes=dict(sorted(outcomes.items())),
        failed_operations=dict(sorted(failed_ops.items())),
    )
    assert outcomes["tolerated, new"] < total  # nearly every injected failure was noticed
