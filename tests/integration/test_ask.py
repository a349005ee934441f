"""``ask`` end to end with real models (docs/DESIGN.md §12): real store, real retrieval, real chat model.

* A real OpenAI-compatible server (``python -m llama_cpp.server`` with gemma-3-270m) on loopback,
  behind a recording proxy that forwards the streamed answer and keeps every request body, so the
  tests see exactly what was sent over the wire.
* The same model in process through llama.cpp, with a spy on ``create_chat_completion`` that still
  calls the real method.
* The request-kind gates through the CLI: diagram and visual requests send no block; autonomous ones
  only after the store's explicit opt-in.

gemma-3-270m is a tiny base model: the tests check what is sent and that text streams back, never
the answer's quality or that it cites. ``max_tokens`` is small and the temperature 0.
"""

from __future__ import annotations

import copy
import http.client
import json
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.chat_model import chat_model_path
from tests.helpers.chat_server import serving

from kortty_rag.cli.ask_cmd import printable
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.models import Role, Store
from kortty_rag.profiles.ask import ask
from kortty_rag.profiles.chat import GenerationOptions, delta_text, iter_sse_data
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.prompt import ACTION_CONTRACT, CAPABILITIES, PRESETS
from kortty_rag.profiles.registry import AiProfile, ProfileRegistry
from kortty_rag.sync.session import StoreSession

CORPUS = Path(__file__).parent.parent / "data" / "corpus"
QUESTION = "What happens when magma reaches the surface?"
KEY_VARIABLE = "KORTTY_TEST_CHAT_KEY"
KEY = "test-key-5f1c9e"
FEW_TOKENS = ("--max-tokens", "8", "--temperature", "0")
HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "host",
    "content-length",
}


# -- the real server and the recording proxy --------------------------------------------------------


@pytest.fixture(scope="module")
def gemma() -> Path:
    return chat_model_path()


@pytest.fixture(scope="module")
def chat_server(gemma: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real OpenAI-compatible server (llama-cpp-python's) on loopback for the whole module."""
    with serving(gemma, tmp_path_factory.mktemp("chat-server")) as base:
        yield base


@dataclass
class Exchange:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    status: int = 0
    response: bytes = b""

    def json(self) -> Any:
        return json.loads(self.body)

    def system(self) -> str:
        messages = self.json()["messages"]
        assert messages[0]["role"] == "system"
        return str(messages[0]["content"])

    def streamed_text(self) -> tuple[int, str]:
        """How many SSE events the server sent, and the text of their deltas."""
        events = list(iter_sse_data(self.response.splitlines(keepends=True)))
        assert events[-1] == "[DONE]"
        return len(events), "".join(delta_text(json.loads(e)) for e in events[:-1])


class RecordingProxy:
    """Forwards every request to ``upstream`` (streaming the answer through as it arrives) and
    records the request and response bodies."""

    def __init__(self, upstream: str) -> None:
        self.exchanges: list[Exchange] = []
        host, port = upstream.removeprefix("http://").split(":")
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.forward()

            def do_POST(self) -> None:
                self.forward()

            def forward(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                exchange = Exchange(self.command, self.path, dict(self.headers.items()), body)
                proxy.exchanges.append(exchange)
                upstream_conn = http.client.HTTPConnection(host, int(port), timeout=300)
                try:
                    headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                    upstream_conn.request(
                        self.command, self.path, body=body or None, headers=headers
                    )
                    response = upstream_conn.getresponse()
                    exchange.status = response.status
                    self.send_response(response.status, response.reason)
                    for name, value in response.getheaders():
                        if name.lower() not in HOP_BY_HOP:
                            self.send_header(name, value)
                    self.send_header("Connection", "close")
                    self.end_headers()  # HTTP/1.0: the body ends when the connection closes
                    while chunk := response.read1(65536):
                        exchange.response += chunk
                        self.wfile.write(chunk)
                        self.wfile.flush()
                finally:
                    upstream_conn.close()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    def chat_requests(self) -> list[Exchange]:
        return [e for e in self.exchanges if e.path == "/v1/chat/completions"]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def recording_proxy(chat_server: str) -> Iterator[RecordingProxy]:
    proxy = RecordingProxy(chat_server)
    try:
        yield proxy
    finally:
        proxy.close()


@pytest.fixture
def proxy(recording_proxy: RecordingProxy) -> RecordingProxy:
    recording_proxy.exchanges.clear()
    return recording_proxy


# -- a real store ---------------------------------------------------------------------------------


@pytest.fixture
def science(tmp_path: Path, starter_model: InstalledModel) -> Store:
    docs = tmp_path / "science"
    shutil.copytree(CORPUS / "science", docs)
    registry = StoreRegistry()
    store = registry.create("Science", starter_model.identity())
    with StoreSession(store, registry=registry) as job:
        job.apply(job.review_new_sources([docs]))
    return registry.get("Science")


def volcano_path(store: Store) -> str:
    return str(Path(store.sources[0].path) / "volcano.txt")


def assert_block_in_place(system: str, store: Store) -> None:
    """Contract, capabilities, ``<retrieved_context>`` with ``[R1]`` on the volcano file, preset."""
    block_start, block_end = (
        system.index("<retrieved_context>"),
        system.index("</retrieved_context>"),
    )
    contract = system.index(ACTION_CONTRACT[Role.TEXT])
    capabilities = system.index(CAPABILITIES)
    preset = system.index(PRESETS["gemma"])
    assert contract < capabilities < block_start < block_end < preset
    assert f"[R1] source: {volcano_path(store)}\n" in system[block_start:block_end]


def assert_no_block(system: str) -> None:
    assert "<retrieved_context>" not in system and "[R1]" not in system
    assert system.index(CAPABILITIES) < system.index(PRESETS["gemma"])


def add_endpoint_profile(run_cli: Any, proxy: RecordingProxy) -> None:
    added = run_cli(
        "profile", "add", "Served", "--backend", "openai", "--model", "gemma-3-270m",
        "--endpoint", f"{proxy.url}/v1", "--context-window", "4096", "--preset", "gemma",
        "--api-key-env", KEY_VARIABLE,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    assert run_cli("role", "assign", "text", "Served").returncode == 0


# -- the tests ------------------------------------------------------------------------------------


def test_ask_through_a_real_openai_compatible_endpoint(
    run_cli: Any, science: Store, proxy: RecordingProxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_VARIABLE, KEY)
    add_endpoint_profile(run_cli, proxy)

    result = run_cli("ask", "Text", QUESTION, *FEW_TOKENS)

    assert result.returncode == 0, result.stderr
    assert "excerpts from Science" in result.stderr
    (request,) = proxy.chat_requests()
    body = request.json()
    assert body["model"] == "gemma-3-270m" and body["stream"] is True
    assert body["max_tokens"] == 8 and body["temperature"] == 0
    assert body["messages"][1] == {"role": "user", "content": QUESTION}
    assert_block_in_place(request.system(), science)
    assert request.headers["Authorization"] == f"Bearer {KEY}"
    assert KEY not in result.stdout + result.stderr
    events, streamed = request.streamed_text()
    assert request.status == 200 and events >= 3  # role, text deltas, finish, [DONE]
    assert printable(streamed).strip(), "the model streamed no text"
    assert result.stdout.startswith(printable(streamed).rstrip("\n"))


def test_ask_with_an_in_process_llama_cpp_model(
    run_cli: Any, science: Store, gemma: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import llama_cpp

    profile = AiProfile("Local", Backend.LLAMA_CPP, str(gemma), context_window=4096, preset="gemma")
    ProfileRegistry().add(profile)
    ProfileRegistry().assign(Role.TEXT, "Local")
    handed: list[list[dict[str, str]]] = []
    real = llama_cpp.Llama.create_chat_completion

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        handed.append(copy.deepcopy(kwargs["messages"] if "messages" in kwargs else args[0]))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(llama_cpp.Llama, "create_chat_completion", spy)

    answer = ask(Role.TEXT, QUESTION, options=GenerationOptions(max_tokens=8, temperature=0))
    chunks = list(answer.stream())

    assert handed == [answer.messages]
    assert_block_in_place(handed[0][0]["content"], science)
    assert handed[0][1] == {"role": "user", "content": QUESTION}
    assert len(chunks) >= 1 and answer.text.strip()
    assert answer.excerpts[0].path == volcano_path(science)

    # the same profile through the CLI (a separate process, so the spy is not there)
    result = run_cli("ask", "Text", QUESTION, "--json", *FEW_TOKENS)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["backend"] == "llama.cpp" and data["answer"].strip()
    assert_block_in_place(data["messages"][0]["content"], science)
    assert data["retrieval"]["excerpts"][0]["marker"] == "R1"


def test_request_kinds_gate_the_block_through_the_cli(
    run_cli: Any, science: Store, proxy: RecordingProxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_VARIABLE, KEY)
    add_endpoint_profile(run_cli, proxy)

    def sent(*args: str) -> str:
        before = len(proxy.chat_requests())
        result = run_cli("ask", "Text", *args, *FEW_TOKENS)
        assert result.returncode == 0, result.stderr
        assert len(proxy.chat_requests()) == before + 1
        return proxy.chat_requests()[-1].system()

    for kind in ("diagram", "visual"):
        assert_no_block(sent(QUESTION, "--kind", kind))
    assert_no_block(sent(QUESTION, "--kind", "agent"))  # no opt-in yet

    opt_in = run_cli("store", "roles", "Science", "--autonomous")
    assert opt_in.returncode == 0, opt_in.stderr
    assert_block_in_place(sent(QUESTION, "--kind", "agent"), science)
    assert_no_block(sent(QUESTION, "--kind", "diagram"))  # the opt-in never reaches diagrams

    # no separate prompt: the selected text is both the query and the request
    assert_block_in_place(sent("", "--selection", QUESTION), science)
    assert proxy.chat_requests()[-1].json()["messages"][1]["content"] == QUESTION
