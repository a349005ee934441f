"""Running a change plan: extract → chunk → embed (batches of 32) → update → activate (docs/DESIGN.md §9).

The update is a transaction on the store: if anything fails or the user cancels before the commit,
it is aborted and the previous snapshot keeps serving. A file whose content changed after the review is
not indexed (its previous version, if any, stays) and is reported, so only reviewed content is embedded.

Documents stream: text is read in blocks, chunks are cut as the blocks arrive and embedded in batches
of 32 as soon as a batch is full, so a document is never held as one string nor as a list of words.
What a document keeps until it is complete is its chunks and their vectors (the store receives a
document whole, so that a file found changed at its last block leaves its previous version in
place). Progress and ETA count chunks (estimated from the reviewed characters), not bytes.

A long job on a local store publishes what it finished in parts (:mod:`kortty_rag.index.early_publish`):
whole documents, each part a snapshot activated and verified as always, so searches answer from them
while the rest is embedded. If the job then fails, or is cancelled without keeping them, the store
goes back to the snapshot it served before.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, field

import numpy as np

from kortty_rag.chunking.estimate import estimated_chunks
from kortty_rag.chunking.splitter import Splitter
from kortty_rag.chunking.structured import document_spans
from kortty_rag.embedding.base import EMBED_BATCH, Embedder
from kortty_rag.embedding.probes import probe_vectors
from kortty_rag.errors import Cancelled, EmbeddingError, ExtractionError, SnapshotError
from kortty_rag.extract.document import ExtractionCache, open_document
from kortty_rag.extract.pdf import CHANGED_SINCE_REVIEW, PdfExtractor
from kortty_rag.index.base import StoreUpdate, VectorStore
from kortty_rag.index.chunkdb import NewChunk
from kortty_rag.index.early_publish import PartPublisher
from kortty_rag.index.vector_pool import StoredChunk, text_sha
from kortty_rag.messages import msg
from kortty_rag.models import ChunkSpan, Document, SourceStatus, with_heading
from kortty_rag.notes.reader import NoteFacts, NoteReader
from kortty_rag.notes.resolve import NOTE_FORMATS
from kortty_rag.progress import CancelToken, NullProgress, Progress
from kortty_rag.sources.review import RootState
from kortty_rag.sync.plan import ChangePlan, DocumentTask, SourcePlan
from kortty_rag.sync.speed import record_job_speed


def chunk_id(task: DocumentTask, span: ChunkSpan | StoredChunk) -> str:
    """Stable id: same source, path, content and window give the same id."""
    key = f"{task.source_id}\0{task.rel_path}\0{task.sha256}\0{span.page}\0{span.start}\0{span.end}"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


@dataclass
class SourceOutcome:
    source_id: str
    status: SourceStatus
    reason: str = ""
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: int = 0
    #: of ``skipped``, the problems (unreadable, failed extraction), not a rule's choice
    problems: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    chunks_added: int = 0
    #: documents indexed with a problem worth a look (a note's front matter that was not read)
    notices: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class IndexSummary:
    """The completion summary (docs/DESIGN.md §9): newly indexed, unchanged, removed and skipped documents."""

    sources: tuple[SourceOutcome, ...]
    seconds: float
    chunks_embedded: int
    #: chunks whose vector the store already had for the same text (docs/DESIGN.md §9)
    chunks_reused: int = 0
    #: parts made searchable before the end (a long first index; docs/DESIGN.md §9)
    parts_published: int = 0
    #: of ``seconds``, the time publishing those parts took
    seconds_publishing: float = 0.0

    def _sum(self, name: str) -> int:
        return sum(int(getattr(o, name)) for o in self.sources)

    @property
    def indexed(self) -> int:
        return self._sum("new") + self._sum("changed")

    @property
    def unchanged(self) -> int:
        return self._sum("unchanged")

    @property
    def removed(self) -> int:
        return self._sum("removed")

    @property
    def skipped(self) -> int:
        """Every document not indexed: left out by a rule, unreadable, or failed while indexing."""
        return self._sum("skipped") + sum(len(o.failed) for o in self.sources)

    @property
    def issues(self) -> int:
        """Of :attr:`skipped`, the problems: unreadable or unextractable, or failed while indexing."""
        return self._sum("problems") + sum(len(o.failed) for o in self.sources)

    def line(self) -> str:
        if self.chunks_reused:
            return msg(
                "Indexed {indexed} new or changed, {unchanged} unchanged, {removed} removed, "
                "{skipped} skipped documents; {embedded} chunks embedded ({reused} reused, not "
                "embedded again) in {seconds:.1f} s",
                indexed=self.indexed,
                unchanged=self.unchanged,
                removed=self.removed,
                skipped=self.skipped,
                embedded=self.chunks_embedded,
                reused=self.chunks_reused,
                seconds=self.seconds,
            )
        return msg(
            "Indexed {indexed} new or changed, {unchanged} unchanged, {removed} removed, "
            "{skipped} skipped documents; {embedded} chunks embedded in {seconds:.1f} s",
            indexed=self.indexed,
            unchanged=self.unchanged,
            removed=self.removed,
            skipped=self.skipped,
            embedded=self.chunks_embedded,
            seconds=self.seconds,
        )

    def to_json(self) -> dict[str, object]:
        return {
            "indexed": self.indexed,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "skipped": self.skipped,
            "chunks_embedded": self.chunks_embedded,
            "chunks_reused": self.chunks_reused,
            "parts_published": self.parts_published,
            "seconds": round(self.seconds, 3),
            "seconds_publishing": round(self.seconds_publishing, 3),
            "sources": [
                {
                    "source_id": o.source_id,
                    "status": o.status.value,
                    "reason": o.reason,
                    "new": o.new,
                    "changed": o.changed,
                    "unchanged": o.unchanged,
                    "removed": o.removed,
                    "skipped": o.skipped,
                    "failed": [{"path": p, "reason": r} for p, r in o.failed],
                    "notices": [{"path": p, "reason": r} for p, r in o.notices],
                }
                for o in self.sources
            ],
        }


class _Rows:
    """The vectors of one document's chunks, in a buffer that grows as chunks arrive."""

    def __init__(self, dims: int, expected: int) -> None:
        self._data = np.empty((max(16, expected), dims), np.float32)

    def set(self, index: int, vector: np.ndarray) -> None:
        if index >= len(self._data):
            grown = np.empty(
                (max(index + 1, len(self._data) * 3 // 2), self._data.shape[1]), np.float32
            )
            grown[: len(self._data)] = self._data
            self._data = grown
        self._data[index] = vector

    def first(self, count: int) -> np.ndarray:
        return self._data[:count]


@dataclass
class _Pending:
    task: DocumentTask
    outcome: SourceOutcome
    vectors: _Rows
    #: chunks this document is expected to make (its share of the progress total)
    estimate: int
    spans: list[ChunkSpan] = field(default_factory=list)
    pages: int | None = None
    filled: int = 0
    complete: bool = False
    advanced: int = 0
    #: what a Markdown note says about itself (links, front matter), kept with it
    note: NoteFacts | None = None


class IndexRun:
    """One execution of a plan against a store; use :func:`run_index`."""

    def __init__(
        self,
        plan: ChangePlan,
        store: VectorStore,
        embedder: Embedder | None,
        *,
        pdf: PdfExtractor,
        cache: ExtractionCache | None,
        progress: Progress,
        cancel: CancelToken,
        publisher: PartPublisher | None = None,
    ) -> None:
        self.plan = plan
        #: publishes the documents finished so far while the job runs (a long first index)
        self.publisher = publisher
        #: documents this run stored (the part a cancel may keep)
        self._stored = 0
        #: documents the store will hold when this run is done
        self._expected = 0
        self.store = store
        self.embedder = embedder
        self.pdf = pdf
        self.cache = cache
        self.progress = progress
        self.cancel = cancel
        self._splitter: Splitter | None = None
        self.queue: deque[tuple[_Pending, int]] = deque()
        self.open_docs: deque[_Pending] = deque()
        self.embedded = 0
        self.reused = 0
        #: documents this run removes: their content can move to an added document in place
        self._leaving: dict[tuple[str, str], Document] = {}
        self._by_content: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self._update: StoreUpdate

    def run(self, keep_sources: Collection[str]) -> IndexSummary:
        started = time.monotonic()
        if self.store.version() != self.plan.base_version:
            raise SnapshotError(
                msg("The store changed after this review was made"),
                hint=msg("Scan again to review the current state before indexing."),
            )
        publisher = self.publisher
        self._update = publisher.begin() if publisher is not None else self.store.begin()
        try:
            self._plan_removals(keep_sources)
            self.progress.stage("index", total=max(1, sum(map(self._estimate, self.plan.adds))))
            indexing = time.monotonic()
            outcomes = [self._source(source_plan) for source_plan in self.plan.sources]
            self._flush(final=True)
            indexing = time.monotonic() - indexing
            self.cancel.raise_if_cancelled()
            for source_id, rel_path in self._leaving:  # what did not move to an added document
                self._update.remove_document(source_id, rel_path)
            self.progress.stage("activate", total=1)
            self.progress.message(msg("Activating the new snapshot…"))
            self._calibrate()
            self._update.commit()
            self.progress.advance()
        except BaseException as exc:
            self._update.abort()
            self._stopped(exc)
            raise
        if publisher is not None:
            publisher.finish()
        if self.embedder is not None:  # what the next review's estimate goes by (sync/speed.py)
            record_job_speed(
                self.embedder.identity,
                embedded=self.embedded,
                reused=self.reused,
                seconds=indexing - (publisher.seconds if publisher is not None else 0.0),
            )
        return IndexSummary(
            tuple(outcomes),
            time.monotonic() - started,
            self.embedded,
            self.reused,
            parts_published=publisher.parts if publisher is not None else 0,
            seconds_publishing=publisher.seconds if publisher is not None else 0.0,
        )

    def _calibrate(self) -> None:
        """The store's relevance calibration (docs/DESIGN.md §11), with the snapshot it is made for."""
        if self.embedder is not None:
            self._update.calibrate(probe_vectors(self.embedder))

    def _stopped(self, exc: BaseException) -> None:
        """A job that published parts and then failed or was cancelled: keep them when the user
        chose that, else put back what the store served before the job."""
        publisher = self.publisher
        if publisher is None or not publisher.touched:
            return
        stopped = isinstance(exc, (Cancelled, KeyboardInterrupt))  # the app's Cancel, or Ctrl-C
        if stopped and self.cancel.keep_published and self.cancel.published:
            self.cancel.kept = self.cancel.published
            return
        publisher.restore()

    def _maybe_publish(self) -> None:
        """Make the documents stored so far searchable, when a part is due (whole documents only:
        those still being read or embedded wait for the next part)."""
        publisher = self.publisher
        if publisher is None or not self._stored or not publisher.due():
            return
        self.cancel.raise_if_cancelled()
        self._calibrate()
        self._update = publisher.publish(self._update)
        self.cancel.published = self._stored
        searchable = len(self._update.documents())
        self.progress.message(
            msg(
                "{searchable} of {total} documents searchable",
                searchable=min(searchable, self._expected),
                total=self._expected,
            )
        )

    def _plan_removals(self, keep_sources: Collection[str]) -> None:
        """Collect what this run removes — chunks of sources that no longer exist, of roots gone
        missing, of files gone — before anything is added, and remove it only at the end: an added
        document with the same content takes its chunks over (a rename or a move embeds nothing)."""
        documents = {(d.source_id, d.rel_path): d for d in self._update.documents()}
        gone = {
            p.source.id
            for p in self.plan.sources
            if p.remove_all and p.root_state is not RootState.ERROR
        }
        for key, doc in documents.items():
            if doc.source_id not in keep_sources or doc.source_id in gone:
                self._leaving[key] = doc
        for p in self.plan.sources:
            if p.root_state is RootState.ERROR or p.remove_all:
                continue
            for rel_path in p.remove:
                found = documents.get((p.source.id, rel_path))
                if found is not None:
                    self._leaving[(p.source.id, rel_path)] = found
        for key, doc in self._leaving.items():
            self._by_content.setdefault((doc.sha256, doc.format), []).append(key)
        staying = documents.keys() - self._leaving.keys()
        self._expected = len(staying | {(t.source_id, t.rel_path) for t in self.plan.adds})

    def _embedder(self) -> Embedder:
        if self.embedder is None:
            raise EmbeddingError("internal: documents to index but no embedding model given")
        return self.embedder

    def _splitter_for(self) -> Splitter:
        if self._splitter is None:
            embedder = self._embedder()
            self._splitter = Splitter(embedder, embedder.chunking())
        return self._splitter

    def _source(self, plan: SourcePlan) -> SourceOutcome:
        outcome = SourceOutcome(
            plan.source.id,
            SourceStatus.READY,
            unchanged=plan.unchanged,
            skipped=plan.skipped,
            problems=plan.problems,
        )
        if plan.root_state is RootState.ERROR:
            outcome.status, outcome.reason = SourceStatus.ERROR, plan.root_error
            return outcome
        if plan.remove_all:  # removed at the end of the run (see _plan_removals)
            outcome.removed = sum(1 for key in self._leaving if key[0] == plan.source.id)
            outcome.status = SourceStatus.MISSING
            outcome.reason = msg(
                "{reason}; {count} documents removed",
                reason=plan.root_error,
                count=outcome.removed,
            )
            return outcome
        outcome.removed += len(plan.remove)
        for task in plan.add:
            self.cancel.raise_if_cancelled()
            self._document(task, outcome)
        return outcome

    def _estimate(self, task: DocumentTask) -> int:
        identity = self.embedder.identity if self.embedder is not None else None
        if task.estimated_chunks or identity is None:
            return max(1, task.estimated_chunks)
        chunks = estimated_chunks(task.characters, identity.chunk_tokens, identity.overlap_tokens)
        return max(1, chunks)

    def _reuse(self, task: DocumentTask, outcome: SourceOutcome) -> bool:
        """Index ``task`` from chunks the store has for the same content, without reading it."""
        document = Document(task.source_id, task.rel_path, task.sha256, task.size, task.format, 0)
        candidates = self._by_content.get((task.sha256, task.format), [])
        moving = next((key for key in candidates if key in self._leaving), None)
        reused = self._update.reuse_document(document, lambda c: chunk_id(task, c), moving)
        if reused is None:
            return False
        if moving is not None:  # moved, or copied from it: either way not offered again (a
            candidates.remove(moving)  # moved document is gone, so removing it later does nothing)
        self.reused += reused
        self._count_stored(task, outcome)
        self._advance_by(self._estimate(task))
        self._maybe_publish()
        return True

    def _advance_by(self, chunks: int) -> None:
        if chunks:
            self.progress.advance(chunks)

    def _document(self, task: DocumentTask, outcome: SourceOutcome) -> None:
        if self._reuse(task, outcome):
            return
        estimate = self._estimate(task)
        pending = _Pending(
            task, outcome, _Rows(self._embedder().identity.dimensions, estimate), estimate
        )
        self.open_docs.append(pending)
        try:
            document = open_document(
                task.path,
                task.format,
                size_limit=task.size_limit,
                expected_sha256=task.sha256,
                pdf=self.pdf,
                cache=self.cache,
            )
            splitter = self._splitter_for()
            pending.pages = document.pages
            note = NoteReader() if task.format in NOTE_FORMATS else None
            for segment in document.segments:
                with contextlib.closing(segment.blocks) as blocks:
                    spans = document_spans(splitter, task.format, segment.page, blocks, note)
                    for span in spans:
                        self._queue(pending, span)
            pending.note = None if note is None else note.facts
        except ExtractionError as exc:
            self._drop(pending)
            outcome.failed.append((str(task.path), exc.reason))
            self.progress.count(issues=1)
            if exc.reason != CHANGED_SINCE_REVIEW and task.changed:
                self._update.remove_document(task.source_id, task.rel_path)  # no longer indexable
            return
        if not pending.spans:
            self._drop(pending)
            outcome.failed.append((str(task.path), msg("no text to index (only whitespace)")))
            self.progress.count(issues=1)
            return
        pending.complete = True
        self._flush(final=False)

    def _queue(self, pending: _Pending, span: ChunkSpan) -> None:
        """Give a chunk the vector the store has for its text, or queue it to be embedded."""
        index = len(pending.spans)
        pending.spans.append(span)
        vector = self._update.vector_for(text_sha(span.heading, span.text))
        if vector is not None:
            pending.vectors.set(index, vector)
            pending.filled += 1
            self.reused += 1
            self._advance_by(self._share(pending, 1))
            return
        self.queue.append((pending, index))
        if len(self.queue) >= EMBED_BATCH:
            self._flush(final=False)

    def _drop(self, pending: _Pending) -> None:
        """Forget the document being read (the last one opened) and its chunks still queued."""
        while self.queue and self.queue[-1][0] is pending:
            self.queue.pop()
        if self.open_docs and self.open_docs[-1] is pending:
            self.open_docs.pop()
        self._advance(pending, pending.estimate)

    def _advance(self, pending: _Pending, chunks: int) -> None:
        step = self._share(pending, chunks)
        if step:
            self.progress.advance(step)

    @staticmethod
    def _share(pending: _Pending, chunks: int) -> int:
        """Progress counts chunks: each document moves it by at most its estimate."""
        step = max(0, min(chunks, pending.estimate - pending.advanced))
        pending.advanced += step
        return step

    def _flush(self, *, final: bool) -> None:
        while len(self.queue) >= EMBED_BATCH or (final and self.queue):
            self.cancel.raise_if_cancelled()
            batch = [self.queue.popleft() for _ in range(min(EMBED_BATCH, len(self.queue)))]
            texts = [with_heading(p.spans[i].heading, p.spans[i].text) for p, i in batch]
            vectors = self._embedder().embed_documents(texts)
            done = 0
            for (pending, i), vector in zip(batch, vectors, strict=True):
                pending.vectors.set(i, vector)
                pending.filled += 1
                done += self._share(pending, 1)
            if done:
                self.progress.advance(done)
            self.embedded += len(batch)
            self.progress.count(chunks=len(batch))
            self._store_finished()
        self._store_finished()
        if not final:  # the end of the run activates everything at once
            self._maybe_publish()

    def _store_finished(self) -> None:
        while (
            self.open_docs
            and self.open_docs[0].complete
            and self.open_docs[0].filled == len(self.open_docs[0].spans)
        ):
            self._store(self.open_docs.popleft())

    def _store(self, pending: _Pending) -> None:
        task = pending.task
        document = Document(
            task.source_id,
            task.rel_path,
            task.sha256,
            task.size,
            task.format,
            len(pending.spans),
            pending.pages,
        )
        chunks = [
            NewChunk(0, chunk_id(task, s), s.page, s.start, s.end, s.token_count, s.text, s.heading)
            for s in pending.spans
        ]
        pending.spans = []
        self._update.add_document(
            document, chunks, pending.vectors.first(len(chunks)), pending.note
        )
        if pending.note is not None and pending.note.problem:
            pending.outcome.notices.append((str(task.path), pending.note.problem))
        self._count_stored(task, pending.outcome)
        self._advance(pending, pending.estimate)

    def _count_stored(self, task: DocumentTask, outcome: SourceOutcome) -> None:
        if task.changed:
            outcome.changed += 1
        else:
            outcome.new += 1
        self._stored += 1
        self.progress.count(documents=1)


def run_index(
    plan: ChangePlan,
    store: VectorStore,
    embedder: Embedder | None,
    *,
    keep_sources: Collection[str],
    pdf: PdfExtractor,
    cache: ExtractionCache | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
    publisher: PartPublisher | None = None,
) -> IndexSummary:
    """Apply ``plan`` to ``store``; chunks of sources not in ``keep_sources`` are dropped too. With
    ``publisher``, the documents finished so far are made searchable in parts while it runs."""
    run = IndexRun(
        plan,
        store,
        embedder,
        pdf=pdf,
        cache=cache,
        progress=progress or NullProgress(),
        cancel=cancel or CancelToken(),
        publisher=publisher,
    )
    return run.run(keep_sources)
