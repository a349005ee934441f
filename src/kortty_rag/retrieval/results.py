"""What retrieval returns: candidates with their scores and explanations, the excerpts chosen for
the context block, what was dropped and why (:mod:`kortty_rag.retrieval.search` makes them)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from kortty_rag.errors import UsageError
from kortty_rag.extract.formats import has_slides
from kortty_rag.messages import msg
from kortty_rag.models import (
    LOCATION_SEPARATOR,
    Chunk,
    RelevanceLevel,
    Source,
    SourceKind,
)
from kortty_rag.retrieval.context import (
    BlockExcerpt,
    estimate_tokens,
    neutralise_location,
    render_excerpt,
)
from kortty_rag.retrieval.fusion import FusionWeights
from kortty_rag.retrieval.relevance import RelevanceFloor

DROP_PER_DOCUMENT = msg("per-document cap")
DROP_BUDGET = msg("token budget")
DROP_TOTAL = msg("excerpt limit")
DROP_DISABLED = msg("disabled source")
DROP_BELOW_FLOOR = msg("below relevance floor")

#: Why a result has no excerpts (``RetrievalResult.note``).
NO_MATCHES = msg("No excerpts found.")
NOTHING_RELEVANT = msg("No excerpt was relevant enough; nothing would be added to the prompt.")
NOTHING_FITS = msg("No excerpt fit the token budget; nothing would be added to the prompt.")

#: The smallest context window a search accepts (tokens): a quarter of it is the block's budget.
MIN_CONTEXT_WINDOW = 256
#: Below this best dense similarity (cosine), with no exact word match at all, the excerpts count
#: as weak: dense search always returns *some* nearest neighbours, and related passages score well
#: above it with the starter model.
WEAK_DENSE_SCORE = 0.3


class Weakness(Enum):
    """Whether a result is weak, and how: one definition for every front end (the CLI prints the
    guidance, Test search shows it, the MCP server reports it)."""

    NONE = "none"
    #: candidates existed, none relevant enough (``RetrievalResult.nothing_relevant``)
    NOTHING_RELEVANT = "nothing_relevant"
    #: no excerpts at all (nothing matched, or nothing fit the budget: ``RetrievalResult.note``)
    NO_EXCERPTS = "no_excerpts"
    #: excerpts, but no exact word match and only a low similarity
    LOOSE = "loose"


@dataclass(frozen=True)
class RetrievalLimits:
    max_excerpts: int = 6
    #: excerpts per document in the first pass; free slots are filled regardless afterwards
    per_document: int = 2
    max_tokens: int = 4000
    context_share: float = 0.25

    def budget(self, context_window: int | None) -> int:
        if context_window is None:
            return self.max_tokens
        return min(self.max_tokens, int(context_window * self.context_share))

    @staticmethod
    def check_window(context_window: int | None) -> None:
        """Refuse a context window too small to hold any block (:data:`MIN_CONTEXT_WINDOW`)."""
        if context_window is not None and context_window < MIN_CONTEXT_WINDOW:
            raise UsageError(
                msg(
                    "The context window must be at least {minimum} tokens (not {value})",
                    minimum=MIN_CONTEXT_WINDOW,
                    value=context_window,
                )
            )


@dataclass(frozen=True)
class SearchOptions:
    dense: bool = True
    lexical: bool = True
    #: None: the store's own fusion settings (``settings.retrieval``), else the defaults
    weights: FusionWeights | None = None
    candidates: int = 40  # per part and store
    explain: bool = False
    #: None: each store's own setting (``settings.retrieval.min_relevance``)
    min_relevance: RelevanceLevel | None = None
    #: expand the first stage's best hits along note links; None: each store's own setting
    #: (``settings.retrieval.graph``; :mod:`kortty_rag.retrieval.graph`)
    graph: bool | None = None
    #: the link bonus (a share of the linking hit's fused score); None: the product's default
    graph_bonus: float | None = None


@dataclass(frozen=True)
class LinkReason:
    """Why a candidate came in by a link: ``outgoing`` when the note of ``path`` (a strong hit,
    titled ``note``) links to it ("linked from Project Alpha"), else it links to that note
    ("links to Project Alpha")."""

    outgoing: bool
    note: str
    path: str

    def text(self) -> str:
        if self.outgoing:
            return msg("linked from {note}", note=self.note)
        return msg("links to {note}", note=self.note)

    def to_json(self) -> dict[str, Any]:
        return {
            "relation": "linked_from" if self.outgoing else "links_to",
            "note": self.note,
            "path": self.path,
        }


@dataclass(frozen=True)
class Candidate:
    store_id: str
    store_name: str
    source: Source
    label: int
    chunk: Chunk
    path: str
    fused: float
    dense_rank: int | None
    dense_score: float | None
    lexical_rank: int | None
    lexical_score: float | None
    #: share of the query's content terms in the chunk; None without a lexical match
    coverage: float | None = None
    #: relevance from 0 to 1, on the scale of the store's floor (:mod:`kortty_rag.retrieval.relevance`)
    relevance: float = 0.0
    #: how a link brought it in or raised it (:mod:`kortty_rag.retrieval.graph`), and by how much
    linked: LinkReason | None = None
    graph_bonus: float = 0.0

    @property
    def document(self) -> tuple[str, str, str]:
        """The document this excerpt belongs to: every page of a PDF is the same document."""
        return (self.store_id, self.source.id, self.chunk.rel_path)

    @property
    def tokens(self) -> int:
        """Estimated tokens of this excerpt as rendered in the block (computed when first needed)."""
        cached = self.__dict__.get("_tokens")
        if cached is None:
            rendered = render_excerpt(BlockExcerpt("R00", self.location, self.chunk.text))
            cached = estimate_tokens(rendered) + 1
            object.__setattr__(self, "_tokens", cached)
        return int(cached)

    @property
    def location(self) -> str:
        """Where the excerpt is: path, heading path of its section, PDF page
        (``notes/backup.md § Keys / Rotation``, ``manual.pdf, page 7``, ``talk.pptx § Results,
        slide 4``)."""
        where = self.path
        if self.chunk.heading:
            where += LOCATION_SEPARATOR + self.chunk.heading
        if self.chunk.page is None:
            return where
        if has_slides(self.chunk.rel_path):
            return msg("{location}, slide {page}", location=where, page=self.chunk.page)
        return msg("{location}, page {page}", location=where, page=self.chunk.page)

    def scores_json(self) -> dict[str, Any]:
        return {
            "relevance": round(self.relevance, 6),
            "fused": round(self.fused, 6),
            "dense_rank": self.dense_rank,
            "dense_score": None if self.dense_score is None else round(self.dense_score, 6),
            "lexical_rank": self.lexical_rank,
            "lexical_score": None if self.lexical_score is None else round(self.lexical_score, 6),
            "coverage": None if self.coverage is None else round(self.coverage, 6),
            "graph_bonus": round(self.graph_bonus, 6),
        }

    def to_json(self) -> dict[str, Any]:
        """``path`` is the file's path as it is (JSON-escaped); ``location`` is the neutralised form
        the context block shows (path and page)."""
        return {
            "store": self.store_name,
            "path": self.path,
            "location": neutralise_location(self.location),
            "page": self.chunk.page,
            "chunk_id": self.chunk.chunk_id,
            "tokens": self.tokens,
            "scores": self.scores_json(),
            "linked": None if self.linked is None else self.linked.to_json(),
        }


@dataclass(frozen=True)
class Excerpt:
    marker: str
    candidate: Candidate

    @property
    def path(self) -> str:
        return self.candidate.path

    @property
    def page(self) -> int | None:
        return self.candidate.chunk.page

    @property
    def chunk(self) -> Chunk:
        return self.candidate.chunk

    def location(self) -> str:
        return self.candidate.location

    def to_json(self, *, raw_text: bool = False) -> dict[str, Any]:
        """``text`` is the excerpt exactly as the context block gives it to a model (neutralised: safe
        to hand to an agent); with ``raw_text`` also the text as extracted and stored, unneutralised."""
        rendered = render_excerpt(BlockExcerpt(self.marker, self.location(), self.chunk.text))
        text = {"text": rendered.partition("\n")[2]}  # the block's text, below the source line
        if raw_text:
            text["raw_text"] = self.chunk.text
        return {"marker": self.marker} | text | self.candidate.to_json()


@dataclass(frozen=True)
class Dropped:
    candidate: Candidate
    reason: str

    def to_json(self) -> dict[str, Any]:
        return self.candidate.to_json() | {"reason": self.reason}


@dataclass(frozen=True)
class RetrievalResult:
    query: str
    excerpts: tuple[Excerpt, ...]
    dropped: tuple[Dropped, ...]
    budget_tokens: int
    used_tokens: int
    block: str
    stores: tuple[str, ...]
    #: the relevance floor that applied, per store
    relevance: tuple[RelevanceFloor, ...] = ()
    #: why there are no excerpts (:data:`NO_MATCHES`, :data:`NOTHING_RELEVANT`, :data:`NOTHING_FITS`)
    note: str = ""

    @property
    def nothing_relevant(self) -> bool:
        """Candidates existed, but none was relevant enough: nothing goes into a prompt."""
        return self.note == NOTHING_RELEVANT

    @property
    def weakness(self) -> Weakness:
        """Whether the excerpts look weak (:class:`Weakness`): none, nothing relevant, or only
        loose matches (no exact word match and a best dense similarity below
        :data:`WEAK_DENSE_SCORE`)."""
        if self.nothing_relevant:
            return Weakness.NOTHING_RELEVANT
        if not self.excerpts:
            return Weakness.NO_EXCERPTS
        candidates = [e.candidate for e in self.excerpts]
        if any(c.lexical_rank is not None for c in candidates):
            return Weakness.NONE
        best = max((c.dense_score for c in candidates if c.dense_score is not None), default=None)
        return Weakness.LOOSE if best is None or best < WEAK_DENSE_SCORE else Weakness.NONE

    def to_json(self, *, raw_text: bool = False) -> dict[str, Any]:
        """The result for machines; ``raw_text`` adds each excerpt's unneutralised text."""
        return {
            "query": self.query,
            "stores": list(self.stores),
            "budget_tokens": self.budget_tokens,
            "used_tokens": self.used_tokens,
            "relevance": [f.to_json() for f in self.relevance],
            "excerpts": [e.to_json(raw_text=raw_text) for e in self.excerpts],
            "dropped": [d.to_json() for d in self.dropped],
            "block": self.block,
            "note": self.note or None,
            "weakness": self.weakness.value,
        }


def document_path(source: Source, rel_path: str) -> str:
    """Where a document of ``source`` lives on disk (what citations show)."""
    return source.path if source.kind is SourceKind.FILE else str(Path(source.path) / rel_path)
