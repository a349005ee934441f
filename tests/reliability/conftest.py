"""Fixtures of the reliability suite: the fork server of real indexing processes, the fault library."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.helpers.iofault import build_iofault
from tests.helpers.storage_driver import ForkServer, fork_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ForkServer]:
    with fork_server(tmp_path / "results") as started:
        yield started


@pytest.fixture(scope="session")
def iofault_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    library = build_iofault(tmp_path_factory.mktemp("iofault"))
    if library is None:
        pytest.skip("no C compiler to build the fault-injection library")
    return library
