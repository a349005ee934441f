"""Reading the product's JSON files field by field, driven by the dataclasses that describe them.

Every definition the product reads back (``store.json``, the settings file, an installed model's
record) is decoded by :func:`decode`: the dataclass's fields and type hints are the table of what may
appear, so a new field is validated as soon as it is declared. A wrong type, a missing required field
or a value out of range raises :class:`FieldError` naming the field's path (``sources[2].counts``) and
what was found there; the caller adds the file's name. Keys the dataclass does not know are ignored
(a newer minor version may add some; the schema number guards incompatible changes).

Per-field limits go in the dataclass field's metadata: ``{"min": 0}``, ``{"max": 10}`` or
``{"check": callable}`` (returns a problem such as ``"must be an absolute path"``, or ``None``).

Problems are :func:`~kortty_rag.messages.msg` sentences, so a front end can say them in its language.
"""

from __future__ import annotations

import dataclasses
import json
import math
import types
import typing
from enum import Enum
from functools import cache
from typing import Any, TypeVar, cast

from kortty_rag.errors import KorttyRagError
from kortty_rag.messages import Message, msg

T = TypeVar("T")

MIN = "min"
MAX = "max"
CHECK = "check"


class FieldError(ValueError):
    """One field of a JSON document is wrong; ``field`` is its path (empty for the whole document)."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        #: the whole sentence (``field sources[2].counts must be an object, found a list``)
        self.message = (
            msg("field {field} {problem}", field=field, problem=problem)
            if field
            else msg("it {problem}", problem=problem)
        )
        super().__init__(self.message)


#: the template of a problem that says what a field needs and what was there instead
_FOUND = "{requirement}, found {found}"


def problem_found(requirement: str, value: object) -> Message:
    """The problem of a field that needs ``requirement`` (``must be a string``) but holds ``value``."""
    return msg("{requirement}, found {found}", requirement=requirement, found=found(value))


def _or_null(problem: str) -> str:
    """``problem`` of a field that may also be null: ``must be a string or null, found …``."""
    if isinstance(problem, Message) and problem.template == _FOUND:
        return msg("{requirement} or null, found {found}", **problem.values)
    return problem.replace(", found", " or null, found")


def exception_text(exc: BaseException) -> str:
    """``str(exc)``; for an exception raised with one text, that very text, so a
    :class:`~kortty_rag.messages.Message` stays one (a front end can translate it)."""
    args = exc.args
    if type(exc).__str__ is BaseException.__str__ and len(args) == 1 and isinstance(args[0], str):
        return args[0]
    return str(exc)


def found(value: object) -> str:
    """How a JSON value is named in an error: its JSON type, plus the value itself when short."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return msg("an object")
    if isinstance(value, list):
        return msg("a list")
    text = json.dumps(value, ensure_ascii=True)
    if len(text) > 40:
        text = text[:37] + "..."
    return (
        msg("the string {text}", text=text)
        if isinstance(value, str)
        else msg("the number {text}", text=text)
    )


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def expect_object(value: object, path: str = "") -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FieldError(path, problem_found(msg("must be an object"), value))
    return cast(dict[str, Any], value)


def decode(
    cls: type[T], value: object, path: str = "", given: typing.Mapping[str, Any] | None = None
) -> T:
    """An instance of the dataclass ``cls`` from the JSON ``value`` found at ``path``; ``given``
    supplies fields that are not in the file (such as the folder a record was found in)."""
    data = expect_object(value, path)
    hints = _hints(cast(type, cls))
    values: dict[str, Any] = dict(given or {})
    for spec in dataclasses.fields(cast(Any, cls)):
        if not spec.init or spec.name in values:
            continue
        where = join(path, spec.name)
        if spec.name not in data:
            if spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING:
                raise FieldError(where, msg("is missing"))
            continue
        converted = convert(hints[spec.name], data[spec.name], where)
        _check_limits(spec.metadata, converted, where)
        values[spec.name] = converted
    try:
        return cls(**values)
    except FieldError:
        raise
    except (ValueError, TypeError, KorttyRagError) as exc:  # a rule of the class (__post_init__)
        reason = exc.message if isinstance(exc, KorttyRagError) else exception_text(exc)
        raise FieldError(path, msg("is not valid: {reason}", reason=reason)) from exc


def convert(hint: Any, value: object, path: str) -> Any:
    """``value`` checked against the type ``hint`` (and converted: lists become tuples)."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        (inner,) = [o for o in options if o is not type(None)]
        try:
            return convert(inner, value, path)
        except FieldError as exc:
            if exc.field == path and value is not None:
                raise FieldError(path, _or_null(exc.problem)) from None
            raise
    if origin is tuple:
        inner = typing.get_args(hint)[0]
        if not isinstance(value, list):
            raise FieldError(path, problem_found(msg("must be a list"), value))
        return tuple(convert(inner, item, join(path, i)) for i, item in enumerate(value))
    if origin is dict:
        return dict(expect_object(value, path))
    if isinstance(hint, type):
        return _convert_type(hint, value, path)
    raise TypeError(f"{path}: unsupported field type {hint!r}")  # a programming error


def _convert_type(hint: type, value: object, path: str) -> Any:
    if dataclasses.is_dataclass(hint):
        return decode(hint, value, path)
    if issubclass(hint, Enum):
        choices = [member.value for member in hint]
        if value not in choices:
            allowed = ", ".join(json.dumps(c) for c in choices)
            requirement = msg("must be one of {choices}", choices=allowed)
            raise FieldError(path, problem_found(requirement, value))
        return hint(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise FieldError(path, problem_found(msg("must be true or false"), value))
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise FieldError(path, problem_found(msg("must be a whole number"), value))
        return value
    if hint is float:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise FieldError(path, problem_found(msg("must be a number"), value))
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise FieldError(path, problem_found(msg("must be a string"), value))
        return value
    raise TypeError(f"{path}: unsupported field type {hint!r}")  # a programming error


def _check_limits(metadata: typing.Mapping[str, Any], value: Any, path: str) -> None:
    if value is None:
        return
    if MIN in metadata and value < metadata[MIN]:
        requirement = msg("must be at least {minimum}", minimum=metadata[MIN])
        raise FieldError(path, problem_found(requirement, value))
    if MAX in metadata and value > metadata[MAX]:
        requirement = msg("must be at most {maximum}", maximum=metadata[MAX])
        raise FieldError(path, problem_found(requirement, value))
    if CHECK in metadata:
        problem = metadata[CHECK](value)
        if problem:
            raise FieldError(path, problem_found(problem, value))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def parse(raw: bytes) -> object:
    """The JSON value in ``raw``; a :class:`FieldError` for the whole document when it is not UTF-8
    JSON (invalid bytes, a truncated file, junk after the value)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FieldError(
            "",
            msg(
                "is not UTF-8 text (byte 0x{byte:02x} at offset {offset})",
                byte=raw[exc.start],
                offset=exc.start,
            ),
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FieldError(
            "",
            msg(
                "is not valid JSON ({error} at line {line} column {column})",
                error=exc.msg,
                line=exc.lineno,
                column=exc.colno,
            ),
        ) from None
    except RecursionError:
        raise FieldError("", msg("is not valid JSON (nested too deeply)")) from None
