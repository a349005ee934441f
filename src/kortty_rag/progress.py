"""Long work: a small ``Progress`` protocol, a ``CancelToken``, and a stage-weighted tracker.

Core jobs are plain functions that take ``progress`` and ``cancel``; the CLI renders the tracker's states on
stderr, the GUI forwards them through a Qt signal (throttled there). Tests use :class:`RecordingProgress`.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from kortty_rag.errors import Cancelled
from kortty_rag.messages import msg


class Progress(Protocol):
    def stage(self, name: str, total: int | None = None) -> None:
        """Enter a stage; ``total`` is the number of units it will ``advance`` through, if known."""

    def advance(self, amount: int = 1) -> None:
        """Units of the current stage done."""

    def count(self, *, documents: int = 0, chunks: int = 0, issues: int = 0) -> None:
        """Running totals shown in the status line."""

    def message(self, text: str) -> None:
        """A short human-readable status ("Checking selected files and folders…")."""


class NullProgress:
    def stage(self, name: str, total: int | None = None) -> None:
        pass

    def advance(self, amount: int = 1) -> None:
        pass

    def count(self, *, documents: int = 0, chunks: int = 0, issues: int = 0) -> None:
        pass

    def message(self, text: str) -> None:
        pass


class CancelToken:
    """Cooperative cancellation; jobs call :meth:`raise_if_cancelled` between units of work.

    A long first index makes its finished documents searchable in parts (docs/DESIGN.md §9); a
    cancel then either keeps that part or puts the store back as it was. The job says how much a
    cancel now could keep (``published``) and, once stopped, how much it kept (``kept``); the front
    end says which it wants (``keep_published``, given up front or with :meth:`cancel`)."""

    def __init__(self, *, keep_published: bool = False) -> None:
        self._event = threading.Event()
        #: on cancel, keep the documents already made searchable (else: the store as before)
        self.keep_published = keep_published
        #: documents this job has made searchable so far (0: a cancel loses nothing searchable)
        self.published = 0
        #: documents a cancelled job left searchable (set when it stopped)
        self.kept = 0

    def cancel(self, *, keep_published: bool | None = None) -> None:
        if keep_published is not None:
            self.keep_published = keep_published
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled()


#: Weights of the stages of a scan + index job, in their order. "index" interleaves extraction,
#: chunking and embedding and advances by chunks (estimated from each file's reviewed text), so a file
#: weighs what its text costs to embed, not its size in bytes.
INDEX_STAGE_WEIGHTS: Mapping[str, float] = {
    "scan": 0.05,
    "index": 0.90,
    "activate": 0.05,
}


#: seconds of chunk counts the throughput is measured over (a sliding window of real time)
RATE_WINDOW = 10.0
#: no throughput is shown before the window spans this long: a rate from two close batches is noise
MIN_RATE_SPAN = 2.0
#: no ETA before this share of the job is done and this many seconds have passed
MIN_ETA_PROGRESS = 0.05
MIN_ETA_SECONDS = 5.0
#: time constant (seconds) of the ETA's smoothing: it counts down between measurements and moves
#: towards each new estimate by the share of this time that passed, so it does not jump
ETA_SMOOTHING = 8.0
#: stages whose start the time left is measured from (the long one of a scan + index job)
ESTIMATED_FROM = frozenset({"index"})


@dataclass(frozen=True)
class ProgressState:
    """One rendering of the status line (docs/DESIGN.md §9)."""

    stage: str
    percent: float
    documents: int
    chunks: int
    issues: int
    chunks_per_second: float
    eta_seconds: float | None
    message: str = ""

    def line(self) -> str:
        eta = "" if self.eta_seconds is None else f", ETA {format_duration(self.eta_seconds)}"
        rate = f", {self.chunks_per_second:.1f} chunks/s" if self.chunks_per_second > 0 else ""
        text = (
            f"[{self.stage}] {self.percent:5.1f}% — {self.documents} documents, "
            f"{self.chunks} chunks, {self.issues} issues{rate}{eta}"
        )
        return f"{text} — {self.message}" if self.message else text


def format_duration(seconds: float) -> str:
    """``1h05m``, ``3m07s``, ``12s``; any time above zero is at least ``1s`` (never "about 0s")."""
    seconds = max(1, round(seconds)) if seconds > 0 else 0
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return msg("{hours}h{minutes:02d}m", hours=hours, minutes=minutes)
    if minutes:
        return msg("{minutes}m{seconds:02d}s", minutes=minutes, seconds=secs)
    return msg("{seconds}s", seconds=secs)


@dataclass
class ProgressTracker:
    """A :class:`Progress` that turns stage events into weighted :class:`ProgressState` values."""

    listener: Callable[[ProgressState], None]
    weights: Mapping[str, float] = field(default_factory=lambda: dict(INDEX_STAGE_WEIGHTS))
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._stage = ""
        self._total: int | None = None
        self._done = 0
        self._documents = self._chunks = self._issues = 0
        self._message = ""
        self._started = self.clock()
        self._start_fraction: float | None = None
        #: (time, chunks so far): the samples of the throughput window, oldest first
        self._samples: deque[tuple[float, int]] = deque()
        self._eta: float | None = None
        self._eta_at = 0.0

    def stage(self, name: str, total: int | None = None) -> None:
        """Enter a stage; its message (if any) is set after this, an earlier one is cleared."""
        with self._lock:
            self._stage, self._total, self._done = name, total, 0
            self._message = ""
            now = self.clock()
            if self._start_fraction is None or name in ESTIMATED_FROM:
                # the time left is measured from here: a scan (or a person answering its review)
                # before indexing says nothing about how long embedding takes
                self._start_fraction, self._started, self._eta = self._fraction(), now, None
            if not self._samples:  # chunks are counted from the first stage that may make them
                self._samples.append((now, self._chunks))
        self._emit()

    def advance(self, amount: int = 1) -> None:
        with self._lock:
            self._done += amount
        self._emit()

    def count(self, *, documents: int = 0, chunks: int = 0, issues: int = 0) -> None:
        with self._lock:
            self._documents += documents
            self._chunks += chunks
            self._issues += issues
            if chunks:
                self._samples.append((self.clock(), self._chunks))
        self._emit()

    def _fraction(self) -> float:
        """Stages before the current one (in weight order) count as done."""
        names = list(self.weights)
        total_weight = sum(self.weights.values()) or 1.0
        if self._stage not in self.weights:  # a job of its own (a download): done / total
            return min(1.0, self._done / self._total) if self._total else 0.0
        before = sum(self.weights[n] for n in names[: names.index(self._stage)])
        inside = min(1.0, self._done / self._total) if self._total else 0.0
        return min(1.0, (before + self.weights[self._stage] * inside) / total_weight)

    def message(self, text: str) -> None:
        with self._lock:
            self._message = text
        self._emit()

    def state(self) -> ProgressState:
        """The state now: a caller may ask on a timer, between the job's own events."""
        with self._lock:
            fraction = self._fraction()
            now = self.clock()
            return ProgressState(
                stage=self._stage,
                percent=100.0 * fraction,
                documents=self._documents,
                chunks=self._chunks,
                issues=self._issues,
                chunks_per_second=self._rate(now),
                eta_seconds=self._smoothed_eta(now, fraction),
                message=self._message,
            )

    def _rate(self, now: float) -> float:
        """Chunks per second over the last :data:`RATE_WINDOW` seconds of real time, measured up to
        now (a long batch lowers it while it runs); 0 until the window spans :data:`MIN_RATE_SPAN`."""
        start = now - RATE_WINDOW
        samples = self._samples
        while len(samples) > 1 and samples[1][0] <= start:
            samples.popleft()  # the count changes only at a sample: the first one in effect stays
        if not samples:
            return 0.0
        since, base = samples[0]
        span = now - max(since, start)
        return (self._chunks - base) / span if span >= MIN_RATE_SPAN else 0.0

    def _smoothed_eta(self, now: float, fraction: float) -> float | None:
        start = self._start_fraction or 0.0
        elapsed = now - self._started
        if fraction >= 1.0:
            self._eta = 0.0
            return 0.0
        if fraction - start < MIN_ETA_PROGRESS or elapsed < MIN_ETA_SECONDS:
            return None
        estimate = elapsed * (1.0 - fraction) / (fraction - start)
        if self._eta is None:
            self._eta = estimate
        else:
            passed = max(0.0, now - self._eta_at)
            counted_down = max(0.0, self._eta - passed)
            self._eta = counted_down + (estimate - counted_down) * min(1.0, passed / ETA_SMOOTHING)
        self._eta_at = now
        return self._eta

    def _emit(self) -> None:
        self.listener(self.state())


@dataclass
class RecordingProgress:
    """A :class:`Progress` for tests: records every call in order."""

    events: list[tuple[str, object]] = field(default_factory=list)

    def stage(self, name: str, total: int | None = None) -> None:
        self.events.append(("stage", (name, total)))

    def advance(self, amount: int = 1) -> None:
        self.events.append(("advance", amount))

    def count(self, *, documents: int = 0, chunks: int = 0, issues: int = 0) -> None:
        self.events.append(("count", (documents, chunks, issues)))

    def message(self, text: str) -> None:
        self.events.append(("message", text))

    def stages(self) -> list[str]:
        return [
            str(value[0])
            for kind, value in self.events
            if kind == "stage" and isinstance(value, tuple)
        ]
