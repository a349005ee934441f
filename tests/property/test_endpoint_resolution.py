"""Every URL the endpoint rule accepts is resolved, by every way an HTTP client joins a base URL and a
request path, to exactly the scheme, host and port the rule judged (security review, finding 1).

The oracle does not use the rule's own parsing: it splits the text with urllib3 (as qdrant-client
does), joins with ``urljoin`` (as qdrant-client's ``rest_uri`` and request paths are built) or by
string concatenation, and reads the result with httpx (the transport qdrant-client uses). On the old
rule, ``http://127.0.0.1//evil.example`` passed as loopback while the client's ``urljoin`` made
``evil.example`` the server.
"""

from __future__ import annotations

import warnings
from urllib.parse import urljoin

import httpx
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.helpers.reliability import size
from urllib3.util import parse_url

from kortty_rag.config.endpoints import DEFAULT_PORTS, ParsedEndpoint, check_endpoint
from kortty_rag.errors import UsageError
from kortty_rag.index.qdrant_connection import QdrantConnection
from kortty_rag.profiles.chat import chat_completions_path

HOSTS = ["127.0.0.1", "127.0.0.2", "[::1]", "localhost", "api.example.com", "evil.example", "[::"]
PORTS = ["", ":6333", ":443", ":", ":0", ":6333:1"]
PIECES = [
    "/", "//", ".", "..", "%2F", "%2f", "%2e", "%5C", "@", ":", ";", "\\", "?", "#", "v1", "qdrant",
    "evil.example", "127.0.0.2:1", "[::1]", "~", "-", "_", " ", "\t", "\uff0f", "%", "%00",
]  # fmt: skip
REQUESTS = ["collections/kb", "collections/kb/points/scroll", "/collections", "v1/chat/completions"]

urls = st.builds(
    lambda scheme, host, port, pieces: f"{scheme}://{host}{port}{''.join(pieces)}",
    st.sampled_from(["http", "https", "HTTP"]),
    st.sampled_from(HOSTS),
    st.sampled_from(PORTS),
    st.lists(st.sampled_from(PIECES), max_size=8),
)


def authority(url: str) -> tuple[str, str, int]:
    parsed = httpx.URL(url)
    return parsed.scheme, parsed.host, parsed.port or DEFAULT_PORTS[parsed.scheme]


def resolutions(text: str) -> list[str]:
    """The request URLs a client could build from ``text`` (independent of the rule's parsing)."""
    split = parse_url(text.strip())
    origin = f"{split.scheme}://{split.netloc}"
    base = urljoin(origin, split.path or "")  # qdrant-client: rest_uri = urljoin(origin, prefix)
    found = []
    for request in REQUESTS:
        found.append(urljoin(base.rstrip("/") + "/", request.lstrip("/")))
        found.append(urljoin(text.strip().rstrip("/") + "/", request.lstrip("/")))
        found.append(text.strip().rstrip("/") + "/" + request.lstrip("/"))
    return found


def check_accepted(text: str, parsed: ParsedEndpoint) -> None:
    judged = (parsed.scheme, parsed.host, parsed.port)
    for url in resolutions(text):
        assert authority(url) == judged, (text, url)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Api key is used with an insecure connection")
        connection = QdrantConnection.remote(text, "kb", api_key="k")
    try:
        rest_uri = connection.client._client.rest_uri  # type: ignore[attr-defined]
    finally:
        connection.close()
    for request in REQUESTS:
        assert authority(urljoin(rest_uri + "/", request.lstrip("/"))) == judged, (text, rest_uri)
    path = chat_completions_path(parsed)
    assert path.startswith("/") and not path.startswith("//")
    assert authority(f"{parsed.scheme}://{parsed.netloc}{path}") == judged


@settings(max_examples=size(2_000, 100_000), deadline=None)
@given(urls)
@example("http://[::1]:16334//127.0.0.1:16333")
@example("http://localhost:6333//remote.example:6333")
@example("http://127.0.0.1:6333/qdrant/v1/")
@example("https://api.example.com/openai/v1")
def test_accepted_urls_resolve_to_the_judged_server(text: str) -> None:
    try:
        parsed = check_endpoint(text)
    except UsageError:
        return
    check_accepted(text, parsed)
    if parsed.scheme == "http":
        assert parsed.loopback
