"""The checking form (*skeleton*) of untrusted text: what a tokenizer or a model could read into it.

Every step is derived from Unicode data, not from a hand-made list of look-alikes. A character is
folded to a fixed point, step after step until nothing changes:

- format characters (category Cf: zero-width, bidirectional controls, tag characters, interlinear
  annotation, shorthand and notation format controls, …), nonspacing and enclosing marks (Mn, Me:
  combining accents, underlines, variation selectors) and the Hangul fillers are dropped — they are
  invisible or only decorate the character before them;
- compatibility normalisation (NFKC) folds width variants, ligatures and mathematical alphabets;
- case folding;
- Unicode's confusables data (UTS #39 ``confusables.txt``, as bundled by ``confusable-homoglyphs``)
  maps each look-alike, as written and case-folded, to the prototype it imitates: Cyrillic ``е`` →
  ``e``, Armenian ``օ`` → ``o``, ``‹`` → ``<``, ``∕`` → ``/``, ``m`` → ``rn``, ``1`` → ``l``; a
  non-letter that imitates ``l`` (``|``, ``∣``, ``│``) reads as ``|``;
- the letter or digit the character's Unicode name gives it: a Latin letter with a stroke, hook,
  tail or any other addition (``đ``, ``ɽ``, ``ꝛ`` LATIN SMALL LETTER R ROTUNDA, ``ʀ`` LATIN LETTER
  SMALL CAPITAL R), a letter of another script whose name ends in the Latin letter it stands for
  (``ᚱ`` RUNIC LETTER RAIDO RAD REID R, ``🇷`` REGIONAL INDICATOR SYMBOL LETTER R), a digit by its
  name (``❼`` DINGBAT NEGATIVE CIRCLED DIGIT SEVEN). Han, Kana, Hangul and Bopomofo are left out:
  their names romanise syllables (``ㄙ`` BOPOMOFO LETTER S), not letters that look alike; so are
  the Indic vocalic letters (``ऋ`` DEVANAGARI LETTER VOCALIC R), which name a vowel sound;
- every other bracket-like character outside ASCII (opening, closing and quotation punctuation, any
  symbol) reads as :data:`BRACKET`, one placeholder for "a sign that may be read as a bracket":
  ornamental and mathematical brackets (``❰ ⧼ 〘 ⟮``) have no prototype among ``< > [ ]``, yet a
  model may take them for one.

The steps branch, so a character may have more than one reading: ``Ꝛ`` (LATIN CAPITAL LETTER R
ROTUNDA) imitates ``2`` in the confusables data and is an ``R`` by its name; ``Ʀ`` (LATIN LETTER
YR) imitates ``R`` and case-folds to ``ʀ``, an ``r`` by name. :func:`readings` gives them all. In the
skeleton a character with one reading is that reading; a character with several becomes a
*placeholder* (a private-use character, :func:`placeholders`) that stands for all of them, and the
patterns accept it wherever any of its readings fits (:func:`reading_class`, :func:`spelled`).

Patterns are compiled against the skeleton of their own keywords (:func:`skeleton_of`), so a keyword
and every look-alike spelling of it meet in the same form.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path

from kortty_rag.retrieval.skeleton_cache import cached_table

BRACKET = "\ue000"  # a private-use character: never produced by folding real text
#: the reading "some character outside ASCII" of a character that its name reads as a letter
UNKNOWN = "\ufffd"
#: where the placeholders of characters with several readings start (private use, after BRACKET)
_FIRST_PLACEHOLDER = 0xE001
_DROPPED = frozenset({"Cf", "Mn", "Me"})
# opening, closing and quotation punctuation and every symbol; not "。", "、", "—" (Po, Pd)
_BRACKET_LIKE = frozenset({"Ps", "Pe", "Pi", "Pf", "Sm", "So", "Sk", "Sc"})
# Default-ignorable letters (category Lo) that render as nothing; Python's unicodedata has no
# Default_Ignorable_Code_Point property, and these four are all of its letters.
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0")
# Han, Kana, Hangul (syllables and jamo) and Bopomofo: names that romanise syllables
_SYLLABIC = re.compile(
    "[\u1100-\u11ff\u2e80-\u3006\u3008-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff"
    "\U00020000-\U0003ffff]"
)
_NUMBERS = ("ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE")
# "… DIGIT SEVEN" as the end of a number's or symbol's name (not "… WITH … DIGIT TWO ABOVE")
_DIGIT_NAME = re.compile(f"(?:^|.* )DIGIT ({'|'.join(_NUMBERS)})$")
# "LATIN SMALL LETTER R ROTUNDA", "LATIN LETTER SMALL CAPITAL R", "LATIN SMALL LETTER LONG S",
# "NEGATIVE SQUARED LATIN CAPITAL LETTER R": the first single letter after LETTER; not a turned,
# reversed, inverted or sideways one ("ᴙ" LATIN LETTER SMALL CAPITAL REVERSED R looks like "я")
_LATIN_NAME = re.compile(r"\bLETTER\b(?: [A-Z-]{2,})*? ([A-Z])(?: |$)")
_TURNED = frozenset({"TURNED", "REVERSED", "INVERTED", "SIDEWAYS"})
# "RUNIC LETTER RAIDO RAD REID R", "REGIONAL INDICATOR SYMBOL LETTER R": a name ending in the letter
_OTHER_NAME = re.compile(r"\bLETTER\b.* ([A-Z])$")
_MAX_READINGS = 16  # a string of several characters with several readings each: enough variants


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character of Unicode's confusables data mapped to the prototype of its class.

    ``confusable-homoglyphs`` stores the data as an undirected graph (every ``source → prototype``
    line of ``confusables.txt`` as an edge both ways). Prototypes are never sources, so each class is
    a star around its prototype: the member with the most neighbours (ties: the ASCII one)."""
    raw = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    data: dict[str, list[dict[str, str]]] = json.loads(raw)
    neighbours: defaultdict[str, set[str]] = defaultdict(set)
    for char, entries in data.items():
        for entry in entries:
            neighbours[char].add(entry["c"])
            neighbours[entry["c"]].add(char)
    prototypes: dict[str, str] = {}
    done: set[str] = set()
    for node in sorted(neighbours):
        if node in done:
            continue
        component = {node}
        pending = [node]
        while pending:
            for other in neighbours[pending.pop()] - component:
                component.add(other)
                pending.append(other)
        done |= component
        hub = max(sorted(component), key=lambda n: (len(neighbours[n]), n.isascii(), -len(n)))
        prototypes.update((m, hub) for m in component if len(m) == 1 and m != hub)
    return prototypes


def _drop_marks(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if unicodedata.category(c) not in _DROPPED)


def _without_marks(text: str) -> str:
    """``text`` in NFKC, case-folded, with every format character and mark removed (before case
    folding too: "ᾐ" folds to "ἐι" with its iota subscript, a mark, turned into a letter)."""
    return unicodedata.normalize("NFKC", _drop_marks(_drop_marks(text).casefold()))


def name_reading(ch: str) -> str:
    """The ASCII letter or digit that ``ch``'s Unicode name says it is ("" when it says none)."""
    if ch.isascii() or _SYLLABIC.match(ch) or unicodedata.category(ch)[0] not in "LNS":
        return ""
    name = unicodedata.name(ch, "")
    digit = _DIGIT_NAME.match(name)
    if digit:
        return str(_NUMBERS.index(digit.group(1)))
    words = name.split()
    if "LATIN" in words or name.startswith("MODIFIER LETTER"):
        letter = _LATIN_NAME.search(name)
        if letter and _TURNED & set(name[: letter.start(1)].split()):
            return ""
    elif "VOCALIC" in words:  # "DEVANAGARI LETTER VOCALIC R" names a vowel sound, not an R
        return ""
    else:
        letter = _OTHER_NAME.search(name)
    return letter.group(1).lower() if letter else ""


def _next(ch: str, named: bool) -> set[str]:
    """What one step of folding makes of ``ch`` (empty when ``ch`` is a fixed point): without marks
    in NFKC, as written ("Ἐ" → "Ε", whose prototype is "E") and case-folded ("Ʀ" → "ʀ"), its
    prototype, and (``named``) its letter by name."""
    if (
        unicodedata.is_normalized("NFKD", ch)
        and ch.casefold() == ch
        and ch not in _prototypes()
        and not (named and name_reading(ch))
    ):
        return set()  # most of Unicode: nothing to fold
    found = {
        unicodedata.normalize("NFKC", _drop_marks(ch)),
        _without_marks(ch),
        _prototypes().get(ch, ch),
        (name_reading(ch) if named else "") or ch,
    }
    found.discard(ch)
    return found


def _expand(text: str, active: frozenset[str], named: bool) -> set[str]:
    variants = {""}
    for c in text:
        variants = {v + r for v in variants for r in _fixed_points(c, named, active)}
        if len(variants) > _MAX_READINGS:
            variants = set(sorted(variants)[:_MAX_READINGS])
    return variants


def _fixed_points(ch: str, named: bool, active: frozenset[str] = frozenset()) -> frozenset[str]:
    """Every string ``ch`` folds to when the steps are repeated until nothing changes."""
    if ch in _FILLERS or unicodedata.category(ch) in _DROPPED:
        return frozenset({""})
    if not active:
        return _fixed_points_cached(ch, named)
    if ch in active:  # a cycle ("⼈" → "人" → "⼈"): this branch ends here
        return frozenset({ch})
    steps = _next(ch, named)
    if not steps:
        return frozenset({ch})
    inner = active | {ch}
    return frozenset(itertools.chain.from_iterable(_expand(s, inner, named) for s in steps))


@functools.lru_cache(maxsize=200_000)
def _fixed_points_cached(ch: str, named: bool) -> frozenset[str]:
    steps = _next(ch, named)
    if not steps:
        return frozenset({ch})
    active = frozenset({ch})
    return frozenset(itertools.chain.from_iterable(_expand(s, active, named) for s in steps))


def _known(found: Iterable[str]) -> set[str]:
    """The readings in ASCII (brackets included): those that say which character it is."""
    return {r for r in found if all(c < "\x80" or c == BRACKET for c in r)}


def _ascii_fixed_point(ch: str) -> str:
    text = ch
    for _ in range(4):  # "%" → "º/₀" → "o/0" → "o/o"
        mapped = _without_marks("".join(_prototypes().get(c, c) for c in _without_marks(text)))
        if mapped == text:
            break
        text = mapped
    return text


def _as_bracket(ch: str, text: str) -> str:
    """``text`` (a reading of ``ch``) with every non-ASCII bracket-like character as :data:`BRACKET`,
    judged on the character as written too: "。" (Po) folds to a modifier symbol, yet is no bracket."""
    if unicodedata.category(ch) not in _BRACKET_LIKE:
        return text
    return "".join(
        BRACKET if c >= "\x80" and unicodedata.category(c) in _BRACKET_LIKE else c for c in text
    )


@functools.lru_cache(maxsize=200_000)
def readings(ch: str) -> frozenset[str]:
    """Every skeleton ``ch`` may be read as: its fixed points, with non-ASCII brackets as
    :data:`BRACKET` and a non-letter that reads as ``l`` as ``|``. Readings in ASCII (or brackets)
    win over leftover non-ASCII letters, which only say "some letter"; a bracket-like character
    outside ASCII (punctuation or symbol) is also what it looks like, a bracket."""
    if ch.isascii():  # what it is: case-folded, then its prototype ("1" → "l")
        found = {_ascii_fixed_point(ch)}
    else:
        found = {_as_bracket(ch, r) for r in _fixed_points(ch, named=True)}
    if unicodedata.category(ch)[0] not in "LN":
        found = {"|" if r == "l" else r for r in found}  # "|", "∣", "│": a bar, not a letter
        if not ch.isascii() and unicodedata.category(ch) in _BRACKET_LIKE:
            found.add(BRACKET)  # also what it looks like: "❳" imitates ")", "🇷" is an "r"
    known = _known(found)
    plain = {_as_bracket(ch, r) for r in _fixed_points(ch, named=False)}
    name = unicodedata.name(ch, "")
    latin = "LATIN" in name.split() or name.startswith("MODIFIER LETTER")
    if known - _known(plain) and not any(r.isalnum() for r in _known(plain)) and not latin:
        # an ASCII letter or digit by a name only (its own or a look-alike's), outside the Latin
        # script: newer confusables data may read it as another one or a bracket (ICU 78 reads
        # "𞣈" MENDE KIKAKUI DIGIT TWO as "<"), so it is "some character outside ASCII" as well
        known.add(UNKNOWN)
    return frozenset(known or {min(found)})


def is_hidden(ch: str) -> bool:
    """An invisible character: a format character (Cf) or a Hangul filler."""
    return ch in _FILLERS or unicodedata.category(ch) == "Cf"


@functools.cache
def _ambiguous() -> dict[str, frozenset[str]]:
    """Every character with more than one reading (:func:`fold_all`), kept between processes
    (:mod:`kortty_rag.retrieval.skeleton_cache`)."""
    return cached_table(Path(__file__), fold_all)


def fold_all() -> dict[str, frozenset[str]]:
    """Every character with more than one reading, found by folding all of Unicode."""
    found = {}
    prototypes = _prototypes()
    for cp in range(0x80, 0x110000):
        ch = chr(cp)
        category = unicodedata.category(ch)
        if category in ("Cn", "Co", "Cs", "Cf", "Mn", "Me"):
            continue
        if ch not in prototypes and (
            (category[0] == "L" and _SYLLABIC.match(ch))  # Han, Kana, Hangul letters
            or (
                category[0] not in "LNS"
                and unicodedata.is_normalized("NFKD", ch)
                and ch.casefold() == ch
            )
        ):
            continue  # its only reading is itself (or a bracket)
        read = readings(ch)
        if len(read) > 1:
            found[ch] = read
    return found


@functools.cache
def placeholders() -> dict[str, frozenset[str]]:
    """The placeholder characters of the skeleton, each with the readings it stands for."""
    sets = sorted(set(_ambiguous().values()), key=sorted)
    return {chr(_FIRST_PLACEHOLDER + i): s for i, s in enumerate(sets)}


@functools.cache
def _placeholder_of() -> dict[frozenset[str], str]:
    return {s: p for p, s in placeholders().items()}


@functools.lru_cache(maxsize=200_000)
def fold(ch: str) -> str:
    """The skeleton of one character (empty for invisible ones and marks): its reading, or the
    placeholder for its readings when it has several."""
    read = readings(ch)
    if len(read) == 1:
        return next(iter(read))
    return _placeholder_of().get(read) or min(read)  # every set is there: _ambiguous() saw all


def ascii_reading(ch: str) -> str:
    """One reading of ``ch`` spelled in ASCII, for rewriting a look-alike ("" when it has none):
    a letter or digit by name first ("Ꝛ" is an R), else its shortest ASCII reading."""
    named = name_reading(ch)
    if named:
        return named
    spelled_out = sorted((r for r in readings(ch) if r.isascii()), key=lambda r: (len(r), r))
    return spelled_out[0] if spelled_out else ""


def reading_chars(chars: str) -> str:
    """``chars`` (skeleton characters) and every placeholder that may be read as one of them."""
    wanted = set(chars)
    return "".join(sorted(wanted | {p for p, read in placeholders().items() if read & wanted}))


def reading_members(chars: str) -> str:
    """The members, escaped for a regular-expression character class, of :func:`reading_class`."""
    return "".join(re.escape(c) for c in reading_chars(chars))


def reading_class(chars: str) -> str:
    """A regular-expression character class matching, in a skeleton, any of ``chars`` (skeleton
    characters) and every placeholder that may be read as one of them."""
    return f"[{reading_members(chars)}]"


def spelled(word: str) -> str:
    """A regular expression matching ``word``'s skeleton in a skeleton, placeholders included: a
    placeholder counts for every letter, and every run of letters, it may be read as ("ɯ" for the
    "rn" of a folded "m"); "i" and "l" count for each other."""
    return _spelled(skeleton_of(word))


@functools.cache
def _multi_readings() -> dict[str, set[str]]:
    """Readings of two or more characters, each with the placeholders that have it."""
    found: defaultdict[str, set[str]] = defaultdict(set)
    for placeholder, read in placeholders().items():
        for r in read:
            if len(r) > 1:
                found[r].add(placeholder)
    return found


@functools.cache
def _spelled(skel: str) -> str:
    if not skel:
        return ""
    # "i" and "l" are one letter in a keyword: the confusables data of different Unicode versions
    # read the same stroke as either ("Ⲓ" COPTIC CAPITAL LETTER IAUDA: "l" here, "i" in ICU 78)
    first = "il" if skel[0] in "il" else skel[0]
    options = [reading_class(first) + _spelled(skel[1:])]
    for run, holders in sorted(_multi_readings().items()):
        if skel.startswith(run):
            chars = "".join(re.escape(c) for c in sorted(holders))
            options.append(f"[{chars}]" + _spelled(skel[len(run) :]))
    return options[0] if len(options) == 1 else "(?:" + "|".join(options) + ")"


@functools.cache
def letter_angle_brackets() -> str:
    """The opening and closing brackets that letters of the confusables data fold to ("く" → "❬"):
    :func:`fold` keeps them (a letter is not a bracket), and a pattern may count them as angles."""
    found = {
        folded
        for source in _prototypes()
        if unicodedata.category(source)[0] in "LN"
        for folded in readings(source)
        if len(folded) == 1
        and not folded.isascii()
        and unicodedata.category(folded) in ("Ps", "Pe", "Pi", "Pf")
    }
    return "".join(sorted(found))


def skeleton_of(text: str) -> str:
    return "".join(map(fold, text))


def skeleton(text: str) -> tuple[str, Sequence[int]]:
    """The checking form of ``text`` and, for every skeleton character, the index of the original
    character it came from."""
    parts = list(map(fold, text))
    origin = [index for index, part in enumerate(parts) for _ in part]
    return "".join(parts), origin


def is_named_letter(ch: str) -> bool:
    """A placeholder for a letter or digit known by a name only (see :func:`readings`)."""
    read = placeholders().get(ch, frozenset())
    return UNKNOWN in read and any(r.isascii() and r.isalnum() for r in read)


def is_known_letter(ch: str) -> bool:
    """A skeleton character that says which letter or digit it is: ASCII, or a placeholder with an
    ASCII letter or digit among its readings that is not known by a name only."""
    if ch.isascii():
        return ch.isalnum()
    read = placeholders().get(ch, frozenset())
    return UNKNOWN not in read and any(r.isascii() and r.isalnum() for r in read)
