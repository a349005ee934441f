"""``kortty-rag import kortty [--from DIR]``: korTTY's (Java) knowledge stores as kortty-rag stores
(docs/DESIGN.md §14).

korTTY's registry and index files are only read. Each local korTTY store becomes a new store here with
the same sources, sync modes and include/exclude rules (``recursive: false`` becomes the exclude
pattern ``/*/``). Its vectors are kept only when they are exactly what this machine would compute:
an installed model whose id or name is korTTY's ``embeddingModelId``, with mean pooling (what korTTY
always uses), no document prefix (korTTY embeds the bare chunk text) and the same dimensions. Then
korTTY's chunks and vectors become the first snapshot, unchanged, and a refresh later re-indexes only
files that changed. Otherwise — another model, or an index that cannot be read — the sources are
indexed again with the model chosen here. Qdrant stores of korTTY are not imported (their points
follow another layout); a store imported before (recorded in its settings) is not imported twice.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kortty_rag.app.import_scope import Admission, admit
from kortty_rag.config.registry import StoreRegistry, validate_name
from kortty_rag.embedding.installed import InstalledModel, list_models
from kortty_rag.errors import KorttyRagError, NotFoundError, UsageError
from kortty_rag.extract.formats import detect_format
from kortty_rag.index.chunkdb import NewChunk
from kortty_rag.index.local import LocalStore
from kortty_rag.kortty_files.hnsw import KorttyChunk, KorttySnapshot, read_korthns
from kortty_rag.kortty_files.registry import (
    SNAPSHOT_FILE,
    KorttySource,
    KorttyStore,
    read_kortty_registry,
)
from kortty_rag.messages import Message, msg
from kortty_rag.models import (
    MAX_MAX_FILE_SIZE,
    MIN_MAX_FILE_SIZE,
    Document,
    EmbeddingIdentity,
    Source,
    SourceCounts,
    SourceKind,
    SourceOptions,
    SourceStatus,
    Store,
    StoreRoles,
    SyncMode,
)
from kortty_rag.remedies import Operation, place
from kortty_rag.retrieval.context import estimate_tokens
from kortty_rag.sources.selection import new_source_id

#: where a store records that it came from korTTY (``store.json`` settings; other keys are kept)
ORIGIN = "imported_from"
#: korTTY's pooling, always
KORTTY_POOLING = "mean"


@dataclass
class KorttyOutcome:
    """What happened to one korTTY store."""

    kortty_id: str
    kortty_name: str
    store: Store | None = None
    #: chunks whose korTTY vectors were kept
    reused: int = 0
    #: the sources must be (or were) indexed again here
    reindex: bool = False
    skipped: str = ""
    notes: list[str] = field(default_factory=list)
    #: sources refused, opt-ins switched off, sources waiting for a review (docs/DESIGN.md §14)
    admission: Admission | None = None
    #: the store's sources were reviewed and indexed here right after the import
    indexed: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "kortty_id": self.kortty_id,
            "kortty_name": self.kortty_name,
            "store": self.store.name if self.store else None,
            "reused_chunks": self.reused,
            "reindex": self.reindex,
            "indexed": self.indexed,
            "skipped": self.skipped,
            "notes": list(self.notes),
            **(self.admission.to_json() if self.admission else {}),
        }


def matching_model(store: KorttyStore, models: list[InstalledModel]) -> InstalledModel | None:
    """The installed model that computes exactly korTTY's vectors, if there is one."""
    wanted = store.model_id.strip().lower()
    for model in models:
        identity = model.identity()
        if (
            wanted
            and wanted in (model.id.lower(), model.name.lower())
            and identity.pooling == KORTTY_POOLING
            and identity.document_prefix == ""
            and identity.dimensions == store.dimensions
        ):
            return model
    return None


def _options(source: KorttySource) -> SourceOptions:
    exclude = list(source.exclude)
    if source.folder and not source.recursive:
        exclude.append("/*/")  # korTTY scanned only the folder itself
    size = source.max_file_bytes
    if size is not None:
        size = min(max(size, MIN_MAX_FILE_SIZE), MAX_MAX_FILE_SIZE)
    return SourceOptions(
        include=tuple(source.include),
        exclude=tuple(exclude),
        respect_gitignore=source.respect_gitignore,
        **({"max_file_size": size} if size is not None else {}),
    )


def _inside(inner: str, outer: str) -> bool:
    return inner == outer or inner.startswith(outer.rstrip("/") + "/")


def _sources(store: KorttyStore, outcome: KorttyOutcome) -> dict[str, Source]:
    """korTTY source id → the new source (absolute paths only, no overlaps between folders)."""
    kept: dict[str, Source] = {}
    for source in store.sources:
        if source.id in kept:
            outcome.notes.append(
                msg(
                    "source {path} left out: korTTY's registry gives its id {id!r} to another "
                    "source too",
                    path=source.path,
                    id=source.id,
                )
            )
            continue
        path = os.path.normpath(source.path)
        if not os.path.isabs(path):
            outcome.notes.append(
                msg("source {path!r} left out: its path is not absolute", path=source.path)
            )
            continue
        clash = next(
            (
                s
                for s in kept.values()
                if s.kind is SourceKind.FOLDER
                and (_inside(path, s.path) or (source.folder and _inside(s.path, path)))
            ),
            None,
        )
        if clash is not None:
            outcome.notes.append(
                msg("source {path} left out: it overlaps {other}", path=path, other=clash.path)
            )
            continue
        try:
            options = _options(source)
        except ValueError as exc:
            outcome.notes.append(
                msg("source {path} left out: {reason}", path=path, reason=_said(exc))
            )
            continue
        kept[source.id] = Source(
            id=new_source_id(),
            path=path,
            kind=SourceKind.FOLDER if source.folder else SourceKind.FILE,
            sync_mode=SyncMode.AUTO if source.automatic else SyncMode.MANUAL,
            enabled=source.enabled,
            options=options,
        )
    return kept


def _said(exc: BaseException) -> str:
    """What ``exc`` says: the message it was raised with, still translatable when it was one."""
    if len(exc.args) == 1 and isinstance(exc.args[0], Message):
        return exc.args[0]
    return str(exc)


def _free_name(registry: StoreRegistry, name: str) -> str:
    """korTTY's display name as a store name here (characters a name cannot hold become "-"),
    with "korTTY" (and a number) added when it is taken: an existing store is never touched."""
    taken = {s.name.lower() for s in registry.list()} | {d.name.lower() for d in registry.damaged()}
    base = re.sub(r"[^\w .@+-]", "-", name.strip())[:50].strip() or "korTTY"
    if not re.match(r"\w", base):
        base = f"korTTY {base}"[:50]
    for candidate in (base, f"{base} korTTY", *(f"{base} korTTY {n}" for n in range(2, 1000))):
        if candidate.lower() not in taken:
            return validate_name(candidate)
    raise UsageError(msg("No free name for the korTTY store {name!r}", name=name))


def _already(registry: StoreRegistry, kortty_id: str) -> Store | None:
    for store in registry.list():
        origin = store.settings.get(ORIGIN)
        if isinstance(origin, dict) and origin.get("kortty_store_id") == kortty_id:
            return store
    return None


def _chunk_id(source_id: str, chunk: KorttyChunk) -> str:
    # unique within a store: the reader refuses an index holding two chunks of a document at the
    # same page and offsets, or a document path with a NUL, and each korTTY source gets its own id
    key = f"{source_id}\0{chunk.document_path}\0{chunk.document_hash}\0{chunk.page}\0{chunk.start}\0{chunk.end}"
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _documents(
    snapshot: KorttySnapshot, sources: dict[str, Source]
) -> Iterator[tuple[Document, list[NewChunk], np.ndarray]]:
    """korTTY's chunks as documents of the new sources, one document at a time, with its rows of
    ``snapshot.vectors``: only that document's chunks are decoded, each straight into a chunk here."""
    for all_rows in snapshot.documents():
        first = snapshot.chunk(all_rows[0], text=False)
        root = sources.get(first.source_id)
        taken = _document_chunks(snapshot, root, all_rows) if root is not None else None
        if root is None or taken is None:
            continue
        rows, new, document_hash = taken
        rel_path = first.document_path
        pages = [c.page for c in new if c.page is not None]
        full = root.path if root.kind is SourceKind.FILE else os.path.join(root.path, rel_path)
        try:
            size = os.stat(full).st_size
        except OSError:
            size = 0
        document = Document(
            root.id,
            rel_path,
            document_hash,
            size,
            detect_format(rel_path) or "text",
            len(new),
            max(pages) if pages else None,
        )
        yield document, new, rows


def _document_chunks(
    snapshot: KorttySnapshot, root: Source, all_rows: np.ndarray
) -> tuple[np.ndarray, list[NewChunk], str] | None:
    """The rows, chunks and content hash of one document's chunks that hold text; ``None`` when
    there are none, or when they disagree about the document's content (it is indexed again)."""
    rows: list[int] = []
    new: list[NewChunk] = []
    document_hash: str | None = None
    for row in all_rows:
        chunk = snapshot.chunk(row)
        if not chunk.text or chunk.text.isspace():  # as ``not text.strip()``, without a copy
            continue
        if document_hash is None:
            document_hash = chunk.document_hash
        elif chunk.document_hash != document_hash:
            return None
        rows.append(int(row))
        new.append(
            NewChunk(
                0,
                _chunk_id(root.id, chunk),
                chunk.page,
                chunk.start,
                chunk.end,
                estimate_tokens(chunk.text),
                chunk.text,
            )
        )
    if document_hash is None:
        return None
    return np.array(rows, dtype=np.int64), new, document_hash


def import_kortty(
    registry: StoreRegistry, home: Path, *, model_id: str | None = None
) -> list[KorttyOutcome]:
    """Import every store of korTTY's registry in ``home`` (korTTY's data folder). ``model_id``: the
    model for stores whose korTTY vectors cannot be kept (default: the starter model, else the only
    model installed). Nothing is read from the sources here: they wait for a person's review
    (:mod:`kortty_rag.app.import_scope`), which the caller may offer at once."""
    _, stores = read_kortty_registry(home)
    models = list_models()
    outcomes = []
    for kortty in stores:
        outcome = KorttyOutcome(kortty.id, kortty.display_name)
        outcomes.append(outcome)
        if not kortty.local:
            outcome.skipped = msg(
                "a Qdrant store: its points follow korTTY's layout; create a Qdrant store here "
                "({how}) and add the same sources",
                how=place(Operation.STORE_CREATE_QDRANT),
            )
            continue
        previous = _already(registry, kortty.id)
        if previous is not None:
            outcome.skipped = msg("imported before, as {store!r}", store=previous.name)
            continue
        try:
            _import_one(registry, home, kortty, outcome, models=models, model_id=model_id)
        except KorttyRagError as exc:
            outcome.skipped = exc.message
            continue
    return outcomes


def _fallback_model(models: list[InstalledModel], model_id: str | None) -> InstalledModel:
    if model_id:
        for model in models:
            if model_id in (model.id, model.name):
                return model
        raise NotFoundError(msg("No installed embedding model {model!r}", model=model_id))
    from kortty_rag.embedding.catalog import STARTER_ID

    starter = [m for m in models if m.id == STARTER_ID]
    if starter or len(models) == 1:
        return (starter or models)[0]
    raise UsageError(
        msg(
            "korTTY's vectors cannot be kept and no model was chosen for indexing its sources again"
        ),
        hint=msg(
            "Install one with {install}, or name the one to use: {choose}.",
            install=place(Operation.MODELS_INSTALL_STARTER),
            choose=place(Operation.KORTTY_MODEL),
        ),
    )


def _import_one(
    registry: StoreRegistry,
    home: Path,
    kortty: KorttyStore,
    outcome: KorttyOutcome,
    *,
    models: list[InstalledModel],
    model_id: str | None,
) -> None:
    proposed = _sources(kortty, outcome)
    # korTTY's registry is a file anyone may have edited: its sources are proposals (§14)
    admission = admit(
        list(proposed.values()),
        StoreRoles(text=kortty.text, coding=kortty.coding, autonomous=kortty.autonomous),
    )
    admitted = {s.id: s for s in admission.sources}
    sources = {key: admitted[s.id] for key, s in proposed.items() if s.id in admitted}
    outcome.admission = admission
    same = matching_model(kortty, models)
    snapshot: KorttySnapshot | None = None
    if same is not None:
        snapshot = _read_snapshot(home, kortty, outcome)
        if snapshot is not None and (
            snapshot.model_id != kortty.model_id or snapshot.dimensions != kortty.dimensions
        ):
            outcome.notes.append(msg("korTTY's index names another model than its store; not used"))
            snapshot = None
    else:
        outcome.notes.append(
            msg(
                "no model installed here computes korTTY's vectors ({model}, {dimensions} "
                "dimensions, mean pooling): the sources are indexed again",
                model=kortty.model_id or msg("no model"),
                dimensions=kortty.dimensions,
            )
        )
    model = same if snapshot is not None and same is not None else _fallback_model(models, model_id)
    identity: EmbeddingIdentity = model.identity()
    store = registry.create(
        _free_name(registry, kortty.display_name),
        identity,
        roles=admission.roles,
        settings={ORIGIN: {"application": "korTTY", "kortty_store_id": kortty.id}},
    )
    try:
        store = registry.update(store.id, lambda s: s.evolve(sources=tuple(sources.values())))
        if snapshot is not None:
            outcome.reused = _build(registry, store, snapshot, sources)
            store = registry.get(store.id)
        else:
            outcome.reindex = True
    except BaseException:
        registry.delete(store)
        raise
    outcome.store = store
    outcome.notes.extend(admission.notes(store.name, waiting=False))  # the front end says it


def _read_snapshot(
    home: Path, kortty: KorttyStore, outcome: KorttyOutcome
) -> KorttySnapshot | None:
    folder = Path(kortty.local_directory) if kortty.local_directory else None
    if folder is None or not folder.is_absolute():
        outcome.notes.append(
            msg("korTTY's store names no index folder: the sources are indexed again")
        )
        return None
    path = folder / SNAPSHOT_FILE
    if not path.is_file():
        outcome.notes.append(
            msg("korTTY has no index at {path} yet: the sources are indexed", path=path)
        )
        return None
    try:
        return read_korthns(path)
    except KorttyRagError as exc:
        outcome.notes.append(msg("{reason}; the sources are indexed again", reason=exc.message))
        return None


def _build(
    registry: StoreRegistry, store: Store, snapshot: KorttySnapshot, sources: dict[str, Source]
) -> int:
    """korTTY's chunks and vectors as the store's first snapshot; the sources' counts recorded."""
    vectors = LocalStore(registry.folder(store), store.embedding)
    per_source: dict[str, tuple[int, int]] = {}  # files, chunks
    try:
        update = vectors.begin()
        try:
            for document, chunks, rows in _documents(snapshot, sources):
                update.add_document(document, chunks, snapshot.vectors[rows])
                files, count = per_source.get(document.source_id, (0, 0))
                per_source[document.source_id] = (files + 1, count + len(chunks))
            update.commit()
        except BaseException:
            update.abort()
            raise
    finally:
        vectors.close()

    def record(current: Store) -> Store:
        for source in current.sources:
            files, chunks = per_source.get(source.id, (0, 0))
            current = current.with_source(
                source.evolve(
                    status=SourceStatus.READY if files else SourceStatus.PENDING,
                    counts=SourceCounts(files=files, chunks=chunks),
                )
            )
        return current

    registry.update(store.id, record)
    return sum(chunks for _, chunks in per_source.values())
