"""What to try when a search gives weak or no results, worded once for every front end.

Each piece of advice may name the operation that helps, as a remedy (:mod:`kortty_rag.remedies`);
a front end words that in its own terms (the CLI as a command, the desktop app as the control that
does it, in its language).
"""

from __future__ import annotations

from kortty_rag.messages import Message, msg
from kortty_rag.remedies import Operation, place

#: (advice, the operation that helps, or None); the first is said first in the sentence, so it
#: starts with a capital letter
WEAK_RESULTS_ADVICE: tuple[tuple[Message, Operation | None], ...] = (
    (msg("Check that the sources are enabled and synced"), Operation.SOURCE_LIST),
    (
        msg("try terms that occur in the documents, then compare with a natural-language question"),
        None,
    ),
    (
        msg(
            "files a review skipped (unsupported, binary, non-UTF-8, oversized, protected or "
            "image-only) are not searched"
        ),
        Operation.SOURCE_REVIEW,
    ),
    (msg("rebuild the store after changing its embedding model"), Operation.STORE_REBUILD),
)


def weak_results_guidance(*, operations: bool = True) -> Message:
    """The advice in one sentence, each with the operation that helps (or without them)."""
    parts = [
        msg("{advice} ({operation})", advice=advice, operation=place(operation))
        if operations and operation is not None
        else advice
        for advice, operation in WEAK_RESULTS_ADVICE
    ]
    first, second, third, fourth = parts
    return msg(
        "Weak or no results? {first}; {second}; {third}; {fourth}.",
        first=first,
        second=second,
        third=third,
        fourth=fourth,
    )
