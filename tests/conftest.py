"""Shared fixtures: every test gets its own KORTTY_HOME; the real starter model is converted once per
machine (cached) and linked into the tests that need it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.privileges import permission_checked_preexec
from tests.helpers.reliability import SOAK
from tests.helpers.starter_cache import starter_home

#: the soak tier runs properties 100× longer than the CI tier's per-test limit allows
SOAK_TIMEOUT_SECONDS = 6 * 3600


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if SOAK:
        for item in items:
            item.add_marker(pytest.mark.timeout(SOAK_TIMEOUT_SECONDS))


@pytest.fixture(autouse=True)
def kortty_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "kortty-home"
    home.mkdir()
    monkeypatch.setenv("KORTTY_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def starter_cache() -> Path:
    """A KORTTY_HOME (outside the tests' temp folders) with the starter model installed once."""
    return starter_home()


@pytest.fixture
def starter_model(starter_cache: Path, kortty_home: Path):  # type: ignore[no-untyped-def]
    """The installed starter model inside this test's KORTTY_HOME (hard links, no copy)."""
    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.installed import get_model

    source = starter_cache / "models" / STARTER_ID
    target = kortty_home / "models" / STARTER_ID
    target.mkdir(parents=True)
    for entry in source.iterdir():
        try:
            os.link(entry, target / entry.name)
        except OSError:
            shutil.copyfile(entry, target / entry.name)
    return get_model(STARTER_ID)


@pytest.fixture
def run_cli(kortty_home: Path) -> Iterator[object]:
    """Run ``kortty-rag`` in a subprocess with this test's KORTTY_HOME."""

    def run(
        *args: str, input: str | None = None, check: bool = False, enforce_modes: bool = False
    ) -> subprocess.CompletedProcess[str]:
        """``enforce_modes``: file permissions apply to the child even when the tests run as root."""
        env = dict(os.environ, KORTTY_HOME=str(kortty_home))
        return subprocess.run(
            [sys.executable, "-m", "kortty_rag", *args],
            capture_output=True,
            text=True,
            input=input,
            env=env,
            check=check,
            timeout=600,
            preexec_fn=permission_checked_preexec() if enforce_modes else None,
        )

    yield run
