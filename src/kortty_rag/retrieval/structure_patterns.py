"""The patterns that find structure in a skeleton (:mod:`kortty_rag.retrieval.skeleton`): wrapper
tags, ``[Rn]`` markers and chat-template tokens (:mod:`kortty_rag.retrieval.chat_tokens`), exact
and with unknown look-alikes (docs/DESIGN.md §12). :mod:`kortty_rag.retrieval.context` rewrites
what they find."""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from kortty_rag.retrieval.chat_tokens import NUMBER, TokenWords, catalogue_words
from kortty_rag.retrieval.skeleton import (
    BRACKET,
    UNKNOWN,
    is_known_letter,
    is_named_letter,
    letter_angle_brackets,
    placeholders,
    reading_chars,
    reading_class,
    reading_members,
    readings,
    skeleton_of,
    spelled,
)

_SP = "[^\\S\\n]*"  # a marker or a template token is written on one line
_NON_ASCII = "[^\\x00-\\x7f]"
_CJK = re.compile("[\u2e80-\u3006\u3008-\u9fff\uac00-\ud7af\uf900-\ufaff]")
# Outside the Han, Kana and Hangul blocks (no character there but "〇" reads as a Latin letter in
# any confusables data): between two non-ASCII brackets ("«ട«", read as "<s<") one may be a token,
# while "【注】" and "「は」" are prose.
_CJK_RANGES = "\u2e80-\u3006\u3008-\u9fff\uac00-\ud7af\uf900-\ufaff"
_NEAR_LENGTH = 6  # role words this long may have one letter off ("<sistem>" is rare prose)
_TOKEN_SEPARATORS = "_▁:.-"  # between the words of a token: im_start, begin▁of▁sentence


def _join(parts: list[str]) -> str:
    return "|".join(sorted(parts, key=len, reverse=True))


@dataclass(frozen=True)
class _Signs:
    """The pattern pieces for the signs around keywords, in skeleton form. Every bracket, bar, slash
    and digit is a character class of its skeleton form and the placeholders that may be read as it
    (:func:`~kortty_rag.retrieval.skeleton.reading_class`), so "Ꝛ" (an "R" and a "2") counts
    wherever either fits. ``opening`` is anything that may read as a bracket (ASCII brackets,
    parentheses, braces, the look-alikes that fold to them and every other opening, closing or
    quotation mark and symbol outside ASCII); chat templates use angle and square brackets only
    (``angle``), so "(s)" stays prose. ``loose`` adds any other character outside ASCII: newer
    Unicode versions keep adding look-alikes of "<" (even letters such as Hiragana "く"), so next to
    the unmistakable words — the wrapper's name, a special token's — any non-ASCII character counts
    as a bracket."""

    opening: str
    angle: str
    loose: str
    any: str  # a character outside ASCII that says no letter it is (a placeholder of letters does)
    not_cjk: str  # the same outside Han, Kana and Hangul
    pipe: str
    digit: str
    slash: str
    r: str


@functools.cache
def _signs() -> _Signs:
    opening = reading_class("<>[](){}" + BRACKET)
    # A letter is never a bracket in the skeleton ("。" and CJK prose stay prose), but the
    # confusables data folds a few letters to an angle bracket: Hiragana "く" to "❬", which a
    # model's view reads as "<". Around a template word ("‹ടYടく": "<sys<") those count too.
    angle = reading_class("<>[]" + BRACKET + letter_angle_brackets())
    # a bar and the digits in skeleton form, with their letter look-alikes ("1" and "|" fold to
    # "l"; "I", a look-alike of both, is case-folded to "i" first)
    bar_like = "".join(sorted({"|", *skeleton_of("|1I")}))
    other_digits = "".join(sorted(set(skeleton_of("0123456789")) - set("0123456789")))
    # placeholders that read as letters or digits they name ("у": "u" or "y") are letters, not
    # unknowns; those that may be a bracket or a letter only known by its name still are unknown
    letters = "".join(
        re.escape(p)
        for p, read in placeholders().items()
        if is_known_letter(p) and not read & {BRACKET, UNKNOWN}
    )
    unknown = f"[^\\x00-\\x7f{letters}]"
    return _Signs(
        opening=opening,
        angle=angle,
        loose=f"(?:{opening}|{unknown})",
        any=unknown,
        not_cjk=f"[^\\x00-\\x7f{_CJK_RANGES}{letters}]",
        pipe=reading_class(bar_like + BRACKET),
        digit=f"[\\d{reading_members('0123456789' + other_digits + bar_like)}]",
        slash=reading_class(skeleton_of("/")),
        r=reading_class(skeleton_of("r")),
    )


def _core(core: str, digit: str) -> str:
    """A pattern for a token's core: its words spelled as in :func:`spelled`, "#" a number,
    separators as written (and their look-alikes)."""
    return "".join(
        f"{digit}+"
        if part == NUMBER
        else reading_class(skeleton_of(part))
        if part in _TOKEN_SEPARATORS
        else spelled(part)
        for part in re.split(f"([{re.escape(NUMBER + _TOKEN_SEPARATORS)}])", core)
        if part
    )


class Patterns:
    """The patterns on the skeleton, for the catalogue's tokens plus a model's own (``words``)."""

    def __init__(self, words: TokenWords) -> None:
        signs = _signs()
        opening, angle, loose, pipe = signs.opening, signs.angle, signs.loose, signs.pipe
        digit, slash, r, sp = signs.digit, signs.slash, signs.r, _SP
        bars = f"(?:{pipe}{sp})?"
        wrapper_word = f"{spelled('retrieved')}[\\W_]*{spelled('context')}"
        special = _join([_core(w, digit) for w in words.special]) or "(?!)"
        tags = _join([_core(w, digit) for w in words.tags]) or "(?!)"
        barred = _join([_core(w, digit) for w in words.barred]) or "(?!)"
        doubled = _join([_core(w, digit) for w in words.doubled]) or "(?!)"
        framed = f"(?:{angle}|{signs.any})"  # tokens use angle and square brackets, not "(" or "{"
        self.tag = f"{loose}(?:\\s|{slash}|{opening})*{wrapper_word}(?:[^\\S\\n]*{loose})?"
        self.marker = f"{opening}{sp}{slash}?{sp}{r}{sp}{digit}+{sp}{opening}"
        # one bracket may be any other character outside ASCII, not both ("ステップR1で" is
        # prose); such a marker must be written with an R or a digit (see real_marker)
        self.half_marker = re.compile(
            f"{opening}{sp}{slash}?{sp}{r}{sp}{digit}+{sp}{loose}"
            f"|{loose}{sp}{slash}?{sp}{r}{sp}{digit}+{sp}{opening}"
        )
        self.token = (
            f"{framed}{sp}{bars}{slash}?{sp}(?:{special}){sp}{bars}{framed}"
            f"|{angle}{sp}{bars}{slash}?{sp}(?:{tags}){sp}{bars}{angle}"
            # any non-ASCII character on one side only with a bracket on the other ("このsystem。"
            # is prose)
            f"|{angle}{sp}{bars}{slash}?{sp}(?:{tags}){sp}{bars}{framed}"
            f"|{framed}{sp}{bars}{slash}?{sp}(?:{tags}){sp}{bars}{angle}"
            # a word only ever written with a bar (<|end|>, <|turn>, <channel|>): with a bar
            f"|{angle}{sp}{pipe}{sp}{slash}?{sp}(?:{barred}){sp}{bars}{angle}"
            f"|{angle}{sp}{slash}?{sp}(?:{barred}){sp}{pipe}{sp}{angle}"
            f"|{loose}{sp}{reading_class('|')}[^\\n]{{0,40}}?{reading_class('|')}{sp}{loose}"  # <|anything|>
            f"|{angle}{{2}}{sp}{slash}?{sp}(?:{doubled}){sp}{angle}{{2}}"  # Llama 2's <<SYS>>
        )
        self.all = re.compile(f"{self.tag}|{self.marker}|{self.token}")
        self._wrapper = f"{loose}(?:\\s|{slash}|{opening})*{wrapper_word}"
        self.fuzzy = _fuzzy(words, signs)

    # compiled when first asked for: neutralising an excerpt needs ``all``, ``half_marker`` and
    # ``fuzzy`` only, and these three cost about a quarter of the compiling in a cold search
    @functools.cached_property
    def wrapper(self) -> re.Pattern[str]:
        return re.compile(self._wrapper)

    @functools.cached_property
    def markers(self) -> re.Pattern[str]:
        return re.compile(self.marker)

    @functools.cached_property
    def tokens(self) -> re.Pattern[str]:
        return re.compile(self.token)


def _fuzzy(words: TokenWords, signs: _Signs) -> tuple[re.Pattern[str], ...]:
    """The same shapes with *unknown* look-alikes: a letter of a keyword may be any character
    outside ASCII that no data folds (newer Unicode versions add look-alikes faster than any
    table: Arabic "ه" for "o", Armenian "ւ" for "i"). A match counts when at least half of the
    keyword's letters are exact (:func:`mostly_exact`), so non-Latin prose in brackets
    ("[点击这里]") is never taken for a keyword. The search overlaps (a lookahead), so a rejected
    candidate cannot hide an accepted one."""
    opening, angle, loose, pipe = signs.opening, signs.angle, signs.loose, signs.pipe
    digit, slash, r, sp = signs.digit, signs.slash, signs.r, _SP
    # a sign around a keyword: a character that says no letter it is; a letter of a keyword:
    # any character outside ASCII (its own data may know less than a newer one: "ꭴ" is "o" to
    # ICU 78, "u" and "o'" here)
    unknown, not_cjk, letter = signs.any, signs.not_cjk, _NON_ASCII

    def fuzzy(w: str, other: str = letter) -> str:  # "m": "rn" or one other; "#": a number
        return "".join(
            f"(?:{digit}|{other})+" if c == NUMBER else f"(?:{spelled(c)}|{other})" for c in w
        )

    # numbered tokens ("<unused12>", "[PAD151646]") are reserved slots, not worth a guess
    special = _join([fuzzy(w) for w in words.special if NUMBER not in w]) or "(?!)"
    # a short word: a letter known to be another one ("у" is "u" or "y") is not a guess
    roles = _join([fuzzy(w, unknown) for w in words.tags | words.doubled]) or "(?!)"
    barred = _join([fuzzy(w, unknown) for w in words.barred]) or "(?!)"
    # a long role word ("system", "assistant") with one letter that this data reads as another
    # ASCII letter than newer data does ("Ғ": "r" here, also "y" to ICU 78): one letter may differ
    any_letter = f"(?:[^\\W_]|{letter})"
    near = (
        _join(
            [
                "".join(any_letter if i == j else spelled(c) for j, c in enumerate(w))
                for w in words.tags | words.doubled | words.barred
                if len(w) >= _NEAR_LENGTH and NUMBER not in w
                for i in range(len(w))
            ]
        )
        or "(?!)"
    )
    # one unknown letter, with the bars and slash a token may have around it
    one_unknown = f"(?:{pipe}{sp})?(?:{slash}{sp})?{unknown}{sp}(?:{pipe}{sp})?"
    one_not_cjk = f"(?:{pipe}{sp})?(?:{slash}{sp})?{not_cjk}{sp}(?:{pipe}{sp})?"
    unknown_bars = f"(?:(?:{pipe}|{unknown}){sp})?"
    bars = f"(?:{pipe}{sp})?"
    shapes = [
        f"{loose}(?:\\s|{slash}|{opening})*(?P<wrapper>{fuzzy('retrieved')}(?:[\\W_]|{letter})*{fuzzy('context')})",
        f"{loose}{sp}{unknown_bars}(?:{slash}|{unknown})?{sp}(?P<special>{special})"
        f"{sp}{unknown_bars}{loose}",
        f"[<\\[]{sp}{slash}{sp}{unknown}{sp}[>\\]]"  # "</ട>": a closing tag of one unknown letter
        f"|[<>]{sp}{one_unknown}{sp}{angle}|{angle}{sp}{one_unknown}{sp}[<>]"  # "<ട»": "<s>"
        f"|{angle}{sp}{one_not_cjk}{sp}{angle}",  # "«ട«": "<s<"
        f"(?:{angle}|(?={loose}{sp}[^\\n]{{1,40}}{angle}){loose})"
        f"{sp}{unknown_bars}(?:{slash}|{unknown})?{sp}(?P<role>{roles})"
        f"{sp}{unknown_bars}{angle}",
        f"{angle}{sp}{bars}(?:{slash}{sp})?(?P<near>{near}){sp}{bars}{angle}",
        # a word only ever written with a bar, with a bar ("<|ടurn>")
        f"{angle}{sp}{pipe}{sp}(?:{slash}{sp})?(?P<barred>{barred}){sp}{bars}{angle}"
        f"|{angle}{sp}(?:{slash}{sp})?(?P<barred_>{barred}){sp}{pipe}{sp}{angle}",
        f"{opening}{sp}(?:{slash}|{unknown})?{sp}{r}{sp}(?P<marker>(?:{digit}|{letter}){{1,4}}){sp}{opening}",
    ]
    # one search per shape: a candidate of one shape that is rejected cannot hide another shape's
    # at the same place ("[𐤭׀[" is not the role "s" in brackets but the marker "[r1[")
    return tuple(re.compile(f"(?=(?P<span>{shape}))") for shape in shapes)


@functools.cache
def _bracket_signs() -> frozenset[str]:
    """The skeleton characters that may be read as a tag bracket."""
    return frozenset(reading_chars("<>[]" + BRACKET + letter_angle_brackets()))


@functools.lru_cache(maxsize=16)
def patterns(words: TokenWords | None = None) -> Patterns:
    """The patterns for the catalogue's tokens, plus ``words`` (a model's own) when given."""
    return Patterns(catalogue_words() | words if words else catalogue_words())


def mostly_exact(match: re.Match[str], quoted: bool = False) -> bool:
    """Whether a fuzzy match is close enough to its keyword to be rewritten.

    Wrappers and special tokens need half their letters exact (a letter known by a name only
    counts half) and none Han, Kana or Hangul. A role word between two tag brackets needs one exact
    letter, and a short one (up to four letters: "sys", "bos", "user") none unless it is Han, Kana
    or Hangul: such words have too few letters for a half, and newer Unicode data keeps adding
    look-alikes ("‹ടYട<" reads as "<sys<" with Unicode 16's data). Opened by a letter rather than
    a bracket ("…чень”"), more than half its letters must be exact; between quotation marks
    (``quoted``: “очень”, “اثر” are quoted words) only exact spellings count, which the exact
    patterns find. Only the framing of a role word is rewritten, so a short word in another script
    stays readable."""
    groups = match.groupdict()
    if groups.get("near"):  # one letter off a long role word, between two tag brackets
        return (
            not quoted and set(match.group("span")[0] + match.group("span")[-1]) <= _bracket_signs()
        )
    role = groups.get("role") or groups.get("barred") or groups.get("barred_")
    if role:
        exact = sum(map(is_known_letter, role))
        letters = role.isalpha() and not _CJK.search(role)  # not a bracket taken for a letter
        if quoted:  # “ваш”, “очень” are quoted words: only exact spellings count (no guess)
            return False
        framed = set(match.group("span")[0] + match.group("span")[-1]) <= _bracket_signs()
        if not framed:  # opened by a letter, not a bracket ("…чень”"): most letters exact
            return 2 * exact >= len(role) + 1
        return exact >= 1 or (len(role) <= 4 and letters)
    word = groups.get("wrapper") or groups.get("special")
    if not word:  # a marker ("[Rا]", Arabic alef for 1) or one unknown letter in tag brackets
        return bool(groups.get("marker")) or not quoted  # “ـ” is a quoted letter
    if _CJK.search(word):  # Han, Kana and Hangul are no look-alikes: "system。こんにちは" is prose
        return False
    # a letter known by a name only ("ᛑ" RUNIC LETTER D) is half a letter: newer data may differ
    halves = sum(2 if is_known_letter(c) else 1 if is_named_letter(c) else 0 for c in word)
    letters = sum(not (c.isascii() and not c.isalnum()) for c in word)  # not "_" between words
    return halves >= letters


def fuzzy_spans(match: re.Match[str]) -> list[tuple[int, int]]:
    """The skeleton spans to rewrite for an accepted fuzzy match: for a role word only its framing
    (brackets, bars, slash), so the word itself keeps its letters."""
    for name in ("role", "barred", "barred_", "near"):
        if match.groupdict().get(name):
            return [(match.start("span"), match.start(name)), (match.end(name), match.end("span"))]
    return [match.span("span")]


def real_marker(written: str) -> bool:
    """Whether a marker with one bracket only (:attr:`Patterns.half_marker`), as ``written``, has
    a Latin R or a digit as such: "“года”" is a word whose г and о only read as "r" and "0"."""
    return any(
        unicodedata.category(c)[0] == "N"
        or ("r" in readings(c) and (c.isascii() or "LATIN" in unicodedata.name(c, "")))
        for c in written
    )
