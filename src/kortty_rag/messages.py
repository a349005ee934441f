"""Words the core says to people, written once in English and translatable by a front end
(docs/DESIGN.md "Languages and accessibility").

The core stays free of Qt: it marks each sentence with :func:`msg`, which returns a
:class:`Message` — a plain ``str`` holding the English text, so the CLI, the MCP server, logs and
JSON output use it unchanged — that also remembers the ``template`` it was made from and the
``values`` filled into it. The desktop app translates the template and fills in the values again
(``kortty_rag.gui.core_messages.core_words``); a value that is itself a :class:`Message` (a skip reason inside an
error) is translated the same way.

``pyside6-lupdate`` collects every ``msg("…")`` template into the translation file
(``scripts/translations.py`` names ``msg`` as an alias of ``QT_TR_NOOP``), so a template must be a
string literal — adjacent literals are fine, an f-string or a ``+`` is not — with ``{name}`` fields
filled from keyword arguments. Plural words do not belong in core messages ("files: 3", not
"3 file(s)"): the desktop app says counts with Qt's plural forms.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

_NO_VALUES: Mapping[str, object] = MappingProxyType({})


class Message(str):
    """English text that can be said again in another language: ``template`` with ``values``."""

    template: str
    values: Mapping[str, object]

    def __new__(cls, template: str, values: Mapping[str, object] = _NO_VALUES) -> Message:
        text = template.format_map(values) if values else template
        self = super().__new__(cls, text)
        self.template = template
        self.values = MappingProxyType(dict(values)) if values else _NO_VALUES
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickled across processes (the PDF worker)
        return (Message, (self.template, dict(self.values)))


def msg(template: str, /, **values: object) -> Message:
    """The English ``template`` with ``values`` filled in (``str.format``), translatable later."""
    return Message(template, values)


def human_size(size: int) -> Message:
    """A size in bytes as people read it: ``529 B``, ``1.9 KiB``, ``3.2 GiB`` (translatable)."""
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return (
                msg("{amount:.0f} {unit}", amount=value, unit=unit)
                if unit == "B"
                else msg("{amount:.1f} {unit}", amount=value, unit=unit)
            )
        value /= 1024
    return msg("{amount:.0f} {unit}", amount=size, unit="B")
