"""Builds ``iofault.c`` (the fault-injection library for the I/O-error tests) with the system's C
compiler; the tests that need it are skipped where there is none."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

SOURCE = Path(__file__).with_name("iofault.c")


def build_iofault(folder: Path) -> Path | None:
    """``libiofault.so`` in ``folder``, or ``None`` when no C compiler is available."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None
    library = folder / "libiofault.so"
    subprocess.run(
        [compiler, "-shared", "-fPIC", "-O2", "-o", str(library), str(SOURCE), "-ldl"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return library
