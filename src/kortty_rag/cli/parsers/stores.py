"""The arguments of ``kortty-rag store …`` (its Qdrant and links actions included)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from kortty_rag import languages
from kortty_rag.models import FusionMethod, RelevanceLevel, StoreType


def switch(parser: argparse.ArgumentParser, flag: str, default: bool | None, help: str) -> None:
    """An on/off option with its --no- form (``default`` None: left as it is unless given)."""
    parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default, help=help)


def register_store(commands: Any) -> None:
    store = commands.add_parser("store", help="create, list, rebuild and delete knowledge stores")
    sub = store.add_subparsers(dest="store_command", metavar="ACTION", required=True)

    create = sub.add_parser("create", help="create a store bound to an installed embedding model")
    create.add_argument("name")
    create.add_argument("--model", required=True, help="installed model id (see `models list`)")
    switch(create, "--text", True, "serve the Text role (default: yes)")
    switch(create, "--coding", False, "serve the Coding role (default: no)")
    add_create_arguments(create)
    create.add_argument("--json", action="store_true")
    create.set_defaults(handler="stores_cmd:cmd_create")

    lst = sub.add_parser("list", help="list stores")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(handler="stores_cmd:cmd_list")

    delete = sub.add_parser("delete", help="delete a store's index (never its source files)")
    delete.add_argument("name")
    delete.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    delete.add_argument(
        "--keep-remote-vectors",
        action="store_true",
        help="Qdrant store whose service is gone for good: delete only the definition",
    )
    delete.add_argument("--json", action="store_true")
    delete.set_defaults(handler="stores_cmd:cmd_delete")

    roles = sub.add_parser("roles", help="choose which roles a store serves (and autonomous flows)")
    roles.add_argument("name")
    switch(roles, "--text", None, "serve the Text role")
    switch(roles, "--coding", None, "serve the Coding role")
    switch(
        roles,
        "--autonomous",
        None,
        "also give excerpts to autonomous workflows (agent, planning, swarm, scheduled)",
    )
    switch(
        roles,
        "--mcp",
        None,
        "make the store available to other AI tools through `kortty-rag serve` (default: no)",
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
    roles.set_defaults(handler="stores_cmd:cmd_roles")

    tune = sub.add_parser(
        "retrieval",
        help="switch the dense or lexical part off, tune fusion, set the minimum relevance or the "
        "lexical language",
    )
    tune.add_argument("name")
    switch(tune, "--dense", None, "use the embedding (HNSW) part")
    switch(tune, "--lexical", None, "use the BM25 part")
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
    tune.set_defaults(handler="stores_cmd:cmd_retrieval")

    rebuild = sub.add_parser("rebuild", help="re-index every source into a fresh snapshot")
    rebuild.add_argument("name")
    rebuild.add_argument("--model", help="rebuild with another installed embedding model")
    rebuild.add_argument("--json", action="store_true")
    rebuild.set_defaults(handler="stores_cmd:cmd_rebuild")

    export = sub.add_parser(
        "export", help="write a store's definition and active index to one archive (a backup)"
    )
    export.add_argument("name")
    export.add_argument("file", type=Path, help="the archive to write (must not exist)")
    export.add_argument("--json", action="store_true")
    export.set_defaults(handler="stores_cmd:cmd_export")

    imp = sub.add_parser(
        "import", help="create a store from an archive made by `store export` (every byte checked)"
    )
    imp.add_argument("file", type=Path)
    imp.add_argument("--name", help="the new store's name (default: the exported store's)")
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(handler="stores_cmd:cmd_import")

    register_qdrant(sub)
    register_links(sub)


def add_create_arguments(create: argparse.ArgumentParser) -> None:
    create.add_argument(
        "--type",
        choices=[t.value for t in StoreType],
        default=StoreType.LOCAL.value,
        help="local HNSW snapshot (default) or an existing Qdrant service",
    )
    create.add_argument(
        "--url",
        help="Qdrant base URL, e.g. https://qdrant.example.com:6333 (plain http:// only for "
        "127.0.0.1, [::1] or localhost); without a port, 443 for https and 80 for http",
    )
    create.add_argument(
        "--collection", help="Qdrant collection (default: one named after the store's id)"
    )
    create.add_argument(
        "--api-key-from-stdin",
        action="store_true",
        help="read the Qdrant API key from standard input and keep it in the OS keyring",
    )


def register_qdrant(sub: Any) -> None:
    check = sub.add_parser(
        "check", help="connect to a Qdrant store's service and validate its collection"
    )
    check.add_argument("name")
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler="qdrant_cmd:cmd_check")

    key = sub.add_parser(
        "key", help="store (from standard input) or remove a Qdrant store's API key"
    )
    key.add_argument("name")
    key.add_argument("--remove", action="store_true", help="forget the stored key")
    key.add_argument("--json", action="store_true")
    key.set_defaults(handler="qdrant_cmd:cmd_key")


def register_links(sub: Any) -> None:
    links = sub.add_parser(
        "links",
        help="show how the store's Markdown notes link to each other: dangling links and front "
        "matter that was not read",
    )
    links.add_argument("name")
    links.add_argument("--json", action="store_true")
    links.set_defaults(handler="links_cmd:cmd_links")
