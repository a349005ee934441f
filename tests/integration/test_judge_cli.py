"""``kortty-rag judge`` end to end, in subprocesses, with the real starter model: judge a few
questions, check the store against them (text and ``--json``, the figures recomputed by an
independent oracle from ``kortty-rag search``'s own excerpts), export them as BEIR, rebuild the
store and check again — the judgments are still there, and "before → now" spans the rebuild."""

from __future__ import annotations

import csv
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from kortty_rag.embedding.installed import InstalledModel

CORPUS = Path(__file__).parent.parent / "data" / "corpus"
#: a sentence of volcano.txt: the judgments never keep file text
VOLCANO_SENTENCE = "Beneath the cone lies a magma"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    shutil.copytree(CORPUS / "science", root)  # astronomy, inflation, vaccines, volcano
    return root


def oracle(ranking: list[str], relevant: set[str]) -> tuple[float, float] | None:
    """nDCG@10 (binary gains, log2 discount) and Recall@10, written out plainly."""
    if not relevant:
        return None
    top = ranking[:10]
    dcg = sum(1 / math.log2(i + 2) for i, path in enumerate(top) if path in relevant)
    idcg = sum(1 / math.log2(i + 2) for i in range(min(len(relevant), 10)))
    return dcg / idcg, len(relevant & set(top)) / len(relevant)


def block_documents(run_cli: Any, question: str) -> list[str]:
    """The documents of ``kortty-rag search``'s context block, in marker order, each once."""
    found = run_cli("search", "Sci", question, "--json")
    assert found.returncode == 0, found.stderr
    return list(dict.fromkeys(e["path"] for e in json.loads(found.stdout)["excerpts"]))


def check_json(run_cli: Any) -> dict[str, Any]:
    checked = run_cli("judge", "Sci", "--check", "--json")
    assert checked.returncode == 0, checked.stderr
    data: dict[str, Any] = json.loads(checked.stdout)
    return data


def test_judge_check_export_and_rebuild(
    run_cli: Any, starter_model: InstalledModel, docs: Path, kortty_home: Path, tmp_path: Path
) -> None:
    assert run_cli("store", "create", "Sci", "--model", starter_model.id).returncode == 0
    added = run_cli("source", "add", "Sci", str(docs), "--yes")
    assert added.returncode == 0, added.stderr
    volcano, astronomy = str(docs / "volcano.txt"), str(docs / "astronomy.md")
    inflation, vaccines = str(docs / "inflation.md"), str(docs / "vaccines.txt")
    judged = {
        "how do volcanoes erupt?": ({volcano}, {astronomy}),
        "why do central banks raise interest rates?": ({inflation, vaccines}, set()),
        "a recipe for apple pie": (set(), {vaccines}),  # nothing relevant: not in the means
    }
    for question, (relevant, not_relevant) in judged.items():
        args = ["judge", "Sci", question]
        if relevant:
            args += ["--relevant", *sorted(relevant)]
        if not_relevant:
            args += ["--not-relevant", *sorted(not_relevant)]
        done = run_cli(*args)
        assert done.returncode == 0, done.stderr
    relative = run_cli("judge", "Sci", "q", "--relevant", "volcano.txt")  # not the cwd's docs
    assert relative.returncode == 2 and "is not a document of store Sci" in relative.stderr
    stored = next((kortty_home / "rag" / "stores").glob("sci-*/judgments.json"))
    assert VOLCANO_SENTENCE not in stored.read_text(encoding="utf-8")

    text = run_cli("judge", "Sci", "--check")
    assert text.returncode == 0, text.stderr
    assert "3 judged question(s)" in text.stdout and "nDCG@10" in text.stdout
    assert "Recall@10" in text.stdout and "left out of the means" in text.stdout

    data = check_json(run_cli)
    assert data["questions"] == 3 and data["measured"] == 2 and data["excluded"] == 1
    assert {"ndcg@10", "recall@10", "per_question", "previous", "settings"} <= set(data)
    assert data["settings"]["model"] == starter_model.id
    assert data["previous"] is not None  # the text check before it
    assert data["previous"]["ndcg@10"] == data["ndcg@10"]
    expected: list[tuple[float, float]] = []
    for entry in data["per_question"]:
        relevant, not_relevant = judged[entry["question"]]
        ranking = block_documents(run_cli, entry["question"])  # what a person gets
        assert entry["ranking"] == ranking[:10]
        assert set(entry["relevant"]) == relevant and set(entry["not_relevant"]) == not_relevant
        figures = oracle(ranking, relevant)
        if figures is None:
            assert entry["ndcg@10"] is None and entry["recall@10"] is None
            continue
        expected.append(figures)
        assert entry["ndcg@10"] == pytest.approx(figures[0])
        assert entry["recall@10"] == pytest.approx(figures[1])
    assert data["ndcg@10"] == pytest.approx(sum(f[0] for f in expected) / 2, abs=1e-6)
    assert data["recall@10"] == pytest.approx(sum(f[1] for f in expected) / 2, abs=1e-6)
    assert data["per_question"][0]["ndcg@10"] > 0  # the volcano note is found

    export = tmp_path / "beir"
    exported = run_cli("judge", "Sci", "--export", str(export))
    assert exported.returncode == 0, exported.stderr
    with (export / "queries.jsonl").open(encoding="utf-8") as lines:
        queries = {q["_id"]: q["text"] for q in map(json.loads, lines)}
    assert sorted(queries.values()) == sorted(judged)
    with (export / "qrels" / "test.tsv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_MINIMAL))
    assert rows[0] == ["query-id", "corpus-id", "score"]
    qrels: dict[str, dict[str, int]] = {}
    for query, corpus, score in rows[1:]:
        qrels.setdefault(queries[query], {})[corpus] = int(score)
    assert qrels == {
        question: {path: 1 for path in relevant} | {path: 0 for path in not_relevant}
        for question, (relevant, not_relevant) in judged.items()
    }

    rebuilt = run_cli("store", "rebuild", "Sci")
    assert rebuilt.returncode == 0, rebuilt.stderr
    listed = run_cli("judge", "Sci", "--list", "--json")
    assert listed.returncode == 0, listed.stderr
    kept = json.loads(listed.stdout)
    assert [j["question"] for j in kept["judgments"]] == list(judged)
    assert kept["last_check"]["ndcg@10"] == data["ndcg@10"]
    after = check_json(run_cli)
    assert after["questions"] == 3
    assert after["previous"]["checked_at"] == data["checked_at"]  # before the rebuild → now
    assert after["ndcg@10"] == pytest.approx(data["ndcg@10"])  # the same model ranks the same
    assert after["settings_changed"] == []

    forgot = run_cli("judge", "Sci", "--forget", "a recipe for apple pie")
    assert forgot.returncode == 0, forgot.stderr
    unknown = run_cli("judge", "Sci", "--forget", "a recipe for apple pie")
    assert unknown.returncode == 2 and "--list" in unknown.stderr
    assert run_cli("judge", "Sci").returncode == 2  # nothing to do
    assert run_cli("judge", "Sci", "--check", "--relevant", volcano).returncode == 2

    damaged = b'{"product": "kortty-rag", "kind": "judgments", "schema": 1, "questions": 7}'
    stored.write_bytes(damaged)
    broken = run_cli("judge", "Sci", "q", "--relevant", volcano)
    assert broken.returncode == 1
    assert "is damaged" in broken.stderr and "field questions" in broken.stderr
    assert stored.read_bytes() == damaged  # nothing was written over it
