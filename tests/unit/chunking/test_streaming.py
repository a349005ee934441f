"""Streaming chunking (issue 10, finding 4): the chunks of a text fed in blocks, cut anywhere, are
exactly the chunks the whole-text splitter made before chunking streamed (kept verbatim in
tests/helpers/reference_splitter.py as the oracle), and memory does not grow with the document."""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from tests.helpers.fakes import SubwordCounter
from tests.helpers.reference_splitter import ReferenceSplitter

from kortty_rag.chunking.splitter import ChunkingParams, Splitter
from kortty_rag.chunking.words import MAX_WORD_CHARACTERS
from kortty_rag.models import ChunkSpan

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"
PARAMS = [ChunkingParams(40, 6), ChunkingParams(254, 38), ChunkingParams(12, 1)]


def cut(text: str, rng: random.Random, most: int) -> list[str]:
    """``text`` in blocks of 0..``most`` characters (empty blocks included)."""
    blocks, pos = [], 0
    while pos < len(text):
        size = rng.randint(0, most)
        blocks.append(text[pos : pos + size])
        pos += size
    return blocks


def reference(text: str, params: ChunkingParams, page: int | None = None) -> list[ChunkSpan]:
    return ReferenceSplitter(SubwordCounter(), params).split(text, page)


def streamed(blocks: list[str], params: ChunkingParams, page: int | None = None) -> list[ChunkSpan]:
    return list(Splitter(SubwordCounter(), params).stream(blocks, page))


#: texts made of the characters the splitter treats specially: sentence ends, closing quotes, line
#: breaks, blank lines with spaces and tabs, other whitespace, long words
_PIECES = st.sampled_from(
    ["word", "Alpha", "end.", "why?", "yes!", "list:", 'said."', "x)", "…", "。", " ", "  ", "\n",
     "\n\n", "\n \t\n", "\t", "\x0b", "\u2028", "\xa0", "é", "日本", "a" * 90, "b" * 700, "-", "1.5"]
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    pieces=st.lists(_PIECES, max_size=400),
    seed=st.integers(0, 2**32),
    params=st.sampled_from(PARAMS),
)
def test_streamed_chunks_equal_the_whole_text_chunks(
    pieces: list[str], seed: int, params: ChunkingParams
) -> None:
    text = "".join(pieces)
    # runs longer than the segment length are cut differently by design (tested below)
    assume(max((len(w) for w in text.split()), default=0) <= MAX_WORD_CHARACTERS)
    rng = random.Random(seed)
    blocks = cut(text, rng, rng.choice([1, 7, 64, 5000]))
    assert streamed(blocks, params, 3) == reference(text, params, 3)


def test_the_corpus_chunks_identically_in_blocks_of_every_size() -> None:
    texts = [p.read_text("utf-8") for p in sorted(CORPUS.rglob("*")) if p.is_file()]
    texts = [t for t in texts if t.strip()]
    assert len(texts) >= 10
    rng = random.Random(10)
    for text in texts:
        for params in PARAMS:
            want = reference(text, params)
            for most in (1, 13, 4096):
                assert streamed(cut(text, rng, most), params) == want


def test_words_longer_than_the_segment_length_are_cut_the_same_in_any_blocks() -> None:
    blob = "".join(random.Random(4).choice("abcdefgh") for _ in range(10 * MAX_WORD_CHARACTERS))
    text = f"Intro sentence. {blob} tail words here."
    params = ChunkingParams(40, 6)
    whole = streamed([text], params)
    assert all(c.token_count <= 40 for c in whole)
    assert "".join(text[c.start : c.end] for c in whole).count("a") >= blob.count("a")
    rng = random.Random(5)
    for most in (1, 100, MAX_WORD_CHARACTERS + 1, 3 * MAX_WORD_CHARACTERS):
        assert streamed(cut(text, rng, most), params) == whole


class _CountingCounter(SubwordCounter):
    """Records the longest text it was asked to count."""

    def __init__(self) -> None:
        self.longest = 0

    def count_tokens(self, text: str) -> int:
        self.longest = max(self.longest, len(text))
        return super().count_tokens(text)


_LETTERS = bytes.maketrans(bytes(range(256)), bytes(97 + i % 16 for i in range(256)))


def _one_line(mebibytes: int, *, spaces: bool) -> Iterator[str]:
    """One line of ``mebibytes`` MiB in blocks of 1 MiB: words from a fixed vocabulary (the word cache
    stays small) or one unbroken run of letters."""
    rng = random.Random(mebibytes)
    vocabulary = ["".join(rng.choices("abcdefghijklmnop", k=7)) for _ in range(2000)]
    for _ in range(mebibytes):
        if spaces:
            yield " ".join(rng.choices(vocabulary, k=131_072))[: 1 << 20]
        else:
            yield rng.randbytes(1 << 20).translate(_LETTERS).decode("ascii")


def _peak_while_streaming(megabytes: int, *, spaces: bool) -> tuple[int, int, int]:
    counter = _CountingCounter()
    splitter = Splitter(counter, ChunkingParams(254, 38))
    tracemalloc.start()
    try:
        chunks = 0
        for chunk in splitter.stream(_one_line(megabytes, spaces=spaces)):
            assert chunk.token_count <= 254
            chunks += 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, chunks, counter.longest


def test_memory_of_one_line_does_not_grow_with_its_length() -> None:
    """A one-line document of 5 MiB and one of 2 MiB (with and without spaces) are chunked with the
    same peak memory: the window, not the document, is held. The whole-text splitter held every word
    of the line (about 150 bytes each) and fed an unbroken line to the tokenizer at once."""
    for spaces in (True, False):
        small, small_chunks, _ = _peak_while_streaming(2, spaces=spaces)
        large, large_chunks, longest = _peak_while_streaming(5, spaces=spaces)
        assert large_chunks > 2.2 * small_chunks
        assert large < small + (1 << 20), (spaces, small, large)
        assert large < 6 << 20, (spaces, large)  # blocks of 1 MiB plus one window
        assert longest <= 64 * 1024, longest  # the tokenizer never sees a whole line
