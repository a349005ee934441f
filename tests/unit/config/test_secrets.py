"""API keys in the OS keyring: a working backend, no backend, a silent plain-text fallback, and a
backend that drops secrets (docs/DESIGN.md §10)."""

from __future__ import annotations

from pathlib import Path

import pytest
from keyring.backend import KeyringBackend
from keyrings.alt.file import PlaintextKeyring
from tests.helpers.qdrant import isolate_keyring

from kortty_rag.config import secrets
from kortty_rag.errors import SecretStoreError, UsageError

KEY = "qk-1234567890-secret"


class DroppingKeyring(KeyringBackend):
    """Accepts every secret and keeps none (a misconfigured or locked backend)."""

    priority = 1  # type: ignore[assignment]

    def set_password(self, service: str, username: str, password: str) -> None:
        pass

    def get_password(self, service: str, username: str) -> str | None:
        return None

    def delete_password(self, service: str, username: str) -> None:
        pass


class GarblingKeyring(DroppingKeyring):
    """Keeps something, but not what it was given."""

    def get_password(self, service: str, username: str) -> str | None:
        return "something else"


class LeakyFailingKeyring(DroppingKeyring):
    """Refuses, and echoes the secret in its error (the product must not pass that on)."""

    def set_password(self, service: str, username: str, password: str) -> None:
        raise RuntimeError(f"cannot store {password!r}: keyring locked")


def files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


def test_working_backend_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_keyring(monkeypatch, tmp_path, "keyrings.alt.file.PlaintextKeyring")
    name = secrets.store_api_key("store-1", f"  {KEY}\n")
    assert name == "keyrings.alt.file.PlaintextKeyring"
    assert secrets.read_api_key("store-1") == KEY
    assert secrets.read_api_key("store-2") is None
    # the explicitly chosen backend's file lives in the temporary home (keyring escapes names)
    (stored,) = files_under(tmp_path / "data")
    assert "[kortty_2Drag]" in stored.read_text()
    assert secrets.delete_api_key("store-1") is True
    assert secrets.read_api_key("store-1") is None
    assert secrets.delete_api_key("store-1") is False


def test_empty_key_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_keyring(monkeypatch, tmp_path, "keyrings.alt.file.PlaintextKeyring")
    with pytest.raises(UsageError):
        secrets.store_api_key("store-1", " \n")


@pytest.mark.parametrize(
    "backend", ["keyring.backends.fail.Keyring", "keyring.backends.null.Keyring"]
)
def test_no_backend_is_a_clear_error_without_fallback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    isolate_keyring(monkeypatch, tmp_path, backend)
    with pytest.raises(SecretStoreError) as caught:
        secrets.store_api_key("store-1", KEY)
    error = caught.value
    assert "No OS keyring is available" in error.message and backend in error.message
    assert "Secret Service" in error.hint and "PYTHON_KEYRING_BACKEND" in error.hint
    assert KEY not in str(error)
    assert files_under(tmp_path) == []  # nothing written anywhere instead
    assert secrets.read_api_key("store-1") is None  # reading quietly finds no key


def test_plain_text_backend_chosen_silently_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # what keyring picks by itself when keyrings.alt is installed and no real keyring exists
    isolate_keyring(monkeypatch, tmp_path, "keyring.backends.null.Keyring")
    monkeypatch.delenv("PYTHON_KEYRING_BACKEND")
    with pytest.raises(SecretStoreError, match="plain-text file") as caught:
        secrets.store_api_key("store-1", KEY, backend=PlaintextKeyring())
    assert "PYTHON_KEYRING_BACKEND=keyrings.alt.file.PlaintextKeyring" in caught.value.hint
    assert files_under(tmp_path) == []


@pytest.mark.parametrize("backend", [DroppingKeyring(), GarblingKeyring()])
def test_a_backend_that_drops_secrets_is_detected(backend: KeyringBackend) -> None:
    with pytest.raises(SecretStoreError, match="did not keep it") as caught:
        secrets.store_api_key("store-1", KEY, backend=backend)
    assert KEY not in str(caught.value)


def test_backend_errors_never_carry_the_key() -> None:
    with pytest.raises(SecretStoreError, match="refused to store the API key") as caught:
        secrets.store_api_key("store-1", KEY, backend=LeakyFailingKeyring())
    assert KEY not in str(caught.value) and "***" in caught.value.message
