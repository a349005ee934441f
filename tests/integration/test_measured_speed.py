"""The review's time estimate follows the speed this machine measured in its last jobs.

A real first index with the starter model records its rate; the next review estimates with it
(the expected figure is computed here from the recorded file, not with the product's helpers).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.sync.session import StoreSession

ANIMALS = ["otter", "heron", "badger", "lynx", "marten", "stoat", "vole", "wren", "newt", "hare"]
PLACES = ["river bank", "beech wood", "salt marsh", "hay meadow", "pine heath", "chalk down"]


def write_notes(folder: Path, count: int, first: int = 0) -> None:
    folder.mkdir(parents=True)
    for i in range(first, first + count):
        animal, place = ANIMALS[i % len(ANIMALS)], PLACES[i % len(PLACES)]
        (folder / f"sighting-{i:03d}.txt").write_text(
            f"Sighting {i}: a {animal} was seen near the {place} at {6 + i % 12} o'clock, "
            f"moving {'north' if i % 2 else 'south'} after the rain.\n",
            encoding="utf-8",
        )


def recorded_jobs(home: Path) -> list[dict[str, object]]:
    data = json.loads((home / "rag" / "embedding-speed.json").read_text(encoding="utf-8"))
    (jobs,) = data["models"].values()  # one model
    assert isinstance(jobs, list)
    return jobs


def test_the_next_review_estimates_with_the_speed_of_the_last_job(
    tmp_path: Path, starter_model: InstalledModel, kortty_home: Path
) -> None:
    write_notes(tmp_path / "first", 80)
    write_notes(tmp_path / "second", 12, first=80)
    registry = StoreRegistry()
    store = registry.create("Field notes", starter_model.identity())

    with StoreSession(store, registry=registry) as job:
        review = job.review_new_sources([tmp_path / "first"])
        first = review.report.summary()
        assert not first.speed_measured
        assert first.to_json()["estimated_speed"] == "nominal"
        assert "a first guess" in " ".join(first.lines())
        assert job.apply(review).chunks_embedded == 80

    (record,) = recorded_jobs(kortty_home)
    assert record["chunks"] == 80
    rate = record["chunks_per_second"]
    assert isinstance(rate, float) and rate > 0

    with StoreSession(registry.get("Field notes"), registry=registry) as job:
        review = job.review_new_sources([tmp_path / "second"])
        second = review.report.summary()
        assert second.speed_measured
        assert second.to_json()["estimated_speed"] == "measured"
        assert second.estimated_chunks == 12
        assert second.estimated_seconds == pytest.approx(12 / rate)
        assert "at this machine's speed" in " ".join(second.lines())
        assert job.apply(review).chunks_embedded == 12

    assert len(recorded_jobs(kortty_home)) == 1  # 12 chunks say too little to be kept
