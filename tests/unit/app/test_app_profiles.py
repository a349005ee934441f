"""Checking AI profiles in the application layer: each refusal names its field and no front end's
controls (no command-line option in a message or a hint)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kortty_rag.app.fields import ProfileField, ProfileFieldError
from kortty_rag.app.profiles import ProfileDraft, checked_profile, save_profile
from kortty_rag.models import Role
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import AiProfile, ProfileRegistry

OPTION = re.compile(r"(?<![\w-])--[a-z]")


def refused(draft: ProfileDraft) -> ProfileFieldError:
    with pytest.raises(ProfileFieldError) as caught:
        checked_profile(draft)
    assert not OPTION.search(caught.value.message + caught.value.hint), caught.value
    return caught.value


def test_each_refusal_names_its_field(tmp_path: Path) -> None:
    not_gguf = tmp_path / "model.bin"
    not_gguf.write_bytes(b"\x00" * 16)
    openai = dict(backend=Backend.OPENAI, endpoint="https://api.example.com/v1")
    cases = [
        (ProfileDraft("P", Backend.LLAMA_CPP, "  "), ProfileField.MODEL, True),
        (ProfileDraft("P", Backend.LLAMA_CPP, str(tmp_path / "missing.gguf")), ProfileField.MODEL, False),
        (ProfileDraft("P", Backend.LLAMA_CPP, str(not_gguf)), ProfileField.MODEL, False),
        (ProfileDraft("P", Backend.LLAMA_CPP, str(not_gguf), endpoint="https://x.io"), ProfileField.BACKEND_OPTIONS, False),
        (ProfileDraft("P", model="m", **openai, key_variable="sk-" + "a1B2" * 12), ProfileField.KEY_VARIABLE, False),  # type: ignore[arg-type]
        (ProfileDraft("P", model="m", **openai, key_variable="MY KEY"), ProfileField.KEY_VARIABLE, False),  # type: ignore[arg-type]
        (ProfileDraft("P", model="m", **openai, key_variable="K", key_in_keyring=True), ProfileField.KEY_SOURCE, False),  # type: ignore[arg-type]
        (ProfileDraft("P", Backend.OPENAI, "m"), ProfileField.ENDPOINT, True),
        (ProfileDraft("P", Backend.OPENAI, "m", endpoint="http://example.com/v1"), ProfileField.ENDPOINT, False),
    ]  # fmt: skip
    for draft, field, missing in cases:
        error = refused(draft)
        assert (error.field, error.missing) == (field, missing), draft
    pasted = refused(cases[4][0])
    assert "a1B2" not in pasted.message + pasted.hint  # a pasted key is never echoed


def test_a_valid_draft_becomes_a_profile(tmp_path: Path) -> None:
    model = tmp_path / "chat.gguf"
    model.write_bytes(b"GGUF" + b"\x00" * 12)
    local = checked_profile(ProfileDraft("Local", Backend.LLAMA_CPP, f" {model} "))
    assert local.model == str(model) and local.endpoint is None
    remote = checked_profile(
        ProfileDraft(
            "Remote",
            Backend.OPENAI,
            "gpt",
            endpoint=" https://api.example.com/v1 ",
            key_variable="OPENAI_API_KEY",
        )
    )
    assert (
        remote.endpoint == "https://api.example.com/v1" and remote.api_key_env == "OPENAI_API_KEY"
    )


def test_saving_refuses_a_taken_name_and_a_rename_keeps_the_roles() -> None:
    registry = ProfileRegistry()
    first = AiProfile("First", Backend.OPENAI, "m", endpoint="https://x.io")
    save_profile(registry, first)
    registry.assign(Role.TEXT, "First")
    with pytest.raises(ProfileFieldError) as taken:
        save_profile(registry, AiProfile("FIRST", Backend.OPENAI, "n", endpoint="https://x.io"))
    assert taken.value.field is ProfileField.NAME
    renamed = AiProfile("Renamed", Backend.OPENAI, "m", endpoint="https://x.io")
    save_profile(registry, renamed, first)
    settings = registry.load()
    assert [p.name for p in settings.profiles] == ["Renamed"]
    assert settings.roles_of("Renamed") == [Role.TEXT]
