"""Chunks cover the text, stay within the budget, and are deterministic."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.helpers.fakes import SubwordCounter

from kortty_rag.chunking.splitter import ChunkingParams, Splitter

words = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters=" \n\t\r"),
    min_size=1,
    max_size=30,
)
separators = st.sampled_from([" ", "  ", "\n", "\n\n", ". ", "! ", "\n \n", "\t"])
documents = st.lists(st.tuples(words, separators), max_size=300).map(
    lambda parts: "".join(w + s for w, s in parts)
)


@settings(max_examples=300, deadline=None)
@given(documents, st.integers(min_value=8, max_value=120), st.floats(min_value=0, max_value=0.45))
def test_chunk_invariants(text: str, budget: int, ratio: float) -> None:
    overlap = min(int(budget * ratio), budget // 2 - 1)
    counter = SubwordCounter()
    chunks = Splitter(counter, ChunkingParams(budget, overlap)).split(text)
    covered = [False] * len(text)
    for chunk in chunks:
        assert chunk.text == text[chunk.start : chunk.end]
        assert chunk.token_count == counter.count_tokens(chunk.text) <= budget
        for i in range(chunk.start, chunk.end):
            covered[i] = True
    assert all(covered[i] for i, ch in enumerate(text) if not ch.isspace())
    starts = [c.start for c in chunks]
    assert starts == sorted(set(starts))
    for prev, nxt in itertools.pairwise(chunks):
        assert nxt.start <= prev.end + len(text[prev.end : nxt.start]) and nxt.end > prev.end
    assert Splitter(counter, ChunkingParams(budget, overlap)).split(text) == chunks
