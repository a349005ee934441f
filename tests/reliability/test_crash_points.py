"""Promise 1: a crash right before or after any durable step leaves the complete old or the complete new
state — never anything else (docs/DESIGN.md §9).

Every fsync, rename and cleanup of snapshot activation and of the registry's atomic writes sits
between two named checkpoints (``index.snapshot.checkpoint``, ``config.atomic.checkpoint``). A clean
run records them; then, for every checkpoint, a real indexing process (forked from the driver) exits
with ``os._exit`` right there, and the next open must serve the complete old or the complete new
snapshot, read a complete store definition, and leave no temporary files behind.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.reliability import folder_state, make_corpus, mutate_corpus, record_figure
from tests.helpers.storage_driver import (
    EXIT_CRASH_POINT,
    EXIT_OK,
    ForkServer,
    restore,
    served_state,
)

STORE = "S"


def prepare(server: ForkServer, template: Path, folder: Path, scenario: str) -> str:
    """Build the template home for ``scenario``; returns the job the crash runs perform."""
    rng = random.Random(scenario)
    make_corpus(folder, 24, rng)
    template.mkdir(parents=True)
    if scenario == "first index":
        return "index"
    code, outcome = server.run(home=template, store=STORE, folder=folder)
    assert code == EXIT_OK, outcome
    if scenario == "refresh":
        mutate_corpus(folder, rng, "x", changes=6)
        return "index"
    return "remove"


def state(home: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setenv("KORTTY_HOME", str(home))
    return served_state(STORE)


@dataclass(frozen=True)
class Baseline:
    """A scenario's template home, and the old and new states a clean run goes between."""

    template: Path
    home: Path
    folder: Path
    job: str
    old: dict[str, Any]
    new: dict[str, Any]
    clean: dict[str, Any]  # the clean run's record: durable-step log, checkpoints, definitions
    definitions: list[Any]  # every complete store definition a run may leave behind


def baseline(
    server: ForkServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scenario: str
) -> Baseline:
    template, home, folder = tmp_path / "template", tmp_path / "home", tmp_path / "docs"
    job = prepare(server, template, folder, scenario)
    restore(template, home)
    old = state(home, monkeypatch)
    restore(template, home)
    code, clean = server.run(home=home, store=STORE, folder=folder, job=job, record=True)
    assert code == EXIT_OK, clean
    new = state(home, monkeypatch)
    definitions = [old["store"], *clean["definitions"], new["store"]]
    return Baseline(template, home, folder, job, old, new, clean, definitions)


def assert_bracketed(log: list[list[str]]) -> None:
    """Every durable operation has a checkpoint right after it, so a crash can be placed right
    before and right after each one."""
    kinds = [kind for kind, _ in log]
    for i, (kind, what) in enumerate(log):
        if kind == "op":
            assert "checkpoint" in kinds[i + 1 : i + 2], f"no checkpoint right after {what}"


@pytest.mark.parametrize("scenario", ["first index", "refresh", "remove source"])
def test_exit_at_every_durable_step_leaves_old_or_new(
    server: ForkServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scenario: str
) -> None:
    base = baseline(server, tmp_path, monkeypatch, scenario)
    template, home, folder, job = base.template, base.home, base.folder, base.job
    old, new, clean, definitions = base.old, base.new, base.clean, base.definitions
    assert new["docs"] == ({} if job == "remove" else folder_state(folder))
    assert old["docs"] != new["docs"]
    assert_bracketed(clean["log"])
    steps = [what for kind, what in clean["log"] if kind == "checkpoint"]
    assert len(steps) == clean["checkpoints"] >= 10

    sequence: list[str] = []
    for n, step in enumerate(steps, start=1):
        restore(template, home)
        code, _ = server.run(home=home, store=STORE, folder=folder, job=job, exit_at=n)
        assert code == EXIT_CRASH_POINT, f"the process did not stop at {step}"
        after = state(home, monkeypatch)
        assert "error" not in after, f"exit at {step}: {after['error']}"
        assert after["docs"] in (old["docs"], new["docs"]), f"exit at {step}: neither old nor new"
        assert after["store"] in definitions, f"exit at {step}: store definition torn"
        assert after["leftovers"] == [], f"exit at {step}: leftovers {after['leftovers']}"
        assert after["searchable"]
        sequence.append("new" if after["docs"] == new["docs"] else "old")
    # the switch happens at exactly one step: everything before it serves old, everything after new
    assert sequence == sorted(sequence, key=["old", "new"].index)
    outcomes = Counter(sequence)
    record_figure(
        "crash points",
        scenario=scenario,
        checkpoints=len(steps),
        distinct_steps=len(set(steps)),
        durable_ops=sum(1 for kind, _ in clean["log"] if kind == "op"),
        old=outcomes["old"],
        new=outcomes["new"],
        steps=json.dumps(sorted(set(steps))),
    )
    assert outcomes["old"] and outcomes["new"]
