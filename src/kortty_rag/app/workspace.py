"""The application facade: every operation a front end offers on the stores of one ``KORTTY_HOME``
(docs/DESIGN.md, "Layers").

One :class:`Workspace` per front end — a CLI command, the desktop app's main window, the MCP server —
owns the store registry and the retrieval service. Each method is synchronous and complete: it takes
the store lock through a :class:`~kortty_rag.sync.session.StoreSession` where it changes vectors,
takes progress and cancel where it is long, and leaves the retrieval service consistent (a deleted
store's open vector store is released here, not by the caller). The front ends only ask, show and
confirm.

A review and its apply are two calls, each under the lock: between them a person reads the review,
and the store is not held while they do. The apply refuses a review the store moved on from
(docs/DESIGN.md §5, ``base_version``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from kortty_rag.app.auto_refresh import RefreshRequest, refresh_store
from kortty_rag.app.doctor import Doctor, DoctorReport, repair
from kortty_rag.app.judging import Judging
from kortty_rag.app.kortty_import import KorttyOutcome, import_kortty
from kortty_rag.app.mcp_scope import forget_allowed_root
from kortty_rag.app.model_library import ModelLibrary
from kortty_rag.app.qdrant_access import QdrantAccess
from kortty_rag.app.search_results import SearchRequest
from kortty_rag.app.store_archive import ExportResult, ImportResult, export_store, import_store
from kortty_rag.app.stores import QdrantTarget, create_store, discard_new_store
from kortty_rag.app.watching import DEFAULT_DEBOUNCE_SECONDS, DueCallback, Watching
from kortty_rag.config.registry import DamagedStore, DeletionReport, StoreRegistry, StoreSurvey
from kortty_rag.errors import KorttyRagError, UsageError
from kortty_rag.index.chunkdb import NoteReport
from kortty_rag.messages import msg
from kortty_rag.models import (
    EmbeddingIdentity,
    RelevanceLevel,
    Source,
    SourceOptions,
    Store,
    StoreRoles,
    StoreType,
    SyncMode,
)
from kortty_rag.progress import CancelToken, Progress
from kortty_rag.remedies import Operation, place
from kortty_rag.retrieval.relevance import RelevanceFloor, with_level
from kortty_rag.retrieval.search import RetrievalResult, RetrievalService
from kortty_rag.sources.review import ReviewRow, ReviewSummary
from kortty_rag.sources.scan import SCAN_MESSAGE
from kortty_rag.sync.pipeline import IndexSummary
from kortty_rag.sync.scan_reports import ScanReport, load_report
from kortty_rag.sync.session import PreparedReview, StoreSession
from kortty_rag.sync.source_records import find_source

__all__ = [
    "SCAN_MESSAGE",
    "DamagedStore",
    "IndexSummary",
    "PreparedReview",
    "RetrievalChange",
    "ReviewRow",
    "ReviewSummary",
    "Reviewed",
    "ScanReport",
    "Workspace",
    "find_source",
]


class Reviewed(NamedTuple):
    """A review and, when it was confirmed, what indexing it did."""

    review: PreparedReview
    summary: IndexSummary | None


def _always(review: PreparedReview) -> bool:
    return True


def _require_sources(store: Store) -> None:
    if not store.sources:
        raise UsageError(
            msg("Store {name!r} has no sources", name=store.name),
            hint=msg("Add a file or folder to it first."),
        )


@dataclass(frozen=True)
class RetrievalChange:
    """A store after its retrieval settings changed; ``reanalysed`` is the number of chunks its
    local lexical index analysed again for a new language (``None`` when the language stayed)."""

    store: Store
    reanalysed: int | None


class Workspace:
    """The stores under one ``KORTTY_HOME`` and what can be done to them."""

    def __init__(
        self,
        registry: StoreRegistry | None = None,
        retrieval: RetrievalService | None = None,
    ) -> None:
        self.registry = registry or StoreRegistry()
        self._retrieval = retrieval
        self._lock = threading.Lock()
        #: the embedding models installed here (app/model_library.py)
        self.models = ModelLibrary()
        #: Qdrant stores' service checks and API keys (app/qdrant_access.py)
        self.qdrant = QdrantAccess()
        #: the person's judged questions of each store (app/judging.py)
        self.judging = Judging(self.registry, self.search)

    @property
    def retrieval(self) -> RetrievalService:
        """Opened on the first search; keeps stores and embedders open between searches."""
        with self._lock:  # two first searches from two threads open one service
            if self._retrieval is None:
                self._retrieval = RetrievalService()
            return self._retrieval

    def close(self, *, wait: float = -1) -> bool:
        """Release the open stores once no search runs; with ``wait`` (seconds) give up after that
        long (``False``: a search still held them)."""
        if self._retrieval is not None:
            return self._retrieval.close(wait=wait)
        return True

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- stores ---------------------------------------------------------------------------------------

    def stores(self) -> list[Store]:
        """The usable stores, by name; :meth:`survey` also lists the damaged ones."""
        return self.registry.list()

    def survey(self) -> StoreSurvey:
        """Every store folder: the usable stores and the damaged ones with their errors."""
        return self.registry.survey()

    def store_folder(self, store: Store) -> Path:
        return self.registry.folder(store)

    def store(self, name_or_id: str) -> Store:
        return self.registry.get(name_or_id)

    def create_store(
        self,
        name: str,
        identity: EmbeddingIdentity,
        *,
        roles: StoreRoles | None = None,
        settings: dict[str, Any] | None = None,
        qdrant: QdrantTarget | None = None,
    ) -> Store:
        """A new store; a Qdrant store is connected before it counts as created (app.stores)."""
        return create_store(
            self.registry, name, identity, roles=roles, settings=settings, qdrant=qdrant
        )

    def discard_new_store(self, store: Store) -> None:
        """Take back a store created a moment ago that the person abandoned before it held anything
        (the create dialog cancelled while connecting, the first review rejected)."""
        self._forget(store.id)
        discard_new_store(self.registry, store)

    def delete_store(
        self,
        store: Store,
        *,
        keep_remote_vectors: bool = False,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> DeletionReport:
        """Delete a store's definition and index (Qdrant points first, unless kept); the source
        files are never touched."""
        with self._session(store, progress, cancel) as session:
            report = session.delete_store(keep_remote_vectors=keep_remote_vectors)
        self._forget(store.id)
        return report

    def rebuild_store(
        self,
        store: Store,
        identity: EmbeddingIdentity | None = None,
        *,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> IndexSummary:
        """Re-embed every source into a fresh snapshot (with ``identity``, another model, when
        given) and activate it; the old one serves until then."""
        with self._session(store, progress, cancel) as session:
            return session.rebuild(identity)

    def check_stores(self, names: Sequence[str] = ()) -> DoctorReport:
        """Check every store (or the ones named), read only: one finding per check, each with what
        to do (``kortty-rag doctor``, the app's *Check stores…*)."""
        return Doctor(self.registry, check_qdrant=self.qdrant.check).run(names)

    def repair_stores(self, report: DoctorReport) -> DoctorReport:
        """The safe repairs ``report`` offers (leftovers removed, a damaged pointer re-activated on
        the newest valid snapshot), then the stores checked again."""
        repaired = repair(report, self.registry)
        for finding in report.findings:  # a re-activated snapshot is not the one held open
            if finding.repair:
                with contextlib.suppress(KorttyRagError):
                    self._forget(self.registry.get(finding.store).id)
        return repaired

    def export_store(self, store: Store, target: Path) -> ExportResult:
        """Write a local store's definition and active snapshot to one archive (no API keys); safe
        while jobs run: what is copied is the snapshot that was active when it started."""
        return export_store(self.registry, store, target)

    def import_store(self, archive: Path, *, name: str | None = None) -> ImportResult:
        """A new store from an archive of :meth:`export_store`, every checksum verified; never over
        an existing store."""
        return import_store(self.registry, archive, name=name)

    def import_kortty(
        self,
        home: Path,
        *,
        model_id: str | None = None,
        confirm: Callable[[Store, PreparedReview], bool] | None = None,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> list[KorttyOutcome]:
        """korTTY's stores (its data folder ``home``) as new stores here; korTTY's files are only
        read. Their sources wait for a person's review (docs/DESIGN.md §14). With ``confirm`` each
        new store's sources are scanned at once and ``confirm(store, review)`` decides whether the
        review is applied: only a front end that shows the review to a person passes one."""
        outcomes = import_kortty(self.registry, home, model_id=model_id)
        if confirm is None:
            return outcomes
        for outcome in outcomes:
            store = outcome.store
            if store is None or not store.sources:
                continue
            reviewed = self.refresh_sources(
                store,
                include_unreviewed=True,  # ``confirm`` shows the review to a person
                confirm=functools.partial(confirm, store),
                progress=progress,
                cancel=cancel,
            )
            outcome.indexed = reviewed.summary is not None
            outcome.store = self.registry.get(store.id)
        return outcomes

    def set_roles(
        self,
        store: Store,
        *,
        text: bool | None = None,
        coding: bool | None = None,
        autonomous: bool | None = None,
        mcp: bool | None = None,
        allow_roots: Sequence[str] = (),
        forget_roots: Sequence[str | Path] = (),
    ) -> Store:
        """Change only the given role flags (another tool may have changed the others meanwhile);
        ``allow_roots`` (checked with :func:`~kortty_rag.app.mcp_scope.allowed_root`) are added to
        the folders MCP clients may add sources from, ``forget_roots`` taken away."""
        flags = {
            key: value
            for key, value in (
                ("text", text),
                ("coding", coding),
                ("autonomous", autonomous),
                ("mcp", mcp),
            )
            if value is not None
        }

        def change(current: Store) -> Store:
            roots = tuple(dict.fromkeys([*current.roles.mcp_roots, *allow_roots]))
            for path in forget_roots:
                roots = forget_allowed_root(roots, path)
            roles = dataclasses.replace(current.roles, **flags, mcp_roots=roots)
            return current.evolve(roles=roles)

        return self.registry.update(store.id, change)

    def set_retrieval(self, store: Store, **changes: object) -> RetrievalChange:
        """Change the store's retrieval settings, checked as a definition read back from disk. A
        new lexical language of a local store is applied to its index at once, under the store lock,
        so the setting and the index it asks for change together (nothing is embedded). Following
        links between notes needs a local store (a Qdrant store keeps no link graph)."""
        if changes.get("graph") and store.type is not StoreType.LOCAL:
            raise UsageError(
                msg("Store {name} keeps no links between notes (a Qdrant store)", name=store.name),
                hint=msg("Links between notes are followed in local stores."),
            )
        if "language" in changes and store.type is StoreType.LOCAL:
            with self._session(store, None, None) as session:
                changed = self.registry.update(store.id, lambda s: s.with_retrieval(**changes))
                return RetrievalChange(changed, session.reanalyse_lexical())
        changed = self.registry.update(store.id, lambda s: s.with_retrieval(**changes))
        return RetrievalChange(changed, None)

    def set_min_relevance(self, store: Store, level: RelevanceLevel) -> Store:
        return self.registry.update(store.id, lambda s: with_level(s, level))

    # -- sources --------------------------------------------------------------------------------------

    def review_add(
        self,
        store: Store,
        paths: Sequence[Path | str],
        *,
        options: SourceOptions | None = None,
        sync_mode: SyncMode = SyncMode.MANUAL,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> PreparedReview:
        """Scan new files and folders for the review: what would be indexed, what is skipped and
        why. Nothing changes until :meth:`apply`."""
        with self._session(store, progress, cancel) as session:
            return session.review_new_sources(paths, options=options, sync_mode=sync_mode)

    def review_refresh(
        self,
        store: Store,
        source_ids: Sequence[str] | None = None,
        *,
        include_unreviewed: bool = False,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> PreparedReview:
        """Scan the store's sources (or only ``source_ids``) again for the review of what changed.
        Sources that came with an import and were never reviewed here are scanned only with
        ``include_unreviewed``: pass it only when a person sees this review and confirms it."""
        _require_sources(store)
        with self._session(store, progress, cancel) as session:
            return session.review_refresh(source_ids, include_unreviewed=include_unreviewed)

    def apply(
        self,
        store: Store,
        review: PreparedReview,
        *,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> IndexSummary:
        """Index what a review found and activate it atomically; a failure or cancel before the
        activation leaves the previous snapshot serving."""
        with self._session(store, progress, cancel) as session:
            return session.apply(review)

    def add_sources(
        self,
        store: Store,
        paths: Sequence[Path | str],
        *,
        options: SourceOptions | None = None,
        sync_mode: SyncMode = SyncMode.MANUAL,
        confirm: Callable[[PreparedReview], bool] = _always,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> Reviewed:
        """Review new files and folders and, when ``confirm`` accepts the review, index them, all in
        one hold of the store lock: for front ends that ask synchronously (a terminal prompt) or
        whose call is the confirmation (an MCP tool, ``--yes``)."""
        with self._session(store, progress, cancel) as session:
            review = session.review_new_sources(paths, options=options, sync_mode=sync_mode)
            return Reviewed(review, session.apply(review) if confirm(review) else None)

    def refresh_sources(
        self,
        store: Store,
        source_ids: Sequence[str] | None = None,
        *,
        include_unreviewed: bool = False,
        confirm: Callable[[PreparedReview], bool] = _always,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> Reviewed:
        """:meth:`review_refresh`, then :meth:`apply` when ``confirm`` accepts, in one lock hold.
        ``include_unreviewed`` only when ``confirm`` asks a person (a terminal prompt, ``--yes``):
        an agent's call or an automatic refresh leaves sources waiting for a review alone."""
        _require_sources(store)
        with self._session(store, progress, cancel) as session:
            review = session.review_refresh(source_ids, include_unreviewed=include_unreviewed)
            return Reviewed(review, session.apply(review) if confirm(review) else None)

    def remove_source(
        self,
        store: Store,
        source: Source,
        *,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> int:
        """Remove a source and its chunks (never its files); returns the chunks removed."""
        with self._session(store, progress, cancel) as session:
            return session.remove_source(source.id)

    def move_source(
        self,
        store: Store,
        source: Source,
        new_path: Path | str,
        *,
        confirm: Callable[[PreparedReview], bool] = _always,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> Reviewed:
        """Review pointing a source whose folder moved at its new place and, when ``confirm``
        accepts, re-point and index it there in the same hold of the lock: unchanged documents keep
        their chunks and vectors, so nothing that did not change is embedded again. Unconfirmed,
        nothing changes; :meth:`apply` of the returned review moves it later."""
        with self._session(store, progress, cancel) as session:
            review = session.review_move(source.id, new_path)
            return Reviewed(review, session.apply(review) if confirm(review) else None)

    def scan_report(self, store: Store, source: Source) -> ScanReport | None:
        """What the source's last indexing skipped, and why (kept per source, across restarts)."""
        return load_report(store.id, source.id)

    def set_source_enabled(self, store: Store, source: Source, enabled: bool) -> Store:
        """A disabled source keeps its definition and chunks but is never retrieved."""
        store.source(source.id)
        return self.registry.update(
            store.id,
            lambda s: s.with_source(dataclasses.replace(s.source(source.id), enabled=enabled)),
        )

    def set_sync_mode(self, store: Store, source: Source, mode: SyncMode) -> Store:
        """``auto`` sources are watched and refreshed without a review; ``manual`` ones on request.
        A source that came with an import is switched to ``auto`` only once a person reviewed it."""
        store.source(source.id)

        def change(current: Store) -> Store:
            now = current.source(source.id)
            if mode is SyncMode.AUTO and now.needs_review:
                raise UsageError(
                    msg(
                        "{path} came with an imported store and was not reviewed on this "
                        "computer; automatic sync would read it without a review",
                        path=now.path,
                    ),
                    hint=msg(
                        "Review it first ({how}), then switch it to auto.",
                        how=place(Operation.SOURCE_REVIEW, store=current.name, path=now.path),
                    ),
                )
            return current.with_source(now.evolve(sync_mode=mode))

        return self.registry.update(store.id, change)

    # -- search ---------------------------------------------------------------------------------------

    def search(self, request: SearchRequest) -> RetrievalResult:
        """The bounded, cited context block for a request (its stores' enabled sources)."""
        return self.retrieval.search(
            request.query,
            request.stores,
            limits=request.limits,
            options=request.options,
            context_window=request.context_window,
        )

    def note_report(self, store: Store, limit: int = 200) -> NoteReport | None:
        """The store's notes and links as its served state holds them (``None``: a Qdrant store)."""
        return self.retrieval.resources(store, False)[0].note_report(limit)

    def relevance_floor(self, store: Store) -> RelevanceFloor:
        """The store's minimum relevance as it applies now: its level, with the floor calibrated on
        its active snapshot (docs/DESIGN.md §11)."""
        return self.retrieval.floor(store)

    # -- watching -------------------------------------------------------------------------------------

    def watch(
        self,
        on_due: DueCallback,
        *,
        stores: Sequence[Store] | None = None,
        debounce: float = DEFAULT_DEBOUNCE_SECONDS,
    ) -> Watching:
        """Watch the auto sources of ``stores`` (all stores when ``None``) and call ``on_due`` when
        some changed; the watching follows store changes of this process by itself. Call
        ``start()`` on the result, ``stop()`` when done."""
        return Watching(self.registry, on_due, stores=stores, debounce=debounce)

    def refresh_due(
        self, request: RefreshRequest, progress: Progress | None, cancel: CancelToken | None
    ) -> IndexSummary | None:
        """What a watcher asked for (app/auto_refresh.py); ``None``: nothing is left to do."""
        return refresh_store(self.registry, request, progress=progress, cancel=cancel)

    # -- internals ------------------------------------------------------------------------------------

    def _forget(self, store_id: str) -> None:
        """Release what the retrieval service holds open for a store that is gone."""
        if self._retrieval is not None:
            self._retrieval.forget(store_id)

    def _session(
        self, store: Store, progress: Progress | None, cancel: CancelToken | None
    ) -> StoreSession:
        return StoreSession(store, registry=self.registry, progress=progress, cancel=cancel)
