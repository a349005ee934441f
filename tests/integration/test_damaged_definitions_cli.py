"""A damaged definition through the real CLI (subprocesses, the real starter model): the damaged store
is listed as DAMAGED with the file and the field, every command on it exits with that message and no
traceback, and the other store keeps being listed and searched — also over MCP.

Each damage is injected by the test into a copy of the store's own valid ``store.json``; the field the
message must name is the one the test damaged.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from tests.integration.test_mcp_server import call

from kortty_rag.config.registry import STORE_FILE, StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.models import Source, SourceKind, StoreRoles

CORPUS = Path(__file__).parent.parent / "data" / "corpus" / "science"
QUERY = "Why do some mountains explode and spew scorching debris?"


def mutate(change: Callable[[dict[str, Any]], None]) -> Callable[[bytes], bytes]:
    def apply(raw: bytes) -> bytes:
        data = json.loads(raw)
        change(data)
        return json.dumps(data, indent=2).encode()

    return apply


def assign(*keys: str | int, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return change


#: (label, damage of the raw file, the field the message must name, or None for the whole file)
DAMAGES: list[tuple[str, Callable[[bytes], bytes], str | None]] = [
    ('"schema": "x"', mutate(assign("schema", value="x")), "schema"),
    ('"schema": [1]', mutate(assign("schema", value=[1])), "schema"),
    ('"roles": null', mutate(assign("store", "roles", value=None)), "store.roles"),
    (
        '"counts": null',
        mutate(assign("store", "sources", 0, "counts", value=None)),
        "store.sources[0].counts",
    ),
    (
        '"enabled": "false"',
        mutate(assign("store", "sources", 0, "enabled", value="false")),
        "store.sources[0].enabled",
    ),
    ("invalid UTF-8", lambda raw: raw.replace(b'"Victim"', b'"Vic\xfftim"'), None),
    ("truncated", lambda raw: raw[: len(raw) // 2], None),
    ("a list at the top", lambda raw: b"[1, 2]", None),
]


@asynccontextmanager
async def mcp_client(kortty_home: Path, errlog: Path) -> AsyncIterator[Client]:
    """``kortty-rag serve`` as a subprocess running the code under test (``PYTHONPATH`` kept)."""
    env = {"KORTTY_HOME": str(kortty_home)}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kortty_rag", "serve"], env=env
    )
    with errlog.open("w", encoding="utf-8") as err:
        async with Client(stdio_client(params, errlog=err), read_timeout_seconds=300) as client:
            yield client


def opted_in_for_mcp() -> StoreRoles:
    """Roles that make a store visible over MCP, whichever version of the roles is installed."""
    names = {f.name for f in dataclasses.fields(StoreRoles)}
    return StoreRoles(**({"mcp": True} if "mcp" in names else {}))  # type: ignore[arg-type]


@pytest.fixture
def stores(run_cli: Any, starter_model: InstalledModel, tmp_path: Path) -> tuple[Path, bytes]:
    """An indexed store "Healthy" and a store "Victim" with one source; returns Victim's
    ``store.json`` and its valid content."""
    docs = tmp_path / "science"
    shutil.copytree(CORPUS, docs)
    registry = StoreRegistry()
    registry.create("Healthy", starter_model.identity(), roles=opted_in_for_mcp())
    added = run_cli("source", "add", "Healthy", str(docs), "--yes")
    assert added.returncode == 0, added.stderr
    victim = registry.create("Victim", starter_model.identity(), roles=opted_in_for_mcp())
    source = Source(id="src-victim", path=str(tmp_path / "elsewhere"), kind=SourceKind.FOLDER)
    registry.update(victim.id, lambda s: s.with_source(source))
    path = registry.folder(victim) / STORE_FILE
    return path, path.read_bytes()


def assert_names(text: str, path: Path, field: str | None) -> None:
    assert f"The store definition {path} is damaged: " in text
    if field is None:
        assert "is damaged: it is not" in text or "is damaged: it must be an object" in text
    else:
        assert f"is damaged: field {field} " in text


def test_a_damaged_store_is_listed_and_named_while_the_other_keeps_working(
    run_cli: Any, stores: tuple[Path, bytes]
) -> None:
    path, valid = stores
    for label, damage, field in DAMAGES:
        path.write_bytes(damage(valid))

        listed = run_cli("store", "list")
        assert listed.returncode == 0, (label, listed.stderr)
        rows = {line.split()[0]: line.split()[1] for line in listed.stdout.splitlines()[1:3]}
        shown = "Victim" if field is not None else path.parent.name  # its name, while readable
        assert rows == {"Healthy": "OK", shown: "DAMAGED"}, (label, listed.stdout)
        assert_names(listed.stdout, path, field)
        assert "What to do:" in listed.stdout

        as_json = json.loads(run_cli("store", "list", "--json").stdout)
        by_status = {entry["status"]: entry for entry in as_json}
        assert by_status["OK"]["name"] == "Healthy"
        assert by_status["DAMAGED"]["id"] == path.parent.name
        assert_names(by_status["DAMAGED"]["error"], path, field)

        found = run_cli("search", "Healthy", QUERY, "--json")
        assert found.returncode == 0, (label, found.stderr)
        assert Path(json.loads(found.stdout)["excerpts"][0]["path"]).name == "volcano.txt"

        for command in (
            ("search", path.parent.name, "volcano"),
            ("source", "list", path.parent.name),
        ):
            failed = run_cli(*command)
            assert failed.returncode == 1, (label, command, failed.stderr)
            assert "Traceback" not in failed.stderr
            assert_names(failed.stderr, path, field)
            assert "kortty-rag: what to do: " in failed.stderr
        if field is not None:  # the name is still readable: the store is found by it too
            by_name = run_cli("source", "list", "Victim")
            assert by_name.returncode == 1 and "Traceback" not in by_name.stderr
            assert_names(by_name.stderr, path, field)
    path.write_bytes(valid)  # repaired: back in service
    assert run_cli("source", "list", "Victim").returncode == 0


def test_mcp_serves_the_other_stores_beside_a_damaged_one(
    tmp_path: Path, kortty_home: Path, stores: tuple[Path, bytes]
) -> None:
    path, valid = stores
    path.write_bytes(mutate(assign("store", "roles", value=None))(valid))
    errlog = tmp_path / "server.err"

    async def scenario() -> None:
        async with mcp_client(kortty_home, errlog) as client:
            listed = (await call(client, "list_stores"))["stores"]
            assert [s["name"] for s in listed] == ["Healthy"]
            found = await call(client, "search", store="Healthy", query=QUERY)
            assert "volcano.txt" in json.dumps(found)

    anyio.run(scenario)
    assert "Traceback" not in errlog.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("label", "settings", "field"),
    [
        ("profiles null", {"profiles": None}, "profiles"),
        ("roles null", {"roles": None}, "roles"),
        ("schema text", {"schema": "x"}, "schema"),
        (
            "context window text",
            {
                "profiles": [
                    {"name": "P", "backend": "llama.cpp", "model": "/m.gguf", "context_window": "x"}
                ]
            },
            "profiles[0].context_window",
        ),
        ("unknown role", {"roles": {"Poetry": "P"}}, "roles.Poetry"),
    ],
)
def test_a_damaged_settings_file_is_named_with_its_field(
    run_cli: Any, kortty_home: Path, label: str, settings: dict[str, Any], field: str
) -> None:
    from kortty_rag.config.paths import settings_file

    path = settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"product": "kortty-rag", "schema": 1} | settings))
    listed = run_cli("profile", "list")
    assert listed.returncode == 1, (label, listed.stdout)
    assert "Traceback" not in listed.stderr
    assert f"The settings file {path} is damaged: field {field} " in listed.stderr
    assert "kortty-rag: what to do: " in listed.stderr


def test_a_damaged_model_record_is_named_and_listed(
    run_cli: Any, starter_model: InstalledModel
) -> None:
    record = starter_model.folder / "model.json"
    data = json.loads(record.read_text())
    record.unlink()  # a hard link to the shared cache: replace it, never write through it
    record.write_text(json.dumps(data | {"dimensions": None}))
    listed = run_cli("models", "list")
    assert listed.returncode == 0
    assert f"{starter_model.id} is DAMAGED" in listed.stdout
    assert (
        f"{record} is damaged: field dimensions must be a whole number, found null" in listed.stdout
    )
    created = run_cli("store", "create", "X", "--model", starter_model.id)
    assert created.returncode == 1 and "Traceback" not in created.stderr
    assert "field dimensions" in created.stderr and "what to do:" in created.stderr
