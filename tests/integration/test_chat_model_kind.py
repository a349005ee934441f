"""A llama.cpp profile pointed at an embedding model says so, instead of llama.cpp's
"AssertionError: Memory is not initialized" (the real starter embedding GGUF and the real gemma chat
GGUF, which still answers)."""

from __future__ import annotations

import pytest
from tests.helpers.chat_model import chat_model_path

from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.errors import ChatError
from kortty_rag.profiles.chat import GenerationOptions, LlamaChat
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import AiProfile


def test_an_embedding_model_is_refused_as_a_chat_model(starter_model: InstalledModel) -> None:
    profile = AiProfile("Wrong", Backend.LLAMA_CPP, str(starter_model.path), context_window=512)
    chat = LlamaChat(profile)
    with pytest.raises(ChatError, match=r"is an embedding or reranking model \(bert\), not a chat"):
        list(chat.stream([{"role": "user", "content": "Hello"}], GenerationOptions(max_tokens=4)))
    chat.close()


def test_a_chat_model_is_not_taken_for_one() -> None:
    """gemma (a decoder) loads and generates; the base model may stop at once, so the proof is that
    generation ran without the refusal."""
    profile = AiProfile("Gemma", Backend.LLAMA_CPP, str(chat_model_path()), context_window=1024)
    chat = LlamaChat(profile)
    try:
        assert chat._load().metadata["general.architecture"] == "gemma3"
        options = GenerationOptions(max_tokens=8, temperature=0)
        pieces = list(chat.stream([{"role": "user", "content": "Say hello."}], options))
    finally:
        chat.close()
    assert all(isinstance(piece, str) for piece in pieces)
