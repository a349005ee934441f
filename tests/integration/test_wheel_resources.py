"""The wheel hatchling builds ships ``resources/`` inside the package (``kortty_rag/resources/…``:
the icons, the desktop entry, the AppStream metainfo), byte for byte (docs/DESIGN.md §1)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from kortty_rag.app_id import DESKTOP_FILE, ICON_SIZES, ICON_SVG, METAINFO_FILE, icon_png

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_contains_the_desktop_resources(tmp_path: Path) -> None:
    # hatchling is in the `test` extra; no build isolation, so nothing is downloaded
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (wheel,) = tmp_path.glob("kortty_rag-*.whl")
    wanted = [
        DESKTOP_FILE,
        METAINFO_FILE,
        ICON_SVG,
        "icons/kortty-rag.svg",
        *(icon_png(size) for size in ICON_SIZES),
        "chat_tokens.json",  # the context block's chat-template tokens
    ]
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for relative in wanted:
            name = f"kortty_rag/resources/{relative}"
            assert name in names, f"{name} is not in {wheel.name}"
            assert archive.read(name) == (ROOT / "resources" / relative).read_bytes()
        assert "kortty_rag/app_id.py" in names
        assert "kortty_rag/app/desktop_entry/files.py" in names
