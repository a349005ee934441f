"""An independent judge of the context block: what a model-facing normaliser could read into it.

It shares no code and no table with ``kortty_rag``: Unicode data comes from ICU (PyICU, bundled ICU
78: its ``NFKC_Casefold`` normaliser, its character categories, scripts and names, and its
``SpoofChecker`` skeleton built from its own copy of Unicode's ``confusables.txt``), while the product
uses Python's ``unicodedata`` and the ``confusable-homoglyphs`` data.

:func:`readings` is the strictest reading we assume a model could make of one character, repeated
until nothing changes: format characters and marks removed, NFKC with case folding, the UTS #39
confusables skeleton (of the character as written and case-folded), and the letter or digit its
Unicode name gives it (``Ꝛ`` LATIN CAPITAL LETTER R ROTUNDA, ``ᚱ`` RUNIC LETTER RAIDO RAD REID R,
``❼`` … DIGIT SEVEN; not Han, Kana, Hangul or Bopomofo, whose names romanise syllables, nor the
Indic vocalic letters, which name a vowel sound). A
character may have several readings (``Ꝛ`` imitates ``2`` and is named an ``R``): :func:`view` writes
such a character as a marker character of its own, and the patterns accept it wherever any of its
readings fits. In that view a *bracket* is any character that looks like one to ICU — ASCII brackets,
parentheses and braces, every opening, closing, initial and final punctuation mark (``❰ ⧼ 〘 ⟮ « ‹``),
and symbols whose name says bracket, angle, chevron, less-than, precedes or pointing.
:func:`forgeries` then asks: does the block show a wrapper tag, a ``[Rn]`` marker or a chat-template
token that we did not put there?
"""

from __future__ import annotations

import functools
import re
from collections import Counter

import icu

_NFKC_CF = icu.Normalizer2.getNFKCCasefoldInstance()
_NFD = icu.Normalizer2.getNFDInstance()
_CHECKER = icu.SpoofChecker()
_C = icu.UCharCategory
_INVISIBLE = {_C.FORMAT_CHAR, _C.NON_SPACING_MARK, _C.ENCLOSING_MARK}
_BRACKET_TYPES = {
    _C.START_PUNCTUATION,
    _C.END_PUNCTUATION,
    _C.INITIAL_PUNCTUATION,
    _C.FINAL_PUNCTUATION,
}
_SYMBOL_TYPES = {_C.MATH_SYMBOL, _C.OTHER_SYMBOL, _C.MODIFIER_SYMBOL}
_LETTER_TYPES = {
    _C.UPPERCASE_LETTER,
    _C.LOWERCASE_LETTER,
    _C.TITLECASE_LETTER,
    _C.MODIFIER_LETTER,
    _C.OTHER_LETTER,
}
_NUMBER_TYPES = {_C.DECIMAL_DIGIT_NUMBER, _C.LETTER_NUMBER, _C.OTHER_NUMBER}
_BRACKET_NAME = re.compile(
    r"ANGLE|BRACKET|PARENTHES|CHEVRON|LESS-THAN|GREATER-THAN|PRECEDES|SUCCEEDS|POINTING|ARROWHEAD"
)
BRACKET = "\x01"  # stands for every non-ASCII bracket in the view
# scripts whose letter names romanise syllables rather than name a letter that looks alike
_SYLLABIC_SCRIPTS = {"Hani", "Hira", "Kana", "Hang", "Bopo"}
_TRANSFORMED = {"TURNED", "REVERSED", "INVERTED", "SIDEWAYS"}
_NUMBER_WORDS = ["ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"]
_AMBIGUOUS_BASE = 0xF0000  # the view's characters for several readings (plane 15, private use)


@functools.lru_cache(maxsize=200_000)
def _is_invisible(ch: str) -> bool:
    return icu.Char.charType(ch) in _INVISIBLE or icu.Char.hasBinaryProperty(
        ch, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT
    )


def _visible(text: str) -> str:
    return "".join(c for c in _NFD.normalize(text) if not _is_invisible(c))


@functools.lru_cache(maxsize=200_000)
def _is_bracket(ch: str) -> bool:
    kind = icu.Char.charType(ch)
    if kind in _BRACKET_TYPES:
        return True
    return kind in _SYMBOL_TYPES and _BRACKET_NAME.search(icu.Char.charName(ch) or "") is not None


def _named(ch: str) -> str:
    """The ASCII letter or digit ICU's name of ``ch`` gives it, or ""."""
    kind = icu.Char.charType(ch)
    if ch < "\x80" or not (kind in _LETTER_TYPES or kind in _NUMBER_TYPES or kind in _SYMBOL_TYPES):
        return ""
    if icu.Script.getScript(ch).getShortName() in _SYLLABIC_SCRIPTS:
        return ""
    words = (icu.Char.charName(ch) or "").split()
    if len(words) >= 2 and words[-2] == "DIGIT" and words[-1] in _NUMBER_WORDS:
        return str(_NUMBER_WORDS.index(words[-1]))
    if "LETTER" not in words:
        return ""
    after = words[words.index("LETTER") + 1 :]
    if "LATIN" in words or words[0] == "MODIFIER":  # the first single letter after LETTER
        single = [i for i, w in enumerate(after) if len(w) == 1 and w.isalpha()]
        if not single or _TRANSFORMED & set(after[: single[0]]):  # "… REVERSED R" is no R
            return ""
        return after[single[0]].lower()
    if "VOCALIC" in after:  # an Indic vowel sound ("VOCALIC R"), not a letter that looks alike
        return ""
    last = after[-1] if after else ""
    return last.lower() if len(last) == 1 and last.isalpha() else ""


def _steps(ch: str) -> set[str]:
    folded = _visible(_NFKC_CF.normalize(ch))
    found = {
        folded,
        _visible(_CHECKER.getSkeleton(0, ch)),
        _visible(_CHECKER.getSkeleton(0, folded)),
        _named(ch) or ch,
    }
    found.discard(ch)
    return found


def _fixed(ch: str, seen: frozenset[str]) -> set[str]:
    if _is_invisible(ch):
        return {""}
    if ch in seen:
        return {ch}
    steps = _steps(ch)
    if not steps:
        return {ch}
    out: set[str] = set()
    for step in steps:
        variants = {""}
        for c in step:
            variants = {v + r for v in variants for r in _fixed(c, seen | {ch})}
            variants = set(sorted(variants)[:16])
        out |= variants
    return out


@functools.lru_cache(maxsize=300_000)
def readings(ch: str) -> frozenset[str]:
    """Every string ``ch`` may be read as (non-ASCII brackets as :data:`BRACKET`); readings in ASCII
    win over leftover non-ASCII letters, which only say "some letter"."""
    if ch < "\x80":  # an ASCII character is what it is: NFKC_Casefold, then its skeleton
        return frozenset({_visible(_NFKC_CF.normalize(_CHECKER.getSkeleton(0, ch.lower())))})
    found = {
        "".join(BRACKET if c >= "\x80" and _is_bracket(c) else c for c in r)
        for r in _fixed(ch, frozenset())
    }
    if _is_bracket(ch):
        found.add(BRACKET)
    known = {r for r in found if all(c < "\x80" or c == BRACKET for c in r)}
    return frozenset(known or {min(found)})


_AMBIGUOUS: dict[frozenset[str], str] = {}


def _seen_char(ch: str) -> str:
    read = readings(ch)
    if len(read) == 1:
        return next(iter(read))
    if read not in _AMBIGUOUS:
        _AMBIGUOUS[read] = chr(_AMBIGUOUS_BASE + len(_AMBIGUOUS))
    return _AMBIGUOUS[read]


def view(text: str) -> str:
    """``text`` as the strictest model-facing normaliser reads it: each character as its reading, a
    character with several readings as a view character of its own (:func:`one_of`)."""
    return "".join(map(_seen_char, text))


def one_of(reading: str) -> str:
    """A pattern for ``reading`` (one character of a view, or several): itself, or any view
    character of several readings among which it is."""
    others = sorted(c for read, c in _AMBIGUOUS.items() if reading in read)
    if len(reading) == 1:
        return "[" + "".join(re.escape(c) for c in [reading, *others]) + "]"
    each = "".join(one_of(c) for c in reading)
    return each if not others else f"(?:{each}|[{''.join(others)}])"


def _word(word: str) -> str:
    """A pattern for ``word`` in a view: each character by its reading."""
    return "".join(one_of(view(c)) for c in word)


def _alternatives(words: list[str]) -> str:
    return "|".join(_word(w) for w in sorted(words, key=len, reverse=True))


# special tokens of common chat templates (ChatML, Llama 2/3, Gemma, Mistral, GPT, Qwen3/Hermes
# tool results, GLM), written out here from the templates themselves, not from the product's data
_SPECIAL = [
    "im_start",
    "im_end",
    "endoftext",
    "eot_id",
    "start_header_id",
    "end_header_id",
    "start_of_turn",
    "end_of_turn",
    "tool_response",
    "tool_call",
    "system_prompt",
    "tool_content",
    "gmask",
    "sop",
    "inst",
    "sys",
    "system",
    "user",
    "assistant",
    "s",
]


class _Patterns:
    """The view's patterns, built anew whenever a new view character for several readings appeared."""

    def __init__(self) -> None:
        self.size = -1
        self.compile()

    def compile(self) -> None:
        self.size = len(_AMBIGUOUS)
        brackets = "(?:" + "|".join(one_of(c) for c in "<>[](){}" + BRACKET) + ")"
        angle = "(?:" + "|".join(one_of(c) for c in "<>[]" + BRACKET) + ")"
        slash, bar = one_of(view("/")), one_of(view("|"))
        digits = sorted({view(d) for d in "0123456789"} | set("0123456789"))
        digit = "(?:\\d|" + "|".join(one_of(d) for d in digits) + ")"
        sp = "[^\\S\\n]*"  # a marker or a template token is written on one line
        self.wrapper = re.compile(
            f"{brackets}\\s*(?P<slash>{slash}\\s*)?{_word('retrieved')}(?:[\\W_])*{_word('context')}"
        )
        self.marker = re.compile(
            f"{brackets}{sp}(?:{slash})?{sp}{one_of(view('r'))}{sp}{digit}+{sp}{brackets}"
        )
        self.named_token = re.compile(
            f"{angle}{sp}(?:{bar}{sp})?(?:{slash})?{sp}(?:{_alternatives(_SPECIAL)}){sp}(?:{bar}{sp})?{angle}"
            f"|{angle}{{2}}{sp}(?:{slash})?{sp}{_word('sys')}{sp}{angle}{{2}}"
        )

    def current(self) -> _Patterns:
        if self.size != len(_AMBIGUOUS):
            self.compile()
        return self


_PATTERNS = _Patterns()
_BAR_TOKEN = re.compile(r"<\|[^|<>\n]{0,40}\|>")  # <|anything|>, read without the skeleton


def _markers(seen: str) -> Counter[str]:
    found = _PATTERNS.current().marker.findall(seen)
    return Counter(re.sub(r"\s", "", m) for m in found)


def _wrapper_tags(seen: str) -> tuple[int, int]:
    tags = list(_PATTERNS.current().wrapper.finditer(seen))
    closing = sum(1 for t in tags if t.group("slash"))
    return len(tags) - closing, closing


def template_tokens_in(text: str) -> list[str]:
    seen = view(text)
    found = _PATTERNS.current().named_token.findall(seen)
    return found + _BAR_TOKEN.findall(_NFKC_CF.normalize(_visible(text)))


def structure_in(text: str) -> tuple[int, int, Counter[str]]:
    """(opening wrapper tags, closing wrapper tags, markers) as the view shows them."""
    seen = view(text)
    return (*_wrapper_tags(seen), _markers(seen))


def forgeries(block: str, markers: list[str]) -> list[str]:
    """Everything in ``block`` that reads as structure we did not put there (empty when none): the
    block must have one opening and one closing wrapper, on its first and last line, and exactly the
    markers ``markers`` (``"R1"``, …) plus the preamble's example ``[R1]``."""
    problems = []
    seen = view(block)
    tags = _wrapper_tags(seen)
    if tags != (1, 1):
        problems.append(f"wrapper tags (opening, closing) = {tags}")
    expected = Counter(re.sub(r"\s", "", view(f"[{m}]")) for m in ["R1", *markers])
    found = _markers(seen)
    if found != expected:
        problems.append(f"markers {dict(found - expected)} extra, {dict(expected - found)} missing")
    tokens = template_tokens_in(block)
    if tokens:
        problems.append(f"template tokens {tokens}")
    lines = seen.splitlines()
    if (
        not lines
        or lines[0] != view("<retrieved_context>")
        or lines[-1] != view("</retrieved_context>")
    ):
        problems.append("the wrapper is not on the first and last line")
    return problems


def _assigned_in_python(cp: int) -> bool:
    """Assigned in Python's Unicode database too, so the product can know the character."""
    import unicodedata

    return unicodedata.category(chr(cp)) not in {"Cn", "Cs", "Co"}


@functools.cache
def reading_table() -> dict[str, tuple[str, ...]]:
    """For every reading that is one ASCII character or :data:`BRACKET`, the characters outside
    ASCII (assigned in ICU's and in Python's Unicode database) that may be read as it."""
    found: dict[str, list[str]] = {}
    for cp in range(0x80, 0x110000):
        ch = chr(cp)
        if icu.Char.charType(ch) in {_C.UNASSIGNED, _C.SURROGATE, _C.PRIVATE_USE_CHAR}:
            continue
        if not _assigned_in_python(cp):
            continue
        for reading in readings(ch):
            if len(reading) == 1:
                found.setdefault(reading, []).append(ch)
    return {r: tuple(chars) for r, chars in found.items()}


@functools.cache
def lookalikes() -> dict[str, tuple[str, ...]]:
    """For every character that matters to the block's structure, the characters (assigned in
    Python's Unicode database, so the product can know them) that ICU reads as that character
    (every non-ASCII bracket for ``< > [ ]``)."""
    wanted = set("<>[]()/|_-") | set("retrievdcontxims_ahyuplgk0123456789")
    table = reading_table()
    chars_of = {c: [*table.get(view(c), ())] for c in wanted}
    for c in "<>[]":
        chars_of[c] += [ch for ch in table.get(BRACKET, ()) if ch not in chars_of[c]]
    return {c: tuple(chars) for c, chars in chars_of.items() if chars}


@functools.cache
def invisibles() -> tuple[str, ...]:
    """Every format character, nonspacing and enclosing mark assigned in Python's Unicode database."""
    import unicodedata

    return tuple(
        chr(cp)
        for cp in range(0x80, 0x110000)
        if unicodedata.category(chr(cp)) in {"Cf", "Mn", "Me"} and _is_invisible(chr(cp))
    )
