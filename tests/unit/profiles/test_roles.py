"""Which stores a request may draw on, for every request kind, and what ``ask`` does with it (docs/DESIGN.md §12).

Ordinary actions retrieve from the stores serving the role; autonomous flows only from stores that
opted in; diagram requests never get excerpts; visual requests skip retrieval. The query is the prompt,
or the selected text when there is no separate prompt.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from kortty_rag.models import EmbeddingIdentity, Role, Store, StoreRoles, StoreType
from kortty_rag.profiles.ask import ask, user_request
from kortty_rag.profiles.chat import GenerationOptions
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import AiProfile, ProfileRegistry
from kortty_rag.profiles.roles import RequestKind, retrieval_query, stores_for_request
from kortty_rag.retrieval.search import RetrievalResult

IDENTITY = EmbeddingIdentity("m", "sha", 8, "mean", "", "", 256, 38)


def store(name: str, **roles: bool) -> Store:
    return Store(name.lower(), name, StoreType.LOCAL, IDENTITY, roles=StoreRoles(**roles))


STORES = [
    store("TextOnly", text=True),
    store("CodingOnly", text=False, coding=True),
    store("Both", text=True, coding=True),
    store("TextAuto", text=True, autonomous=True),
    store("CodingAuto", text=False, coding=True, autonomous=True),
    store("Neither", text=False, coding=False, autonomous=True),  # opt-in without a role: never
]
ACTION = {
    Role.TEXT: ["TextOnly", "Both", "TextAuto"],
    Role.CODING: ["CodingOnly", "Both", "CodingAuto"],
}
AUTONOMOUS = {Role.TEXT: ["TextAuto"], Role.CODING: ["CodingAuto"]}
EXPECTED: dict[RequestKind, dict[Role, list[str]]] = {
    RequestKind.ACTION: ACTION,
    RequestKind.AGENT: AUTONOMOUS,
    RequestKind.PLANNING: AUTONOMOUS,
    RequestKind.SWARM: AUTONOMOUS,
    RequestKind.SCHEDULED: AUTONOMOUS,
    RequestKind.DIAGRAM: {Role.TEXT: [], Role.CODING: []},
    RequestKind.VISUAL: {Role.TEXT: [], Role.CODING: []},
}


def test_the_table_covers_every_request_kind() -> None:
    assert set(EXPECTED) == set(RequestKind)


@pytest.mark.parametrize("kind", list(RequestKind))
@pytest.mark.parametrize("role", list(Role))
def test_gating_for_every_request_kind(kind: RequestKind, role: Role) -> None:
    assert [s.name for s in stores_for_request(STORES, role, kind)] == EXPECTED[kind][role]


@pytest.mark.parametrize(
    ("prompt", "selection", "expected"),
    [
        ("why?", "selected text", "why?"),  # the prompt wins
        ("why?", None, "why?"),
        ("", "selected text", "selected text"),  # no separate prompt: the selection
        ("   \n", "selected text", "selected text"),
        (None, "selected text", "selected text"),
        ("", "  ", None),
        (None, None, None),
    ],
)
def test_retrieval_query(prompt: str | None, selection: str | None, expected: str | None) -> None:
    assert retrieval_query(prompt, selection) == expected


def test_user_request_carries_prompt_and_selection() -> None:
    assert user_request("explain", None) == "explain"
    assert user_request(None, "ls -la") == "ls -la"
    assert user_request("explain", "ls -la") == "explain\n\nSelected text:\nls -la"


# -- the same gates through ask(), with a recording retrieval service and chat backend ---------------

BLOCK = "<retrieved_context>\nFAKE EXCERPTS [R1]\n</retrieved_context>"


class RecordingService:
    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str], int | None]] = []

    def search(
        self, query: str, stores: Sequence[Store], *, context_window: int | None = None
    ) -> RetrievalResult:
        self.calls.append((query, [s.name for s in stores], context_window))
        return RetrievalResult(query, (), (), 1000, 10, BLOCK, tuple(s.name for s in stores))

    def close(self) -> None:
        raise AssertionError("a caller's service is not closed by ask()")


class RecordingBackend:
    def __init__(self) -> None:
        self.sent: list[list[dict[str, str]]] = []
        self.closed = 0

    def stream(self, messages: Sequence[Any], options: GenerationOptions) -> Iterator[str]:
        self.sent.append([dict(m) for m in messages])
        yield from ["It ", "depends [R1]."]

    def close(self) -> None:
        self.closed += 1


@pytest.fixture
def text_profile() -> AiProfile:
    profile = AiProfile("P", Backend.LLAMA_CPP, "/m.gguf", context_window=2048)
    ProfileRegistry().add(profile)
    ProfileRegistry().assign(Role.TEXT, "P")
    return profile


@pytest.mark.parametrize("kind", list(RequestKind))
def test_ask_applies_the_gates(kind: RequestKind, text_profile: AiProfile) -> None:
    service, backend = RecordingService(), RecordingBackend()
    answer = ask(
        Role.TEXT,
        "question",
        kind=kind,
        stores=STORES,
        service=service,
        backend=backend,
    )
    expected = EXPECTED[kind][Role.TEXT]
    system = answer.messages[0]["content"]
    if expected:
        assert service.calls == [("question", expected, 2048)]
        assert BLOCK in system and answer.note == ""
    else:
        assert service.calls == [] and answer.retrieval is None
        assert "<retrieved_context>" not in system and "[R1]" not in system
        assert answer.note
    assert "".join(answer.stream()) == "It depends [R1]." == answer.text
    assert backend.sent == [answer.messages] and backend.closed == 1


def test_ask_falls_back_to_the_selection(text_profile: AiProfile) -> None:
    service, backend = RecordingService(), RecordingBackend()
    answer = ask(
        Role.TEXT, "", selection="rm -rf build", stores=STORES, service=service, backend=backend
    )
    assert service.calls[0][0] == "rm -rf build"
    assert answer.messages[1] == {"role": "user", "content": "rm -rf build"}


def test_ask_without_stores_or_role(text_profile: AiProfile) -> None:
    service, backend = RecordingService(), RecordingBackend()
    answer = ask(Role.TEXT, "q", stores=[], service=service, backend=backend)
    assert service.calls == [] and "no store serves the Text role" in answer.note
    with pytest.raises(Exception, match="No AI profile holds the Coding role"):
        ask(Role.CODING, "q", stores=STORES, service=service, backend=backend)
