"""A pasted API key is refused where the NAME of its environment variable belongs (security review,
finding 9), and is never stored or shown; ordinary variable names stay accepted.

The fake keys are generated here, in the published shapes of each provider's keys (prefix, alphabet,
length), independently of the product's own prefix list; the prefix-less ones test the length and
randomness rule on its own.
"""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest

from kortty_rag.cli import main
from kortty_rag.config.key_variables import check_key_variable, looks_like_secret
from kortty_rag.config.paths import settings_file
from kortty_rag.errors import ConfigError, UsageError
from kortty_rag.profiles.chat import OpenAIChat, api_key
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import AiProfile, ProfileRegistry

BASE62 = string.ascii_letters + string.digits
BASE64URL = BASE62 + "-_"
HEX = "0123456789abcdef"
BASE32_AWS = string.ascii_uppercase + "234567"
_rng = random.Random(20261201)


def pick(alphabet: str, length: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(length))


def vendor_keys() -> list[tuple[str, str]]:
    """(provider, key) in each provider's published shape."""
    keys = []
    for _ in range(5):
        keys += [
            ("groq", "gsk_" + pick(BASE62, 52)),
            ("hugging face", "hf_" + pick(BASE62, 34)),
            ("hugging face org", "api_org_" + pick(BASE62, 34)),
            ("github classic", "ghp_" + pick(BASE62, 36)),
            ("github oauth", "gho_" + pick(BASE62, 36)),
            ("github fine-grained", "github_pat_11" + pick(BASE62, 20) + "_" + pick(BASE62, 59)),
            ("openai legacy", "sk-" + pick(BASE62, 48)),
            ("openai project", "sk-proj-" + pick(BASE64URL, 156)),
            ("anthropic", "sk-ant-api03-" + pick(BASE64URL, 93) + "AA"),
            ("stripe", "sk_live_" + pick(BASE62, 99)),
            ("slack bot", f"xoxb-{pick(string.digits, 12)}-{pick(string.digits, 13)}-"
             + pick(BASE62, 24)),
            ("aws access key id", "AKIA" + pick(BASE32_AWS, 16)),
            ("google api key", "AIza" + pick(BASE64URL, 35)),
            ("gitlab", "glpat-" + pick(BASE62, 20)),
            ("replicate", "r8_" + pick(BASE62, 37)),
            ("perplexity", "pplx-" + pick(BASE62, 48)),
            ("nvidia", "nvapi-" + pick(BASE64URL, 64)),
            ("xai", "xai-" + pick(BASE62, 80)),
            ("deepseek", "sk-" + pick(HEX, 32)),
            ("mistral (no prefix)", pick(BASE62, 32)),
            ("together (hex)", pick(HEX, 64)),
            ("random base62 40", pick(BASE62, 40)),
            ("random base62 64", pick(BASE62, 64)),
            ("random hex 40", pick(HEX, 40)),
            ("random upper+digits 24", pick(string.ascii_uppercase + string.digits, 24)),
        ]  # fmt: skip
    return keys


KEYS = vendor_keys()
NAMES = [
    "OPENAI_API_KEY", "GROQ_API_KEY", "MY_KEY_2", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN",
    "ANTHROPIC_API_KEY", "AZURE_OPENAI_API_KEY", "GITHUB_TOKEN", "GH_TOKEN", "OPENROUTER_API_KEY",
    "TOGETHER_API_KEY", "MISTRAL_API_KEY", "DEEPSEEK_API_KEY", "GEMINI_API_KEY", "XAI_API_KEY",
    "AWS_SECRET_ACCESS_KEY", "SK_LIVE_KEY_FOR_BILLING_SERVICE", "LLM_KEY_2024", "_PRIVATE_KEY",
    "myKey", "OPENAI_API_KEY_PROJECT_2", "AzureOpenAIDeploymentKey2", "hf_token_for_my_project",
    "gsk_key", "CHAT_KEY", "LOCAL_LLAMA_SERVER_API_KEY_FOR_TESTING", "KEY",
]  # fmt: skip


@pytest.mark.parametrize(
    ("provider", "key"), KEYS, ids=[f"{p}-{i}" for i, (p, _) in enumerate(KEYS)]
)
def test_a_pasted_key_is_refused_without_showing_it(provider: str, key: str) -> None:
    assert looks_like_secret(key), provider
    with pytest.raises(UsageError, match="looks like an API key itself") as refused:
        check_key_variable(key)
    assert key not in str(refused.value) and key[-12:] not in str(refused.value)
    assert refused.value.hint


@pytest.mark.parametrize("name", NAMES)
def test_variable_names_stay_accepted(name: str) -> None:
    assert not looks_like_secret(name)
    assert check_key_variable(name) == name
    assert AiProfile("P", Backend.OPENAI, "m", endpoint="https://x.io", api_key_env=name)


@pytest.mark.parametrize("value", ["", "1KEY", "MY-KEY", "MY KEY", "KEY$", "ÄPI_KEY"])
def test_other_invalid_names_are_refused_as_names(value: str) -> None:
    with pytest.raises(UsageError, match="not a valid variable name"):
        check_key_variable(value)


def test_the_cli_refuses_and_stores_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    for provider, key in KEYS[:25]:  # one of each shape
        code = main(
            ["profile", "add", "P", "--backend", "openai", "--model", "m",
             "--endpoint", "https://api.example.com/v1", "--api-key-env", key],
        )  # fmt: skip
        out, err = capsys.readouterr()
        assert code == 2, provider
        assert "--api-key-env" in err and "looks like an API key" in err
        assert "--api-key-from-stdin" in err  # what to do instead: the keyring …
        assert "--api-key-env GROQ_API_KEY" in err  # … or a variable's name
        assert key not in out + err and key[-12:] not in out + err
    assert not settings_file().exists()  # nothing was saved
    code = main(["profile", "add", "P", "--backend", "openai", "--model", "m",
                 "--endpoint", "https://api.example.com/v1", "--api-key-env", "GROQ_API_KEY"])  # fmt: skip
    assert code == 0 and ProfileRegistry().get("P").api_key_env == "GROQ_API_KEY"


def test_a_key_already_in_a_settings_file_is_never_used_or_shown(tmp_path: Path) -> None:
    key = "gsk_" + pick(BASE62, 52)
    ProfileRegistry().add(AiProfile("P", Backend.OPENAI, "m", endpoint="https://x.io"))
    path = settings_file()
    path.write_text(path.read_text().replace('"api_key_env": null', f'"api_key_env": "{key}"'))
    with pytest.raises(ConfigError) as refused:  # written by an older version, or by hand
        ProfileRegistry().load()
    assert key not in str(refused.value) and "looks like an API key" in str(refused.value)
    profile = AiProfile("P", Backend.OPENAI, "m", endpoint="https://x.io")
    object.__setattr__(profile, "api_key_env", key)  # past every other check
    with pytest.raises(UsageError, match="looks like an API key") as unused:
        api_key(profile, {key: "value"})
    assert key not in str(unused.value)
    with pytest.raises(UsageError):
        OpenAIChat(profile, environ={key: "value"})
