"""The German app at 200 % scaling (QT_SCALE_FACTOR=2): every window of the main flows fits a
1920×1080 screen and shows every label and button whole. The walk runs in a process of its own
(tests/gui/scaled_walk.py), because the scale factor is read once, when Qt starts; its screenshots
are kept in the test's temporary folder (``KORTTY_KEEP_SCREENSHOTS=DIR`` copies them there)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parents[2]
#: an offscreen screen of 1920×1080 device pixels
SCREEN = {
    "screens": [
        {
            "name": "laptop",
            "x": 0,
            "y": 0,
            "width": 1920,
            "height": 1080,
            "logicalDpi": 96,
            "logicalBaseDpi": 96,
            "dpr": 1,
        }
    ]
}


def test_german_at_200_percent_fits_and_clips_nothing(tmp_path: Path) -> None:
    config = tmp_path / "screen.json"
    config.write_text(json.dumps(SCREEN))
    shots = tmp_path / "shots"
    env = {k: v for k, v in os.environ.items() if not k.startswith("QT_")}
    env.update(
        QT_QPA_PLATFORM=f"offscreen:configfile={config}",
        QT_SCALE_FACTOR="2",
        KORTTY_SCREENSHOTS=str(shots),
        PYTHONDONTWRITEBYTECODE="1",
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(ROOT / "tests" / "gui" / "scaled_walk.py"),
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "--basetemp",
            str(tmp_path / "t"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    keep = os.environ.get("KORTTY_KEEP_SCREENSHOTS")
    if keep and shots.exists():
        shutil.copytree(shots, keep, dirs_exist_ok=True)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert "1 passed" in result.stdout
    walked = json.loads((shots / "walk.json").read_text())
    assert walked["problems"] == []
    assert len(walked["shots"]) >= 20
    # each screenshot is a real 2× rendering: twice the layout size, and not blank
    for shot in walked["shots"]:
        image = QImage(shot)
        assert not image.isNull() and image.width() >= 400, shot
        colours = {
            image.pixel(x, y)
            for x in range(0, image.width(), 37)
            for y in range(0, image.height(), 37)
        }
        assert len(colours) > 3, f"{shot} is blank"
