from __future__ import annotations

import itertools

import pytest
from tests.helpers.fakes import SubwordCounter

from kortty_rag.chunking.splitter import ChunkingParams, Splitter, overlap_for


def splitter(budget: int = 40, overlap: int = 6) -> Splitter:
    return Splitter(SubwordCounter(), ChunkingParams(budget, overlap))


def test_spec_overlap_ratio() -> None:
    assert overlap_for(800) == 120
    assert overlap_for(256) == 38


def test_short_text_is_one_chunk() -> None:
    chunks = splitter().split("  A short note.  \n")
    assert [(c.text, c.start, c.end) for c in chunks] == [("A short note.", 2, 15)]


def test_empty_text_has_no_chunks() -> None:
    assert splitter().split(" \n\t ") == []


def test_prefers_paragraph_boundaries() -> None:
    para = "word " * 12  # 12 tokens
    text = f"{para.strip()}\n\n{para.strip()}\n\n{para.strip()}\n\n{para.strip()}"
    chunks = splitter(budget=30, overlap=0).split(text)
    assert all(c.text.count("word") == 24 or c.text.count("word") == 12 for c in chunks)
    assert chunks[0].text.endswith("word") and "\n\n" in chunks[0].text
    assert text[chunks[0].end :].startswith("\n\n")


def test_prefers_sentence_boundaries_inside_a_long_paragraph() -> None:
    sentence = "Alpha beta gamma delta epsilon zeta eta theta."  # 8 words, 15 tokens
    text = " ".join([sentence] * 6)
    chunks = splitter(budget=40, overlap=0).split(text)
    assert len(chunks) > 1
    assert all(c.text.endswith(".") for c in chunks)


def test_overlap_repeats_the_end_of_the_previous_chunk() -> None:
    text = " ".join(f"w{i:03d}" for i in range(200))  # one token per word, no sentences
    chunks = splitter(budget=40, overlap=6).split(text)
    for prev, nxt in itertools.pairwise(chunks):
        shared = text[nxt.start : prev.end].split()
        assert 4 <= len(shared) <= 6


def test_overlong_word_is_cut() -> None:
    blob = "x" * 1000  # 250 tokens in one word
    chunks = splitter(budget=40, overlap=4).split(f"start {blob} end")
    assert all(c.token_count <= 40 for c in chunks)
    assert "".join(c.text for c in chunks).count("x") >= 1000


def test_page_is_carried() -> None:
    assert {c.page for c in splitter().split("text " * 100, page=7)} == {7}


@pytest.mark.parametrize(("budget", "overlap"), [(4, 0), (20, 10), (20, -1)])
def test_invalid_params(budget: int, overlap: int) -> None:
    with pytest.raises(ValueError):
        ChunkingParams(budget, overlap)
