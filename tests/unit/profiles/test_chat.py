"""The OpenAI-compatible chat client against a scripted local HTTP server: SSE parsing, errors,
timeouts, and keys that never leak into messages. (The real server is in the integration tests.)"""

from __future__ import annotations

import functools
import json
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.listener import RecordingListener

from kortty_rag.cli import ask_cmd, main
from kortty_rag.errors import ChatError, UsageError
from kortty_rag.models import EmbeddingIdentity, Role, Store, StoreType
from kortty_rag.profiles.ask import ask
from kortty_rag.profiles.chat import GenerationOptions, LlamaChat, OpenAIChat, iter_sse_data
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import AiProfile, ProfileRegistry
from kortty_rag.retrieval.search import RetrievalResult

KEY = "sk-test-0123456789"
IDENTITY = EmbeddingIdentity("m", "sha", 8, "mean", "", "", 256, 38)
OPTIONS = GenerationOptions(max_tokens=16, temperature=0.0)
MESSAGES = [{"role": "system", "content": "rules"}, {"role": "user", "content": "hi"}]
Script = Callable[[BaseHTTPRequestHandler], None]


def sse(*events: Any, done: bool = True) -> bytes:
    lines = [f"data: {json.dumps(e)}\r\n\r\n" for e in events]
    return ("".join(lines) + ("data: [DONE]\r\n\r\n" if done else "")).encode()


def delta(text: str | None = None, finish: str | None = None) -> dict[str, Any]:
    part = {} if text is None else {"content": text}
    return {"choices": [{"index": 0, "delta": part, "finish_reason": finish}]}


class ScriptedServer:
    def __init__(self) -> None:
        self.script: Script = lambda handler: None
        self.requests: list[tuple[str, dict[str, str], dict[str, Any]]] = []
        self.release = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                server.requests.append((self.path, dict(self.headers.items()), json.loads(body)))
                server.script(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    def reply(self, status: int, body: bytes, content_type: str = "text/event-stream") -> None:
        def script(handler: BaseHTTPRequestHandler) -> None:
            handler.send_response(status)
            handler.send_header("Content-Type", content_type)
            handler.end_headers()
            handler.wfile.write(body)

        self.script = script

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    scripted = ScriptedServer()
    try:
        yield scripted
    finally:
        scripted.close()


def chat(server: ScriptedServer, suffix: str = "/v1", **kwargs: Any) -> OpenAIChat:
    profile = AiProfile(
        "Served", Backend.OPENAI, "tiny", endpoint=server.url + suffix, api_key_env="CHAT_KEY"
    )
    return OpenAIChat(profile, environ={"CHAT_KEY": KEY}, **kwargs)


def test_streams_the_deltas(server: ScriptedServer) -> None:
    server.reply(
        200,
        b": ping\r\n\r\n"
        + sse(
            {"choices": [{"delta": {"role": "assistant"}}]}, delta("Hel"), delta("lo"), done=False
        )
        + b'data: {"choices": [{"delta": {"content": " there"},\ndata:  "finish_reason": "stop"}]}\n\n'
        + b"data: [DONE]\n\n",
    )
    assert list(chat(server).stream(MESSAGES, OPTIONS)) == ["Hel", "lo", " there"]
    path, headers, body = server.requests[0]
    assert path == "/v1/chat/completions"
    assert headers["Authorization"] == f"Bearer {KEY}"
    assert body == {
        "model": "tiny",
        "messages": MESSAGES,
        "stream": True,
        "max_tokens": 16,
        "temperature": 0.0,
    }


@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/"])
def test_the_endpoint_may_be_given_with_or_without_v1(server: ScriptedServer, suffix: str) -> None:
    server.reply(200, sse(delta("ok", "stop")))
    assert list(chat(server, suffix).stream(MESSAGES, OPTIONS)) == ["ok"]
    assert server.requests[0][0] == "/v1/chat/completions"


def test_a_server_that_ignores_stream_still_answers(server: ScriptedServer) -> None:
    answer = {"choices": [{"message": {"role": "assistant", "content": "whole"}}]}
    server.reply(200, json.dumps(answer).encode(), "application/json")
    assert list(chat(server).stream(MESSAGES, OPTIONS)) == ["whole"]


def test_a_stream_may_end_after_finish_without_done(server: ScriptedServer) -> None:
    server.reply(200, sse(delta("a"), delta(None, "length"), done=False))
    assert list(chat(server).stream(MESSAGES, OPTIONS)) == ["a"]


@pytest.mark.parametrize(
    ("status", "body", "message", "hint"),
    [
        (
            401,
            {"error": {"message": f"Incorrect API key provided: {KEY}"}},
            "HTTP 401",
            "$CHAT_KEY",
        ),
        (404, {"detail": "Not Found"}, "HTTP 404 Not Found: Not Found", "'tiny'"),
        (429, {"error": "slow down"}, "HTTP 429 Too Many Requests: slow down", "rate-limiting"),
        (500, {"error": {"message": f"boom {KEY}"}}, "HTTP 500", "server's log"),
        (302, {}, "HTTP 302", "Redirects are not followed"),
    ],
)
def test_http_errors_name_the_endpoint_and_never_the_key(
    server: ScriptedServer, status: int, body: dict[str, Any], message: str, hint: str
) -> None:
    server.reply(status, json.dumps(body).encode(), "application/json")
    with pytest.raises(ChatError) as failed:
        list(chat(server).stream(MESSAGES, OPTIONS))
    assert failed.value.message.startswith(f"{server.url}/v1: ")
    assert message in failed.value.message and hint in failed.value.hint
    assert KEY not in str(failed.value)
    assert failed.value.endpoint == f"{server.url}/v1"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (sse(delta("a"), done=False), "ended before the answer was complete"),
        (
            sse(delta("a"), {"error": {"message": f"overloaded {KEY}"}}),
            "the server reported: overloaded ***",
        ),
        (b"data: {not json\n\n", "not JSON"),
    ],
)
def test_broken_streams(server: ScriptedServer, body: bytes, message: str) -> None:
    server.reply(200, body)
    with pytest.raises(ChatError) as failed:
        list(chat(server).stream(MESSAGES, OPTIONS))
    assert message in failed.value.message and KEY not in str(failed.value)


def test_read_timeout(server: ScriptedServer) -> None:
    server.script = lambda handler: server.release.wait(10)
    with pytest.raises(ChatError, match=r"no answer within 0.3 s"):
        list(chat(server, read_timeout=0.3).stream(MESSAGES, OPTIONS))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_connection_refused_names_the_endpoint() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    backend = OpenAIChat(AiProfile("P", Backend.OPENAI, "m", endpoint=url))
    with pytest.raises(ChatError, match="connection refused") as failed:
        list(backend.stream(MESSAGES, OPTIONS))
    assert failed.value.message.startswith(url)


def test_a_missing_key_variable_is_reported_before_connecting() -> None:
    profile = AiProfile(
        "P", Backend.OPENAI, "m", endpoint="https://api.example.com", api_key_env="NOT_SET_ANYWHERE"
    )
    with pytest.raises(UsageError, match="NOT_SET_ANYWHERE"):
        OpenAIChat(profile, environ={})


def test_a_missing_gguf_is_reported(tmp_path: Path) -> None:
    with pytest.raises(ChatError, match="does not exist"):
        LlamaChat(AiProfile("P", Backend.LLAMA_CPP, str(tmp_path / "none.gguf")))


def test_sse_event_framing() -> None:
    lines = [
        b": comment\n",
        b"data:a\n",
        b"data: b\n",
        b"\n",
        b"event: x\r\n",
        b"data: c\r\n",
        b"\r\n",
        b"data: tail",
    ]
    assert list(iter_sse_data(lines)) == ["a\nb", "c", "tail"]


def test_generation_options_are_validated() -> None:
    with pytest.raises(UsageError):
        GenerationOptions(max_tokens=0)
    with pytest.raises(UsageError):
        GenerationOptions(temperature=-1)


# -- the ask CLI against the scripted server (no store: nothing to retrieve) -----------------------


def add_served_profile(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHAT_KEY", KEY)
    ProfileRegistry().add(
        AiProfile("Served", Backend.OPENAI, "tiny", endpoint=server_url, api_key_env="CHAT_KEY")
    )
    ProfileRegistry().assign(Role.TEXT, "Served")


def test_cli_streams_without_terminal_control_characters(
    server: ScriptedServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    add_served_profile(server.url, monkeypatch)
    server.reply(200, sse(delta("\x1b]0;pwned\x07red"), delta("\rline\n"), delta(None, "stop")))
    assert main(["ask", "Text", "hi"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "]0;pwnedredline\n"
    assert "no store serves the Text role" in captured.err


def test_cli_reports_an_unreachable_endpoint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    add_served_profile(url, monkeypatch)
    assert main(["ask", "Text", "hi"]) == 1
    err = capsys.readouterr().err
    assert f"{url}: connection refused" in err and KEY not in err
    assert main(["ask", "Text", ""]) == 2


@dataclass(frozen=True)
class StandInExcerpt:
    """What the CLI reads of an excerpt (the real one needs a whole ranked candidate)."""

    marker: str
    path: str
    page: int | None = None

    def location(self) -> str:
        return self.path if self.page is None else f"{self.path}, page {self.page}"


class FixedResults:
    def search(
        self, query: str, stores: Any, *, context_window: int | None = None
    ) -> RetrievalResult:
        excerpts: Any = (
            StandInExcerpt("R1", "/docs/a.txt"),
            StandInExcerpt("R2", "/docs/b.pdf", 3),
            StandInExcerpt("R3", "/docs/c.md"),
        )
        block = "<retrieved_context>\n...\n</retrieved_context>"
        return RetrievalResult(query, excerpts, (), 1000, 50, block, ("Docs",))


def test_cli_lists_the_cited_sources(
    server: ScriptedServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    add_served_profile(server.url, monkeypatch)
    store = Store("docs", "Docs", StoreType.LOCAL, IDENTITY)
    monkeypatch.setattr(
        ask_cmd, "ask", functools.partial(ask, stores=[store], service=FixedResults())
    )
    server.reply(200, sse(delta("See [R2] and [R1]."), delta(None, "stop")))
    assert main(["ask", "Text", "where?"]) == 0
    captured = capsys.readouterr()
    assert (
        captured.out
        == "See [R2] and [R1].\n\nSources:\n  [R1] /docs/a.txt\n  [R2] /docs/b.pdf, page 3\n"
    )
    assert "3 excerpts from Docs" in captured.err


def test_a_gateway_prefix_is_kept_below_the_validated_server(server: ScriptedServer) -> None:
    server.reply(200, sse(delta("ok", "stop")))
    assert list(chat(server, "/openai/v1/").stream(MESSAGES, OPTIONS)) == ["ok"]
    assert server.requests[0][0] == "/openai/v1/chat/completions"


@pytest.mark.parametrize("path", ["//{b}", "//{b}/v1", "/v1//{b}", "/..//{b}", "/%2F%2F{b}"])
def test_an_endpoint_path_naming_another_server_is_refused(
    server: ScriptedServer, path: str
) -> None:
    """Security review, finding 1, for chat endpoints: the path may not name another server."""
    other = RecordingListener("127.0.0.2" if sys.platform.startswith("linux") else "::1").start()
    try:
        endpoint = server.url + path.format(b=other.authority)
        with pytest.raises(UsageError, match="not a plain prefix"):
            AiProfile("Served", Backend.OPENAI, "tiny", endpoint=endpoint, api_key_env="CHAT_KEY")
        profile = AiProfile("Served", Backend.OPENAI, "tiny", endpoint=server.url)
        object.__setattr__(profile, "endpoint", endpoint)  # a settings file edited by hand
        with pytest.raises(UsageError, match="not a plain prefix"):
            OpenAIChat(profile, environ={"CHAT_KEY": KEY})
        assert other.seen() == [] and server.requests == []
    finally:
        other.stop()
