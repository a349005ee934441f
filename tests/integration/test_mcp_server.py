"""``kortty-rag serve`` driven by the SDK's own MCP client over stdio, as another local AI tool would.

The server is a real subprocess (``python -m kortty_rag serve``) with this test's KORTTY_HOME; it
indexes real files with the real starter model. Every tool is called: list_stores, list_sources,
add_source (a folder and a single file), search, refresh_source (after editing a file),
forget_source (the file stays on disk, search stops returning it), and the error answers, after which
the same server keeps serving.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_types import CallToolResult, TextContent

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel

CORPUS = Path(__file__).parent.parent / "data" / "corpus" / "science"
TOOLS = {"search", "list_stores", "list_sources", "add_source", "refresh_source", "forget_source"}
VOLCANO_QUERY = "Why do some mountains explode and spew scorching debris?"
NEW_TERM = "quasiperiodic zorblat"  # appears in no corpus file until the test adds it


@asynccontextmanager
async def mcp_client(kortty_home: Path, errlog: Path) -> AsyncIterator[Client]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "kortty_rag", "serve"],
        env={"KORTTY_HOME": str(kortty_home)},
    )
    with errlog.open("w", encoding="utf-8") as err:
        async with Client(stdio_client(params, errlog=err), read_timeout_seconds=300) as client:
            yield client


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, text_of(result)
    data: dict[str, Any] | None = result.structured_content
    assert data is not None
    return data


async def call_failing(client: Client, tool: str, **arguments: Any) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    return text_of(result)


def text_of(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


def test_every_tool_over_stdio(
    tmp_path: Path, kortty_home: Path, starter_model: InstalledModel
) -> None:
    store = StoreRegistry().create("Science notes", starter_model.identity())
    folder = tmp_path / "science"
    shutil.copytree(CORPUS, folder)
    single = tmp_path / "single"
    single.mkdir()
    volcano = single / "volcano.txt"
    (folder / "volcano.txt").rename(volcano)  # a single-file source of its own
    errlog = tmp_path / "server.err"

    async def scenario() -> None:
        async with mcp_client(kortty_home, errlog) as client:
            assert client.server_info is not None
            assert client.server_info.name == "kortty-rag"
            assert "untrusted" in (client.instructions or "")
            listed = await client.list_tools()
            assert {t.name for t in listed.tools} == TOOLS
            assert all(t.description for t in listed.tools)

            stores = (await call(client, "list_stores"))["stores"]
            assert [(s["name"], s["id"], s["model_id"]) for s in stores] == [
                ("Science notes", store.id, starter_model.id)
            ]
            assert stores[0]["roles"] == store.roles.to_json()
            assert (stores[0]["sources"], stores[0]["files"], stores[0]["chunks"]) == (0, 0, 0)

            added = await call(client, "add_source", store="science notes", path=str(folder))
            assert added["review"]["summary"]["new"] == 3
            assert added["summary"]["indexed"] == 3
            added = await call(
                client, "add_source", store=store.id, path=str(volcano), auto_sync=True
            )
            assert added["summary"]["indexed"] == 1

            sources = (await call(client, "list_sources", store="Science notes"))["sources"]
            by_path = {s["path"]: s for s in sources}
            assert set(by_path) == {str(folder), str(volcano)}
            assert by_path[str(folder)]["kind"] == "folder"
            assert by_path[str(folder)]["sync_mode"] == "manual"
            assert by_path[str(volcano)]["sync_mode"] == "auto"
            assert all(s["status"] == "READY" for s in sources)
            assert by_path[str(folder)]["counts"]["files"] == 3
            stores = (await call(client, "list_stores"))["stores"]
            assert (stores[0]["sources"], stores[0]["files"]) == (2, 4)
            assert stores[0]["chunks"] > 0

            result = await client.call_tool(
                "search", {"store": "Science notes", "query": VOLCANO_QUERY}
            )
            assert not result.is_error
            block = text_of(result).split("\n</retrieved_context>")[0]
            assert block.startswith("<retrieved_context>")
            assert f"[R1] source: {volcano}\n" in block
            found = result.structured_content
            assert found is not None
            assert found["block"].startswith("<retrieved_context>")
            assert found["excerpts"][0]["marker"] == "R1"
            assert found["excerpts"][0]["path"] == str(volcano)
            assert found["excerpts"][0]["page"] is None
            assert set(found["excerpts"][0]["scores"]) >= {"fused", "dense_rank", "lexical_rank"}
            assert "text" not in found["excerpts"][0]
            assert found["budget_tokens"] == 4000
            small = await call(
                client,
                "search",
                store="Science notes",
                query=VOLCANO_QUERY,
                lexical=False,
                context_window=4096,
            )
            assert small["budget_tokens"] == 1024
            assert all(e["scores"]["lexical_rank"] is None for e in small["excerpts"])

            missing = await call(
                client, "search", store="Science notes", query=NEW_TERM, dense=False
            )
            assert missing["excerpts"] == []
            with (folder / "astronomy.md").open("a", encoding="utf-8") as f:
                f.write(f"\nObservers catalogued a {NEW_TERM} pulsation in one nearby nebula.\n")
            refreshed = await call(
                client, "refresh_source", store="Science notes", path=str(folder)
            )
            assert refreshed["review"]["summary"]["changed"] == 1
            assert refreshed["summary"]["indexed"] == 1
            hit = await call(client, "search", store="Science notes", query=NEW_TERM, dense=False)
            assert hit["excerpts"][0]["path"] == str(folder / "astronomy.md")
            everything = await call(client, "refresh_source", store="Science notes")
            assert everything["summary"]["indexed"] == 0
            assert everything["summary"]["unchanged"] == 4

            forgotten = await call(
                client, "forget_source", store="Science notes", path=str(volcano)
            )
            assert forgotten["removed"] > 0
            assert volcano.is_file()
            after = await call(client, "search", store="Science notes", query=VOLCANO_QUERY)
            assert after["excerpts"], "the other sources still answer"
            assert all(e["path"] != str(volcano) for e in after["excerpts"] + after["dropped"])
            assert "volcano" not in after["block"].lower()
            sources = (await call(client, "list_sources", store="Science notes"))["sources"]
            assert [s["path"] for s in sources] == [str(folder)]

    anyio.run(scenario)
    assert "Traceback" not in errlog.read_text(encoding="utf-8")


def test_errors_are_tool_errors_and_the_server_keeps_serving(
    tmp_path: Path, kortty_home: Path, starter_model: InstalledModel
) -> None:
    StoreRegistry().create("notes", starter_model.identity())
    errlog = tmp_path / "server.err"

    async def scenario() -> None:
        async with mcp_client(kortty_home, errlog) as client:
            message = await call_failing(client, "search", store="nowhere", query="volcano")
            assert message.startswith("No store named 'nowhere'")
            assert "kortty-rag store list" in message  # the hint: what to do next
            assert "Traceback" not in message

            message = await call_failing(client, "add_source", store="notes", path="relative/dir")
            assert "not an absolute path" in message
            message = await call_failing(
                client, "add_source", store="notes", path=str(tmp_path / "absent")
            )
            assert message == f"{tmp_path / 'absent'} does not exist"
            message = await call_failing(client, "forget_source", store="notes", path="/nope")
            assert "has no source '/nope'" in message
            message = await call_failing(client, "refresh_source", store="notes")
            assert "has no sources" in message
            message = await call_failing(
                client, "search", store="notes", query="x", dense=False, lexical=False
            )
            assert "switched off" in message
            message = await call_failing(
                client, "search", store="notes", query="x", context_window=10
            )
            assert "at least 256" in message

            stores = (await call(client, "list_stores"))["stores"]
            assert [s["name"] for s in stores] == ["notes"]
            empty = await client.call_tool("search", {"store": "notes", "query": "volcano"})
            assert not empty.is_error
            assert text_of(empty).startswith("No excerpts found.")

    anyio.run(scenario)
    log = errlog.read_text(encoding="utf-8")
    assert "Traceback" not in log
    assert "search failed" in log  # failures are logged on stderr, never on stdout
    assert "nowhere" in log


def test_serve_is_a_cli_command(run_cli: Callable[..., Any]) -> None:
    done = run_cli("serve", "--help")
    assert done.returncode == 0
    assert "MCP" in done.stdout or "Model Context Protocol" in done.stdout
    done = run_cli("--help")
    assert "serve" in done.stdout
    assert "other local AI tools" in done.stdout


def test_stdout_carries_only_the_protocol(kortty_home: Path) -> None:
    """Raw JSON-RPC over the pipe: every line the server writes to stdout is a JSON-RPC message."""
    import subprocess

    requests: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "list_stores"}},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "list_sources", "arguments": {"store": "nowhere"}},
        },
    ]
    with subprocess.Popen(
        [sys.executable, "-m", "kortty_rag", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=dict(os.environ, KORTTY_HOME=str(kortty_home)),
    ) as server:
        assert server.stdin is not None
        assert server.stdout is not None
        answers: dict[int, dict[str, Any]] = {}
        for request in requests:
            server.stdin.write(json.dumps(request) + "\n")
            server.stdin.flush()
            if "id" in request:
                message = json.loads(server.stdout.readline())  # anything else fails here
                assert message["jsonrpc"] == "2.0"
                answers[message["id"]] = message
        server.stdin.close()
        assert server.stdout.read() == ""
        assert server.wait(timeout=60) == 0
    assert answers[1]["result"]["serverInfo"]["name"] == "kortty-rag"
    assert answers[2]["result"]["structuredContent"] == {"stores": []}
    assert answers[3]["result"]["isError"] is True
    assert "No store named 'nowhere'" in answers[3]["result"]["content"][0]["text"]
