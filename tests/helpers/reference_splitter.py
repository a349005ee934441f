"""Reference for the streaming splitter: the whole-text splitter as it was before chunking streamed
(commit d70d281, src/kortty_rag/chunking/splitter.py), kept verbatim as the equality oracle.

It holds a whole document and all of its words at once, so use it for test-sized texts only.

A chunk holds at most ``budget`` tokens as counted by the embedding model's own tokenizer; consecutive
chunks overlap by about 15 %. Where a chunk ends is chosen in this order of preference: a paragraph
boundary, a sentence boundary, a word boundary, and only for a single overlong "word" (a hash, a base64
blob) a cut inside it. The same text and parameters always give the same chunks.

Words are counted once each (cached) and summed with prefix sums; sums of word counts can differ from the
count of the joined text by a token here and there, so every chunk is checked with one exact count and
shortened if needed — nothing longer than the budget ever leaves this module.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from kortty_rag.chunking.splitter import ChunkingParams, TokenCounter
from kortty_rag.models import ChunkSpan

_WORD = re.compile(r"\S+")
_PARAGRAPH_GAP = re.compile(r"\n[ \t\f\v]*\n")
_SENTENCE_END = re.compile(r"[.!?:;…。！？][\"'”’)\]]*$")
#: Ends are looked for in the last half of a full window; earlier boundaries would make tiny chunks.
_MIN_FILL = 0.5


@dataclass(frozen=True)
class _Word:
    start: int
    end: int
    tokens: int


class ReferenceSplitter:
    """Cuts texts into :class:`ChunkSpan` windows; keeps a per-splitter cache of word token counts."""

    def __init__(self, counter: TokenCounter, params: ChunkingParams) -> None:
        self.counter = counter
        self.params = params
        self._cache: dict[str, int] = {}

    def split(self, text: str, page: int | None = None) -> list[ChunkSpan]:
        words = self._words(text)
        if not words:
            return []
        cum = [0]
        for word in words:
            cum.append(cum[-1] + word.tokens)
        paragraph, sentence = _boundaries(text, words)
        chunks: list[ChunkSpan] = []
        start, n = 0, len(words)
        while start < n:
            end = self._end(start, cum, paragraph, sentence)
            end, tokens = self._fit(text, words, start, end)
            chunks.append(
                ChunkSpan(
                    text[words[start].start : words[end - 1].end],
                    words[start].start,
                    words[end - 1].end,
                    tokens,
                    page,
                )
            )
            if end >= n:
                break
            start = self._next_start(start, end, cum, sentence)
        return chunks

    # -- words --------------------------------------------------------------------------------------

    def _count_word(self, word: str) -> int:
        cached = self._cache.get(word)
        if cached is None:
            # a leading space gives BPE tokenizers the in-text form of the word
            cached = max(1, self.counter.count_tokens(" " + word))
            if len(self._cache) < 200_000:
                self._cache[word] = cached
        return cached

    def _words(self, text: str) -> list[_Word]:
        piece_limit = max(1, self.params.budget // 4)
        words: list[_Word] = []
        for match in _WORD.finditer(text):
            tokens = self._count_word(match.group())
            if tokens <= piece_limit:
                words.append(_Word(match.start(), match.end(), tokens))
            else:
                words.extend(self._cut_word(text, match.start(), match.end(), piece_limit))
        return words

    def _cut_word(self, text: str, start: int, end: int, limit: int) -> list[_Word]:
        """Split one overlong word into pieces of at most ``limit`` tokens each."""
        pieces: list[_Word] = []
        pos = start
        while pos < end:
            length = end - pos
            while True:
                tokens = max(1, self.counter.count_tokens(text[pos : pos + length]))
                if tokens <= limit or length == 1:
                    break
                length = max(1, length * limit // (tokens + 1))
            pieces.append(_Word(pos, pos + length, tokens))
            pos += length
        return pieces

    # -- windows ------------------------------------------------------------------------------------

    def _end(self, start: int, cum: list[int], paragraph: list[int], sentence: list[int]) -> int:
        """The preferred end (exclusive word index) of the chunk that starts at ``start``."""
        budget = self.params.budget
        limit = bisect.bisect_right(cum, cum[start] + budget) - 1  # words[start:limit] fit
        n = len(cum) - 1
        if limit >= n:
            return n
        limit = max(limit, start + 1)
        floor = bisect.bisect_left(cum, cum[start] + int(budget * _MIN_FILL))
        floor = max(floor, start + 1)
        for marks in (paragraph, sentence):
            best = _last_in(marks, floor, limit)
            if best is not None:
                return best
        return limit

    def _fit(self, text: str, words: list[_Word], start: int, end: int) -> tuple[int, int]:
        """Shorten ``end`` until the exact token count is within the budget."""
        while True:
            tokens = self.counter.count_tokens(text[words[start].start : words[end - 1].end])
            if tokens <= self.params.budget or end - start == 1:
                return end, tokens
            end -= 1

    def _next_start(self, start: int, end: int, cum: list[int], sentence: list[int]) -> int:
        """Start of the next chunk: as far back as the overlap allows, at a sentence start if one
        lies inside the overlap."""
        earliest = bisect.bisect_left(cum, cum[end] - self.params.overlap)
        earliest = min(max(earliest, start + 1), end)
        first_sentence = _first_in(sentence, earliest, end - 1)
        return first_sentence if first_sentence is not None else earliest


def _boundaries(text: str, words: list[_Word]) -> tuple[list[int], list[int]]:
    """Word indexes ``i`` (1..n-1) where a paragraph or a sentence begins before ``words[i]``."""
    paragraph: list[int] = []
    sentence: list[int] = []
    for i in range(1, len(words)):
        gap = text[words[i - 1].end : words[i].start]
        if _PARAGRAPH_GAP.search(gap):
            paragraph.append(i)
            sentence.append(i)
        elif "\n" in gap or _SENTENCE_END.search(text[words[i - 1].start : words[i - 1].end]):
            sentence.append(i)
    return paragraph, sentence


def _last_in(marks: list[int], low: int, high: int) -> int | None:
    i = bisect.bisect_right(marks, high) - 1
    return marks[i] if i >= 0 and marks[i] >= low else None


def _first_in(marks: list[int], low: int, high: int) -> int | None:
    i = bisect.bisect_left(marks, low)
    return marks[i] if i < len(marks) and marks[i] <= high else None
