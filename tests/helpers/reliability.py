"""Shared pieces of the reliability suite: tier sizes, figures, corpora and the old-or-new checks.

Every test runs in two tiers: the CI tier (the default ``pytest`` run) and the soak tier
(``KORTTY_SOAK=1``), which runs the same checks larger. Figures are printed and, when
``KORTTY_FIGURES`` names a file, appended to it as JSON lines (the source of the figures in
``docs/RELIABILITY.md``).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from pathlib import Path
from typing import Any

SOAK = os.environ.get("KORTTY_SOAK", "") not in ("", "0")
TIER = "soak" if SOAK else "ci"

WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "river",
    "stone",
    "cloud",
    "forest",
    "ember",
    "quartz",
    "meadow",
    "harbor",
]


def size(ci: int, soak: int, env: str | None = None) -> int:
    """The size of a check in the current tier (``env`` overrides both)."""
    if env and os.environ.get(env):
        return int(os.environ[env])
    return soak if SOAK else ci


def record_figure(check: str, **values: Any) -> None:
    """Report the figures of one check (printed; appended to ``$KORTTY_FIGURES`` if set)."""
    line = {"check": check, "tier": TIER, "at": time.strftime("%Y-%m-%d %H:%M:%S")} | values
    print(f"FIGURE {json.dumps(line)}")
    target = os.environ.get("KORTTY_FIGURES")
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(line) + "\n")


def write_doc(path: Path, rng: random.Random, words: tuple[int, int] = (50, 600)) -> None:
    path.write_text(" ".join(rng.choice(WORDS) for _ in range(rng.randrange(*words))))


def make_corpus(folder: Path, count: int, rng: random.Random) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        write_doc(folder / f"d{i:03d}.txt", rng)
    return folder


def mutate_corpus(folder: Path, rng: random.Random, tag: str, changes: int = 5) -> None:
    """Edit, delete or rename ``changes`` documents and add up to five new ones."""
    existing = sorted(folder.glob("*.txt"))
    for path in rng.sample(existing, min(changes, len(existing))):
        action = rng.choice(["edit", "delete", "rename"])
        if action == "edit":
            write_doc(path, rng)
        elif action == "delete":
            path.unlink()
        else:
            path.rename(path.with_name(f"r{tag}-{path.name}"))
    for i in range(rng.randrange(1, 6)):
        write_doc(folder / f"n{tag}-{i}.txt", rng)


def folder_state(folder: Path) -> dict[str, str]:
    """rel path → SHA-256 of every document in ``folder``: what a complete index would hold."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in folder.rglob("*.txt")
    }
