"""Store operations under the store lock: review (scan) and apply (index), refresh, rebuild, remove,
delete.

The application layer (:mod:`kortty_rag.app.workspace`) calls these for every front end. A session
holds the store's lock for its whole duration, so a second scan or indexing job on the same store —
from this process or another — fails at once with :class:`~kortty_rag.errors.StoreBusyError`. A
review can be applied later in another session: the apply step checks that the store did not change
in between.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from kortty_rag.config.registry import DeletionReport, StoreRegistry, now_iso
from kortty_rag.config.secrets import delete_api_key
from kortty_rag.embedding.base import Embedder
from kortty_rag.errors import (
    KorttyRagError,
    NotFoundError,
    RemovalIncompleteError,
    SourceError,
    UsageError,
)
from kortty_rag.extract.document import ExtractionCache
from kortty_rag.extract.pdf import PdfExtractor
from kortty_rag.index.base import VectorStore, known_hashes
from kortty_rag.index.early_publish import PartPublisher
from kortty_rag.index.factory import delete_remote_vectors, open_vector_store
from kortty_rag.index.local import LocalStore
from kortty_rag.index.lock import StoreLock
from kortty_rag.messages import msg
from kortty_rag.models import (
    EmbeddingIdentity,
    Source,
    SourceCounts,
    SourceKind,
    SourceOptions,
    SourceStatus,
    Store,
    StoreType,
    SyncMode,
)
from kortty_rag.progress import CancelToken, NullProgress, Progress
from kortty_rag.remedies import Operation, place, run
from kortty_rag.sources.review import ReviewReport, ReviewRow, RootState
from kortty_rag.sources.scan import ScanLimits, Scanner
from kortty_rag.sources.selection import file_source_index, select_sources
from kortty_rag.sync.estimates import counted_estimates
from kortty_rag.sync.pipeline import IndexSummary, run_index
from kortty_rag.sync.plan import ChangePlan
from kortty_rag.sync.review_scope import first_reviews, pinned
from kortty_rag.sync.scan_reports import delete_reports, save_report
from kortty_rag.sync.source_records import indexing_problems, source_after

#: what a job does while the embedding model loads (seconds, the first time in a process)
LOADING_MODEL = msg("Loading the embedding model…")
#: a new source whose first index is running, or stopped before it finished (a part kept)
FIRST_INDEX_UNFINISHED = msg("its first index has not finished; refresh it to index the rest")


@dataclass
class PreparedReview:
    """A finished scan waiting for confirmation."""

    store_id: str
    report: ReviewReport
    plan: ChangePlan
    new_sources: tuple[Source, ...]
    rejected: tuple[ReviewRow, ...] = ()
    cache: ExtractionCache = field(default_factory=ExtractionCache)
    #: sources waiting for a person's review (``needs_review``) that this scan left alone: it was not
    #: made for a person to confirm (an automatic refresh, an agent's call)
    held_back: tuple[Source, ...] = ()
    #: a source being moved (``source move``): the source at its new place, and its old path. The
    #: definition changes only when this review is applied (docs/DESIGN.md §8)
    moved: Source | None = None
    moved_from: str = ""

    @property
    def rows(self) -> list[ReviewRow]:
        return list(self.rejected) + self.report.rows

    @property
    def unreviewed(self) -> tuple[Source, ...]:
        """The sources of this review that no person has confirmed on this machine yet: applying
        it is that confirmation."""
        return tuple(s.source for s in self.report.sources if s.source.needs_review)

    @property
    def has_changes(self) -> bool:
        """Whether applying it changes the index or the sources: files to index or remove, new
        sources, a root that is missing or failed (its state is recorded), a move, or sources whose
        first review on this machine it is."""
        return self.changes_besides_move or self.moved is not None

    @property
    def changes_besides_move(self) -> bool:
        """:attr:`has_changes` without the move itself: what a person who already chose the new
        place still has to look at."""
        counts = self.report.summary()
        return bool(
            counts.to_index
            or counts.removed
            or self.new_sources
            or self.unreviewed
            or any(r.root_state is not RootState.OK for r in self.report.sources)
        )


#: how a snapshot error ends (index/snapshot_builder.py); a removal's error says it otherwise
_STILL_SERVED = "; the store still answers from its last completed index"


class StoreSession:
    """One store, held: its lock is taken for the session's whole life, so every scan, apply,
    removal and deletion in it sees the store as it read it (docs/DESIGN.md, "Threading")."""

    def __init__(
        self,
        store: Store,
        *,
        registry: StoreRegistry | None = None,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
        limits: ScanLimits | None = None,
    ) -> None:
        self.registry = registry or StoreRegistry()
        self.store = store
        self.progress = progress or NullProgress()
        self.cancel = cancel or CancelToken()
        self.limits = limits
        self.folder = self.registry.folder(store)
        self._lock = StoreLock(self.folder, purpose="scan/index", store_name=store.name)
        self._pdf = PdfExtractor()
        self._vectors: VectorStore | None = None

    def __enter__(self) -> StoreSession:
        self._lock.acquire()
        try:
            self.store = self.registry.reload(self.store)
        except BaseException:
            self._lock.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._pdf.close()
        if self._vectors is not None:
            self._vectors.close()
            self._vectors = None
        self._lock.release()

    @property
    def vectors(self) -> VectorStore:
        if self._vectors is None:
            self._vectors = open_vector_store(self.store)
        return self._vectors

    # -- review -------------------------------------------------------------------------------------

    def _scan(
        self,
        sources: Sequence[Source],
        new: tuple[Source, ...],
        rejected: tuple[ReviewRow, ...],
        vectors: VectorStore | None = None,
        *,
        configured: Sequence[Source] | None = None,
    ) -> PreparedReview:
        sources, refused = first_reviews(sources)
        vectors = vectors or self.vectors
        cache = ExtractionCache()
        documents = vectors.documents()
        version = vectors.version()
        configured = self.store.sources if configured is None else configured
        file_sources = file_source_index(list(configured) + list(new))
        scanner = Scanner(
            known=known_hashes(documents),
            file_sources=file_sources,
            limits=self.limits,
            pdf=self._pdf,
            cache=cache,
            progress=self.progress,
            cancel=self.cancel,
        )
        report = counted_estimates(
            scanner.scan(sources),
            self.store.embedding,
            pdf=self._pdf,
            cache=cache,
            cancel=self.cancel,
        )
        report = replace(report, sources=report.sources + refused)
        return PreparedReview(
            self.store.id, report, ChangePlan.from_review(report, version), new, rejected, cache
        )

    def review_new_sources(
        self,
        paths: Sequence[Path | str],
        *,
        options: SourceOptions | None = None,
        sync_mode: SyncMode = SyncMode.MANUAL,
    ) -> PreparedReview:
        selection = select_sources(self.store.sources, paths, options=options, sync_mode=sync_mode)
        return self._scan(selection.sources, selection.sources, selection.rejected)

    def review_refresh(
        self, source_ids: Sequence[str] | None = None, *, include_unreviewed: bool = False
    ) -> PreparedReview:
        """Scan the store's sources (or only ``source_ids``). A source that came with an imported
        store and waits for a person's review (``needs_review``) is scanned only with
        ``include_unreviewed``, which only a front end that shows the review to a person and asks
        them passes; otherwise it is left alone and listed in :attr:`PreparedReview.held_back`, and
        when every source asked for is such a one, nothing is scanned: :class:`UsageError`."""
        wanted = [s for s in self.store.sources if source_ids is None or s.id in source_ids]
        held = tuple(s for s in wanted if s.needs_review and not include_unreviewed)
        if held and len(held) == len(wanted):
            raise UsageError(
                msg(
                    "{path} came with an imported store and waits for the user's review; it is "
                    "not read before they confirm it",
                    path=held[0].path,
                ),
                hint=msg(
                    "Review it with {how}.",
                    how=place(Operation.SOURCE_REVIEW, store=self.store.name, path=held[0].path),
                ),
            )
        sources = [s for s in wanted if s not in held]
        return replace(self._scan(sources, (), ()), held_back=held)

    def review_move(self, source_id: str, new_path: Path | str) -> PreparedReview:
        """The review of pointing a source whose folder (or file) moved at its new place. Nothing
        changes until it is applied: then the source keeps its id, so every unchanged document is
        found where it was and keeps its chunks and vectors, and what a refresh removed while the
        root was missing comes back from the retired vectors (docs/DESIGN.md §8, §9). The new place
        is checked like a newly added source."""
        old = self.store.source(source_id)
        moved = self._moved(old, new_path)
        if moved is None:  # the same place: a refresh of it
            return self.review_refresh([source_id], include_unreviewed=True)
        configured = [moved if s.id == source_id else s for s in self.store.sources]
        review = self._scan([moved], (), (), configured=configured)
        return replace(review, moved=moved, moved_from=old.path)

    # -- apply --------------------------------------------------------------------------------------

    def apply(
        self,
        review: PreparedReview,
        embedder: Embedder | None = None,
        *,
        publish_early: bool = True,
    ) -> IndexSummary:
        """Index the reviewed content and activate it; then record the sources' new state.

        On a local store a long job makes what it finished searchable in parts while it runs
        (``publish_early``; docs/DESIGN.md §9): its new sources are configured from the start, so
        searches see them. If it fails, or is cancelled without keeping that part
        (:attr:`CancelToken.keep_published`), the store and its sources are as before."""
        if review.store_id != self.store.id:
            raise NotFoundError(msg("This review belongs to another store"))
        if review.moved is not None:
            self._check_move_still_open(review)
        if embedder is None and review.plan.adds:  # nothing to embed: no model needed
            from kortty_rag.embedding.loader import load_embedder

            self.progress.message(LOADING_MODEL)
            embedder = load_embedder(self.store.embedding)
        keep = {s.id for s in self.store.sources} | {s.id for s in review.new_sources}
        publisher = self._publisher(review) if publish_early else None
        if publisher is not None:
            self._configure_early(review)
        try:
            summary = run_index(
                pinned(review.plan),
                self.vectors,
                embedder,
                keep_sources=keep,
                pdf=self._pdf,
                cache=review.cache,
                progress=self.progress,
                cancel=self.cancel,
                publisher=publisher,
            )
        except BaseException:
            if publisher is not None:
                self._stopped_early(review)
            raise
        self._record(review, summary)
        return summary

    def _publisher(self, review: PreparedReview) -> PartPublisher | None:
        vectors = self.vectors
        if not isinstance(vectors, LocalStore) or not review.plan.adds or review.moved is not None:
            return None  # a move changes its source's path only at the end: no part before that
        return PartPublisher(vectors)

    def _configure_early(self, review: PreparedReview) -> None:
        """The new sources join the store before their first index, so what is published of them
        is searched; until it has finished they say so (and keep saying so if the job never ends)."""
        if not review.new_sources:
            return

        def add(store: Store) -> Store:
            for source in review.new_sources:
                store = store.with_source(
                    source.evolve(status=SourceStatus.PENDING, status_reason=FIRST_INDEX_UNFINISHED)
                )
            return store

        self.store = self.registry.update(self.store.id, add)

    def _stopped_early(self, review: PreparedReview) -> None:
        """After a job that failed or was cancelled: the new sources stay (with what was kept of
        them) only when the user kept the published part; otherwise they go again."""
        new_ids = {s.id for s in review.new_sources}
        kept = self.cancel.kept > 0
        documents = self.vectors.documents() if kept else []

        def change(store: Store) -> Store:
            for source in store.sources:
                if source.id not in new_ids:
                    continue
                if not kept:
                    store = store.without_source(source.id)
                    continue
                mine = [d for d in documents if d.source_id == source.id]
                counts = SourceCounts(files=len(mine), chunks=sum(d.chunk_count for d in mine))
                store = store.with_source(source.evolve(counts=counts))
            return store

        self.store = self.registry.update(self.store.id, change)

    def _record(self, review: PreparedReview, summary: IndexSummary) -> None:
        documents = self.vectors.documents()
        outcomes = {o.source_id: o for o in summary.sources}
        new_ids = {s.id for s in review.new_sources}
        planned = {p.source.id: p.source for p in review.plan.sources}
        moved = review.moved
        when = now_iso()

        def change(store: Store) -> Store:
            for source_id, outcome in outcomes.items():
                if source_id in new_ids:
                    base = planned[source_id]
                elif moved is not None and source_id == moved.id:
                    if outcome.status is SourceStatus.ERROR:
                        continue  # the new place failed: the source stays where it was
                    base = store.source(source_id).evolve(
                        path=moved.path, real_path=moved.real_path, status_reason=""
                    )
                else:
                    base = store.source(source_id)
                store = store.with_source(source_after(base, outcome, documents, when, store.name))
            return store

        self.store = self.registry.update(self.store.id, change)
        for source_review in review.report.sources:
            outcome = outcomes.get(source_review.source.id)
            if outcome is not None and outcome.status is SourceStatus.READY:
                rows = list(source_review.rows) + indexing_problems(source_review.rows, outcome)
                save_report(self.store.id, source_review.source.id, rows, when)

    def _check_move_still_open(self, review: PreparedReview) -> None:
        """A move's review is applied only to the source as it was reviewed: still there, still at
        the old place, the new place not taken by another source meanwhile."""
        assert review.moved is not None
        try:
            current = self.store.source(review.moved.id)
        except KeyError:
            current = None
        if current is None or current.path != review.moved_from:
            raise UsageError(
                msg("The source changed since this review; nothing was moved"),
                hint=msg("Choose the new place again."),
            )
        others = [s for s in self.store.sources if s.id != current.id]
        self._moved(current, review.moved.path, others=others)  # raises when no longer allowed

    def rebuild(self, identity: EmbeddingIdentity | None = None) -> IndexSummary:
        """Re-embed every source into a fresh snapshot (optionally with another model) and swap it in
        atomically; the old snapshot serves until then, and is never read (it may be incompatible)."""
        from kortty_rag.embedding.installed import get_model
        from kortty_rag.embedding.loader import load_embedder

        waiting = [s.path for s in self.store.sources if s.needs_review]
        if waiting:
            raise UsageError(
                msg(
                    "{store} has sources that came with an import and were not reviewed on this "
                    "computer (waiting: {count}, among them {first}); a rebuild would read them "
                    "without a review",
                    count=len(waiting),
                    store=repr(self.store.name),
                    first=waiting[0],
                ),
                hint=msg(
                    "Review them first with {how}.",
                    how=place(Operation.SOURCE_REVIEW, store=self.store.name),
                ),
            )
        identity = identity or get_model(self.store.embedding.model_id).identity()
        self.progress.message(LOADING_MODEL)
        embedder = load_embedder(identity)
        target = self.store.evolve(embedding=identity)
        fresh = open_vector_store(target, ignore_active=True)
        try:
            review = self._scan(self.store.sources, (), (), vectors=fresh)
            keep = {s.id for s in self.store.sources}
            summary = run_index(
                review.plan,
                fresh,
                embedder,
                keep_sources=keep,
                pdf=self._pdf,
                cache=review.cache,
                progress=self.progress,
                cancel=self.cancel,
            )
            if self._vectors is not None:
                self._vectors.close()
            self._vectors = fresh
        except BaseException:
            fresh.close()
            raise
        self.store = self.registry.update(self.store.id, lambda s: s.evolve(embedding=identity))
        self._record(review, summary)
        return summary

    def reanalyse_lexical(self) -> int:
        """Make a local store's lexical index use the store's language setting now (after it
        changed): a new snapshot with the same chunks and vectors, every chunk analysed again, nothing
        embedded. Returns the chunks analysed (0 when the index already uses that language, or the
        store has no index yet)."""
        if self.store.type is not StoreType.LOCAL:
            raise UsageError(
                msg(
                    "The lexical index of {type} store {store} cannot be analysed again in place",
                    type=self.store.type.value,
                    store=repr(self.store.name),
                ),
                hint=msg(
                    "{do} to re-index it.", do=run(Operation.STORE_REBUILD, store=self.store.name)
                ),
            )
        self.store = self.registry.reload(self.store)
        if self._vectors is not None:  # opened with the previous setting
            self._vectors.close()
            self._vectors = None
        vectors = self.vectors
        assert isinstance(vectors, LocalStore)
        update = vectors.begin()
        if not update.changed:
            update.abort()
            return 0
        try:
            update.commit()
        except BaseException:
            update.abort()
            raise
        snapshot = vectors.snapshot
        return 0 if snapshot is None else snapshot.size

    # -- lifecycle ----------------------------------------------------------------------------------

    def _moved(
        self, old: Source, new_path: Path | str, *, others: Sequence[Source] | None = None
    ) -> Source | None:
        """``old`` at ``new_path``, checked like a newly added source (no link, no overlap with
        ``others``, the same kind); ``None`` when that is where it already is. Nothing is written."""
        if others is None:
            others = [s for s in self.store.sources if s.id != old.id]
        selection = select_sources(others, [new_path], options=old.options)
        if selection.rejected:
            raise SourceError(
                msg(
                    "{path} cannot be a source: {reason}",
                    path=selection.rejected[0].path,
                    reason=selection.rejected[0].reason,
                ),
                path=Path(selection.rejected[0].path),
            )
        (chosen,) = selection.sources
        if chosen.kind is not old.kind:
            raise SourceError(
                msg(
                    "{path} is a folder, but the source {source} is a file",
                    path=chosen.path,
                    source=old.path,
                )
                if chosen.kind is SourceKind.FOLDER
                else msg(
                    "{path} is a file, but the source {source} is a folder",
                    path=chosen.path,
                    source=old.path,
                ),
                path=Path(chosen.path),
                hint=msg("Add it as a new source instead."),
            )
        if chosen.real_path == old.real_path and chosen.path == old.path:
            return None
        return old.evolve(path=chosen.path, real_path=chosen.real_path, status_reason="")

    def remove_source(self, source_id: str) -> int:
        """Forget a source: first from the configuration (never retrieved again), then its chunks."""
        self.store.source(source_id)
        self.store = self.registry.update(self.store.id, lambda s: s.without_source(source_id))
        try:
            update = self.vectors.begin()
            try:
                removed = update.remove_source(source_id)
                update.commit()
            except BaseException:
                update.abort()
                raise
        except KorttyRagError as exc:
            cause = exc.__cause__
            if isinstance(cause, OSError) and cause.strerror:
                reason = cause.strerror
            else:  # the old snapshot stays active, but without this source nothing of it is served
                reason = exc.message.removesuffix(_STILL_SERVED)
            raise RemovalIncompleteError(
                msg(
                    "The source was removed from the store, but its chunks could not be deleted "
                    "yet ({reason}); they are no longer retrieved",
                    reason=reason,
                ),
                hint=msg(
                    "The next refresh of this store (or {rebuild}) deletes them.",
                    rebuild=place(Operation.STORE_REBUILD, store=self.store.name),
                ),
            ) from exc
        delete_reports(self.store.id, source_id)
        return removed

    def delete_store(self, *, keep_remote_vectors: bool = False) -> DeletionReport:
        """Delete the definition; vectors kept outside the store folder (Qdrant) go first, so a
        failure to reach the service leaves the definition in place to try again (docs/DESIGN.md §8).
        ``keep_remote_vectors`` forgets a Qdrant store whose service is gone for good."""
        if self._vectors is not None:
            self._vectors.close()
            self._vectors = None
        if not keep_remote_vectors:
            delete_remote_vectors(self.store)
        report = self.registry.delete(self.store)
        if self.store.type is StoreType.QDRANT:
            delete_api_key(self.store.id)
        delete_reports(self.store.id)
        return report
