"""What to try when a search gives weak or no results, worded once for every front end.

Each piece of advice may name the operation that helps; a front end renders that in its own terms
(the CLI as a command, the desktop app as the control that does it, in its language).
"""

from __future__ import annotations

from collections.abc import Callable

from kortty_rag.messages import Message, msg

#: (advice, the CLI command of the operation that helps, or ""); the first is said first in the
#: sentence, so it starts with a capital letter
WEAK_RESULTS_ADVICE: tuple[tuple[Message, str], ...] = (
    (msg("Check that the sources are enabled and synced"), "source list"),
    (
        msg("try terms that occur in the documents, then compare with a natural-language question"),
        "",
    ),
    (
        msg(
            "files a review skipped (unsupported, binary, non-UTF-8, oversized, protected or "
            "image-only) are not searched"
        ),
        "source refresh",
    ),
    (msg("rebuild the store after changing its embedding model"), "store rebuild"),
)


def weak_results_guidance(operation: Callable[[str], str] | None = None) -> Message:
    """The advice in one sentence; ``operation`` says where a command's operation is found (the
    CLI: the command in backticks; the app: its button), or the operations are left out."""
    parts = [
        msg("{advice} ({operation})", advice=advice, operation=operation(command))
        if operation is not None and command
        else advice
        for advice, command in WEAK_RESULTS_ADVICE
    ]
    first, second, third, fourth = parts
    return msg(
        "Weak or no results? {first}; {second}; {third}; {fourth}.",
        first=first,
        second=second,
        third=third,
        fourth=fourth,
    )
