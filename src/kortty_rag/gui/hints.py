"""Remedies in the desktop app's words: a hint of the core names what to do as a
:class:`~kortty_rag.remedies.Remedy` (an operation and its values), and the app says the button or
menu that does it (docs/DESIGN.md "Hints as data").

:func:`kortty_rag.gui.core_messages.core_words`, the one way a text of the core reaches a person in
the app, words every remedy in it with :func:`remedy_words`.
The words are looked up in the app's language at call time; the translation context stays "Hints".
"""

from __future__ import annotations

import functools

from kortty_rag.gui.i18n import current_language, translate
from kortty_rag.remedies import Form, Operation, Remedy


def places() -> dict[Operation, str]:
    """Each operation as the place in the app that does it (made once per language)."""
    return _places(current_language())


@functools.cache
def _places(language: str) -> dict[Operation, str]:
    roles_row = translate(
        "Hints",
        "the store's row on the AI Profiles & Roles tab (its check boxes and Allowed folders…)",
    )
    set_up = translate("Hints", "Set up a model… on the Models tab")
    qdrant = translate("Hints", "with the right Qdrant URL (and Collection, under Advanced)")
    refresh = translate("Hints", "Refresh now on the Knowledge Stores tab")
    return {
        Operation.STORE_CREATE: translate("Hints", "Create… on the Knowledge Stores tab"),
        Operation.STORE_CREATE_QDRANT: translate("Hints", "Create… on the Knowledge Stores tab"),
        Operation.STORE_LIST: translate("Hints", "the list of the Knowledge Stores tab"),
        Operation.STORE_REBUILD: translate("Hints", "Rebuild… on the Knowledge Stores tab"),
        Operation.STORE_CHECK: translate(
            "Hints", "API key… on the Knowledge Stores tab (it checks the connection)"
        ),
        Operation.STORE_KEY: translate("Hints", "API key… on the Knowledge Stores tab"),
        Operation.STORE_EXPORT: translate("Hints", "File → Export store…"),
        Operation.STORE_IMPORT_RENAMED: translate("Hints", "File → Import store…"),
        Operation.STORE_AUTONOMOUS: roles_row,
        Operation.STORE_ALLOW_ROOT: roles_row,
        Operation.STORE_ROOTS: roles_row,
        Operation.STORE_QDRANT_SETTINGS: qdrant,
        Operation.STORE_QDRANT_COLLECTION: translate("Hints", "Collection, under Advanced"),
        Operation.SOURCE_LIST: translate("Hints", "the source table on the Knowledge Stores tab"),
        Operation.SOURCE_REVIEW: refresh,
        Operation.SOURCE_INDEX: refresh,
        Operation.SOURCE_REMOVE: translate("Hints", "Remove… on the Knowledge Stores tab"),
        Operation.SOURCE_MOVE: translate("Hints", "Change location… on the Knowledge Stores tab"),
        Operation.PROFILE_ADD: translate("Hints", "Add… on the AI Profiles & Roles tab"),
        Operation.PROFILE_LOCAL_MODEL: translate(
            "Hints", "Edit… on the AI Profiles & Roles tab (its model file)"
        ),
        Operation.PROFILE_KEY: translate(
            "Hints", "Edit… on the AI Profiles & Roles tab (its API key)"
        ),
        Operation.PROFILE_LIST: translate(
            "Hints", "the profile list on the AI Profiles & Roles tab"
        ),
        Operation.PROFILE_CONTEXT: translate(
            "Hints", "Edit… on the AI Profiles & Roles tab (its context window)"
        ),
        Operation.ROLE_ASSIGN: translate("Hints", "the Roles box on the AI Profiles & Roles tab"),
        Operation.ASK_SELECTION: translate("Hints", "a selection"),
        Operation.ANSWER_LENGTH: translate("Hints", "the answer length"),
        Operation.MODELS_INSTALL_STARTER: set_up,
        Operation.MODELS_REINSTALL: set_up,
        Operation.MODELS_IMPORT: translate(
            "Hints", "Set up a model… on the Models tab (Import GGUF file…)"
        ),
        Operation.MODELS_WHEEL: translate(
            "Hints", "Set up a model… on the Models tab (Import GGUF file…)"
        ),
        Operation.KORTTY_MODEL: set_up,
        Operation.KORTTY_FOLDER: translate("Hints", "File → Import from korTTY…"),
        Operation.DOCTOR: translate("Hints", "File → Check stores…"),
        Operation.DOCTOR_REPAIR: translate("Hints", "Repair in File → Check stores…"),
        Operation.JUDGE: translate(
            "Hints", "Mark right or Mark wrong in Test search… on the Knowledge Stores tab"
        ),
        Operation.DESKTOP_UNINSTALL: translate("Hints", "the command line's desktop uninstall"),
        Operation.DESKTOP_COMMAND: translate("Hints", "the kortty-rag program itself"),
    }


def remedy_words(remedy: Remedy) -> str:
    """A remedy as the app says it: the button or menu, begun with "Use" where it begins or
    continues a sentence."""
    action = places()[remedy.operation]
    if remedy.form is Form.RUN:
        return translate("Hints", "Use {action}").format(action=action)
    if remedy.form is Form.RUN_ON:
        return translate("Hints", "use {action}").format(action=action)
    return action
