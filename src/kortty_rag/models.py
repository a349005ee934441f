"""The product's vocabulary as frozen dataclasses: stores, sources, documents, chunks, hits.

Everything here is plain data with JSON round-trips; behaviour lives in the modules that own it.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field, replace
from enum import Enum, StrEnum
from typing import Any

from kortty_rag import languages
from kortty_rag.decoding import CHECK, MAX, MIN, FieldError, decode, exception_text, join
from kortty_rag.errors import UsageError
from kortty_rag.messages import msg

MiB = 1024 * 1024
GiB = 1024 * MiB

DEFAULT_MAX_FILE_SIZE = 50 * MiB
MIN_MAX_FILE_SIZE = 1 * MiB
MAX_MAX_FILE_SIZE = 1 * GiB
#: quiet time after a file-system event before an auto source is refreshed (seconds)
DEFAULT_DEBOUNCE_SECONDS = 2.0


class StoreType(StrEnum):
    LOCAL = "local"
    QDRANT = "qdrant"


class SourceKind(StrEnum):
    FILE = "file"
    FOLDER = "folder"


class SyncMode(StrEnum):
    AUTO = "auto"
    MANUAL = "manual"


class SourceStatus(StrEnum):
    """What the source table shows. ``MISSING`` and ``ERROR`` carry a reason (docs/DESIGN.md §8)."""

    PENDING = "PENDING"  # configured, never indexed successfully
    READY = "READY"
    MISSING = "MISSING"
    ERROR = "ERROR"


class FileStatus(StrEnum):
    """Status of one row of the review table (docs/DESIGN.md §5)."""

    INDEX = "index"
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"


class Role(StrEnum):
    TEXT = "Text"
    CODING = "Coding"


class FusionMethod(StrEnum):
    """How the dense and the lexical ranking are fused (:mod:`kortty_rag.retrieval.fusion`)."""

    RRF = "rrf"
    CONVEX = "convex"


class RelevanceLevel(StrEnum):
    """How much evidence of relevance an excerpt needs to enter the context block
    (:mod:`kortty_rag.retrieval.relevance`); ``off`` admits every candidate."""

    OFF = "off"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


@dataclass(frozen=True)
class EmbeddingIdentity:
    """Everything that makes two vectors comparable. A snapshot is bound to exactly one identity."""

    model_id: str
    model_sha256: str
    dimensions: int = field(metadata={MIN: 1})
    pooling: str
    query_prefix: str
    document_prefix: str
    chunk_tokens: int = field(metadata={MIN: 1})
    overlap_tokens: int = field(metadata={MIN: 0})

    def to_json(self) -> dict[str, Any]:
        return {
            "model_id": self.model_id,
            "model_sha256": self.model_sha256,
            "dimensions": self.dimensions,
            "pooling": self.pooling,
            "query_prefix": self.query_prefix,
            "document_prefix": self.document_prefix,
            "chunk_tokens": self.chunk_tokens,
            "overlap_tokens": self.overlap_tokens,
        }

    @classmethod
    def from_json(cls, data: object, path: str = "") -> EmbeddingIdentity:
        return decode(cls, data, path)

    def differences(self, other: EmbeddingIdentity) -> list[str]:
        """Names of the fields that differ (empty when the two are compatible)."""
        mine, theirs = self.to_json(), other.to_json()
        return [key for key in mine if mine[key] != theirs[key]]


@dataclass(frozen=True)
class SourceOptions:
    """The Advanced options of a source (docs/DESIGN.md §6, §7)."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    max_file_size: int = field(
        default=DEFAULT_MAX_FILE_SIZE, metadata={MIN: MIN_MAX_FILE_SIZE, MAX: MAX_MAX_FILE_SIZE}
    )

    def to_json(self) -> dict[str, Any]:
        return {
            "include": list(self.include),
            "exclude": list(self.exclude),
            "respect_gitignore": self.respect_gitignore,
            "max_file_size": self.max_file_size,
        }

    @classmethod
    def from_json(cls, data: object, path: str = "") -> SourceOptions:
        return decode(cls, data, path)


@dataclass(frozen=True)
class SourceCounts:
    """A source's indexed files and chunks, the files a rule skipped (hidden, ignored, excluded,
    unsupported, empty, too large) and its issues (files that could not be read or extracted)."""

    files: int = field(default=0, metadata={MIN: 0})
    chunks: int = field(default=0, metadata={MIN: 0})
    issues: int = field(default=0, metadata={MIN: 0})
    skipped: int = field(default=0, metadata={MIN: 0})

    def to_json(self) -> dict[str, int]:
        return {
            "files": self.files,
            "chunks": self.chunks,
            "issues": self.issues,
            "skipped": self.skipped,
        }

    @classmethod
    def from_json(cls, data: object, path: str = "") -> SourceCounts:
        return decode(cls, data, path)


def _absolute_path(value: str) -> str | None:
    return None if os.path.isabs(value) else msg("must be an absolute path")


@dataclass(frozen=True)
class Source:
    """A configured file or folder of a store, with its persisted state.

    ``real_path`` is the root's fully resolved path when it was added (no component of ``path`` may be
    a symbolic link then, so it equals ``path``); a refresh refuses the root when its resolved path is
    no longer this one. ``None`` for a source saved by an older version: its first successful refresh
    records the path it resolves to then.
    """

    id: str
    path: str = field(metadata={CHECK: _absolute_path})
    kind: SourceKind
    sync_mode: SyncMode = SyncMode.MANUAL
    enabled: bool = True
    options: SourceOptions = field(default_factory=SourceOptions)
    status: SourceStatus = SourceStatus.PENDING
    status_reason: str = ""
    counts: SourceCounts = field(default_factory=SourceCounts)
    last_indexed_at: str | None = None
    limited_watching: bool = False
    real_path: str | None = field(default=None, metadata={CHECK: _absolute_path})
    #: arrived with an imported store (an archive, korTTY): a proposal, not consent. Nothing is
    #: read from it — no scan, no watching, no automatic or agent refresh — until a person confirms
    #: its review on this machine; a review applied with the root READY clears it (docs/DESIGN.md
    #: §14). Its chunks from the import still serve.
    needs_review: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "path": self.path,
            "kind": self.kind.value,
            "sync_mode": self.sync_mode.value,
            "enabled": self.enabled,
            "options": self.options.to_json(),
            "status": self.status.value,
            "status_reason": self.status_reason,
            "counts": self.counts.to_json(),
            "last_indexed_at": self.last_indexed_at,
            "limited_watching": self.limited_watching,
            "real_path": self.real_path,
            "needs_review": self.needs_review,
        }

    @classmethod
    def from_json(cls, data: object, path: str = "") -> Source:
        return decode(cls, data, path)

    def evolve(self, **changes: Any) -> Source:
        return replace(self, **changes)


@dataclass(frozen=True)
class StoreRoles:
    """Which roles a store serves, plus the separate opt-ins for autonomous flows and for other AI
    tools over MCP.

    ``mcp_roots`` are the real paths of roots an MCP client may add although the usual rules refuse
    them (hidden, outside the home folder, reached through a symbolic link); only the user sets them.
    """

    text: bool = True
    coding: bool = False
    autonomous: bool = False
    mcp: bool = False
    mcp_roots: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "coding": self.coding,
            "autonomous": self.autonomous,
            "mcp": self.mcp,
            "mcp_roots": list(self.mcp_roots),
        }

    @classmethod
    def from_json(cls, data: object, path: str = "") -> StoreRoles:
        return decode(cls, data, path)

    def serves(self, role: Role) -> bool:
        return self.text if role is Role.TEXT else self.coding


@dataclass(frozen=True)
class RetrievalSettings:
    """``settings.retrieval`` of a store: the hybrid ranking's switches and fusion, the minimum
    relevance an excerpt needs, and the language of the lexical index (README, "Retrieval and the
    context block")."""

    dense: bool = True
    lexical: bool = True
    #: chosen on the SciFact dev split by ``benchmarks/beir_eval.py --sweep`` (README)
    fusion: FusionMethod = FusionMethod.CONVEX
    dense_weight: float = field(default=0.8, metadata={MIN: 0.0, MAX: 1.0})
    rrf_k: int = field(default=60, metadata={MIN: 1})
    min_relevance: RelevanceLevel = RelevanceLevel.LOW
    #: ``auto`` (detected once from the text), ``none`` or a code (:mod:`kortty_rag.languages`)
    language: str = field(default=languages.AUTO, metadata={CHECK: languages.check})
    #: expand the best hits along note links (:mod:`kortty_rag.retrieval.graph`); on, because
    #: ``benchmarks/links_eval.py`` measured it helping questions that need a linked note and
    #: keeping what reaches the block for those that do not (README, "Links between notes")
    graph: bool = True

    def __post_init__(self) -> None:
        if not (self.dense or self.lexical):
            raise ValueError(BOTH_PARTS_OFF)


BOTH_PARTS_OFF = msg("A store needs at least one of the dense and lexical parts")


@dataclass(frozen=True)
class QdrantSettings:
    """``settings.qdrant`` of a Qdrant store (the API key is in the keyring, never here)."""

    url: str = ""
    collection: str = ""


@dataclass(frozen=True)
class StoreSettings:
    """The known sections of ``Store.settings``, typed (:attr:`Store.options`); other keys are kept
    as they are. Only values set explicitly are written, so a default that changes reaches every
    store that never chose otherwise."""

    retrieval: RetrievalSettings = field(default_factory=RetrievalSettings)
    qdrant: QdrantSettings = field(default_factory=QdrantSettings)


@dataclass(frozen=True)
class Store:
    """A knowledge store definition (docs/DESIGN.md §2)."""

    id: str
    name: str
    type: StoreType
    embedding: EmbeddingIdentity
    roles: StoreRoles = field(default_factory=StoreRoles)
    sources: tuple[Source, ...] = ()
    created_at: str = ""
    settings: dict[str, Any] = field(default_factory=dict)

    def source(self, source_id: str) -> Source:
        for source in self.sources:
            if source.id == source_id:
                return source
        raise KeyError(source_id)

    def with_source(self, updated: Source) -> Store:
        """Replace the source with ``updated.id`` or append it."""
        sources = [updated if s.id == updated.id else s for s in self.sources]
        if not any(s.id == updated.id for s in self.sources):
            sources.append(updated)
        return replace(self, sources=tuple(sources))

    def without_source(self, source_id: str) -> Store:
        return replace(self, sources=tuple(s for s in self.sources if s.id != source_id))

    def evolve(self, **changes: Any) -> Store:
        return replace(self, **changes)

    @functools.cached_property
    def options(self) -> StoreSettings:
        """``settings`` read through :class:`StoreSettings`: typed, every default in one place
        (checked when the definition was read or changed, so this does not fail)."""
        return decode(StoreSettings, self.settings, "settings")

    @property
    def follows_links(self) -> bool:
        """Whether searches follow links between notes: chosen (``settings.retrieval.graph``) and
        possible (a local store; a Qdrant store keeps no link graph)."""
        return self.options.retrieval.graph and self.type is StoreType.LOCAL

    def with_retrieval(self, **changes: object) -> Store:
        """This store with ``settings.retrieval`` changed (enums or their values), checked exactly
        as a definition read back from disk, so nothing invalid is written: :class:`UsageError`."""
        retrieval = dict(self.settings.get("retrieval", {})) | {
            key: value.value if isinstance(value, Enum) else value for key, value in changes.items()
        }
        return self._with_section("retrieval", retrieval)

    def with_qdrant(self, url: str, collection: str) -> Store:
        """This store with its Qdrant service and collection (the key is in the keyring)."""
        return self._with_section("qdrant", {"url": url, "collection": collection})

    def _with_section(self, name: str, section: dict[str, Any]) -> Store:
        settings = self.settings | {name: section}
        try:
            decode(StoreSettings, settings, "settings")
        except FieldError as exc:
            cause = exc.__cause__
            problem = getattr(cause, "message", None) or (
                exception_text(cause) if cause else exc.problem
            )
            where = exc.field.removeprefix("settings.")
            raise UsageError(
                problem
                if cause
                else msg(
                    "The store setting {setting} {problem}", setting=where, problem=exc.problem
                )
            ) from None
        return replace(self, settings=settings)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "type": self.type.value,
            "embedding": self.embedding.to_json(),
            "roles": self.roles.to_json(),
            "sources": [s.to_json() for s in self.sources],
            "created_at": self.created_at,
            "settings": self.settings,
        }

    @classmethod
    def from_json(cls, data: object, path: str = "") -> Store:
        store = decode(cls, data, path)
        decode(StoreSettings, store.settings, join(path, "settings"))  # validated, kept as a dict
        return store


def leaves_its_source(rel_path: str) -> bool:
    """Whether ``rel_path`` (a document's path relative to its source root) could name anything but a
    file inside that root: empty, absolute, with a NUL, or with an empty, ``.`` or ``..`` part. A
    scan never makes such a path; an index from elsewhere (an archive, korTTY) might."""
    return (
        not rel_path
        or rel_path.startswith("/")
        or "\0" in rel_path
        or any(part in ("", ".", "..") for part in rel_path.split("/"))
    )


@dataclass(frozen=True)
class Document:
    """One indexed file as recorded in a snapshot; ``rel_path`` is relative to its source root."""

    source_id: str
    rel_path: str
    sha256: str
    size: int
    format: str
    chunk_count: int
    pages: int | None = None
    #: the version of the reader that read it (``extract.formats.READERS``); ``None`` where the
    #: store type does not record it (Qdrant)
    reader: int | None = None


@dataclass(frozen=True)
class ChunkSpan:
    """A deterministic window of a document's text (characters ``start``..``end`` of the page/file)."""

    text: str
    start: int
    end: int
    token_count: int
    page: int | None = None
    #: the heading path of the section the chunk is in (``"Keys / Rotation"``), or the document's
    #: title; embedded and indexed with the chunk, shown in its location ("" when there is none)
    heading: str = ""


#: between the parts of a heading path ("Keys / Rotation") and between a path and its heading path
#: in a location ("notes/backup.md § Keys / Rotation"): signs the context block's neutraliser leaves
#: as they are (angle quotes such as "›" read as brackets there and would be escaped)
HEADING_SEPARATOR = " / "
LOCATION_SEPARATOR = " § "


def with_heading(heading: str, text: str) -> str:
    """A chunk's text as embedded and indexed: its heading line first, when it has one."""
    return f"{heading}\n\n{text}" if heading else text


@dataclass(frozen=True)
class Chunk:
    """A chunk as stored in a snapshot, with its stable id and location."""

    chunk_id: str
    source_id: str
    rel_path: str
    page: int | None
    start: int
    end: int
    token_count: int
    text: str
    heading: str = ""

    def embedded_text(self) -> str:
        """What the embedding model and the lexical index see: the heading, then the text."""
        return with_heading(self.heading, self.text)


@dataclass(frozen=True)
class Hit:
    """A retrieved chunk with its score; ``label`` is the row in the vector index. A lexical hit may
    carry ``coverage``: the share of the query's distinct content terms that occur in the chunk."""

    label: int
    chunk: Chunk
    score: float
    #: lexical hits: the share of the query's terms found in the chunk (0..1; IDF-weighted for
    #: local stores), the relevance floor's lexical evidence
    coverage: float | None = None


@dataclass(frozen=True)
class LinkedChunk:
    """A chunk of a note linked from or to the note of a retrieved chunk (``seed``, its label):
    ``outgoing`` when the seed's note links to this one; ``note`` the seed note's title;
    ``anchored`` when the link names this chunk's heading (``[[Note#Heading]]``)."""

    seed: int
    label: int
    chunk: Chunk
    outgoing: bool
    note: str
    anchored: bool = False
