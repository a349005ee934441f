"""``kortty-rag store …`` and ``kortty-rag search``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kortty_rag import languages
from kortty_rag.app.lexical_state import applied_fusion, lexical_state
from kortty_rag.app.mcp_scope import allowed_root
from kortty_rag.app.workspace import DamagedStore, Workspace
from kortty_rag.cli import qdrant_cmd
from kortty_rag.cli.lexical_view import describe as describe_lexical
from kortty_rag.cli.render import StderrProgress, print_json, table
from kortty_rag.errors import UsageError
from kortty_rag.messages import human_size
from kortty_rag.models import FusionMethod, Store, StoreRoles, StoreType
from kortty_rag.untrusted import escape_line

OK, DAMAGED = "OK", "DAMAGED"


def store_json(store: Store) -> dict[str, Any]:
    return store.to_json()


def confirm(question: str, assume_yes: bool) -> bool:
    if assume_yes:
        return True
    if not sys.stdin.isatty():
        return False
    answer = input(f"{question} [y/N] ").strip().lower()
    return answer in {"y", "yes"}


def cmd_create(args: argparse.Namespace) -> int:
    workspace = Workspace()
    model = workspace.models.get(args.model)
    roles = StoreRoles(text=args.text, coding=args.coding)
    if args.type == StoreType.QDRANT.value:
        store = qdrant_cmd.create_qdrant_store(args, model.identity(), roles)
    elif args.url or args.collection or args.api_key_from_stdin:
        raise UsageError("--url, --collection and --api-key-from-stdin need --type qdrant")
    else:
        store = workspace.create_store(args.name, model.identity(), roles=roles)
    if args.json:
        print_json(store_json(store))
    else:
        print(f"Created store {store.name!r} ({store.id}) with model {model.id}.")
        if store.type is StoreType.QDRANT:
            qdrant = store.options.qdrant
            url = escape_line(qdrant.url)
            print(f"Its vectors live in collection {qdrant.collection!r} at {url}.")
        print(f"Add content with: kortty-rag source add {store.name!r} PATH...")
    return 0


def damaged_json(broken: DamagedStore) -> dict[str, Any]:
    return {
        "id": broken.id,
        "name": broken.name,
        "status": DAMAGED,
        "folder": str(broken.folder),
        "error": broken.error.message,
        "hint": broken.error.hint,
    }


def cmd_list(args: argparse.Namespace) -> int:
    survey = Workspace().survey()
    stores = survey.stores
    if args.json:
        print_json(
            [
                store_json(s) | {"status": OK, "lexical_language": s.options.retrieval.language}
                for s in stores
            ]
            + [damaged_json(d) for d in survey.damaged]
        )
        return 0
    if not stores and not survey.damaged:
        print("No stores yet. Create one with: kortty-rag store create NAME --model MODEL")
        return 0
    rows = []
    for s in stores:
        roles = "+".join(r for r, on in (("Text", s.roles.text), ("Coding", s.roles.coding)) if on)
        files = sum(src.counts.files for src in s.sources)
        chunks = sum(src.counts.chunks for src in s.sources)
        rows.append(
            [
                s.name,
                OK,
                s.type.value,
                s.embedding.model_id,
                roles or "-",
                str(len(s.sources)),
                f"{files}/{chunks}",
                s.options.retrieval.language,
            ]
        )
    for broken in survey.damaged:
        rows.append([broken.name, DAMAGED, "-", "-", "-", "-", "-", "-"])
    table(["NAME", "STATUS", "TYPE", "MODEL", "ROLES", "SOURCES", "FILES/CHUNKS", "LEXICAL"], rows)
    for broken in survey.damaged:
        print(f"\n{broken.name} is DAMAGED: {broken.error.message}")
        if broken.error.hint:
            print(f"What to do: {broken.error.hint}")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    workspace = Workspace()
    store = workspace.store(args.name)
    folder = workspace.store_folder(store)
    question = (
        f"Delete store {store.name!r}? This removes its index folder {escape_line(str(folder))} "
        f"({len(store.sources)} source definitions and their chunks). Your source files are NOT "
        "deleted."
    )
    if store.type is StoreType.QDRANT:
        qdrant = store.options.qdrant
        kept = args.keep_remote_vectors
        question += (
            f" Its points in the Qdrant collection {qdrant.collection!r} at "
            f"{escape_line(qdrant.url)} are {'KEPT' if kept else 'deleted first'}; "
            "the collection "
            "itself and everything else in it stay."
        )
    if not confirm(question, args.yes):
        raise UsageError("Not deleted (no confirmation)", hint="Pass --yes to confirm.")
    report = workspace.delete_store(store, keep_remote_vectors=args.keep_remote_vectors)
    if args.json:
        print_json(
            {
                "deleted": store.name,
                "folder": str(report.folder),
                "kept_foreign_files": list(report.kept_foreign),
            }
        )
    else:
        print(f"Deleted store {store.name!r}; source files were not touched.")
        if report.kept_foreign:
            print(
                f"Kept files this product did not create in {escape_line(str(report.folder))}: "
                + ", ".join(escape_line(name) for name in report.kept_foreign)
            )
    return 0


def cmd_roles(args: argparse.Namespace) -> int:
    workspace = Workspace()
    store = workspace.store(args.name)
    store = workspace.set_roles(
        store,
        text=args.text,
        coding=args.coding,
        autonomous=args.autonomous,
        mcp=args.mcp,
        allow_roots=[allowed_root(path) for path in args.mcp_allow_root],
        forget_roots=args.mcp_forget_root,
    )
    if args.json:
        print_json({"store": store.name} | store.roles.to_json())
    else:
        served = [r for r, on in (("Text", store.roles.text), ("Coding", store.roles.coding)) if on]
        print(
            f"Store {store.name!r} serves: {', '.join(served) or 'no role'}; autonomous "
            f"workflows: {'yes' if store.roles.autonomous else 'no'}; other AI tools (MCP): "
            f"{'yes' if store.roles.mcp else 'no'}."
        )
        if store.roles.mcp_roots:
            print("MCP clients may also add: " + ", ".join(store.roles.mcp_roots))
    return 0


def fusion_text(store: Store, language: str | None = None) -> str:
    """The store's fusion in words: "convex fusion, dense weight 0.8" / "rrf fusion, … RRF k 60";
    ``language``: the store's text's (a model not trained for it has a lower dense weight)."""
    weights = applied_fusion(store, language)
    text = f"{weights.method} fusion, dense weight {weights.dense:g}"
    if weights.dense != store.options.retrieval.dense_weight:
        text += f" (its model was not trained for {languages.describe(language or '')} text)"
    return text + (f", RRF k {weights.k}" if weights.method == FusionMethod.RRF else "")


def cmd_retrieval(args: argparse.Namespace) -> int:
    if args.dense_weight is not None and not 0.0 <= args.dense_weight <= 1.0:
        raise UsageError("--dense-weight must be between 0 and 1")
    if args.rrf_k is not None and args.rrf_k < 1:
        raise UsageError("--rrf-k must be at least 1")
    workspace = Workspace()
    store = workspace.store(args.name)
    changes = {
        key: value
        for key, value in (
            ("dense", args.dense),
            ("lexical", args.lexical),
            ("fusion", args.fusion),
            ("dense_weight", args.dense_weight),
            ("rrf_k", args.rrf_k),
            ("min_relevance", args.min_relevance),
            ("language", args.language),
            ("graph", None if args.graph is None else args.graph == "on"),
        )
        if value is not None
    }
    change = workspace.set_retrieval(store, **changes)
    store, reanalysed = change.store, change.reanalysed
    settings = store.settings.get("retrieval", {})
    floor = workspace.relevance_floor(store)
    lexical = lexical_state(store, reanalysed)
    if args.json:
        shown = settings | {
            "min_relevance": floor.level.value,
            "language": lexical.setting,
            "graph": store.follows_links,
        }
        print_json(
            {
                "store": store.name,
                "retrieval": shown,
                "relevance": floor.to_json(),
                # the dense weight queries use (lower where the model does not know the language)
                "dense_weight_applied": applied_fusion(store, lexical.language).dense,
                "lexical_index": lexical.to_json(),
            }
        )
    else:
        print(
            f"Store {store.name!r} retrieval: dense {'on' if store.options.retrieval.dense else 'off'}, "
            f"lexical {'on' if store.options.retrieval.lexical else 'off'}, {fusion_text(store, lexical.language)}, "
            f"minimum relevance {floor.describe()}, "
            f"links between notes {'followed' if store.follows_links else 'not followed'}."
        )
        print(describe_lexical(lexical, store.name))
    return 0


def cmd_rebuild(args: argparse.Namespace) -> int:
    workspace = Workspace()
    store = workspace.store(args.name)
    identity = workspace.models.get(args.model).identity() if args.model else None
    progress = StderrProgress()
    summary = workspace.rebuild_store(store, identity, progress=progress.tracker)
    progress.done()
    if args.json:
        print_json(summary.to_json())
    else:
        print(summary.line())
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    workspace = Workspace()
    result = workspace.export_store(workspace.store(args.name), args.file)
    if args.json:
        print_json(
            {
                "file": str(result.path),
                "store": result.store,
                "snapshot": result.snapshot,
                "chunks": result.chunks,
                "documents": result.documents,
                "bytes": result.size,
            }
        )
    else:
        print(
            f"Exported {result.store!r} ({result.documents} documents, {result.chunks} chunks, "
            f"snapshot {result.snapshot}) to {escape_line(str(result.path))} "
            f"({human_size(result.size)}). API keys are not in it."
        )
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    result = Workspace().import_store(args.file, name=args.name)
    if args.json:
        print_json(
            {
                "store": store_json(result.store),
                "snapshot": result.snapshot,
                "chunks": result.chunks,
                "documents": result.documents,
                "notes": list(result.notes),
                **result.admission.to_json(),
            }
        )
    else:
        print(
            f"Imported store {result.store.name!r}: {result.documents} documents, "
            f"{result.chunks} chunks, every checksum verified."
        )
        for note in result.notes:
            print(f"  note: {escape_line(note)}")
    return 0
