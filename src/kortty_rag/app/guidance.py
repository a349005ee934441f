"""What to try when a search gives weak or no results, worded once for every front end.

Each piece of advice may name the operation that helps; a front end renders that in its own terms
(the CLI as a command, the desktop app as the control that does it).
"""

from __future__ import annotations

from collections.abc import Callable

#: (advice, the CLI command that helps or "")
WEAK_RESULTS_ADVICE: tuple[tuple[str, str], ...] = (
    ("check that the sources are enabled and synced", "source list"),
    ("try terms that occur in the documents, then compare with a natural-language question", ""),
    (
        "files a review skipped (unsupported, binary, non-UTF-8, oversized, protected or "
        "image-only) are not searched",
        "source refresh",
    ),
    ("rebuild the store after changing its embedding model", "store rebuild"),
)


def weak_results_guidance(command: Callable[[str], str] | None = None) -> str:
    """The advice in one sentence; ``command`` renders an operation's command (e.g. as
    `` (`source list`)``), or the operations are left out."""
    parts = [
        advice + (command(operation) if command and operation else "")
        for advice, operation in WEAK_RESULTS_ADVICE
    ]
    text = "; ".join(parts)
    return f"Weak or no results? {text[0].upper()}{text[1:]}."
