"""AI profiles and role assignments, persisted atomically in ``kortty-rag-settings.json``.

A profile names a chat model: a local GGUF file run by llama.cpp in process, or an OpenAI-compatible
HTTP endpoint. API keys are never stored here: a profile names the environment variable that holds
its key, or keeps it in the OS keyring.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from kortty_rag.config.atomic import write_json_atomic
from kortty_rag.config.definitions import damaged, read_definition
from kortty_rag.config.endpoints import check_endpoint
from kortty_rag.config.key_variables import check_key_variable
from kortty_rag.config.paths import rag_dir, settings_file
from kortty_rag.config.registry import config_lock, validate_name
from kortty_rag.config.secrets import delete_secret, profile_account
from kortty_rag.decoding import FieldError, convert, decode, expect_object, join
from kortty_rag.errors import AlreadyExistsError, ConfigError, NotFoundError, UsageError
from kortty_rag.messages import msg
from kortty_rag.models import Role
from kortty_rag.profiles.kinds import PRESET_FAMILIES, Backend
from kortty_rag.remedies import Operation, place

PRODUCT = "kortty-rag"
SCHEMA_VERSION = 1
SETTINGS_LOCK = "kortty-rag-settings.lock"


@dataclass(frozen=True)
class AiProfile:
    name: str
    backend: Backend
    model: str  # a GGUF path for llama.cpp, a model name for an endpoint
    context_window: int = 8192
    preset: str = "generic"
    endpoint: str | None = None  # base URL of an OpenAI-compatible server
    api_key_env: str | None = None  # environment variable holding the endpoint's key
    api_key_in_keyring: bool = False  # or: the key is in the OS keyring (config.secrets)

    def __post_init__(self) -> None:
        if self.context_window < 512:
            raise UsageError(msg("A context window must be at least 512 tokens"))
        if self.preset not in PRESET_FAMILIES:
            raise UsageError(
                msg("Unknown prompt preset family {preset!r}", preset=self.preset),
                hint=msg("Choose one of: {choices}.", choices=", ".join(PRESET_FAMILIES)),
            )
        if self.backend is Backend.OPENAI and not self.endpoint:
            raise UsageError(msg("An OpenAI-compatible profile needs an endpoint URL"))
        if self.endpoint:
            check_endpoint(self.endpoint)  # https, or plain http only on loopback
        if self.api_key_env is not None:
            check_key_variable(self.api_key_env)  # a name, never a pasted key
        if self.api_key_env is not None and self.api_key_in_keyring:
            raise UsageError(
                msg(
                    "An AI profile takes its API key from an environment variable or from the "
                    "keyring, not both"
                )
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "backend": self.backend.value,
            "model": self.model,
            "context_window": self.context_window,
            "preset": self.preset,
            "endpoint": self.endpoint,
            "api_key_env": self.api_key_env,
        } | ({"api_key_in_keyring": True} if self.api_key_in_keyring else {})

    @classmethod
    def from_json(cls, data: object, path: str = "") -> AiProfile:
        return decode(cls, data, path)


@dataclass(frozen=True)
class ProfileSettings:
    profiles: tuple[AiProfile, ...] = ()
    roles: tuple[tuple[Role, str], ...] = ()

    def role_profile(self, role: Role) -> AiProfile | None:
        name = dict(self.roles).get(role)
        return next((p for p in self.profiles if p.name == name), None)

    def roles_of(self, profile_name: str) -> list[Role]:
        return [role for role, name in self.roles if name == profile_name]


SETTINGS_LABEL = msg("The settings file")
SETTINGS_HINT = msg(
    "Fix that part of the file or restore it from a backup; {add} and {assign} rewrite it once it "
    "can be read.",
    add=place(Operation.PROFILE_ADD),
    assign=place(Operation.ROLE_ASSIGN),
)


def _roles(value: object) -> tuple[tuple[Role, str], ...]:
    """``roles`` of the settings file: role name → profile name (or null for an unassigned role)."""
    roles: list[tuple[Role, str]] = []
    for role, assigned in expect_object(value, "roles").items():
        where = join("roles", role)
        convert(Role, role, where)  # the key names a role
        profile_name = convert(str | None, assigned, where)
        if profile_name:
            roles.append((Role(role), profile_name))
    return tuple(roles)


class ProfileRegistry:
    """Profiles and roles of the current ``KORTTY_HOME``."""

    def load(self) -> ProfileSettings:
        path = settings_file()
        data = read_definition(path, SETTINGS_LABEL, SETTINGS_HINT)
        if data is None:
            return ProfileSettings()
        if data.get("product") != PRODUCT:
            raise ConfigError(
                msg("{path} was not written by kortty-rag; it is left untouched", path=path)
            )
        try:
            schema = convert(int, data.get("schema", 0), "schema")
            if schema > SCHEMA_VERSION:
                raise ConfigError(msg("{path} was written by a newer kortty-rag", path=path))
            profiles = convert(tuple[AiProfile, ...], data.get("profiles", []), "profiles")
            roles = _roles(data.get("roles", {}))
        except FieldError as exc:
            raise damaged(SETTINGS_LABEL, path, exc, SETTINGS_HINT) from None
        return ProfileSettings(profiles, roles)

    @contextlib.contextmanager
    def _editing(self) -> Iterator[ProfileSettings]:
        """Read-modify-write under the settings lock (the GUI and the CLI may edit at once)."""
        with config_lock(rag_dir(), name=SETTINGS_LOCK):
            yield self.load()

    def _save(self, settings: ProfileSettings) -> None:
        write_json_atomic(
            settings_file(),
            {
                "product": PRODUCT,
                "schema": SCHEMA_VERSION,
                "profiles": [p.to_json() for p in settings.profiles],
                "roles": {role.value: name for role, name in settings.roles},
            },
        )

    def get(self, name: str) -> AiProfile:
        for profile in self.load().profiles:
            if profile.name.lower() == name.lower():
                return profile
        raise NotFoundError(
            msg("No AI profile named {name!r}", name=name),
            hint=msg("See the profiles in {profiles}.", profiles=place(Operation.PROFILE_LIST)),
        )

    def add(self, profile: AiProfile, *, replace_existing: bool = False) -> AiProfile:
        profile = replace(profile, name=validate_name(profile.name, msg("AI profile")))
        with self._editing() as settings:
            others = [p for p in settings.profiles if p.name.lower() != profile.name.lower()]
            if len(others) != len(settings.profiles) and not replace_existing:
                raise AlreadyExistsError(
                    msg("An AI profile named {name!r} already exists", name=profile.name)
                )
            self._save(replace(settings, profiles=(*others, profile)))
        return profile

    def remove(self, name: str) -> list[Role]:
        """Delete a profile and forget its keyring key; returns the roles it held (unassigned)."""
        profile = self.get(name)
        with self._editing() as settings:
            freed = settings.roles_of(profile.name)
            self._save(
                ProfileSettings(
                    tuple(p for p in settings.profiles if p.name != profile.name),
                    tuple((r, n) for r, n in settings.roles if n != profile.name),
                )
            )
        if profile.api_key_in_keyring:
            delete_secret(profile_account(profile.name))
        return freed

    def assign(self, role: Role, profile_name: str) -> AiProfile:
        profile = self.get(profile_name)
        with self._editing() as settings:
            roles = (*((r, n) for r, n in settings.roles if r is not role), (role, profile.name))
            self._save(replace(settings, roles=roles))
        return profile

    def role_profile(self, role: Role) -> AiProfile:
        profile = self.load().role_profile(role)
        if profile is None:
            raise NotFoundError(
                msg("No AI profile holds the {role} role", role=role.value),
                hint=msg(
                    "Assign one with {how}.", how=place(Operation.ROLE_ASSIGN, role=role.value)
                ),
            )
        return profile
