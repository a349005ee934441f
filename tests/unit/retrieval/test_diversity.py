"""Diversity per document is a preference, not a wall: 2 per document first, then free slots are
filled with the next best candidates whatever their document."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tests.helpers.fakes import HashEmbedder, RankedVectors

from kortty_rag.models import Chunk, Hit, Source, SourceKind, Store, StoreType
from kortty_rag.retrieval.search import (
    DROP_BUDGET,
    DROP_PER_DOCUMENT,
    DROP_TOTAL,
    RetrievalResult,
    SearchOptions,
    retrieve,
)

SOURCE = Source(id="s0", path="/data/notes", kind=SourceKind.FOLDER)
OTHER = Source(id="s1", path="/data/more", kind=SourceKind.FOLDER)
STORE = Store("st", "Notes", StoreType.LOCAL, HashEmbedder().identity, sources=(SOURCE, OTHER))


def ranking(documents: Sequence[str], *, words: int = 20, pages: bool = False) -> list[Hit]:
    """Dense hits in the order given, one chunk per entry of ``documents`` (``"s1:b.md"`` is
    document ``b.md`` of the second source); similarities fall from 0.9 and all pass the floor."""
    hits = []
    for n, name in enumerate(documents):
        source, _, rel_path = name.rpartition(":")
        text = f"chunk {n} of {rel_path} " + "lorem ipsum " * (words // 2)
        chunk = Chunk(
            f"c{n}", source or "s0", rel_path, n + 1 if pages else None, 0, len(text), words, text
        )
        hits.append(Hit(n, chunk, 0.9 - 0.01 * n))
    return hits


def search(hits: list[Hit], context_window: int | None = None) -> RetrievalResult:
    vectors = RankedVectors(hits)
    embedder = HashEmbedder()
    return retrieve(
        "query",
        [STORE],
        lambda s, dense: (vectors, embedder if dense else None),  # type: ignore[arg-type,return-value]
        options=SearchOptions(explain=True),
        context_window=context_window,
    )


def documents(result: RetrievalResult) -> list[str]:
    return [e.chunk.rel_path for e in result.excerpts]


def reasons(result: RetrievalResult) -> dict[str, str]:
    return {d.candidate.chunk.chunk_id: d.reason for d in result.dropped}


def test_one_document_with_eight_relevant_chunks_gives_six_excerpts() -> None:
    result = search(ranking(["manual.pdf"] * 8, pages=True))
    assert documents(result) == ["manual.pdf"] * 6
    assert [e.page for e in result.excerpts] == [1, 2, 3, 4, 5, 6]  # R1 best, in fused order
    # the block was full of the same document's excerpts: no slot went to another document
    assert reasons(result) == {"c6": DROP_TOTAL, "c7": DROP_TOTAL}


def test_eight_documents_give_six_excerpts_from_at_least_three_with_two_each() -> None:
    names = [f"doc{d}.md" for d in range(8) for _ in range(3)]  # every chunk of doc0 first, …
    result = search(ranking(names))
    counts = Counter(documents(result))
    assert len(result.excerpts) == 6 and len(counts) >= 3 and max(counts.values()) == 2
    fused = [e.candidate.fused for e in result.excerpts]
    assert fused == sorted(fused, reverse=True)
    why = reasons(result)
    # doc0's and doc1's third chunks lost their slots to doc1 and doc2, ranked below them
    assert why["c2"] == DROP_PER_DOCUMENT and why["c5"] == DROP_PER_DOCUMENT
    # doc2's third chunk ranks below every excerpt of the other documents: the block was full
    assert why["c8"] == DROP_TOTAL
    assert {why[f"c{n}"] for n in range(9, 24)} == {DROP_TOTAL}


def test_the_cap_reason_appears_only_when_the_slot_went_to_another_document() -> None:
    interleaved = search(ranking([f"doc{n % 8}.md" for n in range(24)]))
    assert len(interleaved.excerpts) == 6 and len(set(documents(interleaved))) == 6
    assert DROP_PER_DOCUMENT not in set(reasons(interleaved).values())

    # a long document ranks first, a short one last: the short one still gets its two slots
    result = search(ranking(["long.pdf"] * 8 + ["s1:short.md"] * 2))
    assert documents(result) == ["long.pdf"] * 4 + ["short.md"] * 2  # fill pass: 3rd, 4th chunk
    assert reasons(result) == {f"c{n}": DROP_PER_DOCUMENT for n in range(4, 8)}


def test_the_token_budget_still_holds_in_the_fill_pass() -> None:
    # about 620 estimated tokens an excerpt: 4,000 holds six of them and the wrapper
    result = search(ranking(["big.txt"] * 8, words=300))
    assert len(result.excerpts) == 6 and result.used_tokens <= result.budget_tokens == 4000

    small = search(ranking(["big.txt"] * 8, words=300), context_window=8192)  # 2,048 tokens
    assert small.used_tokens <= small.budget_tokens == 2048
    assert documents(small) == ["big.txt"] * 3
    assert set(reasons(small).values()) == {DROP_BUDGET}  # never the cap: one document only

    # the budget went to another document ranked below: the cap is the reason
    mixed = search(ranking(["big.txt"] * 4 + ["s1:other.txt"] * 2, words=300), context_window=8192)
    assert mixed.used_tokens <= mixed.budget_tokens
    assert documents(mixed) == ["big.txt", "big.txt", "other.txt"]
    assert reasons(mixed) == {"c2": DROP_PER_DOCUMENT, "c3": DROP_PER_DOCUMENT, "c5": DROP_BUDGET}
