"""The checking form (*skeleton*) of untrusted text: what a tokenizer or a model could read into it.

Every step is derived from Unicode data, not from a hand-made list of look-alikes:

- format characters (category Cf: zero-width, bidirectional controls, tag characters, interlinear
  annotation, shorthand and notation format controls, …), nonspacing and enclosing marks (Mn, Me:
  combining accents, underlines, variation selectors) and the Hangul fillers are dropped — they are
  invisible or only decorate the character before them;
- compatibility normalisation (NFKC) folds width variants, ligatures and mathematical alphabets;
- case folding;
- Unicode's confusables data (UTS #39 ``confusables.txt``, as bundled by ``confusable-homoglyphs``)
  maps each look-alike to the prototype it imitates: Cyrillic ``е`` → ``e``, Armenian ``օ`` → ``o``,
  ``‹`` → ``<``, ``∕`` → ``/``, ``m`` → ``rn``, ``1`` → ``l``; a non-letter that imitates ``l``
  (``|``, ``∣``, ``│``) reads as ``|``;
- a Latin letter with a stroke, hook, tail or bar that neither NFKC nor the confusables data fold
  (``đ``, ``ŧ``, ``ɽ``) reads as its base letter, by its Unicode name;
- every other bracket-like character outside ASCII (opening, closing and quotation punctuation, any
  symbol) becomes :data:`BRACKET`, one placeholder for
  "a sign that may be read as a bracket": ornamental and mathematical brackets (``❰ ⧼ 〘 ⟮``) have no
  prototype among ``< > [ ]``, yet a model may take them for one.

Patterns are compiled against the skeleton of their own keywords (:func:`skeleton_of`), so a keyword
and every look-alike spelling of it meet in the same form.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Sequence
from importlib import resources

BRACKET = "\ue000"  # a private-use character: never produced by folding real text
_DROPPED = frozenset({"Cf", "Mn", "Me"})
# opening, closing and quotation punctuation and every symbol; not "。", "、", "—" (Po, Pd)
_BRACKET_LIKE = frozenset({"Ps", "Pe", "Pi", "Pf", "Sm", "So", "Sk", "Sc"})
# Default-ignorable letters (category Lo) that render as nothing; Python's unicodedata has no
# Default_Ignorable_Code_Point property, and these four are all of its letters.
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0")


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


# "LATIN SMALL LETTER D WITH STROKE", "MODIFIER LETTER SMALL R WITH TAIL", "LATIN LETTER SMALL CAPITAL
# R": a Latin letter with a stroke, hook, tail or bar that Unicode does not decompose.
_LATIN_LETTER = re.compile(
    r"(?:LATIN|MODIFIER) (?:SMALL |CAPITAL )?LETTER (?:SMALL )?(?:CAPITAL )?([A-Z])(?: WITH |$)"
)


def _base_letter(ch: str) -> str:
    match = _LATIN_LETTER.match(unicodedata.name(ch, ""))
    return match.group(1).lower() if match else ""


def is_hidden(ch: str) -> bool:
    """An invisible character: a format character (Cf) or a Hangul filler."""
    return ch in _FILLERS or unicodedata.category(ch) == "Cf"


@functools.lru_cache(maxsize=65536)
def fold(ch: str) -> str:
    """The skeleton of one character (empty for invisible ones and marks)."""
    if ch in _FILLERS or unicodedata.category(ch) in _DROPPED:
        return ""
    prototypes = _prototypes()
    text = _without_marks(ch)
    for _ in range(4):  # a prototype may itself need normalising ("%" → "º/₀" → "o/0" → "o/o")
        mapped = _without_marks("".join(prototypes.get(c, c) for c in text))
        if mapped == text:
            break
        text = mapped
    base = "" if text.isascii() else _base_letter(ch)
    if base:
        return fold(base)  # "ɱ" → "m" → "rn"
    if text == "l" and unicodedata.category(ch)[0] not in "LN":
        return "|"  # "|", "∣", "│": a bar, not a letter
    # judged on the character as written too: "。" (Po) folds to a modifier symbol, yet is no bracket
    bracket_like = _BRACKET_LIKE if unicodedata.category(ch) in _BRACKET_LIKE else frozenset()
    return "".join(
        BRACKET if c >= "\x80" and unicodedata.category(c) in bracket_like else c for c in text
    )


@functools.cache
def letter_angle_brackets() -> str:
    """The opening and closing brackets that letters of the confusables data fold to ("く" → "❬"):
    :func:`fold` keeps them (a letter is not a bracket), and a pattern may count them as angles."""
    found = {
        folded
        for source in _prototypes()
        if unicodedata.category(source)[0] in "LN"
        and len(folded := fold(source)) == 1
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
