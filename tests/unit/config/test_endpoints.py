"""The endpoint rule: HTTPS for remote hosts, plain HTTP only for loopback, checked before connecting."""

from __future__ import annotations

import socket

import pytest

from kortty_rag.config.endpoints import (
    ParsedEndpoint,
    check_endpoint,
    check_resource_url,
    is_loopback_host,
)
from kortty_rag.errors import UsageError
from kortty_rag.profiles.chat import OpenAIChat, chat_completions_path, open_chat
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import AiProfile


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to resolve or connect fails the test: the rule is checked before connecting."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a connection was attempted: {args}")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)


ACCEPTED = [
    # url, normalised, host, port, path, loopback
    ("https://api.example.com", "https://api.example.com", "api.example.com", 443, "", False),
    (
        "https://API.Example.com/v1/",
        "https://api.example.com/v1",
        "api.example.com",
        443,
        "/v1",
        False,
    ),
    (
        "https://10.0.0.5:8443/openai",
        "https://10.0.0.5:8443/openai",
        "10.0.0.5",
        8443,
        "/openai",
        False,
    ),
    ("https://[2001:db8::1]/", "https://[2001:db8::1]", "2001:db8::1", 443, "", False),
    ("http://127.0.0.1:8080", "http://127.0.0.1:8080", "127.0.0.1", 8080, "", True),
    ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1", "127.0.0.1", 8080, "/v1", True),
    ("http://127.45.6.7:9000/", "http://127.45.6.7:9000", "127.45.6.7", 9000, "", True),
    ("http://127.255.255.254", "http://127.255.255.254", "127.255.255.254", 80, "", True),
    ("http://[::1]:11434", "http://[::1]:11434", "::1", 11434, "", True),
    ("http://[::ffff:127.0.0.1]:80", "http://[::ffff:127.0.0.1]", "::ffff:127.0.0.1", 80, "", True),
    ("http://localhost:1234/v1", "http://localhost:1234/v1", "localhost", 1234, "/v1", True),
    ("HTTP://LOCALHOST", "http://localhost", "localhost", 80, "", True),
    ("https://localhost:8443", "https://localhost:8443", "localhost", 8443, "", True),
    ("  https://api.example.com  ", "https://api.example.com", "api.example.com", 443, "", False),
    # plain path prefixes (as behind a reverse proxy)
    (
        "https://gateway.example.com/openai/v1/",
        "https://gateway.example.com/openai/v1",
        "gateway.example.com",
        443,
        "/openai/v1",
        False,
    ),
    (
        "http://127.0.0.1:6333/qdrant~1/a-b_c.d",
        "http://127.0.0.1:6333/qdrant~1/a-b_c.d",
        "127.0.0.1",
        6333,
        "/qdrant~1/a-b_c.d",
        True,
    ),
]


@pytest.mark.parametrize("case", ACCEPTED, ids=[c[0].strip() for c in ACCEPTED])
def test_accepted(case: tuple[str, str, str, int, str, bool]) -> None:
    url, normalised, host, port, path, loopback = case
    parsed = check_endpoint(url)
    assert parsed == ParsedEndpoint(normalised, parsed.scheme, host, port, path, loopback)
    assert str(parsed) == normalised and parsed.secure == normalised.startswith("https")


REFUSED = [
    # plain http to anything that is not literally loopback
    ("http://example.com", "plain http://"),
    ("http://api.example.com:8080/v1", "plain http://"),
    ("http://10.0.0.5:8080", "plain http://"),
    ("http://192.168.1.20", "plain http://"),
    ("http://[2001:db8::1]:80", "plain http://"),
    ("http://0.0.0.0:8080", "plain http://"),
    ("http://128.0.0.1", "plain http://"),
    ("http://127.0.0.1.nip.io", "plain http://"),  # a name is never resolved
    ("http://localhost.example.com", "plain http://"),
    ("http://127.1", "plain http://"),  # numeric shorthands are not guessed at
    ("http://2130706433", "plain http://"),
    # malformed
    ("", "not a valid URL"),
    ("   ", "not a valid URL"),
    ("api.example.com", "must start with https://"),
    ("localhost:8080", "must start with https://"),
    ("ftp://example.com", "must start with https://"),
    ("file:///etc/passwd", "must start with https://"),
    ("https://", "no host name"),
    ("https:///v1", "no host name"),
    ("https://exa mple.com", "not a valid URL"),
    ("https://example.com\n.evil", "not a valid URL"),
    ("https://a<b>.com", "invalid host name"),
    ("https://bücher.de", "invalid host name"),
    ("https://[::1", "not a valid URL"),
    ("https://example.com:99999", "not a valid URL"),
    ("https://example.com:http", "not a valid URL"),
    ("https://example.com:0", "port 0"),
    ("https://example.com/v1?key=abc", "without '?' or '#'"),
    ("https://example.com/#frag", "without '?' or '#'"),
    ("https://user:secret@example.com", "contains credentials"),
    # a path a URL joiner could read as another server or location (security review, finding 1)
    ("http://[::1]:16334//127.0.0.1:16333", "not a plain prefix"),
    ("http://localhost:6333//remote.example:6333", "not a plain prefix"),
    ("http://127.0.0.1:6333//remote.example", "not a plain prefix"),
    ("https://api.example.com//evil.example/v1", "not a plain prefix"),
    ("https://api.example.com/v1//evil.example", "not a plain prefix"),
    ("https://api.example.com/v1//", "not a plain prefix"),
    ("https://api.example.com///evil.example", "not a plain prefix"),
    ("https://api.example.com/%2F%2Fevil.example", "not a plain prefix"),
    ("https://api.example.com/%2e%2e/admin", "not a plain prefix"),
    ("https://api.example.com/../v1", "not a plain prefix"),
    ("https://api.example.com/./v1", "not a plain prefix"),
    ("https://api.example.com/v1/..", "not a plain prefix"),
    ("https://api.example.com/v1/...", "not a plain prefix"),
    ("https://api.example.com/a@evil.example", "not a plain prefix"),
    ("https://api.example.com/v1;evil", "not a plain prefix"),
    ("https://api.example.com/evil.example:443", "not a plain prefix"),
    ("https://api.example.com/v\u00e9", "not a plain prefix"),
    ("https://api.example.com/\uff0f\uff0fevil.example", "not a plain prefix"),  # fullwidth /
    ("https://api.example.com/v1\\..\\evil", "not a valid URL"),  # backslashes
    ("https://api.example.com/v\t1", "not a valid URL"),
    ("https://api.example.com/v1?", "without '?' or '#'"),  # even empty
    ("https://api.example.com/v1#", "without '?' or '#'"),
    ("https://[fe80::1%25eth0]:443", "invalid host or port"),  # zone ids are not guessed at
    ("http://[::1%25lo]:6333", "invalid host or port"),
    ("http://[::1]:", "invalid host or port"),
    ("http://127.0.0.1:6333:6334", "not a valid URL"),
]


@pytest.mark.parametrize(("url", "reason"), REFUSED)
def test_refused(url: str, reason: str) -> None:
    with pytest.raises(UsageError) as refused:
        check_endpoint(url)
    assert reason in refused.value.message
    assert refused.value.hint


def test_errors_name_the_endpoint_but_not_its_credentials() -> None:
    with pytest.raises(UsageError) as plain:
        check_endpoint("http://example.com/v1", what="endpoint of AI profile 'Cloud'")
    assert "endpoint of AI profile 'Cloud' 'http://example.com/v1'" in plain.value.message
    with pytest.raises(UsageError) as creds:
        check_endpoint("https://user:hunter2@example.com")
    assert "hunter2" not in str(creds.value) and "***@example.com" in str(creds.value)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("LOCALHOST", True),
        ("127.0.0.1", True),
        ("127.9.8.7", True),
        ("::1", True),
        ("0:0:0:0:0:0:0:1", True),
        ("::ffff:127.0.0.2", True),
        ("::ffff:10.0.0.1", False),
        ("0.0.0.0", False),
        ("::", False),
        ("localhost.localdomain", False),
        ("example.com", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback


def test_a_chat_profile_with_a_plain_http_remote_endpoint_never_connects() -> None:
    with pytest.raises(UsageError, match="plain http://"):  # refused when the profile is made
        AiProfile("Cloud", Backend.OPENAI, "gpt-x", endpoint="http://api.example.com/v1")
    insecure = AiProfile("Cloud", Backend.OPENAI, "gpt-x", endpoint="https://api.example.com/v1")
    object.__setattr__(insecure, "endpoint", "http://api.example.com/v1")  # past the validation
    with pytest.raises(UsageError, match="plain http://"):  # the backend checks again
        open_chat(insecure)


@pytest.mark.parametrize(
    ("endpoint", "path"),
    [
        ("http://127.0.0.1:8080", "/v1/chat/completions"),
        ("http://127.0.0.1:8080/", "/v1/chat/completions"),
        ("http://127.0.0.1:8080/v1", "/v1/chat/completions"),
        ("http://127.0.0.1:8080/v1/", "/v1/chat/completions"),
        ("https://gateway.example.com/openai", "/openai/v1/chat/completions"),
        ("https://gateway.example.com/openai/v1", "/openai/v1/chat/completions"),
    ],
)
def test_chat_completions_path_with_or_without_v1(endpoint: str, path: str) -> None:
    assert chat_completions_path(check_endpoint(endpoint)) == path
    chat = OpenAIChat(AiProfile("P", Backend.OPENAI, "m", endpoint=endpoint))
    assert chat.path == path  # constructing the backend validated the URL and connected nowhere


@pytest.mark.parametrize(
    ("url", "server", "target"),
    [
        ("https://huggingface.co/o/m/resolve/abc/m.gguf", "https://huggingface.co", "/o/m/resolve/abc/m.gguf"),
        ("https://cdn.example.com:443/x/m.gguf?X-Amz-Signature=a%2Fb&e=1#frag", "https://cdn.example.com", "/x/m.gguf?X-Amz-Signature=a%2Fb&e=1"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000", "/"),
        ("http://127.0.0.1:8000//evil.example/m.gguf", "http://127.0.0.1:8000", "//evil.example/m.gguf"),
    ],
)  # fmt: skip
def test_resource_urls_keep_their_query_and_stay_on_their_server(
    url: str, server: str, target: str
) -> None:
    endpoint, request_target = check_resource_url(url)
    assert (endpoint.url, request_target) == (server, target)


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/m.gguf",
        "https://user:pw@example.com/m.gguf",
        "https://example.com/m\\x.gguf",
        "https://example.com/m\u00e9.gguf",
        "https://example.com/m .gguf",
        "https://[fe80::1%25eth0]/m.gguf",
        "ftp://example.com/m.gguf",
    ],
)
def test_resource_urls_obey_the_endpoint_rule(url: str) -> None:
    with pytest.raises(UsageError):
        check_resource_url(url)
