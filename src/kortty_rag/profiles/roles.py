"""Which stores a request may draw on (docs/DESIGN.md §12).

Ordinary AI actions retrieve with the user's prompt, or with the selected terminal/snippet text when
there is no separate prompt. Autonomous flows (terminal agent, planning, swarm, scheduled agents) only
get excerpts from stores that opted in to "Autonomous workflows". Snippet/workflow diagram requests
never receive excerpts, and visual requests (screenshot analysis) skip retrieval.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from kortty_rag.models import Role, Store


class RequestKind(StrEnum):
    ACTION = "action"
    AGENT = "agent"
    PLANNING = "planning"
    SWARM = "swarm"
    SCHEDULED = "scheduled"
    DIAGRAM = "diagram"
    VISUAL = "visual"


AUTONOMOUS = frozenset(
    {RequestKind.AGENT, RequestKind.PLANNING, RequestKind.SWARM, RequestKind.SCHEDULED}
)
NO_RETRIEVAL = frozenset({RequestKind.DIAGRAM, RequestKind.VISUAL})


def stores_for_request(stores: Sequence[Store], role: Role, kind: RequestKind) -> list[Store]:
    """The stores linked to ``role`` that a request of ``kind`` may search."""
    if kind in NO_RETRIEVAL:
        return []
    linked = [s for s in stores if s.roles.serves(role)]
    if kind in AUTONOMOUS:
        linked = [s for s in linked if s.roles.autonomous]
    return linked


def retrieval_query(prompt: str | None, selection: str | None) -> str | None:
    """The prompt, or the selected text when there is no separate prompt."""
    if prompt and prompt.strip():
        return prompt
    if selection and selection.strip():
        return selection
    return None
