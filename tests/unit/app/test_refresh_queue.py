"""The one automatic-refresh policy: merged requests, retries of busy stores, nothing lost."""

from __future__ import annotations

from kortty_rag.app.auto_refresh import RefreshQueue, RefreshRequest


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_requests_for_one_store_are_merged_and_keep_the_first_reason() -> None:
    clock = Clock()
    queue = RefreshQueue(retry_delay=2.0, clock=clock)
    queue.request("s1", ["a"], "changed")
    queue.request("s1", ["b"], "overflow")
    queue.request("s2", ["c"], "changed")
    assert queue.take() == RefreshRequest("s1", frozenset({"a", "b"}), "changed")
    assert queue.take() == RefreshRequest("s2", frozenset({"c"}), "changed")
    assert queue.take() is None and not queue


def test_a_busy_store_is_retried_after_the_delay_with_what_came_meanwhile() -> None:
    clock = Clock()
    queue = RefreshQueue(retry_delay=2.0, clock=clock)
    queue.request("s1", ["a"], "changed")
    request = queue.take()
    assert request is not None
    queue.busy(request)  # another process holds the store
    assert queue and queue.take() is None  # not due yet, not lost
    assert queue.seconds_to_next() == 2.0
    clock.now += 1.0
    queue.busy(RefreshRequest("s1", frozenset({"b"}), "changed"))  # merged, due at the later time
    assert queue.take() is None
    clock.now += 2.0
    assert queue.take() == RefreshRequest("s1", frozenset({"a", "b"}), "changed")


def test_a_new_change_makes_a_waiting_store_due_at_once() -> None:
    clock = Clock()
    queue = RefreshQueue(retry_delay=5.0, clock=clock)
    queue.request("s1", ["a"], "changed")
    request = queue.take()
    assert request is not None
    queue.busy(request)
    queue.request("s1", ["b"], "changed")
    assert queue.take() == RefreshRequest("s1", frozenset({"a", "b"}), "changed")


def test_stores_come_out_in_the_order_they_became_due() -> None:
    clock = Clock()
    queue = RefreshQueue(retry_delay=2.0, clock=clock)
    queue.request("s1", ["a"], "changed")
    first = queue.take()
    assert first is not None
    queue.busy(first)  # due in 2 s
    clock.now += 1.0
    queue.request("s2", ["b"], "changed")  # due now
    assert queue.seconds_to_next() == 0.0
    assert queue.take() == RefreshRequest("s2", frozenset({"b"}), "changed")
    assert queue.take() is None and queue.seconds_to_next() == 1.0
    clock.now += 1.0
    assert queue.take() == RefreshRequest("s1", frozenset({"a"}), "changed")
    assert queue.seconds_to_next() is None
