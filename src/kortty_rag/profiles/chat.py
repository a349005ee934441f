"""Chat backends that stream an answer as text deltas (docs/DESIGN.md §12).

Two kinds of profile, one small interface (:class:`ChatBackend`):

* :class:`LlamaChat` runs a local GGUF chat model in process through ``llama-cpp-python``. The module
  is imported and the model loaded only when the first answer is streamed, so preparing a request
  (retrieval, prompt assembly) never holds the embedding model and the chat model in memory at once,
  and importing the CLI never pulls in llama.cpp. Its log lines go to Python logging, not the terminal
  where the answer is being printed.
* :class:`OpenAIChat` talks to an OpenAI-compatible server (llama.cpp's server, vLLM, Ollama, hosted
  APIs) with the standard library only: a dependency-free client is enough for one POST and a
  server-sent-events stream, and ``http.client`` neither follows redirects (which could downgrade to
  plain HTTP) nor picks up proxy settings that would route a loopback request elsewhere. The endpoint
  rule (:func:`~kortty_rag.config.endpoints.check_endpoint`) is applied in the constructor, before any
  connection. Connect and read have separate timeouts; errors name the endpoint and never the key.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import ssl
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from kortty_rag import __version__
from kortty_rag.config.endpoints import ParsedEndpoint, check_endpoint
from kortty_rag.config.key_variables import check_key_variable
from kortty_rag.config.secrets import profile_account, read_secret
from kortty_rag.errors import ChatError, UsageError
from kortty_rag.messages import msg
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import AiProfile
from kortty_rag.remedies import Operation, place

Messages = Sequence[Mapping[str, str]]

CONNECT_TIMEOUT = 10.0
#: Per read, not for the whole answer: a local model on a busy CPU may think a while between tokens.
READ_TIMEOUT = 120.0
MAX_LINE_BYTES = 1 << 20
MAX_ERROR_BYTES = 8192
MAX_JSON_BYTES = 16 << 20
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


@dataclass(frozen=True)
class GenerationOptions:
    max_tokens: int = 1024
    temperature: float = 0.2

    def __post_init__(self) -> None:
        if self.max_tokens < 1:
            raise UsageError(
                msg(
                    "The answer needs at least 1 token ({setting})",
                    setting=place(Operation.ANSWER_LENGTH),
                )
            )
        if not 0.0 <= self.temperature <= 2.0:
            raise UsageError(msg("The temperature must be between 0 and 2"))


class ChatBackend(Protocol):
    """Streams the model's answer to ``messages`` as text deltas."""

    def stream(self, messages: Messages, options: GenerationOptions) -> Iterator[str]: ...

    def close(self) -> None: ...


def open_chat(profile: AiProfile) -> ChatBackend:
    """The backend for ``profile``; validates the model file or endpoint, connects to nothing."""
    if profile.backend is Backend.LLAMA_CPP:
        return LlamaChat(profile)
    return OpenAIChat(profile)


def _first_choice(chunk: Any) -> Mapping[str, Any]:
    choices = chunk.get("choices") if isinstance(chunk, Mapping) else None
    first: Mapping[str, Any] = choices[0] if isinstance(choices, list) and choices else {}
    return first if isinstance(first, Mapping) else {}


def delta_text(chunk: Any) -> str:
    """``choices[0].delta.content`` of a streamed chunk (or ``message.content`` of a whole answer)."""
    choice = _first_choice(chunk)
    for key in ("delta", "message"):
        part = choice.get(key)
        if isinstance(part, Mapping) and isinstance(part.get("content"), str):
            return str(part["content"])
    return ""


# -- llama.cpp in process ---------------------------------------------------------------------------


#: llama.cpp architectures that only encode (embedding and reranking models): they have no KV
#: cache, and generating with one fails inside llama.cpp ("Memory is not initialized")
ENCODER_ARCHITECTURES = frozenset(
    {
        "bert",
        "nomic-bert",
        "nomic-bert-moe",
        "jina-bert-v2",
        "jina-bert-v3",
        "modern-bert",
        "neo-bert",
        "t5encoder",
        "roberta",
        "xlm-roberta",
    }
)


def _not_a_chat_model(path: Path, architecture: str) -> ChatError:
    return ChatError(
        msg(
            "{path} is an embedding or reranking model ({architecture}), not a chat model",
            path=path,
            architecture=architecture or "?",
        ),
        hint=msg(
            "Embedding models turn text into vectors for a knowledge store; they cannot answer. "
            "Point the profile at a GGUF chat model."
        ),
    )


class LlamaChat:
    """A local GGUF chat model, loaded on the first :meth:`stream` and kept until :meth:`close`."""

    def __init__(self, profile: AiProfile, *, n_threads: int | None = None) -> None:
        self.profile = profile
        self.path = Path(profile.model).expanduser()
        if not self.path.is_file():
            raise ChatError(
                msg(
                    "The chat model {path} of AI profile {profile!r} does not exist",
                    path=self.path,
                    profile=profile.name,
                ),
                hint=msg(
                    "Point the profile at a GGUF file: {how}.",
                    how=place(Operation.PROFILE_LOCAL_MODEL, profile=profile.name),
                ),
            )
        self.n_threads = n_threads
        self._llama: Any = None

    def _load(self) -> Any:
        if self._llama is None:
            from kortty_rag.embedding.llama import default_threads, open_llama

            threads = self.n_threads or default_threads()
            try:
                self._llama = open_llama(
                    model_path=str(self.path),
                    n_ctx=self.profile.context_window,
                    flash_attn=True,
                    n_threads=threads,
                    n_threads_batch=threads,
                    verbose=False,
                )
            except (ValueError, RuntimeError, OSError) as exc:
                raise ChatError(
                    msg(
                        "llama.cpp could not load the chat model {path}: {error}",
                        path=self.path,
                        error=str(exc),
                    ),
                    hint=msg("Check that the file is a complete GGUF chat model."),
                ) from exc
            architecture = str(self._llama.metadata.get("general.architecture", ""))
            if architecture in ENCODER_ARCHITECTURES:  # llama.cpp: "Memory is not initialized"
                self.close()
                raise _not_a_chat_model(self.path, architecture)
        return self._llama

    def stream(self, messages: Messages, options: GenerationOptions) -> Iterator[str]:
        llama = self._load()
        try:
            chunks = llama.create_chat_completion(
                messages=[dict(m) for m in messages],
                stream=True,
                max_tokens=options.max_tokens,
                temperature=options.temperature,
            )
            for chunk in chunks:
                text = delta_text(chunk)
                if text:
                    yield text
        except ValueError as exc:  # the context is too small, or the chat template refused
            raise ChatError(
                msg(
                    "The chat model {name} refused the request: {error}",
                    name=self.path.name,
                    error=str(exc),
                ),
                hint=msg(
                    "If the context window is too small: shorten the request or {answer}, or raise "
                    "the profile's context window with {how}. A template that refuses system "
                    "messages needs another model.",
                    answer=place(Operation.ANSWER_LENGTH),
                    how=place(Operation.PROFILE_CONTEXT, profile=self.profile.name),
                ),
            ) from exc
        except RuntimeError as exc:
            raise ChatError(
                msg("llama.cpp failed while answering: {error}", error=str(exc))
            ) from exc
        except AssertionError as exc:  # a model without a KV cache: an encoder llama.cpp knows
            architecture = str(llama.metadata.get("general.architecture", ""))
            raise _not_a_chat_model(self.path, architecture) from exc

    def close(self) -> None:
        llama, self._llama = self._llama, None
        if llama is not None:
            llama.close()


# -- OpenAI-compatible endpoint ---------------------------------------------------------------------


def chat_completions_path(endpoint: ParsedEndpoint) -> str:
    """``/v1/chat/completions`` below the base path; a base given with ``/v1`` works the same."""
    base = endpoint.path[: -len("/v1")] if endpoint.path.endswith("/v1") else endpoint.path
    return f"{base}/v1/chat/completions"


def api_key(profile: AiProfile, environ: Mapping[str, str] | None = None) -> str | None:
    """The key from the environment variable the profile names, or from the OS keyring
    (``None`` when the profile has no key)."""
    name = profile.api_key_env
    if not name and profile.api_key_in_keyring:
        key = read_secret(profile_account(profile.name))
        if not key:
            raise UsageError(
                msg(
                    "The API key of AI profile {profile!r} is not in the keyring (or the "
                    "keyring is locked or unavailable)",
                    profile=profile.name,
                ),
                hint=msg(
                    "Store it again with {how}. Check that the keyring is unlocked.",
                    how=place(Operation.PROFILE_KEY, profile=profile.name),
                ),
            )
        return key
    if not name:
        return None
    try:
        check_key_variable(name)
    except UsageError as exc:
        raise UsageError(
            msg("AI profile {profile!r}: {reason}", profile=profile.name, reason=exc.message),
            hint=exc.hint,
        ) from None
    value = (os.environ if environ is None else environ).get(name, "").strip()
    if not value:
        raise UsageError(
            msg(
                "The environment variable {variable} (the API key of AI profile {profile!r}) is "
                "not set",
                variable=name,
                profile=profile.name,
            ),
            hint=msg("Set it before running, e.g. `export {variable}=...`.", variable=name),
        )
    if not value.isprintable():
        raise UsageError(
            msg(
                "The environment variable {variable} holds characters a key cannot contain",
                variable=name,
            )
        )
    return value


def iter_sse_data(lines: Iterable[bytes]) -> Iterator[str]:
    """The ``data`` of each server-sent event (several ``data:`` lines are joined by newlines)."""
    data: list[str] = []
    for raw in lines:
        line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
        if not line:
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith(":"):  # a comment, e.g. a keep-alive ping
            continue
        name, _, value = line.partition(":")
        if name == "data":
            data.append(value[1:] if value.startswith(" ") else value)
    if data:
        yield "\n".join(data)


def _error_detail(raw: bytes, secret: str | None) -> str:
    """A short, single-line, key-free description of an error body."""
    text = raw.decode("utf-8", errors="replace")
    try:
        payload = json.loads(text)
    except ValueError:
        payload = None
    if isinstance(payload, Mapping):
        error = payload.get("error", payload.get("detail", payload.get("message")))
        if isinstance(error, Mapping):
            error = error.get("message", error)
        if error is not None:
            text = error if isinstance(error, str) else json.dumps(error)
    return _clean(text, secret)


def _clean(text: str, secret: str | None) -> str:
    if secret:
        text = text.replace(secret, "***")
    text = _CONTROL.sub(" ", text).strip()
    return text[:300] + ("…" if len(text) > 300 else "")


class OpenAIChat:
    """An OpenAI-compatible ``/v1/chat/completions`` endpoint, streamed over SSE."""

    def __init__(
        self,
        profile: AiProfile,
        *,
        connect_timeout: float = CONNECT_TIMEOUT,
        read_timeout: float = READ_TIMEOUT,
        environ: Mapping[str, str] | None = None,
        key: str | None = None,
    ) -> None:
        """``key``: use this API key rather than the profile's (a key entered but not saved yet)."""
        if not profile.endpoint:
            raise UsageError(msg("AI profile {profile!r} has no endpoint", profile=profile.name))
        self.profile = profile
        self.endpoint = check_endpoint(
            profile.endpoint,
            what=msg("endpoint of AI profile {profile!r}", profile=profile.name),
        )
        self.path = chat_completions_path(self.endpoint)
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self._key = key if key is not None else api_key(profile, environ)

    def _fail(self, message: str, hint: str = "") -> ChatError:
        return ChatError(
            msg("{endpoint}: {reason}", endpoint=self.endpoint.url, reason=message),
            endpoint=self.endpoint.url,
            hint=hint,
        )

    def _connect(self) -> http.client.HTTPConnection:
        host, port = self.endpoint.host, self.endpoint.port
        conn: http.client.HTTPConnection
        if self.endpoint.secure:
            context = ssl.create_default_context()
            conn = http.client.HTTPSConnection(
                host, port, timeout=self.connect_timeout, context=context
            )
        else:
            conn = http.client.HTTPConnection(host, port, timeout=self.connect_timeout)
        conn.connect()
        if conn.sock is not None:
            conn.sock.settimeout(self.read_timeout)
        return conn

    def _headers(self) -> dict[str, str]:
        headers = {
            "Content-Type": "application/json",
            "Accept": "text/event-stream",
            "User-Agent": f"kortty-rag/{__version__}",
        }
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        return headers

    def stream(self, messages: Messages, options: GenerationOptions) -> Iterator[str]:
        body = json.dumps(
            {
                "model": self.profile.model,
                "messages": [dict(m) for m in messages],
                "stream": True,
                "max_tokens": options.max_tokens,
                "temperature": options.temperature,
            }
        ).encode("utf-8")
        with self._connection(read_hint=msg("The model may be overloaded.")) as conn:
            conn.request("POST", self.path, body=body, headers=self._headers())
            response = conn.getresponse()
            try:
                if response.status != 200:
                    raise self._http_error(response)
                content_type = (response.getheader("Content-Type") or "").lower()
                if content_type.startswith("application/json"):  # "stream": true was ignored
                    yield from self._whole_answer(response)
                else:
                    yield from self._sse_answer(response)
            finally:  # the response owns the socket once the server said it will close it
                response.close()

    @contextlib.contextmanager
    def _connection(self, *, read_hint: str = "") -> Iterator[http.client.HTTPConnection]:
        """A connection to the endpoint, closed afterwards; whatever fails on the way (TLS, a
        timeout, a refusal, a dropped connection) becomes a :class:`ChatError` in words, the key
        never in it. ``read_hint``: what to say when the answer does not come in time."""
        conn: http.client.HTTPConnection | None = None
        try:
            try:
                conn = self._connect()
            except TimeoutError as exc:
                raise self._fail(
                    msg("no connection within {seconds:g} s", seconds=self.connect_timeout),
                    msg("Check that the server is running and reachable."),
                ) from exc
            yield conn
        except ssl.SSLCertVerificationError as exc:
            raise self._fail(
                msg("TLS certificate verification failed ({reason})", reason=exc.verify_message),
                msg(
                    "The server's certificate must be valid for its host name and trusted by the "
                    "system's CA store."
                ),
            ) from exc
        except TimeoutError as exc:
            raise self._fail(
                msg("no answer within {seconds:g} s", seconds=self.read_timeout), read_hint
            ) from exc
        except ConnectionRefusedError as exc:
            raise self._fail(
                msg("connection refused"), msg("Check that the server is running.")
            ) from exc
        except (OSError, http.client.HTTPException) as exc:
            raise self._fail(
                msg("the connection failed: {error}", error=_clean(str(exc), self._key))
            ) from exc
        finally:
            if conn is not None:
                conn.close()

    def models(self) -> list[str]:
        """The model ids the server lists at ``/v1/models`` (``[]`` when it has no such list)."""
        path = chat_completions_path(self.endpoint).removesuffix("/chat/completions") + "/models"
        headers = self._headers() | {"Accept": "application/json"}
        with self._connection() as conn:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            if response.status == 404:
                return []
            if response.status != 200:
                raise self._http_error(response)
            raw = response.read(MAX_JSON_BYTES + 1)
        try:
            listed = json.loads(raw).get("data", []) if len(raw) <= MAX_JSON_BYTES else []
        except (ValueError, AttributeError):
            return []
        ids = (
            [m.get("id") for m in listed if isinstance(m, Mapping)]
            if isinstance(listed, list)
            else []
        )
        return [str(i) for i in ids if isinstance(i, str) and i.isprintable()][:500]

    def _http_error(self, response: http.client.HTTPResponse) -> ChatError:
        detail = _error_detail(response.read(MAX_ERROR_BYTES), self._key)
        status = response.status
        if status in (401, 403):
            if self.profile.api_key_env:
                hint = msg("Check the API key in ${variable}.", variable=self.profile.api_key_env)
            elif self.profile.api_key_in_keyring:
                hint = msg(
                    "Check the API key kept in the keyring; replace it with {how}.",
                    how=place(Operation.PROFILE_KEY, profile=self.profile.name),
                )
            else:
                hint = msg(
                    "The endpoint needs an API key: {how} keeps one in the OS keyring (or name, "
                    "in the profile, an environment variable that holds it).",
                    how=place(Operation.PROFILE_KEY, profile=self.profile.name),
                )
        elif status == 404:
            hint = msg(
                "Check the endpoint URL (/v1/chat/completions is added) and the model name "
                "{model!r}.",
                model=self.profile.model,
            )
        elif status == 429:
            hint = msg("The endpoint is rate-limiting requests; try again later.")
        elif 300 <= status < 400:
            hint = msg("Redirects are not followed; give the final URL as the profile's endpoint.")
        else:
            hint = msg("See the server's log for details.")
        message = (
            msg(
                "HTTP {status} {reason}: {detail}",
                status=status,
                reason=response.reason,
                detail=detail,
            )
            if detail
            else msg("HTTP {status} {reason}", status=status, reason=response.reason)
        )
        return self._fail(message, hint)

    def _whole_answer(self, response: http.client.HTTPResponse) -> Iterator[str]:
        raw = response.read(MAX_JSON_BYTES + 1)
        if len(raw) > MAX_JSON_BYTES:
            raise self._fail(msg("the answer is too large"))
        try:
            payload = json.loads(raw)
        except ValueError as exc:
            raise self._fail(msg("the answer is not valid JSON")) from exc
        if isinstance(payload, Mapping) and payload.get("error"):
            raise self._fail(
                msg("the server reported: {detail}", detail=_error_detail(raw, self._key))
            )
        text = delta_text(payload)
        if text:
            yield text

    def _sse_answer(self, response: http.client.HTTPResponse) -> Iterator[str]:
        def lines() -> Iterator[bytes]:
            while line := response.readline(MAX_LINE_BYTES + 1):
                if len(line) > MAX_LINE_BYTES:
                    raise self._fail(msg("a stream event is too large"))
                yield line

        finished = False
        for data in iter_sse_data(lines()):
            if data.strip() == "[DONE]":
                return
            try:
                payload = json.loads(data)
            except ValueError as exc:
                raise self._fail(msg("the stream contains an event that is not JSON")) from exc
            if isinstance(payload, Mapping) and payload.get("error"):
                raise self._fail(
                    msg(
                        "the server reported: {detail}",
                        detail=_error_detail(data.encode("utf-8"), self._key),
                    )
                )
            finished = finished or bool(_first_choice(payload).get("finish_reason"))
            text = delta_text(payload)
            if text:
                yield text
        if not finished:
            raise self._fail(
                msg("the stream ended before the answer was complete"),
                msg("The server may have crashed or dropped the connection; see its log."),
            )

    def close(self) -> None:
        """Nothing is kept open between answers: each stream closes its own connection."""
