"""An AI profile's endpoint key kept in the OS keyring (``--api-key-from-stdin``, ``profile key``):
never in the settings file or any output, sent to the endpoint, forgotten with the profile.

The keyring is keyrings.alt's file backend, chosen explicitly, inside the test's temporary folder.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.helpers.qdrant import isolate_keyring
from tests.unit.profiles.test_chat import MESSAGES, OPTIONS, ScriptedServer, delta, sse

from kortty_rag.cli import main
from kortty_rag.config.paths import settings_file
from kortty_rag.config.secrets import profile_account, read_secret
from kortty_rag.errors import UsageError
from kortty_rag.profiles.chat import OpenAIChat, api_key
from kortty_rag.profiles.registry import ProfileRegistry

KEY = "gsk_Xq7Lp2Rt9Vb4Nm8Kd3Wz6Hj1Fs5Gc0YaXq7Lp2Rt9Vb4Nm8Kd3W"


@pytest.fixture(autouse=True)
def keyring_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_keyring(monkeypatch, tmp_path / "keyring", "keyrings.alt.file.PlaintextKeyring")


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    scripted = ScriptedServer()
    try:
        yield scripted
    finally:
        scripted.close()


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
    stdin: str = "",
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(args))
    out, err = capsys.readouterr()
    assert KEY not in out + err
    return code, out + err


def add(url: str = "https://api.groq.com/openai/v1") -> list[str]:
    return ["profile", "add", "Groq", "--backend", "openai", "--model", "m", "--endpoint", url]


def test_a_key_from_stdin_is_kept_in_the_keyring_and_sent_to_the_endpoint(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, server: ScriptedServer
) -> None:
    code, _ = run(
        capsys, monkeypatch, *add(url=server.url), "--api-key-from-stdin", stdin=KEY + "\n"
    )
    assert code == 0
    assert KEY not in settings_file().read_text()
    profile = ProfileRegistry().get("Groq")
    assert profile.api_key_in_keyring and profile.api_key_env is None
    assert read_secret(profile_account("Groq")) == KEY
    server.reply(200, sse(delta("ok", "stop")))
    assert list(OpenAIChat(profile).stream(MESSAGES, OPTIONS)) == ["ok"]
    assert server.requests[0][1]["Authorization"] == f"Bearer {KEY}"
    code, listed = run(capsys, monkeypatch, "profile", "list", "--json")
    assert code == 0 and '"api_key_in_keyring": true' in listed

    code, _ = run(capsys, monkeypatch, "profile", "remove", "Groq")
    assert code == 0 and read_secret(profile_account("Groq")) is None  # forgotten with it


def test_profile_key_stores_replaces_and_removes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(capsys, monkeypatch, *add(), "--api-key-env", "GROQ_API_KEY")[0] == 0
    code, out = run(capsys, monkeypatch, "profile", "key", "Groq", stdin=KEY)
    assert code == 0 and "keyring" in out
    profile = ProfileRegistry().get("Groq")
    assert profile.api_key_in_keyring and profile.api_key_env is None  # the keyring replaces it
    assert api_key(profile, {}) == KEY
    assert KEY not in settings_file().read_text()
    code, _ = run(capsys, monkeypatch, "profile", "key", "Groq", "--remove")
    assert code == 0 and not ProfileRegistry().get("Groq").api_key_in_keyring
    assert read_secret(profile_account("Groq")) is None


def test_a_missing_keyring_key_is_a_clear_error_before_connecting(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(capsys, monkeypatch, *add(), "--api-key-from-stdin", stdin=KEY)[0] == 0
    from kortty_rag.config.secrets import delete_secret

    delete_secret(profile_account("Groq"))  # e.g. the keyring was reset
    with pytest.raises(UsageError, match="not in the keyring") as missing:
        OpenAIChat(ProfileRegistry().get("Groq"))
    assert "profile key" in missing.value.hint


def test_refusals(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    both = [*add(), "--api-key-env", "GROQ_API_KEY", "--api-key-from-stdin"]
    assert run(capsys, monkeypatch, *both, stdin=KEY)[0] == 2
    code, err = run(capsys, monkeypatch, *add(), "--api-key-from-stdin", stdin="  \n")
    assert code == 2 and "No API key" in err
    code, err = run(capsys, monkeypatch, *add(), "--api-key-env", KEY)  # the pasted key
    assert code == 2 and "--api-key-from-stdin" in err  # the way to keep it safely
    assert not settings_file().exists()

    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    import keyring.core

    keyring.core.init_backend()
    code, err = run(capsys, monkeypatch, *add(), "--api-key-from-stdin", stdin=KEY)
    assert code == 1 and "keyring" in err
    assert not settings_file().exists()  # no profile without its key


def test_replacing_a_profile_without_a_keyring_key_forgets_the_old_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(capsys, monkeypatch, *add(), "--api-key-from-stdin", stdin=KEY)[0] == 0
    replaced = [*add(), "--api-key-env", "GROQ_API_KEY", "--replace"]
    assert run(capsys, monkeypatch, *replaced)[0] == 0
    assert ProfileRegistry().get("Groq").api_key_env == "GROQ_API_KEY"
    assert read_secret(profile_account("Groq")) is None
