"""How many chunks a text will make and how long embedding them takes, before it is chunked.

Used by the review (documents whose embedding will take long are shown with their estimate) and by
the progress of an indexing run (its ETA counts chunks, not bytes: a small PDF can hold a lot of
text). The estimate assumes :data:`CHARACTERS_PER_TOKEN` characters per token, typical of prose and
code with subword tokenizers; the real count comes from the model's tokenizer while indexing.
"""

from __future__ import annotations

import math

CHARACTERS_PER_TOKEN = 4.0
#: tokens embedded per second by the starter model (all-MiniLM-L6-v2, llama.cpp) on the reference
#: machine's CPU: the README's indexing benchmark measured 21.4 chunks/s on SciFact (about 190 tokens
#: per chunk); larger models are slower, so for them the estimate errs on the short side
NOMINAL_TOKENS_PER_SECOND = 4000.0
#: a document whose embedding is estimated to take at least this long is pointed out in the review
LONG_EMBEDDING_SECONDS = 60.0


def estimated_chunks(characters: int, chunk_tokens: int, overlap_tokens: int) -> int:
    """About how many chunks ``characters`` of text make (0 for no text)."""
    if characters <= 0:
        return 0
    tokens = characters / CHARACTERS_PER_TOKEN
    step = max(1, chunk_tokens - overlap_tokens)
    return max(1, math.ceil((tokens - overlap_tokens) / step))


def estimated_seconds(chunks: int, chunk_tokens: int) -> float:
    """About how long embedding ``chunks`` full chunks takes at the nominal speed."""
    return chunks * chunk_tokens / NOMINAL_TOKENS_PER_SECOND
