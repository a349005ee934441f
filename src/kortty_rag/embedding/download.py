"""Downloading a catalog model (docs/DESIGN.md §4): progress, speed, resume after interruption, size and SHA-256
check, cancel.

The file grows as ``models/<id>/.model.gguf.partial``. A cancelled or interrupted download keeps that
file, and the next attempt asks the server for the rest (an HTTP ``Range`` request); a server that
ignores ranges simply sends everything again. Only a file with exactly the catalog's size and SHA-256 is
moved into place, self-tested and recorded; anything else is deleted with a clear error.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import time
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from kortty_rag.config.atomic import sha256_file
from kortty_rag.config.endpoints import check_resource_url
from kortty_rag.config.paths import models_dir
from kortty_rag.embedding.catalog import CatalogModel
from kortty_rag.embedding.gguf_info import read_gguf_info
from kortty_rag.embedding.installed import MODEL_FILE, InstalledModel, now_iso
from kortty_rag.errors import Cancelled, DownloadUnreachableError, ModelError
from kortty_rag.messages import msg
from kortty_rag.progress import CancelToken, NullProgress, Progress

PARTIAL = f".{MODEL_FILE}.partial"
BLOCK = 1 << 20
TIMEOUT_SECONDS = 30.0
MAX_REDIRECTS = 5


def partial_path(entry: CatalogModel) -> Path:
    return models_dir() / entry.id / PARTIAL


def _open(url: str, offset: int) -> tuple[http.client.HTTPResponse, http.client.HTTPConnection]:
    for _ in range(MAX_REDIRECTS):
        # https, or http only on loopback; checked before connecting, for every redirect again
        endpoint, target = check_resource_url(url)
        cls = http.client.HTTPSConnection if endpoint.secure else http.client.HTTPConnection
        conn = cls(endpoint.host, endpoint.port, timeout=TIMEOUT_SECONDS)
        headers = {"User-Agent": "kortty-rag", "Accept-Encoding": "identity"}
        if offset:
            headers["Range"] = f"bytes={offset}-"
        conn.request("GET", target, headers=headers)
        response = conn.getresponse()
        if response.status in (301, 302, 303, 307, 308):
            location = response.getheader("Location")
            conn.close()
            if not location:
                break
            url = urljoin(url, location)
            continue
        return response, conn
    raise ModelError(msg("Too many redirects while downloading from {url}", url=url))


def download(
    entry: CatalogModel,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
    url: str | None = None,
) -> Path:
    """Download ``entry`` (from ``url`` if given) into its partial file; returns the verified file.

    Raises :class:`Cancelled` (the partial file stays for a later resume) or :class:`ModelError`.
    """
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    target = partial_path(entry)
    target.parent.mkdir(parents=True, exist_ok=True)
    offset = target.stat().st_size if target.exists() else 0
    if offset > entry.size:
        target.unlink()
        offset = 0
    progress.stage("download", total=entry.size)
    progress.message(msg("Downloading {model}…", model=entry.name))
    if offset < entry.size:
        try:
            response, conn = _open(url or entry.url, offset)
        except OSError as exc:
            host = urlsplit(url or entry.url).hostname or msg("the download server")
            detail = exc.strerror if isinstance(exc.strerror, str) and exc.strerror else str(exc)
            raise DownloadUnreachableError(host, detail, kept=offset) from exc
        try:
            if response.status == 200:
                offset = 0  # the server ignored the range: start over
            elif response.status == 416:
                offset = entry.size  # already complete
            elif response.status != 206:
                raise ModelError(
                    msg(
                        "The server answered {status} {reason} for {file}",
                        status=response.status,
                        reason=response.reason,
                        file=entry.file_name,
                    )
                )
            if offset < entry.size:
                _receive(
                    response,
                    target,
                    offset=offset,
                    total=entry.size,
                    progress=progress,
                    cancel=cancel,
                )
        except OSError as exc:
            raise ModelError(
                msg(
                    "The download of {file} was interrupted ({error})",
                    file=entry.file_name,
                    error=str(exc),
                ),
                hint=msg("Try again: it continues where it stopped."),
            ) from exc
        finally:
            conn.close()
    progress.stage("verify", total=1)
    progress.message(msg("Checking size and SHA-256…"))
    verify(target, entry)
    progress.advance()
    return target


def _receive(
    response: http.client.HTTPResponse,
    target: Path,
    *,
    offset: int,
    total: int,
    progress: Progress,
    cancel: CancelToken,
) -> None:
    mode = "ab" if offset else "wb"
    started, received = time.monotonic(), 0
    progress.advance(offset)
    with target.open(mode) as handle:
        if offset:
            handle.truncate(offset)
            handle.seek(offset)
        while True:
            if cancel.cancelled:
                handle.flush()
                raise Cancelled(
                    msg(
                        "Download cancelled; {kept} of {total} bytes kept to resume.",
                        kept=offset + received,
                        total=total,
                    )
                )
            block = response.read(BLOCK)
            if not block:
                break
            if offset + received + len(block) > total:
                raise ModelError(msg("The server sent more data than the catalog size"))
            handle.write(block)
            received += len(block)
            progress.advance(len(block))
            elapsed = max(time.monotonic() - started, 1e-6)
            progress.message(
                msg(
                    "{done:.0f} of {total:.0f} MiB, {rate:.1f} MiB/s",
                    done=(offset + received) / 2**20,
                    total=total / 2**20,
                    rate=received / elapsed / 2**20,
                )
            )
        handle.flush()
        os.fsync(handle.fileno())


def verify(path: Path, entry: CatalogModel) -> None:
    """Exact size and SHA-256, or the file is deleted."""
    size = path.stat().st_size
    if size != entry.size:
        raise ModelError(
            msg(
                "{file} is incomplete ({size} of {total} bytes)",
                file=entry.file_name,
                size=size,
                total=entry.size,
            ),
            hint=msg("Start the download again; it resumes where it stopped."),
        )
    if sha256_file(path) != entry.sha256:
        with contextlib.suppress(OSError):
            path.unlink()
        raise ModelError(
            msg(
                "{file} does not match its published SHA-256; the file was deleted",
                file=entry.file_name,
            ),
            hint=msg("Download it again. If this repeats, the mirror serves a different file."),
        )


def install_downloaded(entry: CatalogModel, path: Path) -> InstalledModel:
    """Move a verified download into place, self-test it and record it."""
    from kortty_rag.embedding.install import _refuse_existing, _verify_and_register

    _refuse_existing(entry.id, force=False)  # never overwrite a working model
    info = read_gguf_info(path)
    if info.dimensions != entry.dimensions:
        raise ModelError(
            msg(
                "{model}: the file has {dimensions} dimensions, the catalog says {expected}",
                model=entry.name,
                dimensions=info.dimensions,
                expected=entry.dimensions,
            )
        )
    final = path.with_name(MODEL_FILE)
    path.replace(final)
    model = InstalledModel(
        id=entry.id,
        name=entry.name,
        folder=final.parent,
        sha256=entry.sha256,
        size=entry.size,
        architecture=info.architecture,
        dimensions=entry.dimensions,
        pooling=info.pooling,
        trained_tokens=info.context_length,
        chunk_tokens=min(entry.context_tokens, info.context_length),
        query_prefix=entry.query_prefix,
        document_prefix=entry.document_prefix,
        origin="catalog",
        installed_at=now_iso(),
    )
    return _verify_and_register(model, replace=False)
