"""A small Obsidian-style vault through the real CLI and the real starter model: links rendered as
their labels, resolved across the store (name, alias, heading), followed in searches with their
reason in ``--json`` and ``--explain``, re-resolved when a note moves, reported when they dangle,
and a malformed front matter reported while its note is indexed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kortty_rag.embedding.installed import InstalledModel

QUESTION = "What does Project Alpha use to store its vectors, and why?"

NOTES = {
    "projects/Project Alpha.md": """---
title: Project Alpha
tags: [project]
type: project
---
# Project Alpha

Project Alpha is our customer-support assistant. It keeps its embeddings as the
[[VSC|storage decision]] says, next to the [[Qdrant]] notes, and runs on the team's server.

## Team

![[Team roster]]
""",
    "people/Team roster.md": """# Team roster

Maria leads the project; Jonas does the evaluation every Friday.
""",
    "decisions/Vector store choice.md": """---
aliases: [VSC]
type: decision
---
# Vector store choice

## Why

We chose a database that filters payloads during the graph search, keeps snapshots we can
restore, and stayed below two gigabytes of memory in the load test.
""",
    "Qdrant.md": """# Qdrant

An open-source database written in Rust. See [[Nonexistent note]] and
[[Vector store choice#Why|the reasons]].
""",
    "garden/Roses.md": """---
title: [unclosed
---
# Roses

Prune climbing roses in late winter, before the buds break.
""",
}


def write_vault(root: Path) -> Path:
    for rel, text in NOTES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def cli_json(run_cli: Any, *args: str) -> Any:
    done = run_cli(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def excerpt_of(result: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((e for e in result["excerpts"] if Path(e["path"]).name == name), None)


def test_a_vault_as_a_graph(tmp_path: Path, starter_model: InstalledModel, run_cli: Any) -> None:
    vault = write_vault(tmp_path / "vault")
    assert run_cli("store", "create", "Notes", "--model", starter_model.id).returncode == 0
    added = run_cli("source", "add", "Notes", str(vault), "--yes")
    assert added.returncode == 0, added.stderr
    # the malformed front matter is named, and its note is indexed all the same
    assert "indexed, but:" in added.stdout and "Roses.md" in added.stdout
    assert "front matter is not valid YAML" in added.stdout

    links = cli_json(run_cli, "store", "links", "Notes")
    assert links["notes"] == 5
    # VSC (alias), Qdrant and the embedded roster from Project Alpha; the heading link from
    # Qdrant; one dangling
    assert links["links"] == 5 and links["resolved"] == 4
    assert [(d["path"], d["target"]) for d in links["dangling"]] == [
        ("Qdrant.md", "Nonexistent note")
    ]
    assert [p["path"] for p in links["front_matter_problems"]] == ["garden/Roses.md"]

    # links read as their labels in what is indexed and shown
    shown = cli_json(run_cli, "search", "Notes", QUESTION)
    assert "storage decision" in shown["block"] and "[[" not in shown["block"]
    roster = cli_json(run_cli, "search", "Notes", "Who leads Project Alpha?")
    alpha = excerpt_of(roster, "Project Alpha.md")
    assert alpha is not None and "Team roster" in alpha["raw_text"]  # ![[Team roster]] as its name
    on = cli_json(run_cli, "search", "Notes", QUESTION)  # links are followed by default
    decision = excerpt_of(on, "Vector store choice.md")
    assert decision is not None, [e["location"] for e in on["excerpts"]]
    assert decision["linked"]["relation"] == "linked_from"
    assert decision["linked"]["note"] == "Project Alpha"
    assert decision["scores"]["graph_bonus"] > 0
    assert "filters payloads" in decision["raw_text"]
    explained = run_cli("search", "Notes", QUESTION, "--explain")
    assert "linked from Project Alpha" in explained.stdout
    assert run_cli("store", "retrieval", "Notes", "--graph", "off").returncode == 0
    off = cli_json(run_cli, "search", "Notes", QUESTION)
    assert all(e["linked"] is None and e["scores"]["graph_bonus"] == 0 for e in off["excerpts"])

    # a moved note keeps its backlinks: found again by name, nothing embedded again
    (vault / "databases").mkdir()
    (vault / "Qdrant.md").rename(vault / "databases" / "Qdrant.md")
    moved = cli_json(run_cli, "source", "refresh", "Notes", "--yes")
    assert moved["summary"]["chunks_embedded"] == 0
    links = cli_json(run_cli, "store", "links", "Notes")
    assert links["resolved"] == 4 and links["dangling_total"] == 1

    # a removed note leaves dangling links, reported
    (vault / "decisions" / "Vector store choice.md").unlink()
    cli_json(run_cli, "source", "refresh", "Notes", "--yes")
    links = cli_json(run_cli, "store", "links", "Notes")
    assert links["resolved"] == 2
    assert sorted(d["target"] for d in links["dangling"]) == [
        "Nonexistent note",
        "VSC",
        "Vector store choice",
    ]
