"""A local GGUF model's own control tokens (issue 23, item 5): the markup-shaped CONTROL and
USER_DEFINED tokens of its ``tokenizer.ggml.token_type`` and the tokens its chat template names, read
from the file's metadata without loading it."""

from __future__ import annotations

from pathlib import Path

import gguf
import pytest

from kortty_rag.profiles.model_tokens import (
    GgufFormatError,
    control_tokens,
    model_tokens,
    read_vocabulary,
)

# a StarCoder-like file-boundary token, a Falcon-like section token, a tool frame, HTML and text
TOKENS = ["<s>", "hello", "<filename>", ">>ANSWER<<", "<b>", "<tool_call>", "<commit_msg>"]
TYPES = [3, 1, 3, 3, 4, 4, 1]
TEMPLATE = "{{ '[gMASK]<sop>' }}{% for m in messages %}<tool_call>{{ m['content'] }}{% endfor %}"


def write_gguf(path: Path, tokens: list[str], types: list[int], template: str) -> Path:
    writer = gguf.GGUFWriter(str(path), arch="llama")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_chat_template(template)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


@pytest.fixture
def model(tmp_path: Path) -> Path:
    return write_gguf(tmp_path / "model.gguf", TOKENS, TYPES, TEMPLATE)


def test_the_metadata_reader_agrees_with_the_gguf_package(model: Path) -> None:
    with model.open("rb") as handle:
        vocabulary = read_vocabulary(handle)
    reader = gguf.GGUFReader(str(model))
    field = reader.fields["tokenizer.ggml.tokens"]
    assert list(vocabulary.tokens) == [bytes(field.parts[i]).decode() for i in field.data]
    types = reader.fields["tokenizer.ggml.token_type"]
    assert list(vocabulary.types) == [int(types.parts[i][0]) for i in types.data]
    assert vocabulary.chat_template == TEMPLATE


def test_a_models_own_tokens(model: Path) -> None:
    with model.open("rb") as handle:
        own = control_tokens(read_vocabulary(handle))
    # CONTROL tokens, the USER_DEFINED one its template names, the tokens its template names;
    # not <b> (USER_DEFINED, text) nor the NORMAL <commit_msg>
    assert set(own) == {"<s>", "<filename>", ">>ANSWER<<", "<tool_call>", "[gMASK]", "<sop>"}


def test_an_unreadable_file_has_no_tokens_of_its_own(tmp_path: Path) -> None:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF\x03\x00\x00\x00" + b"\x00" * 8 + b"\xff" * 8)
    assert model_tokens(broken) == ()
    assert model_tokens(tmp_path / "missing.gguf") == ()
    with pytest.raises(GgufFormatError), broken.open("rb") as handle:
        read_vocabulary(handle)
