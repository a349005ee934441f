"""Hypothesis profiles of the fuzzing properties: 1,000 examples per property in the CI tier, 100,000 in
the soak tier (``KORTTY_SOAK=1``); ``KORTTY_FUZZ_EXAMPLES`` overrides both.

Decorate a property with ``@FUZZ``. Every failure Hypothesis finds becomes a permanent ``@example`` on
its property, so it is checked first in every later run.
"""

from __future__ import annotations

import json
import os
import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.helpers.reliability import SOAK

_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile(
    "kortty-ci", max_examples=1000, deadline=None, suppress_health_check=_CHECKS
)
settings.register_profile(
    "kortty-soak", max_examples=100_000, deadline=None, suppress_health_check=_CHECKS
)
PROFILE = "kortty-soak" if SOAK else "kortty-ci"
EXAMPLES = (
    int(os.environ.get("KORTTY_FUZZ_EXAMPLES", "0")) or settings.get_profile(PROFILE).max_examples
)
FUZZ = settings(settings.get_profile(PROFILE), max_examples=EXAMPLES)


def mutate(seed: bytes, operations: list[tuple[str, int, Any]]) -> bytes:
    data = bytearray(seed)
    for op, position, arg in operations:
        at = position % (len(data) + 1)
        if op == "flip" and at < len(data):
            data[at] ^= 1 << arg
        elif op in ("insert", "token"):
            data[at:at] = arg
        elif op == "delete":
            del data[at : at + arg]
        elif op == "truncate":
            del data[at:]
    return bytes(data)


class TooSlow(BaseException):
    """Not an Exception: the code under test must not be able to swallow it."""


def mutations(tokens: list[bytes]) -> st.SearchStrategy[tuple[str, int, Any]]:
    """One operation of :func:`mutate`: flip a bit, insert bytes or one of ``tokens`` (the format's
    own syntax), delete a run, or truncate."""
    return st.one_of(
        st.tuples(st.just("flip"), st.integers(0, 1 << 30), st.integers(0, 7)),
        st.tuples(st.just("insert"), st.integers(0, 1 << 30), st.binary(min_size=1, max_size=16)),
        st.tuples(st.just("token"), st.integers(0, 1 << 30), st.sampled_from(tokens)),
        st.tuples(st.just("delete"), st.integers(0, 1 << 30), st.integers(1, 64)),
        st.tuples(st.just("truncate"), st.integers(0, 1 << 30), st.just(0)),
    )


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def expire(*_: object) -> None:
        raise TooSlow(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


#: control characters a page of extracted text never holds (TAB, LF, VT, FF, CR are whitespace)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def assert_worker_answer(answer: dict[str, Any], *, reasons: tuple[str, ...] = ("reason",)) -> None:
    """``answer`` survives the extraction worker's JSON line as its parent decodes it: pages of
    valid UTF-8 text without control characters (at least one with text), or exactly one of
    ``reasons`` (a reason is one line)."""
    answer = json.loads(json.dumps(answer, ensure_ascii=True))
    if answer["ok"]:
        assert set(answer) == {"ok", "pages"} and answer["pages"]
        assert any(page.strip() for page in answer["pages"])
        for page in answer["pages"]:
            page.encode("utf-8")  # no lone surrogates: they would break the chunk table
            assert not _CONTROL.search(page)
    else:
        assert len(answer) == 2 and next(k for k in answer if k != "ok") in reasons, answer
        assert "reason" not in answer or (answer["reason"] and "\n" not in answer["reason"])
