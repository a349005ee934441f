"""``store export`` / ``store import``: one local store as one archive (docs/DESIGN.md §14).

The archive is a plain tar (written with the standard library's :mod:`tarfile`; read, never
extracted, by :mod:`kortty_rag.app.archive_members`) with exactly these members, in this order::

    kortty-rag-export.json      what the archive holds: the store definition (no API keys), the
                                model's identity, the snapshot's name, and size + SHA-256 per file
    snapshot/manifest.json      the active snapshot, byte for byte
    snapshot/vectors.hnsw
    snapshot/chunks.sqlite
    snapshot/lexical.npz

Export reads the active snapshot through descriptors opened once, so a job that activates another
snapshot meanwhile cannot take files away under it, and checks every byte against the manifest as it
copies; the archive appears at its name only when complete. Import refuses any member that is not one
of these plain regular files (links, devices, folders, sparse files, renaming records, other names —
so also any path traversal), any declared size larger than what is left of the archive or than
:data:`MAX_SNAPSHOT_FILE`, any size or checksum that differs, a model that is not installed here
with the same identity, and a name that is taken; it writes a new store, never over an existing one,
never more bytes than the archive holds, and a failure leaves none.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import secrets
import sqlite3
import tarfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO

from kortty_rag.app.archive_members import Member, MemberReader
from kortty_rag.app.archive_members import refused as _refused
from kortty_rag.app.import_scope import Admission, admit
from kortty_rag.config.atomic import TEMP_MARKER
from kortty_rag.config.registry import StoreRegistry, now_iso, validate_name
from kortty_rag.config.store_files import MANIFEST, SNAPSHOT_NAME
from kortty_rag.decoding import FieldError
from kortty_rag.embedding.installed import get_model
from kortty_rag.errors import AlreadyExistsError, KorttyRagError, NotFoundError, UsageError
from kortty_rag.index.manifest import FORMAT_VERSION, PRODUCT, Manifest
from kortty_rag.index.snapshot_transfer import (
    SNAPSHOT_FILES,
    active_snapshot_files,
    arriving_snapshot,
)
from kortty_rag.messages import Message, human_size, msg
from kortty_rag.models import EmbeddingIdentity, Store, StoreType, leaves_its_source
from kortty_rag.remedies import Operation, place, run

HEADER = "kortty-rag-export.json"
ARCHIVE_FORMAT = 1
MEMBERS = (HEADER, *(f"snapshot/{name}" for name in SNAPSHOT_FILES))
#: the header is small; a bigger one is not ours (the manifest too)
MAX_HEADER = 1 << 20
#: the largest snapshot file an archive may hold (a store of some hundred million chunks)
MAX_SNAPSHOT_FILE = 256 << 30


@dataclass(frozen=True)
class ExportResult:
    path: Path
    store: str
    snapshot: str
    chunks: int
    documents: int
    size: int


@dataclass(frozen=True)
class ImportResult:
    store: Store
    snapshot: str
    chunks: int
    documents: int
    #: what the person should know (sources refused or waiting for review, opt-ins switched
    #: off, sources not found here)
    notes: tuple[str, ...]
    #: what the import refused, switched off and left waiting for a review
    admission: Admission


def _said(exc: BaseException) -> str:
    """What ``exc`` says: the message it was raised with, still translatable when it was one."""
    if len(exc.args) == 1 and isinstance(exc.args[0], Message):
        return exc.args[0]
    return str(exc)


# -- export -----------------------------------------------------------------------------------------


def export_store(registry: StoreRegistry, store: Store, target: Path) -> ExportResult:
    """Write ``store``'s definition and active snapshot to ``target`` (which must not exist)."""
    if store.type is not StoreType.LOCAL:
        raise UsageError(
            msg(
                "{store!r} is a Qdrant store: its vectors live in the Qdrant service",
                store=store.name,
            ),
            hint=msg(
                "Back up the collection with Qdrant's own snapshots; the store definition is in "
                "its store.json."
            ),
        )
    target = Path(os.path.abspath(target))
    if os.path.lexists(target):
        raise AlreadyExistsError(
            msg("{path} already exists", path=target),
            hint=msg("Choose a new file name; nothing is overwritten."),
        )
    active = active_snapshot_files(registry.folder(store))
    if active is None:
        raise UsageError(
            msg("Store {store!r} has no index yet: there is nothing to export", store=store.name),
            hint=msg(
                "Index it first with {how}.", how=place(Operation.SOURCE_INDEX, store=store.name)
            ),
        )
    # every file opened before a byte is copied: a later activation can unlink them, not change
    # what these descriptors read
    manifest, manifest_sha256, handles = active
    try:
        header = _header(store, manifest, manifest_sha256)
        tmp = target.with_name(f"{TEMP_MARKER}{target.name}.{secrets.token_hex(4)}")
        try:
            with tmp.open("xb") as out:
                with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
                    _add(tar, HEADER, io.BytesIO(header), len(header))
                    for name in SNAPSHOT_FILES:
                        size = os.fstat(handles[name].fileno()).st_size
                        expected = _expected(manifest, name, header_files=None)
                        checked = _Checked(handles[name], expected, f"{manifest.name}/{name}")
                        _add(tar, f"snapshot/{name}", checked, size)
                        checked.finish()
                out.flush()
                os.fsync(out.fileno())
            os.rename(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
    finally:
        for handle in handles.values():
            handle.close()
    return ExportResult(
        target,
        store.name,
        manifest.name,
        manifest.chunks,
        manifest.documents,
        target.stat().st_size,
    )


def _header(store: Store, manifest: Manifest, manifest_sha256: str) -> bytes:
    files = {name: dict(entry) for name, entry in manifest.files.items()}
    data = {
        "product": PRODUCT,
        "kind": "store-export",
        "format": ARCHIVE_FORMAT,
        "exported_at": now_iso(),
        "store": store.to_json(),
        "embedding": manifest.embedding.to_json(),
        "snapshot": manifest.name,
        "manifest_sha256": manifest_sha256,
        "files": files,
    }
    return (json.dumps(data, indent=2) + "\n").encode()


def _add(tar: tarfile.TarFile, name: str, data: IO[bytes] | io.RawIOBase, size: int) -> None:
    info = tarfile.TarInfo(name)
    info.size = size
    info.mode = 0o600
    info.mtime = int(time.time())
    tar.addfile(info, data)


class _Checked(io.RawIOBase):
    """A file read once, hashed as it is read, compared at the end with what it must be."""

    def __init__(self, handle: IO[bytes], expected: tuple[int, str] | None, label: str) -> None:
        self._handle = handle
        self._expected = expected
        self._label = label
        self._digest = hashlib.sha256()
        self._size = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        data = self._handle.read(size)
        self._digest.update(data)
        self._size += len(data)
        return data

    def finish(self) -> None:
        if self._expected is not None and (self._size, self._digest.hexdigest()) != self._expected:
            raise KorttyRagError(
                msg(
                    "Snapshot file {file} changed or is damaged (checksum mismatch); nothing was "
                    "exported",
                    file=self._label,
                ),
                hint=msg("{do} to check the store.", do=run(Operation.DOCTOR)),
            )


def _expected(
    manifest: Manifest, name: str, header_files: dict[str, Any] | None
) -> tuple[int, str] | None:
    if name == MANIFEST:
        return None  # checked against the pointer's checksum when it was verified
    entry = manifest.files[name] if header_files is None else header_files[name]
    return int(entry["size"]), str(entry["sha256"])


# -- import -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Header:
    store: Store
    identity: EmbeddingIdentity
    snapshot: str
    manifest_sha256: str
    files: dict[str, tuple[int, str]]


def read_header(path: Path, raw: bytes) -> _Header:
    try:
        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("product") != PRODUCT:
            raise ValueError(msg("not a kortty-rag archive"))
        if data.get("kind") != "store-export":
            raise ValueError(msg("not a store export"))
        if not isinstance(data.get("format"), int) or data["format"] > ARCHIVE_FORMAT:
            raise ValueError(
                msg(
                    "written by a newer kortty-rag (archive format {format})",
                    format=data.get("format"),
                )
            )
        store = Store.from_json(data["store"], "store")
        identity = EmbeddingIdentity.from_json(data["embedding"], "embedding")
        snapshot = str(data["snapshot"])
        if not SNAPSHOT_NAME.match(snapshot):
            raise ValueError(msg("the snapshot name is not one of ours"))
        digest = str(data["manifest_sha256"])
        files: dict[str, tuple[int, str]] = {}
        for name in SNAPSHOT_FILES[1:]:  # the manifest's own digest is the header's
            entry = data["files"][name]
            size, sha = entry["size"], entry["sha256"]
            if not isinstance(size, int) or size < 0 or not isinstance(sha, str) or len(sha) != 64:
                raise ValueError(msg("the entry of {file} is not a size and a SHA-256", file=name))
            files[name] = (size, sha)
        if len(digest) != 64 or store.type is not StoreType.LOCAL:
            raise ValueError(msg("the header is incomplete"))
    except (ValueError, KeyError, TypeError, FieldError, RecursionError) as exc:
        raise _refused(
            path, msg("its header is damaged or foreign ({error})", error=_said(exc))
        ) from None
    if identity.differences(store.embedding):
        raise _refused(path, msg("its store definition and its snapshot name different models"))
    return _Header(store, identity, snapshot, digest, files)


def import_store(registry: StoreRegistry, path: Path, *, name: str | None = None) -> ImportResult:
    """Create a new store from an archive made by :func:`export_store`."""
    path = Path(os.path.abspath(path))
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise UsageError(
            msg("Cannot open {path} ({reason})", path=path, reason=exc.strerror)
        ) from exc
    with handle, _members(path, handle) as members:
        header_bytes = _read_small(path, next(members, None), HEADER)
        header = read_header(path, header_bytes)
        new_name = validate_name(name or header.store.name)
        _check_model(header.identity)
        _check_name_free(registry, new_name)
        return _create(registry, path, header, new_name, members)


@contextlib.contextmanager
def _members(path: Path, handle: IO[bytes]) -> Iterator[Iterator[Member]]:
    """The archive's members, each checked as it is reached: one of ours, in export's order, not
    repeated, within its size limit (what :class:`MemberReader` refuses is refused first)."""
    reader = MemberReader(path, handle)

    def walk() -> Iterator[Member]:
        seen: list[str] = []
        for member in reader:
            if member.name not in MEMBERS or member.name in seen:
                raise _refused(
                    path,
                    msg("it holds {name!r}, which is not one of its files", name=member.name),
                )
            if MEMBERS[len(seen)] != member.name:
                raise _refused(path, msg("its files are not in the order export writes them"))
            small = member.name in (HEADER, f"snapshot/{MANIFEST}")
            limit = MAX_HEADER if small else MAX_SNAPSHOT_FILE
            if member.size > limit:
                raise _refused(
                    path,
                    msg(
                        "{name} declares {size}, more than the limit of {limit} for one file",
                        name=member.name,
                        size=human_size(member.size),
                        limit=human_size(limit),
                    ),
                )
            seen.append(member.name)
            yield member
        if len(seen) != len(MEMBERS):
            raise _refused(path, msg("it is incomplete (truncated?)"))

    yield walk()


def _read_small(path: Path, member: Member | None, expected: str) -> bytes:
    if member is None:
        raise _refused(path, msg("it is empty"))
    if member.name != expected or member.size > MAX_HEADER:
        raise _refused(path, msg("it does not begin with {file}", file=expected))
    return member.read_all()


def _check_model(identity: EmbeddingIdentity) -> None:
    how = msg(
        "Install it first ({starter} for the starter model, {other} for another), then import "
        "again.",
        starter=place(Operation.MODELS_INSTALL_STARTER),
        other=place(Operation.MODELS_IMPORT, model=identity.model_id),
    )
    try:
        model = get_model(identity.model_id)
    except NotFoundError:
        raise UsageError(
            msg(
                "The store needs the embedding model {model!r} (SHA-256 {sha256}…), which is not "
                "installed here",
                model=identity.model_id,
                sha256=identity.model_sha256[:12],
            ),
            hint=how,
        ) from None
    differences = model.identity().differences(identity)
    if differences:
        raise UsageError(
            msg(
                "The installed model {model!r} differs from the one the store was built with "
                "({differences})",
                model=identity.model_id,
                differences=", ".join(differences),
            ),
            hint=msg("Install the original model file; {how}", how=how),
        )


def _check_name_free(registry: StoreRegistry, name: str) -> None:
    try:
        existing = registry.get(name)
    except NotFoundError:
        return
    except KorttyRagError:  # a damaged store of that name: taken all the same
        existing = None
    raise AlreadyExistsError(
        msg(
            "A store named {name!r} already exists; nothing is overwritten",
            name=existing.name if existing else name,
        ),
        hint=msg(
            "Import it under another name with {how}.", how=place(Operation.STORE_IMPORT_RENAMED)
        ),
    )


def _create(
    registry: StoreRegistry,
    path: Path,
    header: _Header,
    name: str,
    members: Iterator[Member],
) -> ImportResult:
    source = header.store
    # the definition is a proposal from a file anyone may have edited (docs/DESIGN.md §14)
    admission = admit(source.sources, source.roles)
    store = registry.create(
        name, header.identity, roles=admission.roles, settings=dict(source.settings)
    )
    try:
        store = registry.update(store.id, lambda s: s.evolve(sources=admission.sources))
        manifest = _place_snapshot(registry.folder(store), path, header, members)
    except BaseException:
        with contextlib.suppress(KorttyRagError, OSError):
            registry.delete(store)
        raise
    notes = admission.notes(name)
    missing = [s.path for s in store.sources if not os.path.lexists(s.path)]
    if missing:
        notes.append(
            msg(
                "{count} of its sources are not on this machine ({first}…); point each at its "
                "place with {how}.",
                count=len(missing),
                first=missing[0],
                how=place(Operation.SOURCE_MOVE, store=name),
            )
        )
    return ImportResult(
        store, manifest.name, manifest.chunks, manifest.documents, tuple(notes), admission
    )


def _place_snapshot(
    folder: Path, path: Path, header: _Header, members: Iterator[Member]
) -> Manifest:
    """Stream the snapshot files into the store, hashing as they are written, and activate the
    snapshot (:func:`~kortty_rag.index.snapshot_transfer.arriving_snapshot`). A file whose size
    differs from the header's is refused before a byte of it is written."""
    with arriving_snapshot(folder, header.snapshot, header.manifest_sha256) as arriving:
        manifest_raw = b""
        for file_name in SNAPSHOT_FILES:
            member = next(members, None)
            if member is None:
                raise _refused(path, msg("it is incomplete (truncated?)"))
            expected = None if file_name == MANIFEST else header.files[file_name]
            limit = MAX_HEADER if expected is None else expected[0]
            if member.size > limit:
                raise _refused(path, msg("{name} is larger than its header says", name=member.name))
            if expected is not None and member.size < limit:
                raise _refused(
                    path, msg("{name} is smaller than its header says", name=member.name)
                )
            digest, raw = arriving.write(file_name, _copying(member, limit, keep=expected is None))
            if expected is None:
                manifest_raw = raw
                if digest != header.manifest_sha256:
                    raise _refused(path, msg("its manifest does not match its header"))
            elif digest != expected[1]:
                raise _refused(path, msg("{name} is damaged (checksum mismatch)", name=member.name))
        next(members, None)  # the end: anything after the last file is refused
        manifest = _check_manifest(path, header, manifest_raw)
        try:
            documents = arriving.check(manifest)
        except sqlite3.Error as exc:
            raise _refused(
                path, msg("its chunk table cannot be read ({error})", error=str(exc))
            ) from None
        _check_documents(path, documents)
    return manifest


def _copying(member: Member, limit: int, *, keep: bool) -> Callable[[BinaryIO], tuple[str, bytes]]:
    """What copies ``member`` into a file (never more than ``limit`` bytes): its SHA-256 and, when
    ``keep``, its bytes."""
    return lambda out: member.copy_into(out, limit=limit, keep=keep)


def _check_manifest(path: Path, header: _Header, raw: bytes) -> Manifest:
    try:
        data = json.loads(raw)
        if data.get("product") != PRODUCT:
            raise ValueError(msg("foreign manifest"))
        manifest = Manifest.from_json(data)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise _refused(
            path, msg("its manifest is unreadable ({error})", error=_said(exc))
        ) from None
    if manifest.name != header.snapshot or manifest.format > FORMAT_VERSION:
        raise _refused(path, msg("its manifest belongs to another snapshot or a newer kortty-rag"))
    if manifest.embedding.differences(header.identity):
        raise _refused(path, msg("its manifest names another model than its header"))
    for file_name, (size, sha) in header.files.items():
        entry = manifest.files.get(file_name, {})
        if (entry.get("size"), entry.get("sha256")) != (size, sha):
            raise _refused(
                path, msg("its manifest and its header disagree about {file}", file=file_name)
            )
    return manifest


def _check_documents(path: Path, documents: list[object]) -> None:
    """Every document of the archive's index lies inside its source: a path such as
    ``../.ssh/id_rsa`` would make a citation name a file the index never read."""
    for rel_path in documents:
        if not isinstance(rel_path, str) or leaves_its_source(rel_path):
            raise _refused(
                path,
                msg(
                    "its index names a document outside its source ({document!r})",
                    document=str(rel_path),
                ),
            )
