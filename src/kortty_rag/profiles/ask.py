"""Ask a role's AI profile, with retrieved context where the request kind allows it (docs/DESIGN.md §12).

The whole path in one place, so the CLI, the GUI and tests exercise exactly the same steps:

1. the profile holding the role, and its chat backend (the endpoint rule and the model file are checked
   here, before anything is searched or sent);
2. the stores the request may draw on — linked to the role, and for autonomous flows only those that
   opted in; diagram and visual requests get none;
3. retrieval with the prompt, or the selected text when there is no separate prompt, bounded by the
   profile's context window;
4. the system prompt in the fixed order contract → capabilities → ``<retrieved_context>`` → preset,
   the block neutralising a local model's own control tokens too (:func:`own_tokens`);
5. the answer, streamed.

Steps 1–4 run eagerly in :func:`ask` so a caller can show the exact messages before the model is
loaded; step 5 runs when :meth:`Answer.stream` is iterated.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.errors import UsageError
from kortty_rag.messages import msg
from kortty_rag.models import Role, Store
from kortty_rag.profiles.chat import ChatBackend, GenerationOptions, LlamaChat, open_chat
from kortty_rag.profiles.model_tokens import model_tokens
from kortty_rag.profiles.prompt import build_messages, cited_markers, prompt_parts
from kortty_rag.profiles.registry import AiProfile, ProfileRegistry
from kortty_rag.profiles.roles import (
    AUTONOMOUS,
    NO_RETRIEVAL,
    RequestKind,
    retrieval_query,
    stores_for_request,
)
from kortty_rag.remedies import Operation, place
from kortty_rag.retrieval.chat_tokens import NO_WORDS, TokenWords, catalogue_words, words_of
from kortty_rag.retrieval.context import BlockExcerpt, render_block
from kortty_rag.retrieval.search import Excerpt, RetrievalResult, RetrievalService


class Searcher(Protocol):
    """What :func:`ask` needs of a retrieval service (:class:`RetrievalService` in production)."""

    def search(
        self, query: str, stores: Sequence[Store], *, context_window: int | None = None
    ) -> RetrievalResult: ...


def user_request(question: str | None, selection: str | None) -> str:
    """The user message: the prompt, the selected text, or the prompt followed by the selection."""
    prompt = (question or "").strip()
    selected = (selection or "").strip()
    if prompt and selected:
        return f"{prompt}\n\nSelected text:\n{selection}"
    if prompt:
        return prompt
    if selected:
        return str(selection)
    raise UsageError(
        msg("Nothing to ask"),
        hint=msg(
            "Give a question, or {selection}, or both.", selection=place(Operation.ASK_SELECTION)
        ),
    )


def own_tokens(backend: ChatBackend) -> TokenWords:
    """The chat model's own control tokens that the catalogue lacks: a local GGUF model's, read from
    its metadata without loading it. An endpoint's model is not known here: the catalogue's apply."""
    if not isinstance(backend, LlamaChat):
        return NO_WORDS
    return words_of(model_tokens(backend.path)).beyond(catalogue_words())


def for_model(retrieval: RetrievalResult, tokens: TokenWords) -> RetrievalResult:
    """``retrieval`` with its block rendered again so that ``tokens`` are neutralised too."""
    if not tokens or not retrieval.excerpts:
        return retrieval
    excerpts = [BlockExcerpt(e.marker, e.location(), e.chunk.text) for e in retrieval.excerpts]
    return replace(retrieval, block=render_block(excerpts, tokens))


def retrieval_note(
    role: Role,
    kind: RequestKind,
    linked: Sequence[Store],
    gated: Sequence[Store],
    query: str | None,
) -> str:
    """Why no retrieval ran ("" when it did)."""
    if kind in NO_RETRIEVAL:
        return msg("{kind} requests never receive retrieved context", kind=kind.value)
    if not linked:
        return msg("no store serves the {role} role", role=role.value)
    if not gated and kind in AUTONOMOUS:
        return msg(
            "none of the {role} stores opted in to autonomous workflows ({how})",
            role=role.value,
            how=place(Operation.STORE_AUTONOMOUS),
        )
    if not query:
        return msg("there is no prompt or selected text to search with")
    return ""


@dataclass
class Answer:
    """A prepared request and its answer, streamed once through :meth:`stream`."""

    role: Role
    kind: RequestKind
    profile: AiProfile
    query: str | None
    stores: tuple[str, ...]  # the stores that were searched
    retrieval: RetrievalResult | None
    note: str  # why retrieval did not run, if it did not
    messages: list[dict[str, str]]
    options: GenerationOptions
    backend: ChatBackend
    chunks: list[str] = field(default_factory=list)
    _started: bool = False

    def stream(self) -> Iterator[str]:
        """The answer's text deltas as they arrive; the backend is closed afterwards."""
        if self._started:
            raise RuntimeError("An answer can be streamed only once; `text` holds it")
        self._started = True
        try:
            for chunk in self.backend.stream(self.messages, self.options):
                self.chunks.append(chunk)
                yield chunk
        finally:
            self.backend.close()

    def close(self) -> None:
        self.backend.close()

    @property
    def text(self) -> str:
        return "".join(self.chunks)

    @property
    def excerpts(self) -> tuple[Excerpt, ...]:
        return self.retrieval.excerpts if self.retrieval else ()

    def cited(self) -> list[Excerpt]:
        """The excerpts whose markers the answer cites, in marker order."""
        markers = set(cited_markers(self.text, [e.marker for e in self.excerpts]))
        return [e for e in self.excerpts if e.marker in markers]

    def to_json(self) -> dict[str, Any]:
        return {
            "role": self.role.value,
            "kind": self.kind.value,
            "profile": self.profile.name,
            "backend": self.profile.backend.value,
            "model": self.profile.model,
            "query": self.query,
            "stores": list(self.stores),
            "retrieval": self.retrieval.to_json() if self.retrieval else None,
            "note": self.note,
            "messages": self.messages,
            "answer": self.text,
            "cited": [
                {"marker": e.marker, "path": e.path, "page": e.page, "location": e.location()}
                for e in self.cited()
            ],
        }


def ask(
    role: Role,
    question: str | None,
    *,
    kind: RequestKind = RequestKind.ACTION,
    selection: str | None = None,
    options: GenerationOptions | None = None,
    profiles: ProfileRegistry | None = None,
    stores: Sequence[Store] | None = None,
    service: Searcher | None = None,
    backend: ChatBackend | None = None,
) -> Answer:
    """Prepare a request to ``role``'s profile: retrieval and prompt now, the answer on streaming.

    ``stores`` defaults to every store of ``KORTTY_HOME``; ``service`` to a fresh retrieval service
    closed before returning; ``backend`` to the profile's own chat backend.
    """
    request = user_request(question, selection)
    profile = (profiles or ProfileRegistry()).role_profile(role)
    chat = backend or open_chat(profile)
    every = list(StoreRegistry().list() if stores is None else stores)
    gated = stores_for_request(every, role, kind)
    linked = [s for s in every if s.roles.serves(role)]
    query = retrieval_query(question, selection)
    retrieval: RetrievalResult | None = None
    if gated and query:
        if service is not None:
            retrieval = service.search(query, gated, context_window=profile.context_window)
        else:
            own = RetrievalService()
            try:
                retrieval = own.search(query, gated, context_window=profile.context_window)
            finally:
                own.close()
    if retrieval is not None:  # the block neutralises the tokens of the model that will read it
        retrieval = for_model(retrieval, own_tokens(chat))
    parts = prompt_parts(role, profile.preset, retrieval.block if retrieval else "")
    note = retrieval_note(role, kind, linked, gated, query)
    if retrieval is not None and not retrieval.block:
        note = (
            msg("no excerpt was relevant enough, so the prompt goes without one")
            if retrieval.nothing_relevant
            else msg("the search found no matching excerpts")
        )
    return Answer(
        role=role,
        kind=kind,
        profile=profile,
        query=query,
        stores=tuple(s.name for s in gated) if retrieval else (),
        retrieval=retrieval,
        note=note,
        messages=build_messages(parts, request),
        options=options or GenerationOptions(),
        backend=chat,
    )
