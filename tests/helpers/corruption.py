"""Corrupting a snapshot in many ways, and opening it in a child process that counts what happened.

    python -m tests.helpers.corruption SPEC.json

The child copies the template store once, then for every case: damages the files, opens the store
(``LocalStore``, then a search), records whether it was refused with :class:`SnapshotError`, loaded,
or failed otherwise, and how often hnswlib's ``load_index`` ran; then it puts the original bytes back.
Before each case it prints ``{"start": id}``, so the parent can tell which case killed it if it dies.

A case is a JSON object: ``bitflip`` (file, offset, bit), ``truncate`` (file, length), ``zero`` (file,
offset: 4 KiB zeroed), ``header`` (a field of the hnswlib header set to a value), ``sqlite-header``
(a byte of the SQLite header), ``swap`` (variant) and ``manifest`` (variant). With ``resign`` the
manifest and the pointer are rewritten to match the damaged files, as a buggy writer would: then only
the structural checks stand between the file and hnswlib.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import shutil
import struct
import sys
from pathlib import Path
from typing import Any

CURRENT, MANIFEST, VECTORS, CHUNKS = "CURRENT", "manifest.json", "vectors.hnsw", "chunks.sqlite"
LEXICAL = "lexical.npz"
HEADER = struct.Struct("<QQQQQQiIQQQdQ")
#: (name, struct format, offset) of each hnswlib header field
FIELDS = [
    ("offset_level0", "<Q", 0),
    ("max_elements", "<Q", 8),
    ("count", "<Q", 16),
    ("size_per_element", "<Q", 24),
    ("label_offset", "<Q", 32),
    ("data_offset", "<Q", 40),
    ("max_level", "<i", 48),
    ("entry_point", "<I", 52),
    ("max_m", "<Q", 56),
    ("max_m0", "<Q", 64),
    ("m", "<Q", 72),
    ("mult", "<d", 80),
    ("ef_construction", "<Q", 88),
]
SWAPS = [
    "vectors<->chunks",
    "old vectors",
    "old chunks",
    "old manifest",
    "old files under the new name",
    "pointer to the old snapshot",
    "pointer to a missing snapshot",
    "foreign pointer",
    "vectors of another dimension",
]
MANIFESTS = [
    "newer format",
    "other dimensions",
    "extra file",
    "missing file",
    "negative size",
    "not json",
    "foreign product",
    "wrong chunk count",
]


def generate(
    files: dict[str, int], header: dict[str, Any], *, flips: int, truncations: int, seed: int
) -> list[dict[str, Any]]:
    """Every kind of damage for a snapshot whose files have these sizes."""
    rng = random.Random(seed)
    cases: list[dict[str, Any]] = []
    names = sorted(files)
    for _ in range(flips):
        name = rng.choice(names)
        cases.append(
            {
                "kind": "bitflip",
                "file": name,
                "offset": rng.randrange(files[name]),
                "bit": rng.randrange(8),
            }
        )
    for _ in range(flips // 2):  # signed: only the structural checks can catch these
        name = rng.choice([VECTORS, CHUNKS, LEXICAL])
        offset, bit = rng.randrange(files[name]), rng.randrange(8)
        cases.append(
            {"kind": "bitflip", "file": name, "offset": offset, "bit": bit, "resign": True}
        )
    for name in names:
        size = files[name]
        lengths = {0, 1, size // 2, min(96, size - 1)}
        if name != CURRENT:  # the pointer's last byte is its newline: without it, it is the same
            lengths.add(size - 1)
        lengths |= {rng.randrange(size - (name == CURRENT)) for _ in range(truncations)}
        cases += [{"kind": "truncate", "file": name, "length": n} for n in sorted(lengths)]
        cases += [{"kind": "zero", "file": name, "offset": o} for o in range(0, size, 4096)]
    count = int(header["count"])
    for field, fmt, _ in FIELDS:
        if fmt == "<d":
            values: list[Any] = [0.0, -1.0, math.nan, math.inf, 1e308, header[field] * 2]
        elif fmt == "<i":
            values = [-2, -1, 0, header[field] + 1, 63, 64, 2**31 - 1]
        elif fmt == "<I":
            values = [count, count + 1, 2**32 - 1]
        else:
            values = [0, 1, count - 1, count + 1, header[field] + 1, header[field] * 2, 2**31]
            values += [2**63, 2**64 - 1]
        for value in values:
            if value != header[field]:
                for resign in (False, True):
                    cases.append(
                        {"kind": "header", "field": field, "value": value, "resign": resign}
                    )
    for offset in range(100):  # the SQLite header, every byte
        cases.append({"kind": "sqlite-header", "offset": offset, "resign": True})
    cases += [{"kind": "swap", "variant": v, "resign": False} for v in SWAPS]
    cases += [{"kind": "swap", "variant": v, "resign": True} for v in SWAPS[:4]]
    cases += [{"kind": "manifest", "variant": v, "resign": True} for v in MANIFESTS]
    for number, case in enumerate(cases):
        case["id"] = number
    return cases


def read_header(path: Path) -> dict[str, Any]:
    data = path.read_bytes()[: HEADER.size]
    return {name: struct.unpack_from(fmt, data, offset)[0] for name, fmt, offset in FIELDS}


# -- the child --------------------------------------------------------------------------------------


class Store:
    """The work copy of the template store and the pristine bytes of every file in it."""

    def __init__(self, template: Path, work: Path, spare: Path) -> None:
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(template, work)
        self.work = work
        self.spare = spare  # older snapshot files, another store's files
        pointer = json.loads((work / CURRENT).read_bytes())
        self.name = pointer["snapshot"]
        self.snap = work / "snapshots" / self.name
        self.pristine = {p: p.read_bytes() for p in self.paths()}

    def paths(self) -> list[Path]:
        return [self.work / CURRENT] + [self.snap / n for n in (MANIFEST, VECTORS, CHUNKS, LEXICAL)]

    def path(self, name: str) -> Path:
        return self.work / CURRENT if name == CURRENT else self.snap / name

    def restore(self) -> None:
        for path, data in self.pristine.items():
            if not path.exists() or path.read_bytes() != data:
                path.write_bytes(data)

    def resign(self, manifest: dict[str, Any] | None = None) -> None:
        """Make manifest and pointer match whatever the files now are."""
        if manifest is None:
            manifest = json.loads((self.snap / MANIFEST).read_bytes())
            for name in (VECTORS, CHUNKS, LEXICAL):
                data = (self.snap / name).read_bytes()
                manifest["files"][name] = {
                    "size": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                }
        raw = (json.dumps(manifest, indent=2) + "\n").encode()
        (self.snap / MANIFEST).write_bytes(raw)
        self.repoint(self.name, hashlib.sha256(raw).hexdigest())

    def repoint(self, name: str, digest: str) -> None:
        pointer = {"product": "kortty-rag", "snapshot": name, "manifest_sha256": digest}
        (self.work / CURRENT).write_bytes((json.dumps(pointer) + "\n").encode())


def damage(store: Store, case: dict[str, Any]) -> None:
    kind = case["kind"]
    if kind in ("bitflip", "truncate", "zero"):
        path = store.path(case["file"])
        data = bytearray(path.read_bytes())
        if kind == "bitflip":
            data[case["offset"]] ^= 1 << case["bit"]
        elif kind == "truncate":
            del data[case["length"] :]
        else:
            end = min(len(data), case["offset"] + 4096)
            data[case["offset"] : end] = bytes(end - case["offset"])
        path.write_bytes(bytes(data))
    elif kind == "header":
        path = store.snap / VECTORS
        data = bytearray(path.read_bytes())
        fmt, offset = next((f, o) for n, f, o in FIELDS if n == case["field"])
        struct.pack_into(fmt, data, offset, case["value"])
        path.write_bytes(bytes(data))
    elif kind == "sqlite-header":
        path = store.snap / CHUNKS
        data = bytearray(path.read_bytes())
        data[case["offset"]] ^= 0xFF
        path.write_bytes(bytes(data))
    elif kind == "swap":
        _swap(store, case["variant"])
    elif kind == "manifest":
        _manifest(store, case["variant"])
        return
    if case.get("resign"):
        store.resign()


def _swap(store: Store, variant: str) -> None:
    old = store.spare / "old"
    if variant == "vectors<->chunks":
        vectors, chunks = (store.snap / VECTORS).read_bytes(), (store.snap / CHUNKS).read_bytes()
        (store.snap / VECTORS).write_bytes(chunks)
        (store.snap / CHUNKS).write_bytes(vectors)
    elif variant in ("old vectors", "old chunks", "old manifest"):
        name = {"old vectors": VECTORS, "old chunks": CHUNKS, "old manifest": MANIFEST}[variant]
        shutil.copyfile(old / name, store.snap / name)
    elif variant == "old files under the new name":
        for name in (MANIFEST, VECTORS, CHUNKS, LEXICAL):
            shutil.copyfile(old / name, store.snap / name)
    elif variant == "pointer to the old snapshot":
        pointer = json.loads((store.work / CURRENT).read_bytes())
        old_name = (store.spare / "old-name").read_text().strip()
        store.repoint(old_name, pointer["manifest_sha256"])
    elif variant == "pointer to a missing snapshot":
        store.repoint("snap-99999999-0badf00d", "0" * 64)
    elif variant == "foreign pointer":
        shutil.copyfile(store.spare / "other" / CURRENT, store.work / CURRENT)
    elif variant == "vectors of another dimension":
        shutil.copyfile(store.spare / "other" / VECTORS, store.snap / VECTORS)
    else:
        raise ValueError(variant)


def _manifest(store: Store, variant: str) -> None:
    manifest = json.loads((store.snap / MANIFEST).read_bytes())
    if variant == "newer format":
        manifest["format"] = 99
    elif variant == "other dimensions":
        manifest["embedding"]["dimensions"] += 1
    elif variant == "extra file":
        manifest["files"]["extra.bin"] = {"size": 0, "sha256": hashlib.sha256(b"").hexdigest()}
    elif variant == "missing file":
        del manifest["files"][CHUNKS]
    elif variant == "negative size":
        manifest["files"][VECTORS]["size"] = -1
    elif variant == "foreign product":
        manifest["product"] = "someone-else"
    elif variant == "wrong chunk count":
        manifest["chunks"] += 1
    elif variant == "not json":
        raw = b"{ this is not json"
        (store.snap / MANIFEST).write_bytes(raw)
        store.repoint(store.name, hashlib.sha256(raw).hexdigest())
        return
    store.resign(manifest)


def run(spec: dict[str, Any]) -> None:
    import hnswlib
    import numpy as np

    from kortty_rag.errors import SnapshotError
    from kortty_rag.index.local import LocalStore
    from kortty_rag.models import EmbeddingIdentity

    loads = [0]
    real_load = hnswlib.Index.load_index

    def counting_load(self: Any, *args: Any, **kwargs: Any) -> Any:
        loads[0] += 1
        return real_load(self, *args, **kwargs)

    hnswlib.Index.load_index = counting_load
    identity = EmbeddingIdentity.from_json(spec["identity"])
    store = Store(Path(spec["template"]), Path(spec["work"]), Path(spec["spare"]))
    query = np.ones(identity.dimensions, dtype=np.float32) / math.sqrt(identity.dimensions)
    for case in spec["cases"]:
        print(json.dumps({"start": case["id"]}), flush=True)
        damage(store, case)
        changed = any(
            not p.exists() or p.read_bytes() != data for p, data in store.pristine.items()
        )
        before = loads[0]
        result: dict[str, Any] = {"id": case["id"], "changed": changed}
        try:
            opened = LocalStore(store.work, identity, clean=False)
            try:
                sources = {d.source_id for d in opened.documents()}
                opened.search(query, 5, sources)
                opened.lexical_search("alpha", 5, sources)
            finally:
                opened.close()
            result["outcome"] = "loaded"
        except SnapshotError as exc:
            result["outcome"] = "refused"
            result["reason"] = exc.message
        except Exception as exc:  # anything else is a finding
            result["outcome"] = "error"
            result["reason"] = f"{type(exc).__name__}: {exc}"
        result["loads"] = loads[0] - before
        store.restore()
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    run(json.loads(Path(sys.argv[1]).read_text()))
