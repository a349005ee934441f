"""``kortty-rag doctor`` and the desktop app's *Check stores…* (docs/DESIGN.md §14): every store
checked — definition, snapshot pointer, manifest checksums, hnswlib layout, chunk table, leftovers,
source roots, the embedding model's file and, for a Qdrant store, the service — with one finding per
check and what to do about it.

Checking only reads. :func:`repair` does only what cannot lose anything: it removes leftovers of
interrupted jobs, and points a damaged ``CURRENT`` at the newest snapshot that verifies completely.
Everything else is for the person to decide, and each finding says how.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.config.store_files import SNAPSHOTS, kept_snapshot_entries
from kortty_rag.embedding.installed import InstalledModel, get_model
from kortty_rag.errors import KorttyRagError, SnapshotError, StoreBusyError
from kortty_rag.index.lock import StoreLock
from kortty_rag.index.snapshot import (
    Snapshot,
    activate_snapshot,
    check_identity,
    list_leftovers,
    newest_valid_snapshot,
    read_pointer,
    remove_leftovers,
    verify_snapshot,
)
from kortty_rag.messages import msg
from kortty_rag.models import Source, SourceKind, SourceStatus, Store, StoreType
from kortty_rag.remedies import Operation, place, run, run_on
from kortty_rag.sources.rootpath import root_moved
from kortty_rag.sync.source_records import move_command


class Severity(Enum):
    OK = "ok"
    #: worth knowing, nothing is wrong with what is served
    WARNING = "warning"
    #: something is wrong: the exit status is 1
    PROBLEM = "problem"


#: what a repair can do about a finding
REMOVE_LEFTOVERS = "remove-leftovers"
REACTIVATE = "reactivate"


@dataclass(frozen=True)
class Finding:
    store: str
    check: str
    severity: Severity
    message: str
    #: what to do (empty when nothing needs doing)
    fix: str = ""
    #: :data:`REMOVE_LEFTOVERS` or :data:`REACTIVATE` when ``--repair`` can do the fix
    repair: str = ""

    def line(self) -> str:
        where = f"{self.store}: " if self.store else ""
        fix = f" — what to do: {self.fix}" if self.fix else ""
        return f"{self.severity.value:<8} {where}{self.check}: {self.message}{fix}"

    def to_json(self) -> dict[str, Any]:
        return {
            "store": self.store,
            "check": self.check,
            "severity": self.severity.value,
            "message": self.message,
            "fix": self.fix,
            "repairable": bool(self.repair),
        }


@dataclass(frozen=True)
class DoctorReport:
    findings: tuple[Finding, ...]
    #: what a repair did, one line each
    repaired: tuple[str, ...] = ()

    @property
    def healthy(self) -> bool:
        return not any(f.severity is Severity.PROBLEM for f in self.findings)

    @property
    def repairable(self) -> bool:
        return any(f.repair for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {
            "healthy": self.healthy,
            "findings": [f.to_json() for f in self.findings],
            "repaired": list(self.repaired),
        }


def _hint(exc: KorttyRagError) -> str:
    return exc.hint or ""


@dataclass
class _Models:
    """Model files hashed once per run, whatever the number of stores using them."""

    hashed: dict[Path, str] = field(default_factory=dict)

    def sha256(self, path: Path) -> str:
        if path not in self.hashed:
            digest = hashlib.sha256()
            with path.open("rb") as handle:
                while block := handle.read(1 << 20):
                    digest.update(block)
            self.hashed[path] = digest.hexdigest()
        return self.hashed[path]


class Doctor:
    """Checks every store of a registry (or the ones named)."""

    def __init__(
        self,
        registry: StoreRegistry | None = None,
        *,
        check_qdrant: Callable[[Store], object] | None = None,
    ) -> None:
        self.registry = registry or StoreRegistry()
        self._check_qdrant = check_qdrant
        self._models = _Models()

    def run(self, names: Iterable[str] = ()) -> DoctorReport:
        wanted = {n.lower() for n in names}
        survey = self.registry.survey()
        findings: list[Finding] = []
        for broken in survey.damaged:
            if wanted and broken.name.lower() not in wanted and broken.id not in wanted:
                continue
            findings.append(
                Finding(
                    broken.name,
                    "definition",
                    Severity.PROBLEM,
                    broken.error.message,
                    _hint(broken.error)
                    or msg("Fix or remove {path}.", path=broken.folder / "store.json"),
                )
            )
        for store in survey.stores:
            if wanted and store.name.lower() not in wanted and store.id not in wanted:
                continue
            findings.extend(self.check_store(store))
        if not survey.stores and not survey.damaged:
            findings.append(Finding("", "stores", Severity.OK, msg("no stores yet")))
        return DoctorReport(tuple(findings))

    def check_store(self, store: Store) -> list[Finding]:
        findings = [self._model(store)]
        if store.type is StoreType.LOCAL:
            findings += self._snapshot(store)
        else:
            findings.append(self._qdrant(store))
        findings += [self._source(store, s) for s in store.sources]
        return findings

    # -- the model --------------------------------------------------------------------------------

    def _model(self, store: Store) -> Finding:
        identity = store.embedding
        try:
            model: InstalledModel = get_model(identity.model_id)
        except KorttyRagError as exc:
            return Finding(
                store.name,
                "model",
                Severity.PROBLEM,
                msg(
                    "the embedding model {model!r} is not usable: {reason}",
                    model=identity.model_id,
                    reason=exc.message,
                ),
                _hint(exc),
            )
        try:
            actual = self._models.sha256(model.path)
        except OSError as exc:
            return Finding(
                store.name,
                "model",
                Severity.PROBLEM,
                msg(
                    "the model file {path} cannot be read ({reason})",
                    path=model.path,
                    reason=exc.strerror,
                ),
                msg("Install the model {model!r} again.", model=model.id),
            )
        if actual != model.sha256:
            return Finding(
                store.name,
                "model",
                Severity.PROBLEM,
                msg(
                    "the model file {path} changed since it was installed (SHA-256 {actual}…, "
                    "recorded {recorded}…)",
                    path=model.path,
                    actual=actual[:12],
                    recorded=model.sha256[:12],
                ),
                msg("Install the model {model!r} again from its original file.", model=model.id),
            )
        if actual != identity.model_sha256:
            return Finding(
                store.name,
                "model",
                Severity.PROBLEM,
                msg(
                    "the installed model {model!r} is another file than the one this store was "
                    "built with",
                    model=model.id,
                ),
                msg(
                    "Reinstall the original model, or {rebuild}.",
                    rebuild=run_on(Operation.STORE_REBUILD, store=store.name),
                ),
            )
        return Finding(
            store.name,
            "model",
            Severity.OK,
            msg("{model}: file and SHA-256 as built", model=model.id),
        )

    # -- the local snapshot -----------------------------------------------------------------------

    def _snapshot(self, store: Store) -> list[Finding]:
        folder = self.registry.folder(store)
        rebuild = msg(
            "{do} to re-index every source.", do=run(Operation.STORE_REBUILD, store=store.name)
        )
        try:
            pointer = read_pointer(folder)
        except SnapshotError as exc:
            candidate = _safe(lambda: newest_valid_snapshot(folder, store.embedding))
            if candidate is not None:
                fix = _reactivate(candidate[0])
                return [
                    Finding(store.name, "pointer", Severity.PROBLEM, exc.message, fix, REACTIVATE)
                ]
            return [Finding(store.name, "pointer", Severity.PROBLEM, exc.message, rebuild)]
        if pointer is None:
            if store.sources:
                return [
                    Finding(
                        store.name,
                        "snapshot",
                        Severity.WARNING,
                        msg("the store has sources but no index yet"),
                        msg(
                            "{do} to index them.",
                            do=run(Operation.SOURCE_INDEX, store=store.name),
                        ),
                    )
                ]
            return [
                Finding(store.name, "snapshot", Severity.OK, msg("empty store, nothing indexed"))
            ]
        if not (folder / SNAPSHOTS / pointer[0]).is_dir():  # a pointer to nothing: damaged too
            candidate = _safe(lambda: newest_valid_snapshot(folder, store.embedding))
            message = msg(
                "the snapshot pointer names {snapshot}, which does not exist", snapshot=pointer[0]
            )
            if candidate is not None:
                fix = _reactivate(candidate[0])
                return [Finding(store.name, "pointer", Severity.PROBLEM, message, fix, REACTIVATE)]
            return [Finding(store.name, "pointer", Severity.PROBLEM, message, rebuild)]
        findings = [self._verify(store, folder, pointer, rebuild)]
        findings.extend(self._leftovers(store, folder))
        return findings

    def _verify(
        self, store: Store, folder: Path, pointer: tuple[str, str], rebuild: str
    ) -> Finding:
        name = pointer[0]
        try:
            manifest = verify_snapshot(folder, *pointer)
            check_identity(manifest, store.embedding)
            snapshot = Snapshot(folder, manifest)  # loads the graph: counts must agree
            try:
                snapshot.chunks.quick_check()  # through the folder's descriptor, as every read
            finally:
                snapshot.close()
        except KorttyRagError as exc:
            hint = _hint(exc)
            fix = rebuild if not hint or "store rebuild" in hint else hint  # named for this store
            return Finding(store.name, "snapshot", Severity.PROBLEM, exc.message, fix)
        return Finding(
            store.name,
            "snapshot",
            Severity.OK,
            msg(
                "{snapshot} verified: checksums, vector index layout and chunk table "
                "({chunks} chunks, {documents} documents)",
                snapshot=name,
                chunks=manifest.chunks,
                documents=manifest.documents,
            ),
        )

    def _leftovers(self, store: Store, folder: Path) -> list[Finding]:
        try:
            with StoreLock(folder, purpose="check"):
                found = list_leftovers(folder)
                kept = kept_snapshot_entries(folder, found)
        except StoreBusyError:
            return [
                Finding(
                    store.name,
                    "leftovers",
                    Severity.OK,
                    msg("not checked: a job is working on this store right now"),
                )
            ]
        except KorttyRagError as exc:
            return [Finding(store.name, "leftovers", Severity.PROBLEM, exc.message, _hint(exc))]
        removable = [name for name in found if name not in kept]
        findings: list[Finding] = []
        if removable:
            findings.append(
                Finding(
                    store.name,
                    "leftovers",
                    Severity.WARNING,
                    msg(
                        "{count} left by interrupted jobs ({names})",
                        count=len(removable),
                        names=_some(removable),
                    ),
                    msg(
                        "{do} to remove them (the next job would too).",
                        do=run(Operation.DOCTOR_REPAIR),
                    ),
                    REMOVE_LEFTOVERS,
                )
            )
        if kept:
            findings.append(
                Finding(
                    store.name,
                    "leftovers",
                    Severity.WARNING,
                    msg(
                        "{count} kept, because they are or hold something kortty-rag did not "
                        "create ({names})",
                        count=len(kept),
                        names=_some([entry for entries in kept.values() for entry in entries]),
                    ),
                    msg(
                        "kortty-rag removes only what it created. Move or delete those entries "
                        "yourself if you do not need them; {repair} then removes the rest.",
                        repair=place(Operation.DOCTOR_REPAIR),
                    ),
                )
            )
        return findings or [Finding(store.name, "leftovers", Severity.OK, msg("none"))]

    # -- Qdrant -----------------------------------------------------------------------------------

    def _qdrant(self, store: Store) -> Finding:
        check = self._check_qdrant
        if check is None:
            from kortty_rag.index.qdrant import check_store

            check = check_store
        try:
            result = check(store)
        except KorttyRagError as exc:
            return Finding(store.name, "qdrant", Severity.PROBLEM, exc.message, _hint(exc))
        points = getattr(result, "store_points", "?")
        endpoint = getattr(result, "endpoint", "")
        return Finding(
            store.name,
            "qdrant",
            Severity.OK,
            msg(
                "{endpoint} reachable; {points} points of this store",
                endpoint=endpoint,
                points=points,
            ),
        )

    # -- sources ----------------------------------------------------------------------------------

    def _source(self, store: Store, source: Source) -> Finding:
        check = f"source {source.path}"
        try:
            info = os.lstat(source.path)
        except FileNotFoundError:
            return Finding(
                store.name,
                check,
                Severity.PROBLEM,
                msg("the root does not exist (its chunks were removed)")
                if source.status is SourceStatus.MISSING
                else msg("the root does not exist"),
                msg(
                    "If it moved, point the source at its new place: {command}; if it is gone for "
                    "good, {remove}.",
                    command=move_command(store.name, source),
                    remove=place(Operation.SOURCE_REMOVE, store=store.name, path=source.path),
                ),
            )
        except OSError as exc:
            return Finding(
                store.name,
                check,
                Severity.PROBLEM,
                msg("the root cannot be read ({reason})", reason=exc.strerror),
            )
        folder = source.kind is SourceKind.FOLDER
        if stat.S_ISLNK(info.st_mode) or (stat.S_ISDIR(info.st_mode) != folder):
            return Finding(
                store.name,
                check,
                Severity.PROBLEM,
                msg("the root is now a symbolic link; the source is not scanned")
                if stat.S_ISLNK(info.st_mode)
                else msg("the root is now another kind of file; the source is not scanned"),
                msg("Remove the source and add the real folder again.")
                if folder
                else msg("Remove the source and add the real file again."),
            )
        moved = root_moved(source)
        if moved:
            return Finding(
                store.name,
                check,
                Severity.PROBLEM,
                moved,
                msg(
                    "Point the source at the real place: {command}.",
                    command=move_command(store.name, source),
                ),
            )
        if source.status is SourceStatus.MISSING:
            return Finding(
                store.name,
                check,
                Severity.WARNING,
                msg("the root is back, but its last refresh found it missing"),
                msg(
                    "{do} to index it again.",
                    do=run(Operation.SOURCE_INDEX, store=store.name, path=source.path),
                ),
            )
        if source.needs_review:
            return Finding(
                store.name,
                check,
                Severity.WARNING,
                msg(
                    "it came with an imported store and was not reviewed on this computer; "
                    "nothing is read from it until you confirm its review"
                ),
                msg(
                    "Review it with {how}.",
                    how=place(Operation.SOURCE_REVIEW, store=store.name, path=source.path),
                ),
            )
        state = msg("reachable") if source.enabled else msg("reachable (disabled)")
        return Finding(store.name, check, Severity.OK, state)


def _some(names: list[str]) -> str:
    """The first three of ``names``, and "…" when there are more."""
    return ", ".join(names[:3]) + (", …" if len(names) > 3 else "")


def _reactivate(snapshot: str) -> str:
    """The fix of a damaged pointer that a repair can do: activate ``snapshot``."""
    return msg(
        "{do} to activate {snapshot}, the newest snapshot that verifies completely.",
        do=run(Operation.DOCTOR_REPAIR),
        snapshot=snapshot,
    )


def _safe(function: Callable[[], tuple[str, str] | None]) -> tuple[str, str] | None:
    try:
        return function()
    except KorttyRagError:
        return None


def repair(report: DoctorReport, registry: StoreRegistry | None = None) -> DoctorReport:
    """Do the safe repairs ``report`` offers, then check again; each action is one line of
    ``repaired``. A store a job holds right now is left alone."""
    registry = registry or StoreRegistry()
    done: list[str] = []
    stores = {s.name: s for s in registry.list()}
    for finding in report.findings:
        store = stores.get(finding.store)
        if not finding.repair or store is None:
            continue
        folder = registry.folder(store)
        try:
            with StoreLock(folder, purpose="repair", store_name=store.name):
                if finding.repair == REACTIVATE:
                    candidate = newest_valid_snapshot(folder, store.embedding)
                    if candidate is not None and _pointer_damaged(folder):
                        activate_snapshot(folder, *candidate)
                        done.append(
                            msg(
                                "{store}: activated {snapshot}",
                                store=store.name,
                                snapshot=candidate[0],
                            )
                        )
                removed = remove_leftovers(folder)
                if removed:
                    done.append(
                        msg(
                            "{store}: removed {count} leftovers",
                            store=store.name,
                            count=len(removed),
                        )
                    )
        except KorttyRagError as exc:
            done.append(
                msg("{store}: not repaired ({reason})", store=store.name, reason=exc.message)
            )
    names = {f.store for f in report.findings if f.store}
    again = Doctor(registry).run(names) if names else Doctor(registry).run()
    return DoctorReport(again.findings, tuple(done))


def _pointer_damaged(folder: Path) -> bool:
    """Whether ``CURRENT`` cannot be read, or names a snapshot folder that is not there."""
    try:
        pointer = read_pointer(folder)
    except SnapshotError:
        return True
    return pointer is not None and not (folder / SNAPSHOTS / pointer[0]).is_dir()
