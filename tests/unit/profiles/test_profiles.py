"""AI profiles and role assignments: persistence, validation, and the ``profile``/``role`` CLI (docs/DESIGN.md §12)."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from kortty_rag.cli import main
from kortty_rag.config.paths import settings_file
from kortty_rag.errors import AlreadyExistsError, ConfigError, NotFoundError, UsageError
from kortty_rag.models import Role
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import AiProfile, ProfileRegistry

LOCAL = AiProfile(
    "Local", Backend.LLAMA_CPP, "/models/chat.gguf", context_window=4096, preset="gemma"
)
REMOTE = AiProfile(
    "Remote",
    Backend.OPENAI,
    "gpt-x",
    endpoint="https://api.example.com/v1",
    api_key_env="EXAMPLE_KEY",
)


def test_profiles_round_trip_through_the_settings_file() -> None:
    registry = ProfileRegistry()
    registry.add(LOCAL)
    registry.add(REMOTE)
    registry.assign(Role.TEXT, "local")  # names match case-insensitively
    registry.assign(Role.CODING, "Remote")

    fresh = ProfileRegistry().load()
    assert set(fresh.profiles) == {LOCAL, REMOTE}
    assert fresh.role_profile(Role.TEXT) == LOCAL
    assert fresh.role_profile(Role.CODING) == REMOTE
    data = json.loads(settings_file().read_text(encoding="utf-8"))
    assert data["product"] == "kortty-rag" and data["schema"] == 1
    assert data["roles"] == {"Text": "Local", "Coding": "Remote"}
    written = sorted(p.name for p in settings_file().parent.iterdir())
    assert written == sorted([settings_file().name, "kortty-rag-settings.lock"])


def test_only_the_key_variable_name_is_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXAMPLE_KEY", "sk-very-secret")
    ProfileRegistry().add(REMOTE)
    text = settings_file().read_text(encoding="utf-8")
    assert "EXAMPLE_KEY" in text and "sk-very-secret" not in text


def test_add_refuses_a_duplicate_unless_replacing() -> None:
    registry = ProfileRegistry()
    registry.add(LOCAL)
    registry.assign(Role.TEXT, "Local")
    with pytest.raises(AlreadyExistsError):
        registry.add(AiProfile("LOCAL", Backend.LLAMA_CPP, "/other.gguf"))
    bigger = AiProfile("Local", Backend.LLAMA_CPP, "/models/chat.gguf", context_window=16384)
    registry.add(bigger, replace_existing=True)
    assert registry.load().profiles == (bigger,)
    assert registry.role_profile(Role.TEXT) == bigger  # the role follows the name


def test_role_assignment_and_reassignment() -> None:
    registry = ProfileRegistry()
    registry.add(LOCAL)
    registry.add(REMOTE)
    with pytest.raises(NotFoundError) as missing:
        registry.role_profile(Role.TEXT)
    assert "role assign Text" in missing.value.hint
    registry.assign(Role.TEXT, "Local")
    registry.assign(Role.TEXT, "Remote")
    assert registry.role_profile(Role.TEXT) == REMOTE
    assert registry.load().roles_of("Local") == []
    with pytest.raises(NotFoundError):
        registry.assign(Role.CODING, "Nobody")


def test_removing_a_profile_frees_its_roles() -> None:
    registry = ProfileRegistry()
    registry.add(LOCAL)
    registry.add(REMOTE)
    registry.assign(Role.TEXT, "Local")
    registry.assign(Role.CODING, "Local")
    assert set(registry.remove("local")) == {Role.TEXT, Role.CODING}
    assert registry.load().profiles == (REMOTE,)
    for role in Role:
        with pytest.raises(NotFoundError):
            registry.role_profile(role)
    with pytest.raises(NotFoundError):
        registry.remove("Local")


@pytest.mark.parametrize(
    "content",
    [
        '{"theme": "dark"}',  # another application's file
        '{"product": "something-else", "profiles": []}',
        "[1, 2, 3]",
        "not json at all",
    ],
)
def test_a_foreign_settings_file_is_refused_and_left_untouched(content: str) -> None:
    path = settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError):
        ProfileRegistry().load()
    with pytest.raises(ConfigError):
        ProfileRegistry().add(LOCAL)
    assert path.read_text(encoding="utf-8") == content


def test_a_newer_settings_file_is_refused() -> None:
    path = settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"product": "kortty-rag", "schema": 99}), encoding="utf-8")
    with pytest.raises(ConfigError, match="newer"):
        ProfileRegistry().load()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"context_window": 511},
        {"preset": "klingon"},
        {"backend": Backend.OPENAI, "endpoint": None},
    ],
)
def test_profile_validation(kwargs: dict[str, Any]) -> None:
    values: dict[str, Any] = {"name": "P", "backend": Backend.LLAMA_CPP, "model": "/m.gguf"}
    with pytest.raises(UsageError):
        AiProfile(**(values | kwargs))


@pytest.mark.parametrize("name", ["", "  ", "../up", "a/b", "x" * 65])
def test_invalid_profile_names(name: str) -> None:
    with pytest.raises(UsageError):
        ProfileRegistry().add(AiProfile(name, Backend.LLAMA_CPP, "/m.gguf"))


# -- the CLI, in process ----------------------------------------------------------------------------


@pytest.fixture
def gguf(tmp_path: Path) -> Path:
    path = tmp_path / "chat.gguf"
    path.write_bytes(b"GGUF" + bytes(60))
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_profile_lifecycle(
    capsys: pytest.CaptureFixture[str], gguf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(gguf.parent)
    code, out, _ = run(
        capsys, "profile", "add", "Local", "--backend", "llama.cpp", "--model", "chat.gguf"
    )
    assert code == 0 and "role assign Text" in out
    assert ProfileRegistry().get("Local").model == str(gguf)  # stored as an absolute path
    code, _, _ = run(
        capsys,
        "profile", "add", "Remote", "--backend", "openai", "--model", "m",
        "--endpoint", "http://127.0.0.1:8080/v1/", "--api-key-env", "MY_KEY", "--preset", "chatml",
    )  # fmt: skip
    assert code == 0
    assert ProfileRegistry().get("Remote").endpoint == "http://127.0.0.1:8080/v1"
    assert run(capsys, "role", "assign", "text", "Local")[0] == 0
    assert run(capsys, "role", "assign", "CODING", "remote")[0] == 0

    code, out, _ = run(capsys, "profile", "list", "--json")
    listed = {p["name"]: p for p in json.loads(out)}
    assert listed["Local"]["roles"] == ["Text"] and listed["Remote"]["roles"] == ["Coding"]
    assert listed["Remote"]["api_key_env"] == "MY_KEY"
    code, out, _ = run(capsys, "profile", "list")
    assert out.splitlines()[0].split() == ["NAME", "ROLES", "BACKEND", "CONTEXT", "PRESET", "MODEL"]
    assert json.loads(run(capsys, "role", "list", "--json")[1]) == {
        "Text": "Local",
        "Coding": "Remote",
    }

    code, out, _ = run(capsys, "profile", "remove", "local")
    assert code == 0 and "The Text role is now unassigned" in out
    assert json.loads(run(capsys, "role", "list", "--json")[1]) == {
        "Text": None,
        "Coding": "Remote",
    }
    assert (
        run(capsys, "profile", "add", "Remote", "--backend", "llama.cpp", "--model", str(gguf))[0]
        == 2
    )
    assert (
        run(
            capsys,
            "profile",
            "add",
            "Remote",
            "--backend",
            "llama.cpp",
            "--model",
            str(gguf),
            "--replace",
        )[0]
        == 0
    )


def test_cli_refuses_bad_profiles_before_any_connection(
    capsys: pytest.CaptureFixture[str], gguf: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("no connection may be attempted")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    add = ("profile", "add", "P", "--model", "m")

    code, _, err = run(capsys, *add, "--backend", "openai", "--endpoint", "http://example.com/v1")
    assert code == 2 and "'http://example.com/v1'" in err and "https://" in err
    code, _, err = run(capsys, *add, "--backend", "openai")
    assert code == 2 and "--endpoint" in err
    code, _, err = run(
        capsys,
        *add,
        "--backend",
        "openai",
        "--endpoint",
        "https://x.io",
        "--api-key-env",
        "sk-abc123secret",
    )
    assert code == 2 and "NAME of an environment variable" in err and "sk-abc123secret" not in err
    code, _, err = run(
        capsys,
        "profile",
        "add",
        "P",
        "--backend",
        "llama.cpp",
        "--model",
        str(tmp_path / "missing.gguf"),
    )
    assert code == 2 and "missing.gguf" in err
    not_gguf = tmp_path / "notes.txt"
    not_gguf.write_text("hello")
    code, _, err = run(
        capsys, "profile", "add", "P", "--backend", "llama.cpp", "--model", str(not_gguf)
    )
    assert code == 2 and "not a GGUF file" in err
    code, _, err = run(
        capsys,
        "profile",
        "add",
        "P",
        "--backend",
        "llama.cpp",
        "--model",
        str(gguf),
        "--endpoint",
        "https://x.io",
    )
    assert code == 2 and "only for --backend openai" in err
    code, _, err = run(
        capsys,
        "profile",
        "add",
        "P",
        "--backend",
        "llama.cpp",
        "--model",
        str(gguf),
        "--context-window",
        "100",
    )
    assert code == 2 and "at least 512" in err
    assert ProfileRegistry().load().profiles == ()
    with pytest.raises(SystemExit) as bad_role:
        main(["role", "assign", "Poetry", "P"])
    assert bad_role.value.code == 2
    assert "unknown role 'Poetry'" in capsys.readouterr().err
    code, _, err = run(capsys, "role", "assign", "Text", "Nobody")
    assert code == 2 and "No AI profile named 'Nobody'" in err
