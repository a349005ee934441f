"""The words of a text that arrives in blocks, with the boundaries the splitter prefers (docs/DESIGN.md §9).

A word is a run of non-whitespace characters. Each word knows whether a sentence or a paragraph
begins before it, decided exactly as on the whole text: a blank line in the whitespace before it
starts a paragraph; any line break, or a previous word ending in sentence punctuation, starts a
sentence. A word longer than :data:`MAX_WORD_CHARACTERS` (a base64 blob, a 47 MB line without
spaces) is taken in segments of that length, so neither memory nor one tokenizer call ever grows
with a document; texts without such words get exactly the words they had when split whole.

Only the text from the oldest word the caller still needs onwards is kept (:meth:`BlockText.trim`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

_WORD = re.compile(r"\S+")
_PARAGRAPH_GAP = re.compile(r"\n[ \t\f\v]*\n")
_SENTENCE_END = re.compile(r"[.!?:;…。！？][\"'”’)\]]*$")
_LINE_SPACE = " \t\f\v"
#: longer runs without whitespace are cut into segments of this many characters before counting
MAX_WORD_CHARACTERS = 1024
#: a trimmed-off prefix is dropped only once it is this long (and half the text), to copy little
_TRIM_AT = 1 << 16


@dataclass(frozen=True, slots=True)
class Word:
    """A word (or a piece of an overlong one) at ``start``..``end`` of the whole text."""

    start: int
    end: int
    tokens: int
    sentence: bool = False  # a sentence (or a paragraph) begins before this word
    paragraph: bool = False


class BlockText:
    """The blocks of one text seen so far, from absolute offset :attr:`base` on."""

    def __init__(self, blocks: Iterable[str]) -> None:
        self._blocks = iter(blocks)
        self.text = ""
        self.base = 0
        self.done = False

    @property
    def end(self) -> int:
        return self.base + len(self.text)

    def more(self) -> bool:
        """Append the next non-empty block; False (and :attr:`done`) when there is none."""
        for block in self._blocks:
            if block:
                self.text += block
                return True
        self.done = True
        return False

    def slice(self, start: int, end: int) -> str:
        return self.text[start - self.base : end - self.base]

    def trim(self, keep_from: int) -> None:
        """Forget the text before ``keep_from`` (when enough of it has piled up)."""
        dead = keep_from - self.base
        if dead >= _TRIM_AT and dead * 2 >= len(self.text):
            self.text = self.text[dead:]
            self.base = keep_from


class _Gap:
    """Line breaks in the whitespace between two words, fed in parts as blocks arrive."""

    def __init__(self) -> None:
        self.newline = self.paragraph = self._after_newline = False

    def reset(self) -> None:
        self.newline = self.paragraph = self._after_newline = False

    def feed(self, gap: str) -> None:
        if not gap:
            return
        first = gap.find("\n")
        if first < 0:
            if self._after_newline and gap.strip(_LINE_SPACE):
                self._after_newline = False
            return
        self.newline = True
        if not self.paragraph:
            self.paragraph = bool(
                (self._after_newline and not gap[:first].strip(_LINE_SPACE))
                or _PARAGRAPH_GAP.search(gap)
            )
        self._after_newline = not gap[gap.rfind("\n") + 1 :].strip(_LINE_SPACE)


class WordStream:
    """Iterates the words of a :class:`BlockText`; ``pieces(text, start, end)`` turns one run of at
    most :data:`MAX_WORD_CHARACTERS` characters into counted words (several for an overlong run)."""

    def __init__(
        self, text: BlockText, pieces: Callable[[str, int], list[tuple[int, int, int]]]
    ) -> None:
        self.text = text
        self._pieces = pieces
        #: where unread text begins (the caller must keep the text from here on)
        self.pos = 0
        self._gap = _Gap()
        self._first = True
        self._after_sentence = False

    def __iter__(self) -> Iterator[Word]:
        text = self.text
        while True:
            local = self.pos - text.base
            match = _WORD.search(text.text, local)
            if match is None:
                self._gap.feed(text.text[local:])
                self.pos = text.end
                if not text.more():
                    return
                continue
            self._gap.feed(text.text[local : match.start()])
            start, end = text.base + match.start(), text.base + match.end()
            self.pos = start
            if match.end() == len(text.text) and not text.done:  # the word may go on
                if end - start < MAX_WORD_CHARACTERS:
                    text.more()
                    continue
                end = start + (end - start) // MAX_WORD_CHARACTERS * MAX_WORD_CHARACTERS
            for segment in range(start, end, MAX_WORD_CHARACTERS):
                segment_end = min(segment + MAX_WORD_CHARACTERS, end)
                run = text.slice(segment, segment_end)
                for piece_start, piece_end, tokens in self._pieces(run, segment):
                    yield self._word(piece_start, piece_end, tokens)
            self.pos = end

    def _word(self, start: int, end: int, tokens: int) -> Word:
        gap = self._gap
        if self._first:
            word = Word(start, end, tokens)
            self._first = False
        else:
            word = Word(
                start,
                end,
                tokens,
                sentence=gap.paragraph or gap.newline or self._after_sentence,
                paragraph=gap.paragraph,
            )
        gap.reset()
        self._after_sentence = bool(_SENTENCE_END.search(self.text.slice(start, end)))
        return word
