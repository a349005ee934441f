"""Qdrant stores through the CLI, in subprocesses, with the real starter model (docs/DESIGN.md §10, §15).

The "server" is the loopback REST front end of tests/helpers/qdrant_server.py (no faults injected),
reached over real HTTP with an API key; the key goes in on standard input, lives in an explicitly
chosen keyring file inside the test's temporary home, and must never appear in any output or file
the product writes.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from qdrant_client import models
from tests.helpers.qdrant import isolate_keyring
from tests.helpers.qdrant_server import FaultyQdrant

from kortty_rag.config.secrets import read_api_key
from kortty_rag.embedding.installed import InstalledModel

CORPUS = Path(__file__).parent.parent / "data" / "corpus"
KEY = "qk-cli-test-0123456789"


@pytest.fixture
def qdrant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FaultyQdrant]:
    isolate_keyring(monkeypatch, tmp_path / "keyring", "keyrings.alt.file.PlaintextKeyring")
    server = FaultyQdrant(api_key=KEY).start()
    yield server
    server.stop()


def everything_written(kortty_home: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in kortty_home.rglob("*") if p.is_file())


def test_qdrant_store_from_the_command_line(
    run_cli: Any,
    starter_model: InstalledModel,
    qdrant: FaultyQdrant,
    tmp_path: Path,
    kortty_home: Path,
) -> None:
    outputs: list[str] = []

    def cli(*args: str, input: str | None = None, code: int = 0) -> Any:
        result = run_cli(*args, input=input)
        outputs.extend([result.stdout, result.stderr])
        assert result.returncode == code, result.stderr
        return result

    created = cli(
        "store", "create", "Remote", "--model", starter_model.id, "--type", "qdrant",
        "--url", qdrant.url, "--api-key-from-stdin", "--json", input=KEY + "\n",
    )  # fmt: skip
    store = json.loads(created.stdout)
    collection = store["settings"]["qdrant"]["collection"]
    assert store["type"] == "qdrant"
    assert store["settings"] == {"qdrant": {"url": qdrant.url, "collection": collection}}
    assert read_api_key(store["id"]) == KEY  # in the keyring …
    assert qdrant.db.collection_exists(collection)  # … and the collection was created

    check = json.loads(cli("store", "check", "Remote", "--json").stdout)
    assert check["ok"] and check["api_key"] == "accepted"
    assert (check["dimensions"], check["store_points"], check["documents"]) == (384, 0, 0)

    docs = tmp_path / "docs"
    shutil.copytree(CORPUS, docs)
    added = json.loads(cli("source", "add", "Remote", str(docs), "--yes", "--json").stdout)
    assert added["summary"]["indexed"] == 10
    found = cli("search", "Remote", "how long does sourdough need to rise?")
    assert "[R1]" in found.stdout and "sourdough.txt" in found.stdout
    check = json.loads(cli("store", "check", "Remote", "--json").stdout)
    assert check["documents"] == 10 and check["store_points"] >= 10 and check["version"] == 1
    text = cli("store", "check", "Remote").stdout
    assert "384 dimensions — OK" in text and "API key: sent and accepted" in text

    # a wrong key: a clear failure (exit 1) that shows neither key
    cli("store", "key", "Remote", input="qk-wrong-key\n")
    refused = cli("store", "check", "Remote", code=1)
    assert "did not accept the API key (HTTP 401)" in refused.stderr
    cli("store", "key", "Remote", input=KEY + "\n")

    # deleting the definition removes its points first, never the collection
    cli("store", "delete", "Remote", "--yes")
    assert qdrant.db.collection_exists(collection)
    assert qdrant.db.count(collection).count == 0
    assert read_api_key(store["id"]) is None

    assert all(KEY not in out and "qk-wrong-key" not in out for out in outputs)
    assert KEY not in everything_written(kortty_home)


def test_refusals_create_nothing(
    run_cli: Any,
    starter_model: InstalledModel,
    qdrant: FaultyQdrant,
    kortty_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def create(*extra: str, input: str | None = None) -> Any:
        return run_cli(
            "store", "create", "X", "--model", starter_model.id, "--type", "qdrant", *extra,
            input=input,
        )  # fmt: skip

    remote_http = create("--url", "http://qdrant.example.com:6333")
    assert remote_http.returncode == 2 and "plain http:// to a remote host" in remote_http.stderr
    assert create("--url", "qdrant.example.com:6333").returncode == 2
    assert create().returncode == 2  # no --url

    # an existing collection of another shape is refused, and left as it was
    qdrant.db.create_collection(
        "theirs", vectors_config=models.VectorParams(size=3, distance=models.Distance.DOT)
    )
    mismatch = create(
        "--url", qdrant.url, "--collection", "theirs", "--api-key-from-stdin", input=KEY
    )
    assert mismatch.returncode == 2
    assert "does not fit this store" in mismatch.stderr and "left unchanged" in mismatch.stderr
    assert "was not created" in mismatch.stderr
    assert qdrant.db.get_collection("theirs").config.params.vectors.size == 3  # type: ignore[union-attr]

    # no keyring: a clear error with the fix, and no plain-text fallback
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    no_keyring = create("--url", qdrant.url, "--api-key-from-stdin", input=KEY)
    assert no_keyring.returncode == 1
    assert (
        "No OS keyring is available" in no_keyring.stderr and "Secret Service" in no_keyring.stderr
    )

    assert list(kortty_home.rglob("store.json")) == []
    assert KEY not in everything_written(kortty_home)
    assert qdrant.db.get_collections().collections == [models.CollectionDescription(name="theirs")]
