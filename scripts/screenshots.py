"""Render the main screens of the desktop app to PNG under a real X server (Xvfb).

    .venv/bin/python scripts/screenshots.py [--lang en|de] [--out DIR]

Starts Xvfb itself when no DISPLAY is set (Debian: ``apt-get install xvfb libxcb-cursor0``), builds a
demo KORTTY_HOME in a temporary folder (the offline starter model, a store over the test corpus, two
AI profiles), then opens the real main window and captures: the store list, the review dialog,
indexing in progress, test search, the model wizard and the AI profiles page — in English
(``docs/screenshots``) or German (``--lang de``: ``docs/screenshots/de``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

QWidgetType = Any  # PySide6 is imported after the display is set up

ROOT = Path(__file__).resolve().parents[1]


def start_xvfb() -> subprocess.Popen[bytes] | None:
    if os.environ.get("DISPLAY"):
        return None
    display = ":97"
    proc = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1440x900x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.environ["DISPLAY"] = display
    time.sleep(1.0)
    return proc


def prepare_home(home: Path, corpus: Path) -> None:
    os.environ["KORTTY_HOME"] = str(home)
    sys.path.insert(0, str(ROOT))
    from tests.helpers.pdfs import text_pdf

    from kortty_rag.app.workspace import Workspace
    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.models import StoreRoles
    from kortty_rag.profiles.registry import AiProfile, Backend, ProfileRegistry

    shutil.copytree(ROOT / "tests" / "data" / "corpus", corpus)
    text_pdf(
        corpus / "science" / "field-guide.pdf",
        [
            "Honeybees carry pollen from blossom to blossom.",
            "Glaciers are rivers of ice that creep downhill.",
            "A good chess opening controls the centre.",
        ],
    )
    model = install_starter()
    registry = StoreRegistry()
    store = registry.create(
        "Project notes", model.identity(), roles=StoreRoles(text=True, coding=True)
    )
    Workspace(registry).add_sources(store, [corpus / "science", corpus / "kitchen"])
    profiles = ProfileRegistry()
    profiles.add(
        AiProfile(
            "Local assistant",
            Backend.OPENAI,
            "gemma-3-270m",
            8192,
            "gemma",
            endpoint="http://127.0.0.1:8080",
        )
    )
    profiles.add(
        AiProfile(
            "Team server",
            Backend.OPENAI,
            "qwen2.5-coder",
            32768,
            "qwen",
            endpoint="https://llm.example.com",
            api_key_env="TEAM_LLM_KEY",
        )
    )
    from kortty_rag.models import Role

    profiles.assign(Role.TEXT, "Local assistant")
    profiles.assign(Role.CODING, "Team server")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("en", "de"), default="en")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.out is None:
        args.out = ROOT / "docs" / "screenshots" / ("de" if args.lang == "de" else "")
    args.out.mkdir(parents=True, exist_ok=True)
    xvfb = start_xvfb()
    work = Path(tempfile.mkdtemp(prefix="kortty-screens-"))
    try:
        prepare_home(work / "home", work / "corpus")
        os.environ["QT_QPA_PLATFORM"] = "xcb"
        return capture(args.out, work / "corpus", args.lang)
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait()
        shutil.rmtree(work, ignore_errors=True)


def first_screen(
    out: Path, settle: Callable[..., None], shot: Callable[[QWidgetType, str], None]
) -> None:
    """The window as a first start shows it: no store yet, no model installed."""
    from kortty_rag.gui.main_window import MainWindow

    home = os.environ["KORTTY_HOME"]
    empty = Path(tempfile.mkdtemp(prefix="kortty-first-"))
    os.environ["KORTTY_HOME"] = str(empty)
    try:
        window = MainWindow(watch=False)
        window.resize(1280, 780)
        window.show()
        shot(window, "00-first-screen.png")
        window.shutdown()
        window.close()
    finally:
        os.environ["KORTTY_HOME"] = home
        shutil.rmtree(empty, ignore_errors=True)


def capture(out: Path, corpus: Path, lang: str) -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QWidget

    from kortty_rag.gui import i18n
    from kortty_rag.gui.file_dialogs import PathChooser
    from kortty_rag.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv)
    i18n.install(lang)  # as run_gui does (English too: its plural forms)

    notes = corpus / "meeting-notes"
    notes.mkdir()
    topics = [
        "release planning",
        "backup rotation",
        "on-call handover",
        "budget review",
        "database migration",
        "security audit",
        "customer feedback",
        "hiring",
    ]
    for i in range(120):
        topic = topics[i % len(topics)]
        (notes / f"{i:03d}-{topic.replace(' ', '-')}.md").write_text(
            f"# Meeting {i}: {topic}\n\n" + f"We discussed {topic} and agreed on next steps. " * 80
        )

    class DemoChooser(PathChooser):
        def folder(self, parent: QWidget) -> str | None:
            return str(notes)

    window = MainWindow(chooser=DemoChooser(), watch=False)
    window.resize(1280, 780)
    window.show()
    tab = window.stores_tab

    def settle(condition: Callable[[], bool] = lambda: True, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            app.processEvents()
            if condition() or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        for _ in range(20):
            app.processEvents()
            time.sleep(0.01)

    def shot(widget: QWidget, name: str) -> None:
        settle()
        widget.grab().save(str(out / name))
        print(f"wrote {out / name}")

    settle()
    first_screen(out, settle, shot)
    shot(window, "01-knowledge-stores.png")
    tab.add_folder_button.click()
    settle(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    assert tab.review_dialog is not None
    shot(tab.review_dialog, "02-review.png")
    statuses: list[str] = []
    tab.status_changed.connect(statuses.append)
    tab.review_dialog.index_button.click()
    settle(lambda: any("/s" in s and (" left" in s or "noch" in s) for s in statuses), timeout=300)
    window.grab().save(str(out / "03-indexing.png"))  # at once: the job is still running
    print(f"wrote {out / '03-indexing.png'}")
    settle(lambda: not window.runner.running, timeout=300)
    shot(window, "08-indexing-finished.png")  # the notice in the status area, no box

    from kortty_rag.gui.dialogs.test_search import TestSearchDialog

    dialog = TestSearchDialog(tab.current_store(), window.workspace, parent=window)  # type: ignore[arg-type]
    dialog.resize(1100, 760)
    dialog.open()
    results: list[object] = []
    dialog.searched.connect(results.append)
    dialog.query_edit.setText("How do volcanoes warn people before an eruption?")
    dialog.search_button.click()
    settle(lambda: bool(results))
    shot(dialog, "04-test-search.png")
    dialog.close()

    from kortty_rag.gui.dialogs.model_wizard import ModelWizard

    wizard = ModelWizard(window.runner, window.chooser, role="embedding", parent=window)
    wizard.open()
    shot(wizard, "05-model-wizard.png")
    wizard.close()

    window.tabs.setCurrentIndex(1)
    shot(window, "06-profiles-and-roles.png")
    window.tabs.setCurrentIndex(2)
    shot(window, "07-models.png")
    QTimer.singleShot(0, window.close)
    settle()
    window.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
