"""Run one ``kortty-rag`` command in this process and report how many bytes it wrote.

    python -m tests.helpers.write_meter RESULT.json LIMIT ARGS…

The count is the kernel's ``wchar`` from ``/proc/self/io``: every byte this process handed to
write(2), pwrite(2), writev(2), sendfile(2) … — to files, pipes and terminals alike — read when the
command has ended, whether it returned or raised. ``LIMIT`` becomes RLIMIT_FSIZE before anything
else runs (Python ignores SIGXFSZ, so a write past it fails with EFBIG instead of killing the
process): a command that would write gigabytes cannot fill the disk, and still reports its count.
Run it with ``PYTHONDONTWRITEBYTECODE=1``, or compiling modules counts too.
"""

from __future__ import annotations

import json
import resource
import sys
from pathlib import Path


def written() -> int:
    """``wchar`` of this process (all its threads) so far."""
    for line in Path("/proc/self/io").read_text().splitlines():
        key, _, value = line.partition(":")
        if key == "wchar":
            return int(value)
    raise RuntimeError("no wchar in /proc/self/io")


def main() -> None:
    result, limit, *args = sys.argv[1:]
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(limit), int(limit)))
    code = 1
    try:
        from kortty_rag.cli import main as cli

        code = cli(args)
    finally:
        count = written()
        Path(result).write_text(json.dumps({"written": count, "code": code}))
    sys.exit(code)


if __name__ == "__main__":
    main()
