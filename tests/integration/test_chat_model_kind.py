"""A llama.cpp profile pointed at an embedding model says so, instead of llama.cpp's
"AssertionError: Memory is not initialized" (the real starter embedding GGUF and the real gemma chat
GGUF)."""

from __future__ import annotations

import pytest
from tests.helpers.chat_model import chat_model_path

from kortty_rag.embedding.gguf_info import embedding_pooling
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.errors import ChatError
from kortty_rag.profiles.chat import GenerationOptions, LlamaChat
from kortty_rag.profiles.profiles import AiProfile, Backend


def test_an_embedding_model_is_refused_as_a_chat_model(starter_model: InstalledModel) -> None:
    profile = AiProfile("Wrong", Backend.LLAMA_CPP, str(starter_model.path), context_window=512)
    chat = LlamaChat(profile)
    with pytest.raises(ChatError, match=r"is an embedding model \(mean pooling\), not a chat"):
        list(chat.stream([{"role": "user", "content": "Hello"}], GenerationOptions(max_tokens=4)))
    chat.close()


def test_a_chat_model_declares_no_embedding_pooling() -> None:
    assert embedding_pooling(chat_model_path()) is None
