"""kortty_rag.messages: the core's words stay plain English strings for the CLI, JSON and logs, and
keep what a front end needs to say them in another language."""

from __future__ import annotations

import copy
import json
import pickle

from kortty_rag.messages import Message, msg


def test_a_message_is_its_english_text() -> None:
    reason = msg("empty file")
    error = msg("Nothing to add: {path} is {reason}", path="/a/b.md", reason=reason)
    assert error == "Nothing to add: /a/b.md is empty file"
    assert isinstance(error, str) and isinstance(error, Message)
    assert json.dumps({"error": error}) == '{"error": "Nothing to add: /a/b.md is empty file"}'
    assert f"{error}!" == "Nothing to add: /a/b.md is empty file!"
    assert {error: 1}["Nothing to add: /a/b.md is empty file"] == 1


def test_a_message_remembers_its_template_and_values() -> None:
    inner = msg("empty file")
    error = msg("Nothing to add: {path} is {reason}", path="/a/b.md", reason=inner)
    assert error.template == "Nothing to add: {path} is {reason}"
    assert dict(error.values) == {"path": "/a/b.md", "reason": inner}
    assert error.values["reason"].template == "empty file"  # type: ignore[attr-defined]
    assert msg("{count:,} files", count=12345) == "12,345 files"


def test_a_message_survives_pickling_and_copies() -> None:
    error = msg("{a} and {b}", a=msg("x {n}", n=1), b=2)
    for again in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert again == error and again.template == error.template
        assert again.values["a"].template == "x {n}"  # type: ignore[attr-defined]


def test_a_template_without_values_is_taken_literally() -> None:
    assert msg("use {braces} as written") == "use {braces} as written"
