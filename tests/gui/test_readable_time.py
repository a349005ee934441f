"""Timestamps as people say them (issue 13, point 11): local time, "today" and "yesterday"."""

from __future__ import annotations

from datetime import datetime, timedelta

from kortty_rag.gui.table_models import full_time, readable_time


def test_stored_utc_times_read_in_local_words() -> None:
    now = datetime.now().astimezone().replace(hour=12, minute=0, second=0, microsecond=0)
    at = lambda moment: moment.astimezone().isoformat()  # noqa: E731
    assert readable_time(at(now.replace(hour=7, minute=2)), now) == "today 07:02"
    assert readable_time(at(now - timedelta(days=1)), now) == f"yesterday {now:%H:%M}"
    earlier = now.replace(month=1, day=3) if now.month > 1 else now.replace(day=1)
    if earlier.date() < now.date() - timedelta(days=1):
        assert readable_time(at(earlier), now) == f"{earlier.day} {earlier:%b %H:%M}"
    long_ago = now - timedelta(days=400)
    assert readable_time(at(long_ago), now) == f"{long_ago:%Y-%m-%d}"
    assert readable_time(None) == "never"
    assert full_time(at(now)).endswith(f"(UTC{now:%z})")
