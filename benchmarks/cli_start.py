"""How fast the CLI answers: ``--version`` and ``--help`` beside the interpreter's own start.

Each command runs as a new process, the commands taking turns, :data:`RUNS` times; the median wall
time of each is printed with its ratio to a bare ``python -c pass`` measured in the same turns. The
last row imports what a command that works on a store loads (the application layer), which every
command loaded before the arguments were declared apart from the commands.

    .venv/bin/python benchmarks/cli_start.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = 15
COMMANDS: list[tuple[str, list[str]]] = [
    ("python -c pass", ["-c", "pass"]),
    ("kortty-rag --version", ["-m", "kortty_rag", "--version"]),
    ("kortty-rag --help", ["-m", "kortty_rag", "--help"]),
    ("kortty-rag search --help", ["-m", "kortty_rag", "search", "--help"]),
    ("kortty-rag store create (usage error)", ["-m", "kortty_rag", "store", "create"]),
    ("import kortty_rag.app.workspace", ["-c", "import kortty_rag.app.workspace"]),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    env = dict(os.environ, KORTTY_HOME=tempfile.mkdtemp(prefix="kortty-cli-start-"))
    times: dict[str, list[float]] = {name: [] for name, _ in COMMANDS}
    for _ in range(args.runs):
        for name, argv in COMMANDS:
            started = time.perf_counter()
            subprocess.run(
                [sys.executable, *argv], env=env, capture_output=True, timeout=60, check=False
            )
            times[name].append(time.perf_counter() - started)
    floor = statistics.median(times[COMMANDS[0][0]])
    print(f"median of {args.runs} runs each, in turns (target: --version and --help <= 0.15 s)")
    for name, _ in COMMANDS:
        median = statistics.median(times[name])
        print(f"  {name:<40}{median:7.3f} s  {median / floor:5.1f}x python -c pass")


if __name__ == "__main__":
    main()
