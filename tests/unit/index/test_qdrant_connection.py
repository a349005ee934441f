"""The Qdrant connection: the URL rule table (checked before any connection), bounded retries on
transient failures only, and errors that name the endpoint but never the key."""

from __future__ import annotations

import socket
from typing import Any

import httpx
import pytest
from httpx import Headers
from pydantic import BaseModel, ValidationError
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse
from tests.helpers.fakes import HashEmbedder
from tests.helpers.qdrant import create_qdrant_store

from kortty_rag.errors import RemoteStoreError, UsageError
from kortty_rag.index import qdrant_connection
from kortty_rag.index.qdrant import connection_for
from kortty_rag.index.qdrant_connection import ConnectionPolicy, QdrantConnection, transient

FAST = ConnectionPolicy(timeout=1, attempts=3, backoff=0.001)
KEY = "qk-very-secret-key"


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Records (and refuses) every attempt to open a socket connection."""
    attempts: list[object] = []

    def refuse(self: socket.socket, address: object) -> None:
        attempts.append(address)
        raise OSError("test: no connection may be attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    return attempts


@pytest.mark.parametrize(
    ("url", "rest_uri"),
    [
        ("https://qdrant.example.com", "https://qdrant.example.com:443"),
        ("https://qdrant.example.com:6333/", "https://qdrant.example.com:6333"),
        ("https://10.1.2.3:6333/qdrant", "https://10.1.2.3:6333/qdrant"),
        ("http://127.0.0.1:6333", "http://127.0.0.1:6333"),
        ("http://127.8.9.10:7000", "http://127.8.9.10:7000"),
        ("http://localhost:6333", "http://localhost:6333"),
        ("http://[::1]:6333", "http://[::1]:6333"),
    ],
)
def test_accepted_urls(url: str, rest_uri: str, no_network: list[object]) -> None:
    connection = QdrantConnection.remote(url, "kb", api_key=KEY, policy=FAST)
    assert connection.client._client.rest_uri == rest_uri  # type: ignore[attr-defined]
    assert connection.has_key
    connection.close()
    assert no_network == []  # building a connection sends nothing


@pytest.mark.parametrize(
    "url",
    [
        "http://qdrant.example.com:6333",  # remote over plain http
        "http://10.0.0.5:6333",
        "http://192.168.1.20:6333",
        "http://127.0.0.1.example.com:6333",  # looks local, is a remote name
        "http://[::ffff:10.0.0.1]:6333",
        "qdrant.example.com:6333",  # malformed: no scheme
        "ftp://qdrant.example.com",
        "https://",
        "https://user:pw@qdrant.example.com",
        "https://qdrant.example.com/?api-key=x",
        "http://127.1:6333",  # numeric shorthand, not guessed at
        "",
    ],
)
def test_refused_urls_never_reach_the_network(
    url: str, no_network: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[Any] = []
    monkeypatch.setattr(qdrant_connection, "QdrantClient", lambda **kw: built.append(kw))
    with pytest.raises(UsageError) as caught:
        QdrantConnection.remote(url, "kb", api_key=KEY, policy=FAST)
    assert "Qdrant URL" in caught.value.message
    assert KEY not in str(caught.value)
    assert built == [] and no_network == []


def test_a_store_with_a_remote_http_url_is_refused_before_connecting(
    no_network: list[object],
) -> None:
    store = create_qdrant_store("Q", HashEmbedder().identity, url="http://qdrant.example.com")
    with pytest.raises(UsageError, match="plain http"):
        connection_for(store)
    assert no_network == []


def response(status: int, body: bytes = b"") -> UnexpectedResponse:
    return UnexpectedResponse(status, "reason", body, Headers())


class Strict(BaseModel):
    value: int


def validation_error() -> ValidationError:
    try:
        Strict(value="not a number")  # type: ignore[arg-type]
    except ValidationError as exc:
        return exc
    raise AssertionError


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (response(500), True),
        (response(502), True),
        (response(503), True),
        (ResponseHandlingException(httpx.ConnectError("refused")), True),
        (ResponseHandlingException(httpx.ReadTimeout("slow")), True),
        (ResponseHandlingException(httpx.RemoteProtocolError("dropped")), True),
        (response(400), False),
        (response(401), False),
        (response(404), False),
        (response(409), False),
        (response(429), False),
        (ResponseHandlingException(validation_error()), False),
        (ValueError("local mode"), False),
    ],
)
def test_which_failures_are_transient(error: Exception, expected: bool) -> None:
    assert transient(error) is expected


def flaky(failures: list[Exception]) -> tuple[list[int], Any]:
    calls: list[int] = []

    def request(client: object) -> str:
        calls.append(1)
        if len(calls) <= len(failures):
            raise failures[len(calls) - 1]
        return "ok"

    return calls, request


def connection() -> QdrantConnection:
    return QdrantConnection.remote("https://qdrant.example.com", "kb", api_key=KEY, policy=FAST)


def test_transient_failures_are_retried_with_a_bound() -> None:
    calls, request = flaky([response(503), ResponseHandlingException(httpx.ReadTimeout("t"))])
    assert connection().call("read", request) == "ok"
    assert len(calls) == 3
    calls, request = flaky([response(500)] * 5)
    with pytest.raises(RemoteStoreError) as caught:
        connection().call("write chunk points", request)
    assert len(calls) == FAST.attempts
    error = caught.value
    assert "Qdrant at https://qdrant.example.com (collection kb)" in error.message
    assert "HTTP 500" in error.message and "after 3 attempts" in error.message
    assert error.endpoint == "https://qdrant.example.com"


def test_client_errors_are_never_retried_and_never_show_the_key() -> None:
    body = b'{"status": {"error": "Wrong input: bad key qk-very-secret-key"}}'
    calls, request = flaky([response(400, body)])
    with pytest.raises(RemoteStoreError) as caught:
        connection().call("write chunk points", request)
    assert len(calls) == 1
    assert "HTTP 400" in caught.value.message and "Wrong input" in caught.value.message
    assert KEY not in str(caught.value)
    calls, request = flaky([response(403)])
    with pytest.raises(RemoteStoreError, match="did not accept the API key") as denied:
        connection().call("read", request)
    assert len(calls) == 1 and "store key" in denied.value.hint


def test_unreachable_server_is_named() -> None:
    with socket.socket() as probe:  # a loopback port that nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    connection = QdrantConnection.remote(url, "kb", api_key=KEY, policy=FAST)
    attempts: list[int] = []
    original = connection.client.collection_exists

    def counted(name: str) -> bool:
        attempts.append(1)
        return original(name)

    connection.client.collection_exists = counted  # type: ignore[method-assign]
    with pytest.raises(RemoteStoreError) as caught:
        connection.call("look up the collection", lambda c: c.collection_exists("kb"))
    assert caught.value.message.startswith(f"Could not look up the collection: Qdrant at {url}")
    assert "is unreachable (ConnectError" in caught.value.message
    assert "after 3 attempts" in caught.value.message
    assert len(attempts) == FAST.attempts
    assert KEY not in str(caught.value)


def test_a_request_for_another_server_is_refused_before_it_is_sent(
    no_network: list[object],
) -> None:
    """Whatever the client library makes of the URL, only the validated server is ever contacted."""
    connection = QdrantConnection.remote("http://127.0.0.1:6333/qdrant", "kb", api_key=KEY)
    api = connection.client._client.openapi_client.client  # type: ignore[attr-defined]
    try:
        for elsewhere in (
            "http://127.0.0.2:6333/qdrant",  # another host
            "http://127.0.0.1:6334/qdrant",  # another port
            "https://127.0.0.1:6333/qdrant",  # another scheme
            "http://127.0.0.1:6333/other",  # outside the prefix
        ):
            api.host = elsewhere
            with pytest.raises(RemoteStoreError, match="was refused") as caught:
                connection.call("look up the collection", lambda c: c.collection_exists("kb"))
            assert "nothing was sent" in caught.value.message and caught.value.hint
            assert KEY not in str(caught.value)
    finally:
        connection.close()
    assert no_network == []
