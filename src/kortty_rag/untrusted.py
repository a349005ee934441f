"""One rendering rule for untrusted strings on a terminal.

File names, folder names, excerpt text and error messages that embed them come from files anyone may
have written. Written raw to a terminal they can forge lines (a newline in a file name makes a fake row
of the review table), run escape sequences (ESC, CSI, OSC set the colour or the window title) or
reorder what the reader sees (U+202E RIGHT-TO-LEFT OVERRIDE). So every character a terminal would not
show as itself is written as a visible escape, exactly as Python's ``repr`` does it:

- the categories Cc (C0 and C1 controls, DEL, NEL), Cf (format: bidirectional controls, zero-width
  characters, invisible operators, tag characters, …), Zl and Zp (line and paragraph separators), Zs
  other than the ASCII space (no-break and other look-alike spaces), Cs (lone surrogates, which is how
  Python spells file-name bytes that are not UTF-8), Co (private use) and Cn (unassigned: a later
  Unicode version may make them format characters);
- and the backslash itself, so that an escape in the output always means an escaped character.

The escapes are ``\\n``, ``\\r``, ``\\t``, ``\\\\``, ``\\xNN``, ``\\uNNNN`` and ``\\UNNNNNNNN`` — the syntax of
Python's ``unicode_escape`` codec, which decodes the output back to the original string. The rule is
judged by :mod:`unicodedata` categories, never by a hand-written list.

A model's streamed answer is prose and code for a reader rather than a name, so
:func:`strip_for_terminal` removes what is dangerous in it instead of escaping everything.
"""

from __future__ import annotations

import functools
import unicodedata

#: categories a terminal does not show as a character of its own
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})
_SHORT_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


@functools.lru_cache(maxsize=4096)
def _escaped_char(ch: str) -> str:
    if ch in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[ch]
    if ch == " " or unicodedata.category(ch) not in UNSAFE_CATEGORIES:
        return ch
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escape_line(text: str) -> str:
    """``text`` as one terminal line: every unsafe character, newlines and tabs included, and every
    backslash written as a visible escape."""
    if text.isprintable() and "\\" not in text:  # the common case: nothing to escape
        return text
    return "".join(map(_escaped_char, text))


def escape_lines(text: str) -> str:
    """Multi-line ``text`` (an excerpt, the context block) for a terminal: its newlines stay line
    breaks and its tabs stay tabs; everything else is escaped as by :func:`escape_line`."""
    return "\n".join(
        "\t".join(escape_line(part) for part in line.split("\t")) for line in text.split("\n")
    )


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escape_json_text(dumped: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with every unsafe character written as
    a JSON ``\\uXXXX`` escape. ``json.dumps`` escapes only the C0 controls; C1 controls, bidirectional
    controls and line separators would otherwise reach the terminal raw. The JSON value is unchanged:
    unsafe characters can only occur inside strings, where the escape decodes to the same character."""
    return "\n".join(
        line if line.isprintable() else "".join(map(_json_char, line))
        for line in dumped.split("\n")
    )


def _json_char(ch: str) -> str:
    return (
        ch if ch == " " or unicodedata.category(ch) not in UNSAFE_CATEGORIES else _json_escape(ch)
    )


#: the bidirectional classes of the embedding, override and isolate controls (U+202A–U+202E,
#: U+2066–U+2069): they reorder the rest of a line on the terminal
_BIDI_CONTROL_CLASSES = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})


@functools.lru_cache(maxsize=4096)
def _streamed_char(ch: str) -> str:
    category = unicodedata.category(ch)
    if category == "Cc":
        return ch if ch in "\n\t" else ""
    if category in ("Zl", "Zp"):
        return "\n"
    return "" if unicodedata.bidirectional(ch) in _BIDI_CONTROL_CLASSES else ch


def strip_for_terminal(text: str) -> str:
    """A model's streamed answer for the terminal. It is prose and code for a reader, so backslashes
    and ordinary format characters (joiners in emoji and Indic scripts) stay, and nothing is escaped:
    control characters other than newline and tab are removed (no escape sequence can run, no carriage
    return can overwrite a line), line and paragraph separators become newlines, and the bidirectional
    embedding, override and isolate controls are removed (they would reorder what the reader sees)."""
    if text.isprintable():
        return text
    return "".join(map(_streamed_char, text))
