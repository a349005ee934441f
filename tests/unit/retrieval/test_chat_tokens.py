"""The rules that take chat-template control tokens from data (:mod:`kortty_rag.retrieval.chat_tokens`)
and the bundled catalogue they make (issue 23, item 5)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kortty_rag.retrieval.chat_tokens import (
    CONTROL,
    USER_DEFINED,
    catalogue,
    markup_shape,
    tokens_of_template,
    tokens_of_vocabulary,
    words_of,
)

ROOT = Path(__file__).resolve().parents[3]
ISSUE_TOKENS = [
    "</tool_response>",
    "<tool_response>",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
]


def test_template_tokens_are_told_from_prompt_text() -> None:
    glm = (
        "{{ '[gMASK]<sop>' }}{% for m in messages %}<|user|>\n<tools>{{ m['content'] }}{% endfor %}"
    )
    assert tokens_of_template(glm) == ["[gMASK]", "<sop>", "<|user|>"]
    qwen = "{{ '<tool_call>\\n' }}{{ tool[idx] }}{{ '</tool_call>' }}<tools>\n</tools><name>"
    assert tokens_of_template(qwen) == ["<tool_call>", "</tool_call>"]
    mistral = "{{ '[SYSTEM_PROMPT]' + system + '[/SYSTEM_PROMPT]' }}[TOOL_CONTENT]<CODE_QUALITY>"
    assert tokens_of_template(mistral) == ["[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]"]
    assert tokens_of_template("<s>[INST]", known=["<s>"]) == ["<s>", "[INST]"]


def test_vocabulary_tokens_are_control_tokens_and_named_user_defined_ones() -> None:
    tokens = ["<s>", "hello", "<b>", "<tool_call>", "\n\n", "<|im_start|>", "<x>"]
    types = [CONTROL, 1, USER_DEFINED, USER_DEFINED, USER_DEFINED, USER_DEFINED, 1]
    found = tokens_of_vocabulary(tokens, types, named=["<tool_call>"])
    assert found == ["<s>", "<tool_call>", "<|im_start|>"]  # not Gemma's <b>, not a NORMAL <x>


def test_words_are_matched_by_shape() -> None:
    words = words_of(
        [
            "<|im_start|>",
            "<|end_of_text|>",
            "<|endoftext|>",
            "<|end|>",
            "<|user|>",
            "<<SYS>>",
            "<s>",
        ],
        roles=["user"],
    )
    assert {"im_start", "end_of_text", "endoftext"} <= words.special  # "endoftext" run together
    assert words.barred == {"end"}  # matched with a bar only: "[end]" is prose
    assert {"user", "sys", "s"} <= words.tags  # a role name is a tag in any brackets
    assert markup_shape("<unused12>") is not None and markup_shape("<unused12>").special  # type: ignore[union-attr]
    assert markup_shape("plain") is None and markup_shape("<a b>") is None


def test_the_catalogue_covers_the_issues_tokens() -> None:
    tokens, roles = catalogue()
    assert set(ISSUE_TOKENS) | {"[gMASK]", "<sop>"} <= set(tokens)
    assert {"system", "user", "assistant"} <= set(roles)


def test_the_catalogue_is_what_the_script_makes_of_the_data() -> None:
    """``resources/chat_tokens.json`` is exactly what ``scripts/chat_tokens.py`` derives from the
    llama-cpp-python source distribution and the gemma-3 test model; skipped where the source
    distribution is not at hand (``scripts/chat_tokens.py --download`` fetches it)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import chat_tokens as script
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    sdist = script.find_sdist(None)
    if sdist is None:
        pytest.skip(f"{script.SDIST} not found (scripts/chat_tokens.py --download fetches it)")
    from tests.helpers.chat_model import chat_model_path

    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "chat_tokens.py"),
            "--check",
            "--sdist",
            str(sdist),
            "--gemma",
            str(chat_model_path()),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
