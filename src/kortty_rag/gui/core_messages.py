"""The core's messages in the app's language (docs/DESIGN.md "Languages and accessibility").

The core words its messages once, in English (:mod:`kortty_rag.messages`), and stays free of Qt.
:func:`core_words` is the one way such a text reaches a person in the app: a
:class:`~kortty_rag.messages.Message` is said by its template and values, any other text (a reason
read back from a file, written by an earlier run) by matching it against the core's templates, and
every remedy in it (:mod:`kortty_rag.remedies`) as the button or menu that does it
(:func:`kortty_rag.gui.hints.remedy_words`). Numbers follow the app's locale.
"""

from __future__ import annotations

import functools
import logging
import re
import string
import xml.etree.ElementTree as ET

from PySide6.QtCore import QCoreApplication, QLocale

from kortty_rag.gui.hints import remedy_words
from kortty_rag.gui.i18n import CORE_CONTEXT, current_language
from kortty_rag.messages import Message
from kortty_rag.remedies import Remedy, remedies_in
from kortty_rag.remedies import parse as parse_remedy
from kortty_rag.resource_files import resource_path

_log = logging.getLogger(__name__)

#: how deep a message inside a message inside a message is still translated
_MAX_DEPTH = 4


def core_words(text: str) -> str:
    """A message of the core in the app's language, each remedy in it (an operation, see
    :mod:`kortty_rag.remedies`) as the button or menu that does it. An English text without a
    remedy is shown as it is."""
    if not text:
        return str(text)
    language = current_language()
    if language == "en" and not _has_remedy(text):
        return str(text)
    return _core_cache(text, text.template if isinstance(text, Message) else None, language)


def _has_remedy(text: str) -> bool:
    if isinstance(text, Message):
        return bool(remedies_in(text))
    return "`kortty-rag" in text  # plain text read back from a file may name one


def _remedy(text: str) -> str | None:
    """``text`` in the app's words if it is a remedy (plain text too), else None."""
    remedy = text if isinstance(text, Remedy) else None
    if remedy is None and not isinstance(text, Message) and "`kortty-rag" in text:
        remedy = parse_remedy(text)
    if remedy is None:
        return None
    return remedy_words(remedy)


@functools.lru_cache(maxsize=4096)
def _core_cache(text: str, template: str | None, language: str) -> str:
    # keyed by the text and its template: two Messages with the same English text and template
    # carry the same values (the text is made of them); and by the language it is said in
    return _say(text, 0)


def _say(text: str, depth: int) -> str:
    remedy = _remedy(text)
    if remedy is not None:
        return remedy
    if isinstance(text, Message):
        if not text.values:
            return QCoreApplication.translate(CORE_CONTEXT, text.template)
        # values that are messages themselves are said too; any other value is data (a path, a
        # name, a number, the system's own words) and stays as it is
        said = {
            name: _say(value, depth + 1) if isinstance(value, Message) else value
            for name, value in text.values.items()
        }
        return _fill(text.template, said)
    plain = str(text)
    translated = QCoreApplication.translate(CORE_CONTEXT, plain)
    if translated != plain or depth >= _MAX_DEPTH:
        return translated
    for pattern, template in _templates():
        match = pattern.fullmatch(plain)
        if match is not None:  # what filled a field may be a message of its own, or data
            values = _values_of(template, match)
            return _fill(template, {name: _say(value, depth + 1) for name, value in values.items()})
    return plain


def _fill(template: str, said: dict[str, object]) -> str:
    german = QCoreApplication.translate(CORE_CONTEXT, template)
    try:
        return _LocaleFormatter().vformat(german, (), said)
    except (KeyError, IndexError, ValueError):  # a translation that names another field: English
        _log.warning("translation of %r does not fit its values", template)
        return _LocaleFormatter().vformat(template, (), said)


#: a value the core quoted with ``repr()``: one plain string in single quotes
_QUOTED = re.compile(r"'[^'\\\n]*'")


class _LocaleFormatter(string.Formatter):
    """``str.format`` with numbers in the app's locale (``1.234``, ``0,5``) and any format spec
    of a number ignored for a value that arrived as text (matched back from English)."""

    def convert_field(self, value: object, conversion: str | None) -> object:
        if conversion == "r" and isinstance(value, str) and current_language() == "de":
            return f"„{value}“"  # German quotes a name as German text does, not as Python does
        return super().convert_field(value, conversion)

    def format_field(self, value: object, format_spec: str) -> str:
        if isinstance(value, str):
            if current_language() == "de" and _QUOTED.fullmatch(value):
                return f"„{value[1:-1]}“"  # a name the core quoted with repr()
            return value
        locale = QLocale()
        if isinstance(value, int) and not isinstance(value, bool) and "," in format_spec:
            return locale.toString(value)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and format_spec == "g":
            return locale.toString(float(value), "g", 6)  # „2,5“, „30,5“
        if isinstance(value, float) and format_spec.endswith("%"):  # German: „50 %“
            digits = format_spec[:-1].rsplit(".", 1)[-1]
            number = locale.toString(value * 100, "f", int(digits) if digits.isdigit() else 6)
            return number + (" %" if current_language() == "de" else "%")
        if isinstance(value, float) and format_spec.endswith("f"):
            digits = format_spec[:-1].rsplit(".", 1)[-1]
            if "," in format_spec or digits.isdigit():
                number = locale.toString(value, "f", int(digits) if digits.isdigit() else 6)
                if "," not in format_spec:
                    number = number.replace(locale.groupSeparator(), "")
                return number
        return str(super().format_field(value, format_spec))


def _values_of(template: str, match: re.Match[str]) -> dict[str, str]:
    names = [name for _, name, _, _ in string.Formatter().parse(template) if name]
    return {name: match.group(f"f{i}") for i, name in enumerate(dict.fromkeys(names))}


@functools.cache
def _templates() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The core's templates with fields, most specific first, as patterns of their English text.

    Read from the translation source that ships beside the compiled file: it lists exactly the
    templates lupdate found in the core."""
    try:
        with resource_path("translations/kortty_rag_de.ts") as path:
            root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        _log.warning("the core's templates could not be read: %s", exc)
        return ()
    found: list[tuple[int, re.Pattern[str], str]] = []
    for context in root.iter("context"):
        if (context.findtext("name") or "") != CORE_CONTEXT:
            continue
        for message in context.iter("message"):
            template = message.findtext("source") or ""
            pattern, literal = _pattern(template)
            if pattern is not None and literal >= 4:  # "{a}: {b}" alone would match anything
                found.append((literal, pattern, template))
    found.sort(key=lambda entry: -entry[0])
    return tuple((pattern, template) for _, pattern, template in found)


def _pattern(template: str) -> tuple[re.Pattern[str] | None, int]:
    parts: list[str] = []
    literal = 0
    names: dict[str, int] = {}
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return None, 0
    for text, name, _, _ in parsed:
        parts.append(re.escape(text))
        literal += len(text)
        if name is None:
            continue
        if name in names:
            parts.append(f"(?P=f{names[name]})")
        else:
            names[name] = len(names)
            parts.append(f"(?P<f{names[name]}>.+?)")
    if not names:
        return None, literal
    return re.compile("".join(parts), re.DOTALL), literal
