"""A Qdrant URL reaches exactly the server that was validated, over real sockets on two loopback
addresses (security review, finding 1).

Listener A is the loopback Qdrant front end of tests/helpers/qdrant_server.py (the server the URL's
authority names); listener B, on another loopback address, records every connection it gets and must
never get one. HTTP clients join a base URL and a request path with ``urljoin``, which reads a path
``//host:port`` as a new server: the store definition would pass the loopback rule for A while the
API key and every chunk went to B in clear. A proxy from the environment is the other way plain
HTTP to loopback could leave for another host.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.listener import RecordingListener
from tests.helpers.qdrant import isolate_keyring
from tests.helpers.qdrant_server import FaultyQdrant

from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.errors import RemoteStoreError
from kortty_rag.index.qdrant_connection import ConnectionPolicy, QdrantConnection

KEY = "qk-smuggling-test-0123456789"


def other_loopback() -> str:
    """A loopback address other than 127.0.0.1: 127.0.0.2 (Linux) or ::1."""
    for host in ("127.0.0.2", "::1"):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family) as probe:
            try:
                probe.bind((host, 0))
            except OSError:
                continue
            return host
    pytest.skip("no second loopback address to listen on")


@pytest.fixture
def keyring_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_keyring(monkeypatch, tmp_path / "keyring", "keyrings.alt.file.PlaintextKeyring")


@pytest.fixture
def listener_b() -> Iterator[RecordingListener]:
    listener = RecordingListener(other_loopback()).start()
    try:
        yield listener
    finally:
        listener.stop()


def serve_qdrant(prefix: str = "") -> FaultyQdrant:
    return FaultyQdrant(api_key=KEY, prefix=prefix).start()


def create(run_cli: Any, model: InstalledModel, url: str) -> Any:
    return run_cli(
        "store", "create", "QD", "--model", model.id, "--type", "qdrant", "--url", url,
        "--api-key-from-stdin", "--json", input=KEY + "\n",
    )  # fmt: skip


@pytest.mark.parametrize(
    "path",
    ["//{b}", "/qdrant//{b}/", "/%2F%2F{b}", "/..//{b}"],  # more forms: unit/config/test_endpoints
)
def test_a_path_naming_another_server_is_refused_and_nothing_reaches_either(
    path: str,
    run_cli: Any,
    starter_model: InstalledModel,
    listener_b: RecordingListener,
    keyring_file: None,
) -> None:
    server_a = serve_qdrant()
    try:
        url = server_a.url + path.format(b=listener_b.authority)
        refused = create(run_cli, starter_model, url)
        assert listener_b.seen() == []  # the smuggled server got no connection at all …
        assert refused.returncode == 2, refused.stderr
        assert "Qdrant URL" in refused.stderr and "plain prefix" in refused.stderr
        assert KEY not in refused.stdout + refused.stderr
        assert server_a.paths == []  # … and the named one nothing either: refused before connecting
        listed = run_cli("store", "list", "--json")
        assert listed.returncode == 0 and json.loads(listed.stdout) == []  # no definition left
    finally:
        server_a.stop()


def test_a_plain_prefix_still_works_and_requests_stay_below_it(
    run_cli: Any,
    starter_model: InstalledModel,
    listener_b: RecordingListener,
    keyring_file: None,
) -> None:
    server_a = serve_qdrant(prefix="/qdrant/v1")
    try:
        created = create(run_cli, starter_model, f"{server_a.url}/qdrant/v1/")
        assert created.returncode == 0, created.stderr
        store = json.loads(created.stdout)
        assert store["settings"]["qdrant"]["url"] == f"{server_a.url}/qdrant/v1"
        check = run_cli("store", "check", "QD", "--json")
        assert check.returncode == 0, check.stderr
        assert json.loads(check.stdout)["api_key"] == "accepted"
        assert server_a.paths and all(p.startswith("/qdrant/v1/") for p in server_a.paths)
        assert server_a.db.collection_exists(store["settings"]["qdrant"]["collection"])
        assert listener_b.seen() == []
    finally:
        server_a.stop()


def test_plain_http_to_loopback_never_goes_through_a_proxy_from_the_environment(
    run_cli: Any,
    starter_model: InstalledModel,
    listener_b: RecordingListener,
    keyring_file: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    proxy = f"http://{listener_b.authority}"
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(name, proxy)
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    server_a = serve_qdrant()
    try:
        created = create(run_cli, starter_model, server_a.url)
        assert created.returncode == 0, created.stderr
        assert listener_b.seen() == []  # the key and the chunks never went to the "proxy"
        assert server_a.paths  # they went to the validated server
    finally:
        server_a.stop()


def test_a_redirect_to_another_server_is_never_followed(listener_b: RecordingListener) -> None:
    location = f"http://{listener_b.authority}/collections/kb/exists"
    answer = (
        f"HTTP/1.1 307 Temporary Redirect\r\nLocation: {location}\r\n"
        "Content-Length: 0\r\nConnection: close\r\n\r\n"
    ).encode()
    redirector = RecordingListener("127.0.0.1", answer=answer).start()
    connection = QdrantConnection.remote(
        f"http://127.0.0.1:{redirector.port}",
        "kb",
        api_key=KEY,
        policy=ConnectionPolicy(attempts=1),
    )
    try:
        with pytest.raises(RemoteStoreError, match="HTTP 307") as refused:
            connection.call("look up the collection", lambda c: c.collection_exists("kb"))
        assert KEY not in str(refused.value)
        assert (
            len(redirector.seen()) == 1 and b"api-key: " + KEY.encode() in redirector.seen()[0].data
        )
        assert listener_b.seen() == []  # the key never followed the redirect
    finally:
        connection.close()
        redirector.stop()
