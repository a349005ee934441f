"""Deterministic, tokenizer-bounded chunks (docs/DESIGN.md §9).

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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from kortty_rag.chunking.words import BlockText, Word, WordStream
from kortty_rag.models import ChunkSpan

#: Ends are looked for in the last half of a full window; earlier boundaries would make tiny chunks.
_MIN_FILL = 0.5
#: the word-count cache holds at most this many words of at most this length (a few MiB)
_CACHE_ENTRIES = 200_000
_CACHED_WORD_LENGTH = 40


class TokenCounter(Protocol):
    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` without special tokens (BOS/EOS/CLS/SEP)."""


@dataclass(frozen=True)
class ChunkingParams:
    """``budget``: tokens of text per chunk (model limit minus prefix and special tokens)."""

    budget: int
    overlap: int

    def __post_init__(self) -> None:
        if self.budget < 8:
            raise ValueError(f"chunk budget of {self.budget} tokens is too small")
        if not 0 <= self.overlap < self.budget // 2:
            raise ValueError("overlap must be less than half of the budget")


def overlap_for(chunk_tokens: int) -> int:
    """120 of 800 tokens: 15 % of the chunk length (docs/DESIGN.md §4)."""
    return round(chunk_tokens * 0.15)


class Splitter:
    """Cuts texts into :class:`ChunkSpan` windows; keeps a per-splitter cache of word token counts.

    :meth:`stream` takes the text in blocks and yields each chunk as soon as it is decided, holding
    only the words of the current window (about one chunk) and the text under them, so memory does not
    grow with the document. :meth:`split` is the same on one whole string.
    """

    def __init__(
        self, counter: TokenCounter, params: ChunkingParams, cache: dict[str, int] | None = None
    ) -> None:
        self.counter = counter
        self.params = params
        self._cache: dict[str, int] = {} if cache is None else cache

    def reserving(self, tokens: int) -> Splitter:
        """This splitter with ``tokens`` of each chunk's budget kept free (for a heading embedded
        with the chunk), sharing its word-count cache; the budget never drops below half."""
        budget = max(self.params.budget - tokens, self.params.budget // 2, 8)
        if budget == self.params.budget:
            return self
        overlap = min(self.params.overlap, budget // 2 - 1)
        return Splitter(self.counter, ChunkingParams(budget, max(0, overlap)), self._cache)

    def split(self, text: str, page: int | None = None) -> list[ChunkSpan]:
        return list(self.stream([text], page))

    def stream(
        self, blocks: Iterable[str], page: int | None = None, *, offset: int = 0
    ) -> Iterator[ChunkSpan]:
        """The chunks of the text made of ``blocks`` (cut anywhere), in order; offsets count from
        ``offset`` (where this text begins in its page or file)."""
        text = BlockText(blocks)
        source = WordStream(text, self._pieces)
        words_in = iter(source)
        budget = self.params.budget
        window: list[Word] = []  # the words from the current chunk's first word on
        cum = [0]  # cum[j]: tokens of the document's words before window[j] (absolute sums)
        first = 0  # the document's index of window[0]
        paragraph: list[int] = []  # document indexes of words a paragraph / sentence begins before
        sentence: list[int] = []
        exhausted = False
        while True:
            while not exhausted and cum[-1] - cum[0] <= budget:
                word = next(words_in, None)
                if word is None:
                    exhausted = True
                    break
                index = first + len(window)
                window.append(word)
                cum.append(cum[-1] + word.tokens)
                if word.paragraph:
                    paragraph.append(index)
                if word.sentence:
                    sentence.append(index)
            if not window:
                return
            para_here = _local(paragraph, first)
            sent_here = _local(sentence, first)
            end = self._end(0, cum, para_here, sent_here)
            end, tokens = self._fit(text, window, end)
            chunk_start, chunk_end = window[0].start, window[end - 1].end
            yield ChunkSpan(
                text.slice(chunk_start, chunk_end),
                chunk_start + offset,
                chunk_end + offset,
                tokens,
                page,
            )
            if exhausted and end >= len(window):
                return
            nxt = self._next_start(0, end, cum, sent_here)
            del window[:nxt]
            del cum[:nxt]
            first += nxt
            _drop_before(paragraph, first)
            _drop_before(sentence, first)
            text.trim(min(window[0].start if window else source.pos, source.pos))

    # -- words --------------------------------------------------------------------------------------

    def _count_word(self, word: str) -> int:
        cached = self._cache.get(word)
        if cached is None:
            # a leading space gives BPE tokenizers the in-text form of the word
            cached = max(1, self.counter.count_tokens(" " + word))
            if len(word) <= _CACHED_WORD_LENGTH and len(self._cache) < _CACHE_ENTRIES:
                self._cache[word] = cached
        return cached

    def _pieces(self, run: str, offset: int) -> list[tuple[int, int, int]]:
        """``run`` (at ``offset`` of the text) as counted words: itself, or pieces of an overlong one
        of at most a quarter of the budget each."""
        piece_limit = max(1, self.params.budget // 4)
        tokens = self._count_word(run)
        if tokens <= piece_limit:
            return [(offset, offset + len(run), tokens)]
        pieces: list[tuple[int, int, int]] = []
        pos, end = 0, len(run)
        while pos < end:
            length = end - pos
            while True:
                tokens = max(1, self.counter.count_tokens(run[pos : pos + length]))
                if tokens <= piece_limit or length == 1:
                    break
                length = max(1, length * piece_limit // (tokens + 1))
            pieces.append((offset + pos, offset + pos + length, tokens))
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

    def _fit(self, text: BlockText, words: list[Word], end: int) -> tuple[int, int]:
        """Shorten ``end`` until the exact token count of ``words[0:end]`` is within the budget."""
        while True:
            tokens = self.counter.count_tokens(text.slice(words[0].start, words[end - 1].end))
            if tokens <= self.params.budget or end == 1:
                return end, tokens
            end -= 1

    def _next_start(self, start: int, end: int, cum: list[int], sentence: list[int]) -> int:
        """Start of the next chunk: as far back as the overlap allows, at a sentence start if one
        lies inside the overlap."""
        earliest = bisect.bisect_left(cum, cum[end] - self.params.overlap)
        earliest = min(max(earliest, start + 1), end)
        first_sentence = _first_in(sentence, earliest, end - 1)
        return first_sentence if first_sentence is not None else earliest


def _local(marks: list[int], first: int) -> list[int]:
    return [m - first for m in marks]


def _drop_before(marks: list[int], first: int) -> None:
    del marks[: bisect.bisect_left(marks, first)]


def _last_in(marks: list[int], low: int, high: int) -> int | None:
    i = bisect.bisect_right(marks, high) - 1
    return marks[i] if i >= 0 and marks[i] >= low else None


def _first_in(marks: list[int], low: int, high: int) -> int | None:
    i = bisect.bisect_left(marks, low)
    return marks[i] if i < len(marks) and marks[i] <= high else None


def make_splitter(count_tokens: Callable[[str], int], budget: int, overlap: int) -> Splitter:
    """A splitter over a plain counting function (handy for tests and benchmarks)."""

    class _Counter:
        def count_tokens(self, text: str) -> int:
            return count_tokens(text)

    return Splitter(_Counter(), ChunkingParams(budget, overlap))
