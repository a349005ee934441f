"""The environment variable that holds an endpoint's API key: a *name*, never the key itself.

An AI profile stores the name of the variable (``OPENAI_API_KEY``), and the key is read from the
environment when a request is made, so the key never reaches the settings file. A key pasted where
the name belongs would be stored in clear and shown back, and many keys are valid variable names
(``gsk_…``, ``hf_…``, ``ghp_…``, an AWS ``AKIA…`` id). So a value is refused when it

* starts with a prefix that API providers put on their keys and tokens (``gsk_``, ``hf_``,
  ``ghp_``, ``sk-``, ``AKIA``, …), followed by at least :data:`MIN_KEY_BODY` more characters with a
  digit or both upper- and lower-case letters among them (``hf_token_for_my_project`` is a name), or
* contains a run of at least :data:`MIN_RUN` letters and digits (between ``_`` or punctuation)
  with a digit before its end: variable names are words joined by ``_``, perhaps numbered at the
  end (``MyAzureDeploymentKey2``), while keys are long random runs of letters and digits.

This is the one definition of a valid key variable; the CLI, the GUI and the chat backend all use
:func:`check_key_variable`. Its errors never contain the value.
"""

from __future__ import annotations

import re

from kortty_rag.errors import UsageError
from kortty_rag.messages import msg

ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: prefixes of API keys and tokens (OpenAI, Anthropic, Groq, Hugging Face, GitHub, GitLab, Slack,
#: Stripe, AWS, Google, Replicate, Perplexity, xAI, NVIDIA, Fireworks, Pinecone, Tavily, …)
KEY_PREFIXES = (
    "sk-", "sk_", "pk_", "rk_", "gsk_", "hf_", "api_org_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
    "github_pat_", "glpat-", "gldt-", "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xapp-",
    "AKIA", "ASIA", "AIza", "ya29.", "r8_", "pplx-", "xai-", "nvapi-", "fw_", "pcsk_", "tvly-",
    "csk-", "jina_", "dop_v1_", "npm_", "pypi-", "SG.", "shpat_", "glsa_", "lin_api_",
    "ntn_", "sntrys_", "figd_", "key-", "LTAI", "eyJ",
)  # fmt: skip
MIN_KEY_BODY = 16
MIN_RUN = 20
#: a run of words (``Azure``, ``OPENAI``, ``key``) with an optional number at its end
_WORDS = re.compile(r"[A-Za-z]+[0-9]*")


def _random_looking(text: str) -> bool:
    has_digit = any(c.isdigit() for c in text)
    mixed_case = any(c.islower() for c in text) and any(c.isupper() for c in text)
    return has_digit or mixed_case


def looks_like_secret(value: str) -> bool:
    """Whether ``value`` looks like an API key or token rather than a variable name."""
    text = value.strip()
    for prefix in KEY_PREFIXES:
        body = text[len(prefix) :]
        random_body = _random_looking(body) or prefix.isupper()  # AKIA…: A-Z and 2-7 only
        if text.startswith(prefix) and len(body) >= MIN_KEY_BODY and random_body:
            return True
    runs = re.split(r"[^A-Za-z0-9]+", text)
    return any(len(run) >= MIN_RUN and not _WORDS.fullmatch(run) for run in runs)


def check_key_variable(value: str) -> str:
    """``value`` if it is the name of an environment variable; never echoes it in an error."""
    if looks_like_secret(value):
        raise UsageError(
            msg(
                "The API key's environment variable looks like an API key itself; it was not saved "
                "and is not shown"
            ),
            hint=msg(
                "Give the NAME of the environment variable that holds the key (e.g. "
                "GROQ_API_KEY) and put the key itself in that variable. If the key was visible "
                "somewhere others can read (a shared screen, a shell history), consider replacing "
                "it."
            ),
        )
    if not ENV_NAME.fullmatch(value):
        raise UsageError(
            msg(
                "The API key's environment variable is not a valid variable name (letters, digits "
                "and '_', not starting with a digit)"
            ),
            hint=msg(
                "Give the NAME of the environment variable that holds the key, e.g. OPENAI_API_KEY."
            ),
        )
    return value
