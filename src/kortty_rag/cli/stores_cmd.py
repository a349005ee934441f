"""``kortty-rag store …`` and ``kortty-rag search``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from kortty_rag import languages
from kortty_rag.app.lexical_state import lexical_state
from kortty_rag.app.mcp_scope import allowed_root
from kortty_rag.app.workspace import Workspace
from kortty_rag.cli import links_cmd, qdrant_cmd
from kortty_rag.cli.lexical_view import describe as describe_lexical
from kortty_rag.cli.render import StderrProgress, print_json, table
from kortty_rag.config.registry import DamagedStore, StoreRegistry
from kortty_rag.embedding.installed import get_model
from kortty_rag.errors import UsageError
from kortty_rag.index.factory import lexical_language
from kortty_rag.models import FusionMethod, RelevanceLevel, Store, StoreRoles, StoreType
from kortty_rag.retrieval.search import store_weights
from kortty_rag.sources.scan import human_size
from kortty_rag.untrusted import escape_line


def register(commands: Any) -> None:
    store = commands.add_parser("store", help="create, list, rebuild and delete knowledge stores")
    sub = store.add_subparsers(dest="store_command", metavar="ACTION", required=True)

    create = sub.add_parser("create", help="create a store bound to an installed embedding model")
    create.add_argument("name")
    create.add_argument("--model", required=True, help="installed model id (see `models list`)")
    create.add_argument(
        "--text",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="serve the Text role (default: yes)",
    )
    create.add_argument(
        "--coding",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="serve the Coding role (default: no)",
    )
    qdrant_cmd.add_create_arguments(create)
    create.add_argument("--json", action="store_true")
    create.set_defaults(handler=cmd_create)

    lst = sub.add_parser("list", help="list stores")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(handler=cmd_list)

    delete = sub.add_parser("delete", help="delete a store's index (never its source files)")
    delete.add_argument("name")
    delete.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    delete.add_argument(
        "--keep-remote-vectors",
        action="store_true",
        help="Qdrant store whose service is gone for good: delete only the definition",
    )
    delete.add_argument("--json", action="store_true")
    delete.set_defaults(handler=cmd_delete)

    roles = sub.add_parser("roles", help="choose which roles a store serves (and autonomous flows)")
    roles.add_argument("name")
    roles.add_argument(
        "--text", action=argparse.BooleanOptionalAction, default=None, help="serve the Text role"
    )
    roles.add_argument(
        "--coding",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="serve the Coding role",
    )
    roles.add_argument(
        "--autonomous",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also give excerpts to autonomous workflows (agent, planning, swarm, scheduled)",
    )
    roles.add_argument(
        "--mcp",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="make the store available to other AI tools through `kortty-rag serve` (default: no)",
    )
    roles.add_argument(
        "--mcp-allow-root",
        action="append",
        default=[],
        metavar="PATH",
        help="let MCP clients add PATH or folders inside it although it is hidden, outside your "
        "home folder or reached through a symbolic link (repeatable)",
    )
    roles.add_argument(
        "--mcp-forget-root",
        action="append",
        default=[],
        metavar="PATH",
        help="withdraw a root allowed with --mcp-allow-root (repeatable)",
    )
    roles.add_argument("--json", action="store_true")
    roles.set_defaults(handler=cmd_roles)

    tune = sub.add_parser(
        "retrieval",
        help="switch the dense or lexical part off, tune fusion, set the minimum relevance or the "
        "lexical language",
    )
    tune.add_argument("name")
    tune.add_argument(
        "--dense",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="use the embedding (HNSW) part",
    )
    tune.add_argument(
        "--lexical", action=argparse.BooleanOptionalAction, default=None, help="use the BM25 part"
    )
    tune.add_argument(
        "--fusion",
        choices=[m.value for m in FusionMethod],
        help="how the two rankings are fused: convex (normalised scores, the default) or rrf "
        "(reciprocal ranks)",
    )
    tune.add_argument(
        "--dense-weight",
        type=float,
        metavar="W",
        help="weight of the dense part in the fusion, 0..1 (default 0.8)",
    )
    tune.add_argument(
        "--rrf-k", type=int, metavar="K", help="reciprocal rank fusion constant (60; rrf only)"
    )
    tune.add_argument(
        "--min-relevance",
        choices=[level.value for level in RelevanceLevel],
        metavar="LEVEL",
        help="how much evidence of relevance an excerpt needs: "
        + ", ".join(level.value for level in RelevanceLevel)
        + " (default low; off admits every candidate)",
    )
    tune.add_argument(
        "--language",
        choices=languages.CHOICES,
        metavar="LANG",
        help="the language of the lexical index's stemming and stopwords: auto (default: detected "
        "from the text), none, or one of " + ", ".join(languages.CHOICES[2:]) + "; a local store "
        "is analysed again at once (nothing is re-embedded), a Qdrant store at its next rebuild",
    )
    tune.add_argument(
        "--graph",
        choices=["on", "off"],
        help="expand the best hits along links between Markdown notes (wikilinks, links to other "
        "files of the store): linked notes' best excerpts get a bonus (local stores; on by default)",
    )
    tune.add_argument("--json", action="store_true")
    tune.set_defaults(handler=cmd_retrieval)

    rebuild = sub.add_parser("rebuild", help="re-index every source into a fresh snapshot")
    rebuild.add_argument("name")
    rebuild.add_argument("--model", help="rebuild with another installed embedding model")
    rebuild.add_argument("--json", action="store_true")
    rebuild.set_defaults(handler=cmd_rebuild)

    export = sub.add_parser(
        "export", help="write a store's definition and active index to one archive (a backup)"
    )
    export.add_argument("name")
    export.add_argument("file", type=Path, help="the archive to write (must not exist)")
    export.add_argument("--json", action="store_true")
    export.set_defaults(handler=cmd_export)

    imp = sub.add_parser(
        "import", help="create a store from an archive made by `store export` (every byte checked)"
    )
    imp.add_argument("file", type=Path)
    imp.add_argument("--name", help="the new store's name (default: the exported store's)")
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(handler=cmd_import)

    qdrant_cmd.register(sub)
    links_cmd.register(sub)


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
    model = get_model(args.model)
    roles = StoreRoles(text=args.text, coding=args.coding)
    if args.type == StoreType.QDRANT.value:
        store = qdrant_cmd.create_qdrant_store(args, model.identity(), roles)
    elif args.url or args.collection or args.api_key_from_stdin:
        raise UsageError("--url, --collection and --api-key-from-stdin need --type qdrant")
    else:
        store = Workspace().create_store(args.name, model.identity(), roles=roles)
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
    survey = StoreRegistry().survey()
    stores = survey.stores
    if args.json:
        print_json(
            [
                store_json(s) | {"status": OK, "lexical_language": lexical_language(s)}
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
                lexical_language(s),
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
    folder = workspace.registry.folder(store)
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
    weights = store_weights(store, language)
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
                "dense_weight_applied": store_weights(store, lexical.language).dense,
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
    identity = get_model(args.model).identity() if args.model else None
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
