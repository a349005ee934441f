"""How many chunks a text will make and how long embedding them takes, before it is embedded.

Used by the review (its summary, and documents whose embedding will take long are shown with their
estimate) and by the progress of an indexing run (its ETA counts chunks, not bytes: a small PDF can
hold a lot of text).

:class:`ChunkCounter` counts with the chunker itself and the model's own tokenizer, so packed
sections, headings and the model's tokens per character are what indexing will meet. It counts
:data:`EXACT_CHARACTERS` characters of one review at most; a document beyond that is estimated from
the chunks per character it counted in that format. Without the model (not installed) it falls back to :func:`estimated_chunks`, which
assumes :data:`CHARACTERS_PER_TOKEN` characters per token.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from kortty_rag.chunking.splitter import Splitter
from kortty_rag.chunking.structured import document_spans

CHARACTERS_PER_TOKEN = 4.0
#: tokens embedded per second by the starter model (all-MiniLM-L6-v2, llama.cpp) on the reference
#: machine's CPU: the README's indexing benchmark measured 21.4 chunks/s on SciFact (about 190 tokens
#: per chunk); larger models are slower, so for them the estimate errs on the short side
NOMINAL_TOKENS_PER_SECOND = 4000.0  # until this machine measured its own (sync/speed.py)
#: a document whose embedding is estimated to take at least this long is pointed out in the review
LONG_EMBEDDING_SECONDS = 60.0


def estimated_chunks(characters: int, chunk_tokens: int, overlap_tokens: int) -> int:
    """About how many chunks ``characters`` of text make (0 for no text)."""
    if characters <= 0:
        return 0
    tokens = characters / CHARACTERS_PER_TOKEN
    step = max(1, chunk_tokens - overlap_tokens)
    return max(1, math.ceil((tokens - overlap_tokens) / step))


def estimated_seconds(
    chunks: int, chunk_tokens: int, chunks_per_second: float | None = None
) -> float:
    """About how long indexing ``chunks`` chunks takes: at ``chunks_per_second`` when this machine
    measured it (``sync/speed.py``), else as full chunks at the nominal speed."""
    if chunks_per_second:
        return chunks / chunks_per_second
    return chunks * chunk_tokens / NOMINAL_TOKENS_PER_SECOND


#: characters of one review counted with the chunker itself (about 3 s on the reference machine);
#: the documents after them are estimated from the chunks per character counted so far
EXACT_CHARACTERS = 4_000_000
#: characters of one format counted before its chunks per character stand in for counting
_RATIO_CHARACTERS = 20_000

#: A document's text as segments: a page number (None for a text file) and the page's text blocks.
Segments = Iterable[tuple[int | None, Iterable[str]]]


class ChunkCounter:
    """The chunks each document of a review will make, counted by the chunker (see the module
    docstring); ``splitter`` carries the model's tokenizer and chunk budget."""

    def __init__(self, splitter: Splitter, exact_characters: int = EXACT_CHARACTERS) -> None:
        self.splitter = splitter
        self.left = exact_characters
        self._counted: dict[str, tuple[int, int]] = {}  # format -> (characters, chunks)

    def chunks(self, fmt: str, characters: int, segments: Segments) -> int:
        """The chunks of one document of ``characters`` characters (at least 1 for any text)."""
        if characters <= 0:
            return 0
        seen, made = self._counted.get(fmt, (0, 0))
        if characters > self.left and seen >= _RATIO_CHARACTERS:
            return max(1, round(characters * made / seen))
        if characters > self.left:
            params = self.splitter.params
            return estimated_chunks(characters, params.budget, params.overlap)
        chunks = sum(
            sum(1 for _ in document_spans(self.splitter, fmt, page, blocks))
            for page, blocks in segments
        )
        self.left -= characters
        self._counted[fmt] = (seen + characters, made + chunks)
        return max(1, chunks)
