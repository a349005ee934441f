"""An independent judge of the context block: what a model-facing normaliser could read into it.

It shares no code and no table with ``kortty_rag.retrieval``: Unicode data comes from ICU (PyICU, bundled
ICU 78: its ``NFKC_Casefold`` normaliser, its character categories and names, and its
``SpoofChecker`` skeleton built from its own copy of Unicode's ``confusables.txt``), while the product
uses Python's ``unicodedata`` and the ``confusable-homoglyphs`` data.

:func:`view` is the strictest reading we assume a model could make of a text: format characters and
marks removed, NFKC, case folding, the UTS #39 confusables skeleton, case folding again. In that view a
*bracket* is any character that looks like one to ICU — ASCII brackets, parentheses and braces, every
opening, closing, initial and final punctuation mark (``❰ ⧼ 〘 ⟮ « ‹``), and symbols whose name says
bracket, angle, chevron, less-than, precedes or pointing. :func:`forgeries` then asks: does the block show
a wrapper tag, a ``[Rn]`` marker or a chat-template token that we did not put there?
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
_BRACKET_NAME = re.compile(
    r"ANGLE|BRACKET|PARENTHES|CHEVRON|LESS-THAN|GREATER-THAN|PRECEDES|SUCCEEDS|POINTING|ARROWHEAD"
)
BRACKET = "\x01"  # stands for every non-ASCII bracket in the view


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


def view(text: str) -> str:
    """``text`` as the strictest model-facing normaliser reads it (brackets not yet replaced)."""
    folded = _NFKC_CF.normalize(_visible(text))
    skeleton = _CHECKER.getSkeleton(0, folded)
    return _visible(_NFKC_CF.normalize(_visible(skeleton)))


def _with_brackets(text: str) -> str:
    return "".join(BRACKET if c >= "\x80" and _is_bracket(c) else c for c in view(text))


def _alternatives(words: list[str]) -> str:
    return "|".join(re.escape(view(w)) for w in sorted(words, key=len, reverse=True))


_B = f"[<>\\[\\](){{}}{BRACKET}]"
_ANGLE = f"[<>\\[\\]{BRACKET}]"
_SLASH = re.escape(view("/"))
_BAR = re.escape(view("|"))
_DIGITS = "[\\d" + re.escape("".join(sorted({view(d) for d in "0123456789"}))) + "]"
_WRAPPER = re.compile(
    f"{_B}\\s*(?P<slash>{_SLASH}\\s*)?{re.escape(view('retrieved'))}[\\W_]*{re.escape(view('context'))}"
)
_MARKER = re.compile(  # a marker is written on one line
    f"{_B}[^\\S\\n]*(?:{_SLASH})?[^\\S\\n]*{re.escape(view('r'))}[^\\S\\n]*{_DIGITS}+[^\\S\\n]*{_B}"
)
# special tokens of common chat templates (ChatML, Llama 2/3, Gemma, Mistral, GPT)
_SPECIAL = [
    "im_start",
    "im_end",
    "endoftext",
    "eot_id",
    "start_header_id",
    "end_header_id",
    "start_of_turn",
    "end_of_turn",
    "inst",
    "sys",
    "system",
    "user",
    "assistant",
    "s",
]
_SP = "[^\\S\\n]*"  # a template token is written on one line
_NAMED_TOKEN = re.compile(
    f"{_ANGLE}{_SP}(?:{_BAR}{_SP})?(?:{_SLASH})?{_SP}(?:{_alternatives(_SPECIAL)}){_SP}(?:{_BAR}{_SP})?{_ANGLE}"
    f"|{_ANGLE}{{2}}{_SP}(?:{_SLASH})?{_SP}{re.escape(view('sys'))}{_SP}{_ANGLE}{{2}}"
)
_BAR_TOKEN = re.compile(r"<\|[^|<>\n]{0,40}\|>")  # <|anything|>, read without the skeleton


def _markers(seen: str) -> Counter[str]:
    return Counter(re.sub(r"\s", "", m) for m in _MARKER.findall(seen))


def _wrapper_tags(seen: str) -> tuple[int, int]:
    tags = list(_WRAPPER.finditer(seen))
    closing = sum(1 for t in tags if t.group("slash"))
    return len(tags) - closing, closing


def template_tokens_in(text: str) -> list[str]:
    found = _NAMED_TOKEN.findall(_with_brackets(text))
    return found + _BAR_TOKEN.findall(_NFKC_CF.normalize(_visible(text)))


def structure_in(text: str) -> tuple[int, int, Counter[str]]:
    """(opening wrapper tags, closing wrapper tags, markers) as the view shows them."""
    seen = _with_brackets(text)
    return (*_wrapper_tags(seen), _markers(seen))


def forgeries(block: str, markers: list[str]) -> list[str]:
    """Everything in ``block`` that reads as structure we did not put there (empty when none): the
    block must have one opening and one closing wrapper, on its first and last line, and exactly the
    markers ``markers`` (``"R1"``, …) plus the preamble's example ``[R1]``."""
    problems = []
    seen = _with_brackets(block)
    tags = _wrapper_tags(seen)
    if tags != (1, 1):
        problems.append(f"wrapper tags (opening, closing) = {tags}")
    expected = Counter(re.sub(r"\s", "", _with_brackets(f"[{m}]")) for m in ["R1", *markers])
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


@functools.cache
def lookalikes() -> dict[str, tuple[str, ...]]:
    """For every character that matters to the block's structure, the characters (assigned in
    Python's Unicode database, so the product can know them) that ICU reads as that character."""
    import unicodedata

    wanted = set("<>[]()/|_-") | set("retrievdcontxims_ahyuplgk0123456789")
    targets = {view(c) for c in wanted}
    found: dict[str, list[str]] = {t: [] for t in targets}
    for cp in range(0x80, 0x30000):
        ch = chr(cp)
        if unicodedata.category(ch) in {"Cn", "Cs", "Co"}:
            continue
        seen = view(ch)
        if seen in targets:
            found[seen].append(ch)
        elif len(seen) == 1 and not seen.isascii() and _is_bracket(seen):
            for c in "<>[]":
                found[view(c)].append(ch)
    chars_of = {c: found[view(c)] for c in wanted}
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
