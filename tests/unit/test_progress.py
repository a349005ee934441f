from __future__ import annotations

import pytest

from kortty_rag.errors import Cancelled
from kortty_rag.progress import CancelToken, ProgressState, ProgressTracker


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_stage_weighted_percent_throughput_and_eta() -> None:
    states: list[ProgressState] = []
    clock = Clock()
    tracker = ProgressTracker(states.append, clock=clock)
    tracker.stage("scan")
    assert states[-1].percent == 0
    tracker.stage("index", total=100)  # scan counts as done once indexing starts
    assert states[-1].percent == pytest.approx(5.0)
    clock.now = 10.0
    tracker.count(chunks=1)
    clock.now = 20.0
    tracker.count(documents=3, chunks=19, issues=1)
    tracker.advance(50)
    state = states[-1]
    assert state.percent == pytest.approx(50.0)
    assert (state.documents, state.chunks, state.issues) == (3, 20, 1)
    assert state.chunks_per_second == pytest.approx(2.0)
    assert state.eta_seconds == pytest.approx(20.0)  # half done in 20 s, from 0 %
    tracker.stage("activate", total=1)
    tracker.advance()
    assert states[-1].percent == pytest.approx(100.0)
    assert "ETA" in states[-1].line() and "chunks/s" in states[-1].line()


def test_cancel_token() -> None:
    token = CancelToken()
    token.raise_if_cancelled()
    token.cancel()
    assert token.cancelled
    with pytest.raises(Cancelled):
        token.raise_if_cancelled()
