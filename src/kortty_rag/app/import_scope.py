"""What an imported store definition may bring along: its sources are proposals, not consent
(docs/DESIGN.md §14).

A store that arrives from an archive (``store import``) or from korTTY (``import kortty``) was set up
somewhere else — by someone else, or in a file anyone could have edited. So before it is written here:

- a source whose root :func:`~kortty_rag.sources.imported_roots.refusal` refuses (hidden, the whole
  home folder, outside it, a system folder, this product's own data, through a symbolic link) is left
  out with its reason, while the rest of the store still imports;
- every other source arrives marked ``needs_review``, with manual sync, its path normalised and its
  real path taken on this machine (never the definition's): nothing is read from it (no scan, no
  watching, no automatic or agent refresh) until a person confirms its review here — ``source
  refresh`` with ``--yes`` or a ``y``, or the app's *Review…*, whose scan checks the root again.
  Automatic sync is theirs to switch on again afterwards;
- the opt-ins for autonomous workflows and for other AI tools (MCP), with MCP's allowed folders, are
  off, as for any new store.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kortty_rag.messages import msg
from kortty_rag.models import Source, StoreRoles, SyncMode
from kortty_rag.remedies import Operation, place
from kortty_rag.sources.imported_roots import normalised, refusal


@dataclass(frozen=True)
class RefusedSource:
    """A source left out of an imported store, and why."""

    path: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


@dataclass(frozen=True)
class Admission:
    """An imported definition's sources and roles as they may be written here."""

    sources: tuple[Source, ...]
    refused: tuple[RefusedSource, ...]
    roles: StoreRoles
    #: what was switched off, in words ("autonomous workflows", …)
    reset: tuple[str, ...]

    def notes(self, store: str, *, waiting: bool = True) -> list[str]:
        """What the person should know, one sentence each; ``waiting``: also that the sources wait
        for a review (not once the caller had it confirmed)."""
        notes: list[str] = [
            msg(
                "Source {path} was not imported: {reason}",
                path=refused.path,
                reason=refused.reason,
            )
            for refused in self.refused
        ]
        notes += [
            msg(
                "Switched off for the imported store: {what}; switch it on again once you trust "
                "the store",
                what=what,
            )
            for what in self.reset
        ]
        if waiting and self.sources:
            notes.append(
                msg(
                    "Sources waiting for your review: {count}; nothing is read from them until you "
                    "confirm it with {how}",
                    count=len(self.sources),
                    how=place(Operation.SOURCE_REVIEW, store=store),
                )
            )
        return notes

    def to_json(self) -> dict[str, object]:
        return {
            "refused": [refused.to_json() for refused in self.refused],
            "reset": list(self.reset),
            "needs_review": [source.path for source in self.sources],
        }


def admit(sources: Sequence[Source], roles: StoreRoles, *, home: Path | None = None) -> Admission:
    """``sources`` and ``roles`` of an imported definition as they may be written here: refused
    roots left out, the rest waiting for a review with manual sync, the opt-ins off."""
    kept: list[Source] = []
    refused: list[RefusedSource] = []
    automatic = 0
    for source in sources:
        reason = refusal(source.path, home=home)
        if reason is not None:
            refused.append(RefusedSource(source.path, reason))
            continue
        automatic += source.sync_mode is SyncMode.AUTO
        path = normalised(source.path)
        kept.append(
            source.evolve(
                path=path,
                # pinned here, never the definition's: its first review refuses a root that
                # resolves elsewhere then; a root not here yet is pinned by that review
                real_path=os.path.realpath(path) if os.path.lexists(path) else None,
                needs_review=True,
                sync_mode=SyncMode.MANUAL,
                limited_watching=False,
            )
        )
    reset: list[str] = []
    if roles.autonomous:
        reset.append(msg("autonomous workflows"))
    if roles.mcp:
        reset.append(msg("access for other AI tools (MCP)"))
    if roles.mcp_roots:
        reset.append(msg("the folders other AI tools may add"))
    if automatic:
        reset.append(msg("automatic sync (sources: {count})", count=automatic))
    safe_roles = dataclasses.replace(roles, autonomous=False, mcp=False, mcp_roots=())
    return Admission(tuple(kept), tuple(refused), safe_roles, tuple(reset))
