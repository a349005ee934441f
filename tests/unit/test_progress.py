from __future__ import annotations

import itertools

import pytest

from kortty_rag.errors import Cancelled
from kortty_rag.progress import CancelToken, ProgressState, ProgressTracker, format_duration


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
    assert state.chunks_per_second == pytest.approx(1.9)  # 19 chunks in the last 10 s
    assert state.eta_seconds is not None  # its smoothing: test_the_eta_waits_until_it_means…
    tracker.stage("activate", total=1)
    tracker.advance()
    assert states[-1].percent == pytest.approx(100.0)
    assert "ETA" in states[-1].line() and "chunks/s" in states[-1].line()


def test_two_close_batches_give_no_rate_rather_than_a_huge_one() -> None:
    clock = Clock()
    tracker = ProgressTracker(lambda state: None, clock=clock)
    tracker.stage("index", total=1000)
    clock.now = 9.0  # the first batch took long (the model warmed up)
    tracker.count(chunks=32)
    clock.now = 9.001
    tracker.count(chunks=32)
    state = tracker.state()
    assert state.chunks_per_second == pytest.approx(64 / 9.001)  # real elapsed time, not 0.001 s
    fresh = ProgressTracker(lambda state: None, clock=clock)
    fresh.stage("index", total=10)
    clock.now = 9.5
    fresh.count(chunks=32)
    assert fresh.state().chunks_per_second == 0.0  # under 2 s measured: nothing shown yet


def test_the_rate_follows_a_sliding_window_and_falls_while_nothing_is_embedded() -> None:
    clock = Clock()
    tracker = ProgressTracker(lambda state: None, clock=clock)
    tracker.stage("index", total=10_000)
    for second in range(1, 31):  # 10 chunks/s for 30 s
        clock.now = float(second)
        tracker.count(chunks=10)
    assert tracker.state().chunks_per_second == pytest.approx(10.0)
    for second in range(31, 41):  # then 100 chunks/s: the window forgets the slow part
        clock.now = float(second)
        tracker.count(chunks=100)
    assert tracker.state().chunks_per_second == pytest.approx(100.0)
    clock.now = 45.0  # a long batch: half the window without a chunk
    assert tracker.state().chunks_per_second == pytest.approx(50.0)
    clock.now = 60.0
    assert tracker.state().chunks_per_second == 0.0


def test_the_eta_waits_until_it_means_something_then_moves_smoothly() -> None:
    clock = Clock()
    tracker = ProgressTracker(lambda state: None, weights={"index": 1.0}, clock=clock)
    tracker.stage("index", total=100)
    clock.now = 1.0
    tracker.advance(10)
    assert tracker.state().eta_seconds is None  # 10 % done, but after 1 s only
    clock.now = 2.0
    tracker.advance(1)
    assert tracker.state().eta_seconds is None
    clock.now = 10.0
    tracker.advance(9)  # 20 % in 10 s: 40 s to go
    assert tracker.state().eta_seconds == pytest.approx(40.0)
    clock.now = 11.0
    tracker.advance(30)  # a burst: the raw estimate falls to 11 s
    eta = tracker.state().eta_seconds
    assert eta is not None and 30.0 < eta < 39.0  # counted down 1 s and moved an eighth of the way
    etas = []
    for second in range(12, 20):  # steady from here: it settles without jumping
        clock.now = float(second)
        tracker.advance(1)
        value = tracker.state().eta_seconds
        assert value is not None
        etas.append(value)
    assert all(b < a for a, b in itertools.pairwise(etas))
    assert all(a - b < 6.0 for a, b in itertools.pairwise(etas))


def test_the_time_left_is_measured_from_the_start_of_indexing() -> None:
    """A scan, then a person reading the review for minutes, then indexing (the CLI's prompt, an
    automatic refresh): the estimate knows only how fast indexing goes."""
    clock = Clock()
    tracker = ProgressTracker(lambda state: None, clock=clock)
    tracker.stage("scan")
    clock.now = 300.0  # the review was open for five minutes
    tracker.stage("index", total=100)
    clock.now = 310.0
    tracker.advance(20)  # 20 % of the indexing in 10 s: about 40 s to go
    eta = tracker.state().eta_seconds
    assert eta is not None and 35 < eta < 45


def test_a_new_stage_clears_the_previous_message() -> None:
    tracker = ProgressTracker(lambda state: None)
    tracker.stage("load")
    tracker.message("Loading the embedding model…")
    assert tracker.state().message == "Loading the embedding model…"
    tracker.stage("index", total=5)
    assert tracker.state().message == ""


def test_cancel_token() -> None:
    token = CancelToken()
    token.raise_if_cancelled()
    token.cancel()
    assert token.cancelled
    with pytest.raises(Cancelled):
        token.raise_if_cancelled()


def test_durations_read_naturally_and_never_say_about_zero_seconds() -> None:
    assert [format_duration(s) for s in (0, 0.2, 1.4, 59.6, 187, 3725)] == [
        "0s",
        "1s",
        "1s",
        "1m00s",
        "3m07s",
        "1h02m",
    ]
