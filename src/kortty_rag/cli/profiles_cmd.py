"""``kortty-rag profile …`` and ``kortty-rag role …``: AI profiles and the Text/Coding roles (docs/DESIGN.md §12).

Checks that need the outside world but no connection happen here, when a profile is added, so a typo
surfaces at once rather than at the first question: a llama.cpp model must be an existing GGUF file
(stored as an absolute path, so the profile works from any directory); an endpoint must satisfy the
HTTPS rule; ``--api-key-env`` must be a variable *name* — a pasted key is refused without echoing it.
An endpoint's key may instead be kept in the OS keyring (``--api-key-from-stdin``, ``profile key``),
like a Qdrant store's key.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from kortty_rag.app.fields import ProfileField, ProfileFieldError
from kortty_rag.app.profiles import (
    AiProfile,
    Backend,
    ProfileDraft,
    ProfileRegistry,
    check_keyring,
    forget_profile_key,
    keep_profile_key,
)
from kortty_rag.app.profiles import checked_profile as app_checked_profile
from kortty_rag.cli.qdrant_cmd import read_key
from kortty_rag.cli.render import print_json, table
from kortty_rag.errors import UsageError
from kortty_rag.models import Role
from kortty_rag.untrusted import escape_line

#: what to do about a refused input, in this front end's own words (its options)
_HINTS = {
    ProfileField.MODEL: "--model takes the path of a local GGUF chat model for --backend llama.cpp, "
    "the model's name for --backend openai.",
    ProfileField.KEY_VARIABLE: "To keep the key in the OS keyring, pipe it in with "
    "--api-key-from-stdin instead (`kortty-rag profile key NAME` for an existing profile); or put "
    "it in an environment variable and give its name, e.g. --api-key-env GROQ_API_KEY.",
    ProfileField.KEY_SOURCE: "Give either --api-key-env or --api-key-from-stdin, not both.",
    ProfileField.BACKEND_OPTIONS: "--endpoint, --api-key-env and --api-key-from-stdin are only "
    "for --backend openai.",
    ProfileField.ENDPOINT: "--endpoint takes the server's base URL, e.g. "
    "https://api.example.com/v1 (plain http:// only for 127.0.0.1, [::1] or localhost).",
}
#: the option each field's message is about, named in front of the message
_OPTIONS = {
    ProfileField.MODEL: "--model",
    ProfileField.KEY_VARIABLE: "--api-key-env",
    ProfileField.ENDPOINT: "--endpoint",
}


def checked_profile(args: argparse.Namespace) -> AiProfile:
    """The profile the options describe (:func:`kortty_rag.app.profiles.checked_profile`), its
    refusals worded for the command line."""
    draft = ProfileDraft(
        name=args.name,
        backend=Backend(args.backend),
        model=args.model,
        context_window=args.context_window,
        preset=args.preset,
        endpoint=args.endpoint,
        key_variable=args.api_key_env,
        key_in_keyring=bool(getattr(args, "api_key_from_stdin", False)),
    )
    try:
        return app_checked_profile(draft)
    except ProfileFieldError as exc:
        option = _OPTIONS.get(exc.field)
        message = f"{option}: {exc.message}" if option else exc.message
        raise UsageError(message, hint=_HINTS.get(exc.field, exc.hint)) from None


def cmd_add(args: argparse.Namespace) -> int:
    checked = checked_profile(args)
    key = read_key("API key: ") if checked.api_key_in_keyring else None
    if key is not None:
        check_keyring()  # no keyring: fail before the profile is saved
    registry = ProfileRegistry()
    same_name = [p for p in registry.load().profiles if p.name.lower() == checked.name.lower()]
    profile = registry.add(checked, replace_existing=args.replace)
    if key is None and any(p.api_key_in_keyring for p in same_name):
        forget_profile_key(profile.name)  # the replaced profile's keyring key
    if key is not None:
        try:
            keep_profile_key(profile.name, key)
        except BaseException:
            if not args.replace:
                registry.remove(profile.name)
            raise
    if args.json:
        print_json(profile.to_json())
        return 0
    where = escape_line(
        f"{profile.model} at {profile.endpoint}" if profile.endpoint else profile.model
    )
    print(
        f"Saved AI profile {profile.name!r}: {profile.backend.value}, {where}, context "
        f"{profile.context_window}, preset {profile.preset}."
    )
    print(f"Give it a role with: kortty-rag role assign Text {profile.name!r}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    settings = ProfileRegistry().load()
    profiles = sorted(settings.profiles, key=lambda p: p.name.lower())
    if args.json:
        print_json(
            [
                p.to_json() | {"roles": [r.value for r in settings.roles_of(p.name)]}
                for p in profiles
            ]
        )
        return 0
    if not profiles:
        print(
            "No AI profiles yet. Add one with: kortty-rag profile add NAME --backend llama.cpp "
            "--model PATH.gguf"
        )
        return 0
    rows = [
        [
            p.name,
            "+".join(r.value for r in settings.roles_of(p.name)) or "-",
            p.backend.value,
            str(p.context_window),
            p.preset,
            p.model if p.backend is Backend.LLAMA_CPP else f"{p.model} @ {p.endpoint}",
        ]
        for p in profiles
    ]
    table(["NAME", "ROLES", "BACKEND", "CONTEXT", "PRESET", "MODEL"], rows)
    return 0


def cmd_key(args: argparse.Namespace) -> int:
    registry = ProfileRegistry()
    profile = registry.get(args.name)
    if profile.backend is not Backend.OPENAI:
        raise UsageError(
            f"AI profile {profile.name!r} runs a local model and needs no API key",
            hint="API keys are for --backend openai profiles.",
        )
    if args.remove:
        removed = forget_profile_key(profile.name)
        registry.add(replace(profile, api_key_in_keyring=False), replace_existing=True)
        if args.json:
            print_json({"profile": profile.name, "removed": removed})
        else:
            print(f"{'Removed' if removed else 'There was no'} API key of {profile.name!r}.")
        return 0
    backend = keep_profile_key(profile.name, read_key("API key: "))
    registry.add(replace(profile, api_key_env=None, api_key_in_keyring=True), replace_existing=True)
    if args.json:
        print_json({"profile": profile.name, "stored": True, "keyring": backend})
    else:
        print(f"Stored the API key of AI profile {profile.name!r} in the keyring ({backend}).")
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    registry = ProfileRegistry()
    name = registry.get(args.name).name
    freed = registry.remove(name)  # forgets a key kept in the keyring too
    if args.json:
        print_json({"removed": name, "unassigned_roles": [r.value for r in freed]})
        return 0
    print(f"Removed AI profile {name!r}.")
    for role in freed:
        print(
            f"The {role.value} role is now unassigned; give it to another profile with: "
            f"kortty-rag role assign {role.value} PROFILE"
        )
    return 0


def cmd_assign(args: argparse.Namespace) -> int:
    profile = ProfileRegistry().assign(args.role, args.profile)
    if args.json:
        print_json({"role": args.role.value, "profile": profile.name})
    else:
        print(f"The {args.role.value} role now uses AI profile {profile.name!r}.")
    return 0


def cmd_roles(args: argparse.Namespace) -> int:
    settings = ProfileRegistry().load()
    holders = {role: settings.role_profile(role) for role in Role}
    if args.json:
        print_json({role.value: p.name if p else None for role, p in holders.items()})
        return 0
    table(["ROLE", "PROFILE"], [[r.value, p.name if p else "-"] for r, p in holders.items()])
    return 0
