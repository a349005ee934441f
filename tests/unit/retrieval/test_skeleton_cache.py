"""The skeleton's ambiguous-character table kept between processes is the computed one, and a kept
file that is not a valid table for this code and data is never used."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from kortty_rag.retrieval import skeleton
from kortty_rag.retrieval.skeleton_cache import cached_table, table_key

PRINT_TABLE = """
import json
from kortty_rag.retrieval import skeleton
table = skeleton._ambiguous()
print(json.dumps({c: sorted(r) for c, r in sorted(table.items())}))
"""
CODE = Path(skeleton.__file__)


def table_in_new_process(home: Path) -> dict[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PRINT_TABLE],
        env={**os.environ, "KORTTY_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    table: dict[str, list[str]] = json.loads(done.stdout)
    return table


def test_the_kept_table_is_what_folding_all_of_unicode_gives(kortty_home: Path) -> None:
    computed = table_in_new_process(kortty_home)
    (kept,) = (kortty_home / "rag" / "cache").glob("skeleton-*.json")
    read_back = table_in_new_process(kortty_home)  # from the file this time
    folded = {c: sorted(r) for c, r in sorted(skeleton.fold_all().items())}
    assert computed == read_back == folded
    assert len(folded) > 1000
    assert kept.name == f"skeleton-{table_key(CODE)}.json"


def test_a_file_that_is_not_a_table_for_this_key_is_computed_again(kortty_home: Path) -> None:
    key = table_key(CODE)
    path = kortty_home / "rag" / "cache" / f"skeleton-{key}.json"
    path.parent.mkdir(parents=True)
    computed = {"é": frozenset({"e", "\ue000"})}
    weakened = {"version": 1, "key": key, "ambiguous": {"é": ["e"]}}  # one reading: not ambiguous
    for content in (
        "{not json",
        json.dumps({**weakened, "ambiguous": {"é": ["e", "x"]}, "key": "another"}),
        json.dumps(weakened),
        json.dumps({**weakened, "ambiguous": {"e": ["e", "x"]}}),  # ASCII is never ambiguous
        json.dumps({**weakened, "ambiguous": {}}),
    ):
        path.write_text(content, encoding="utf-8")
        calls: list[int] = []

        def compute(calls: list[int] = calls) -> dict[str, frozenset[str]]:
            calls.append(1)
            return computed

        assert cached_table(CODE, compute) == computed and calls == [1], content
        assert json.loads(path.read_text(encoding="utf-8"))["ambiguous"] == {"é": ["e", "\ue000"]}
    assert cached_table(CODE, lambda: {}) == computed  # the rewritten file is used


def test_tables_of_other_versions_are_removed_and_a_read_only_home_costs_only_time(
    kortty_home: Path,
) -> None:
    cache = kortty_home / "rag" / "cache"
    cache.mkdir(parents=True)
    (cache / "skeleton-old.json").write_text("{}", encoding="utf-8")
    computed = {"é": frozenset({"e", "x"})}
    assert cached_table(CODE, lambda: computed) == computed
    assert [p.name for p in cache.iterdir()] == [f"skeleton-{table_key(CODE)}.json"]
    for p in cache.iterdir():
        p.unlink()
    cache.rmdir()
    cache.write_text("a file where the folder would be", encoding="utf-8")
    assert cached_table(CODE, lambda: computed) == computed
