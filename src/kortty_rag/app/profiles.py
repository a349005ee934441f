"""AI profiles as the front ends create and change them (docs/DESIGN.md §12).

:func:`checked_profile` turns what a user entered (:class:`ProfileDraft`) into an
:class:`~kortty_rag.profiles.registry.AiProfile` after the checks that need the outside world but no
connection, so a typo surfaces when the profile is saved rather than at the first question: a
llama.cpp model must be a readable GGUF file (kept as an absolute path, so the profile works from any
directory); an endpoint must satisfy the HTTPS rule; a key variable must be a variable *name* — a
pasted key is refused without echoing it. :func:`save_profile` adds or replaces a profile; a renamed
profile keeps its roles and its keyring key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kortty_rag.app.fields import ProfileField, ProfileFieldError
from kortty_rag.config.endpoints import check_endpoint
from kortty_rag.config.key_variables import check_key_variable, looks_like_secret
from kortty_rag.config.registry import validate_name
from kortty_rag.config.secrets import (
    delete_secret,
    profile_account,
    read_secret,
    store_secret,
    usable_backend,
)
from kortty_rag.embedding.gguf_info import GGUF_MAGIC
from kortty_rag.errors import UsageError
from kortty_rag.messages import msg
from kortty_rag.profiles.kinds import PRESET_FAMILIES, Backend
from kortty_rag.profiles.registry import AiProfile, ProfileRegistry, ProfileSettings
from kortty_rag.profiles.roles import RequestKind

#: what the front ends take from here: the profile types and registry, and the checks and keyring
#: calls a profile's form needs (the front ends never import the core's modules themselves)
__all__ = [
    "PRESET_FAMILIES",
    "AiProfile",
    "Backend",
    "ConnectionCheck",
    "ProfileDraft",
    "ProfileRegistry",
    "ProfileSettings",
    "RequestKind",
    "check_connection",
    "check_keyring",
    "check_profile_name",
    "checked_profile",
    "forget_profile_key",
    "keep_profile_key",
    "looks_like_secret",
    "save_profile",
]


@dataclass(frozen=True)
class ProfileDraft:
    """A profile as entered: ``model`` is a GGUF path for llama.cpp, a model name for an endpoint;
    the key is either in the variable ``key_variable`` or in the keyring (``key_in_keyring``)."""

    name: str
    backend: Backend
    model: str
    context_window: int = 8192
    preset: str = "generic"
    endpoint: str | None = None
    key_variable: str | None = None
    key_in_keyring: bool = False


def checked_profile(draft: ProfileDraft) -> AiProfile:
    """The profile ``draft`` describes; a :class:`ProfileFieldError` names the input to change."""
    model, endpoint = draft.model.strip(), (draft.endpoint or "").strip() or None
    if not model:
        raise ProfileFieldError(ProfileField.MODEL, msg("No model given"), missing=True)
    if draft.key_variable is not None:
        _check_variable(draft.key_variable)
    if draft.key_in_keyring and draft.key_variable is not None:
        raise ProfileFieldError(
            ProfileField.KEY_SOURCE,
            msg("An API key comes from an environment variable or from the keyring, not both"),
        )
    if draft.backend is Backend.LLAMA_CPP:
        if endpoint or draft.key_variable or draft.key_in_keyring:
            raise ProfileFieldError(
                ProfileField.BACKEND_OPTIONS,
                msg("An endpoint and an API key are only for an OpenAI-compatible server"),
            )
        model = str(_gguf(model))
    else:
        if not endpoint:
            raise ProfileFieldError(
                ProfileField.ENDPOINT,
                msg("No endpoint URL given"),
                hint=msg(
                    "Give the server's base URL, e.g. https://api.example.com/v1 (plain http:// "
                    "only for 127.0.0.1, [::1] or localhost)."
                ),
                missing=True,
            )
        try:
            endpoint = check_endpoint(endpoint, what=msg("endpoint URL")).url
        except UsageError as exc:
            raise ProfileFieldError(ProfileField.ENDPOINT, exc.message, hint=exc.hint) from None
    return AiProfile(
        name=draft.name,
        backend=draft.backend,
        model=model,
        context_window=draft.context_window,
        preset=draft.preset,
        endpoint=endpoint,
        api_key_env=draft.key_variable,
        api_key_in_keyring=draft.key_in_keyring,
    )


def _check_variable(value: str) -> None:
    try:
        check_key_variable(value)
    except UsageError:  # never echoes the value: it may be a pasted key
        reason = (
            msg("the value given looks like an API key itself; it was not saved and is not shown")
            if looks_like_secret(value)
            else msg("the value given is not a valid variable name")
        )
        raise ProfileFieldError(
            ProfileField.KEY_VARIABLE,
            msg(
                "The API key variable takes the NAME of an environment variable: {reason}",
                reason=reason,
            ),
            hint=msg(
                "Keep the key in the OS keyring instead, or put it in an environment variable "
                "and give that variable's name, e.g. GROQ_API_KEY."
            ),
        ) from None


def _gguf(model: str) -> Path:
    path = Path(model).expanduser().absolute()
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise ProfileFieldError(
            ProfileField.MODEL,
            msg(
                "Cannot read the chat model {path}: {reason}",
                path=path,
                reason=exc.strerror or str(exc),
            ),
            hint=msg("A llama.cpp profile needs the path of a local GGUF chat model."),
        ) from exc
    if magic != GGUF_MAGIC:
        raise ProfileFieldError(
            ProfileField.MODEL,
            msg("{path} is not a GGUF file", path=path),
            hint=msg("llama.cpp needs a .gguf model."),
        )
    return path


def save_profile(
    registry: ProfileRegistry, profile: AiProfile, original: AiProfile | None = None
) -> None:
    """Add ``profile``, or replace ``original`` with it; a renamed profile keeps the roles it held
    and its keyring key. A new name that another profile has (ignoring case) is refused."""
    same = original is not None and original.name.lower() == profile.name.lower()
    settings = registry.load()
    if not same and any(p.name.lower() == profile.name.lower() for p in settings.profiles):
        raise ProfileFieldError(
            ProfileField.NAME,
            msg("An AI profile named {name!r} already exists", name=profile.name),
        )
    held = settings.roles_of(original.name) if original is not None else []
    registry.add(profile, replace_existing=same)
    if original is None or same:
        return
    if original.api_key_in_keyring and profile.api_key_in_keyring:
        key = read_secret(profile_account(original.name))  # the key moves with the name
        if key:
            store_secret(profile_account(profile.name), key)
    registry.remove(original.name)
    for role in held:
        registry.assign(role, profile.name)


@dataclass(frozen=True)
class ConnectionCheck:
    """What a test request to a profile's model gave: the first word of its answer, and for an
    OpenAI-compatible server the models it lists (its ``/v1/models``)."""

    reply: str
    models: tuple[str, ...] = ()


#: the whole check: one short question, at most one token of answer
CHECK_MESSAGES = ({"role": "user", "content": "Reply with OK."},)


def check_connection(
    profile: AiProfile, *, key: str | None = None, first_listed_model: bool = False
) -> ConnectionCheck:
    """Ask the profile's model for one token (and an endpoint for its model list): a profile that
    cannot answer says so now, in the same words a question would get. ``key``: an API key entered
    but not saved yet; ``first_listed_model``: no model name was given, ask the first one the
    server lists. A local model is loaded for this (seconds)."""
    from dataclasses import replace

    from kortty_rag.profiles.chat import GenerationOptions, OpenAIChat, open_chat

    options = GenerationOptions(max_tokens=1, temperature=0.0)
    if profile.backend is Backend.OPENAI:
        chat = OpenAIChat(profile, key=key)
        models = tuple(chat.models())
        if first_listed_model:
            if not models:
                raise ProfileFieldError(
                    ProfileField.MODEL,
                    msg("The server lists no models"),
                    hint=msg("Type the name of the model the server offers."),
                    missing=True,
                )
            chat = OpenAIChat(replace(profile, model=models[0]), key=key)
        reply = "".join(chat.stream(list(CHECK_MESSAGES), options))
        return ConnectionCheck(reply, models)
    local = open_chat(profile)
    try:
        return ConnectionCheck("".join(local.stream(list(CHECK_MESSAGES), options)))
    finally:
        local.close()


def keep_profile_key(profile_name: str, key: str) -> str:
    """Keep an endpoint's API key in the OS keyring, verified by reading it back; returns the
    keyring's name. Without a usable keyring nothing is kept and the error says so."""
    return store_secret(profile_account(profile_name), key.strip())


def forget_profile_key(profile_name: str) -> bool:
    """Remove a profile's API key from the OS keyring; ``False`` when none was kept."""
    return delete_secret(profile_account(profile_name))


def check_keyring() -> None:
    """Refuse (:class:`~kortty_rag.errors.SecretStoreError`) when no usable OS keyring is there:
    called before a profile that keeps its key there is saved."""
    usable_backend()


def check_profile_name(name: str) -> str:
    """The name, stripped, if it is a valid AI profile name; else a :class:`UsageError`."""
    return validate_name(name, msg("AI profile"))
