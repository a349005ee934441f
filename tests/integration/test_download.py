"""Model download from a local HTTP server on loopback serving a real GGUF file (docs/DESIGN.md §4)."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import pytest
from tests.helpers.file_server import serve_file

from kortty_rag.app.model_library import ModelLibrary
from kortty_rag.embedding.catalog import CATALOG, CatalogModel
from kortty_rag.embedding.download import download, partial_path
from kortty_rag.embedding.installed import InstalledModel, list_models
from kortty_rag.errors import Cancelled, ModelError, UsageError
from kortty_rag.progress import CancelToken, RecordingProgress


def entry_for(gguf: Path, url: str) -> CatalogModel:
    """A catalog entry for the starter GGUF, as the wizard would have it for a catalog model."""
    data = gguf.read_bytes()
    return dataclasses.replace(
        CATALOG[-1],
        id="served-minilm",
        name="Served MiniLM",
        url=url,
        file_name=gguf.name,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        dimensions=384,
        pooling="mean",
        context_tokens=256,
        query_prefix="",
        document_prefix="",
    )


@pytest.fixture
def gguf(starter_cache: Path, tmp_path: Path) -> Path:
    source = next((starter_cache / "models").glob("*/model.gguf"))
    copy = tmp_path / "served.gguf"
    copy.write_bytes(source.read_bytes())
    return copy


def test_download_verifies_installs_and_self_tests(gguf: Path) -> None:
    with serve_file(gguf) as (url, control):
        progress = RecordingProgress()
        model = ModelLibrary().download(entry_for(gguf, url), progress=progress)  # as the app does
    assert isinstance(model, InstalledModel) and model.id == "served-minilm"
    assert [m.id for m in list_models()] == ["served-minilm"]
    assert control.requests == [None]
    stage, downloaded = "", 0
    for kind, value in progress.events:
        if kind == "stage":
            stage = value[0]  # type: ignore[index]
        elif kind == "advance" and stage == "download":
            downloaded += value  # type: ignore[operator]
    assert downloaded == gguf.stat().st_size
    assert progress.stages() == ["download", "verify", "install"]
    assert not partial_path(entry_for(gguf, url)).exists()


def test_interrupted_download_resumes(gguf: Path) -> None:
    half = gguf.stat().st_size // 2
    with serve_file(gguf, cut_after=half) as (url, control):
        entry = entry_for(gguf, url)
        with pytest.raises(ModelError, match=r"interrupted|incomplete"):
            download(entry)
        assert partial_path(entry).stat().st_size == half
        path = download(entry)
    assert control.requests == [None, f"bytes={half}-"]
    assert path.read_bytes() == gguf.read_bytes()


def test_cancel_keeps_the_partial_file(gguf: Path) -> None:
    cancel = CancelToken()

    class CancelAfterFirstBlock(RecordingProgress):
        def advance(self, amount: int = 1) -> None:
            super().advance(amount)
            if amount:
                cancel.cancel()

    with serve_file(gguf) as (url, _):
        entry = entry_for(gguf, url)
        with pytest.raises(Cancelled, match="kept to resume"):
            download(entry, progress=CancelAfterFirstBlock(), cancel=cancel)
        kept = partial_path(entry).stat().st_size
        assert 0 < kept < entry.size
        assert download(entry).stat().st_size == entry.size


def test_wrong_checksum_is_refused_and_deleted(gguf: Path) -> None:
    with serve_file(gguf) as (url, _):
        entry = dataclasses.replace(entry_for(gguf, url), sha256="0" * 64)
        with pytest.raises(ModelError, match="SHA-256"):
            download(entry)
        assert not partial_path(entry).exists()
    assert list_models() == []


def test_server_without_ranges_restarts_cleanly(gguf: Path) -> None:
    with serve_file(gguf, cut_after=1000, honour_ranges=False) as (url, _):
        entry = entry_for(gguf, url)
        with pytest.raises(ModelError):
            download(entry)
        assert download(entry).read_bytes() == gguf.read_bytes()


def test_plain_http_to_a_remote_host_is_refused_before_connecting() -> None:
    entry = dataclasses.replace(CATALOG[0], url="http://example.com/model.gguf")
    with pytest.raises(UsageError, match="https"):
        download(entry)


def test_a_redirect_to_a_signed_url_with_a_query_is_followed(gguf: Path) -> None:
    """Download mirrors answer with a redirect to a signed URL: the query is sent as it came."""
    with serve_file(gguf, redirect=True) as (url, control):
        assert download(entry_for(gguf, url)).read_bytes() == gguf.read_bytes()
    assert control.paths == [f"/{gguf.name}", f"/cdn/{gguf.name}?X-Amz-Signature=a%2Fb&Expires=1"]
