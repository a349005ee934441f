"""``kortty-rag ask ROLE "question"``: retrieval, prompt assembly and a streamed answer (docs/DESIGN.md §12).

The answer is written to stdout as it arrives, followed by the sources it cites (``[R1] path, page
N``); notes about retrieval go to stderr so that stdout stays the answer. A model's output is
untrusted text: control characters (terminal escape sequences, carriage returns that could overwrite
a line) and bidirectional overrides are removed before it reaches the terminal. The prompt (``--show-prompt``) and the cited
locations hold text and names from the files and are shown through the rendering rule of
:mod:`kortty_rag.untrusted`. ``--json`` waits for the whole answer and prints
it with the exact messages sent and the retrieval explanation.
"""

from __future__ import annotations

import argparse
import sys

from kortty_rag.app.asking import GenerationOptions, ask
from kortty_rag.app.profiles import RequestKind
from kortty_rag.cli.render import print_json
from kortty_rag.errors import Cancelled
from kortty_rag.untrusted import escape_line, escape_lines, strip_for_terminal


def printable(text: str) -> str:
    """``text`` without control characters other than newline and tab, nor bidirectional overrides."""
    return strip_for_terminal(text)


def show_messages(messages: list[dict[str, str]]) -> None:
    for message in messages:
        print(f"=== {message['role']} ===")
        print(escape_lines(message["content"]))
    print("=== answer ===", flush=True)


def cmd_ask(args: argparse.Namespace) -> int:
    options = GenerationOptions(max_tokens=args.max_tokens, temperature=args.temperature)
    answer = ask(
        args.role,
        args.question,
        kind=RequestKind(args.kind),
        selection=args.selection,
        options=options,
    )
    if answer.note:
        print(f"kortty-rag: no retrieved context: {answer.note}.", file=sys.stderr)
    elif answer.retrieval is not None:
        print(
            f"kortty-rag: {len(answer.excerpts)} excerpts from "
            f"{escape_line(', '.join(answer.stores))}.",
            file=sys.stderr,
        )
    try:
        if args.json:
            for _ in answer.stream():
                pass
            print_json(answer.to_json())
            return 0
        if args.show_prompt:
            show_messages(answer.messages)
        ended_with_newline = True
        for chunk in answer.stream():
            text = printable(chunk)
            if text:
                sys.stdout.write(text)
                sys.stdout.flush()
                ended_with_newline = text.endswith("\n")
    except KeyboardInterrupt:
        sys.stdout.write("\n")
        raise Cancelled("Stopped; the answer is incomplete.") from None
    finally:
        answer.close()
    if not ended_with_newline:
        sys.stdout.write("\n")
    cited = answer.cited()
    if cited:
        print("\nSources:")
        for excerpt in cited:
            print(f"  [{excerpt.marker}] {escape_line(excerpt.location())}")
    elif answer.excerpts:
        print(
            f"kortty-rag: the answer cites none of the {len(answer.excerpts)} excerpts it was given "
            "(--show-prompt shows them).",
            file=sys.stderr,
        )
    return 0
