"""BERT → GGUF conversion on a tiny synthetic sentence-transformers folder (2 layers, hidden size 8).

The folder is generated here with numpy and a minimal safetensors writer, so these tests need no
download; the real model is exercised in ``tests/integration/test_starter_conversion.py``.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import gguf
import llama_cpp
import numpy as np
import pytest
from tests.helpers.tiny_bert import (
    FFN,
    HEADS,
    HIDDEN,
    LAYER_WEIGHTS,
    LAYERS,
    POSITIONS,
    VOCAB,
    make_bert_folder,
    tiny_weights,
    write_safetensors,
)

from kortty_rag.embedding.convert import convert_bert_folder, read_safetensors
from kortty_rag.errors import ModelError


def field(reader: gguf.GGUFReader, key: str) -> Any:
    return reader.fields[key].contents()


def test_tiny_bert_converts_to_the_expected_tensors_and_metadata(tmp_path: Path) -> None:
    source = tiny_weights()
    folder = make_bert_folder(tmp_path, weights=source)
    result = convert_bert_folder(folder, tmp_path / "out" / "tiny.gguf", name="tiny")

    assert (result.tensor_count, result.pooling, result.dimensions) == (
        5 + 16 * LAYERS,
        "mean",
        HIDDEN,
    )
    assert (result.context_length, result.trained_tokens) == (POSITIONS, 12)
    reader = gguf.GGUFReader(result.path)
    tensors = {t.name: t for t in reader.tensors}
    assert len(tensors) == result.tensor_count

    expected = {
        "token_embd.weight": ("embeddings.word_embeddings.weight", "F16"),
        "position_embd.weight": ("embeddings.position_embeddings.weight", "F32"),
        "token_types.weight": ("embeddings.token_type_embeddings.weight", "F32"),
        "token_embd_norm.weight": ("embeddings.LayerNorm.weight", "F32"),
        "token_embd_norm.bias": ("embeddings.LayerNorm.bias", "F32"),
    }
    for layer in range(LAYERS):
        for module, (gguf_name, shape) in LAYER_WEIGHTS.items():
            kind = "F16" if len(shape) == 2 else "F32"
            expected[f"blk.{layer}.{gguf_name}.weight"] = (
                f"encoder.layer.{layer}.{module}.weight",
                kind,
            )
            expected[f"blk.{layer}.{gguf_name}.bias"] = (
                f"encoder.layer.{layer}.{module}.bias",
                "F32",
            )
    assert set(tensors) == set(expected)
    for name, (hf_name, kind) in expected.items():
        tensor = tensors[name]
        assert tensor.tensor_type.name == kind, name
        assert tuple(int(n) for n in reversed(tensor.shape)) == source[hf_name].shape, (
            name
        )  # ggml order
        want = source[hf_name].astype(np.float16 if kind == "F16" else np.float32)
        np.testing.assert_array_equal(np.asarray(tensor.data).reshape(want.shape), want)

    # The converter spells the names itself; they must be the ones gguf lists for the bert architecture.
    templates = [gguf.TENSOR_NAMES[t] for t in gguf.MODEL_TENSORS[gguf.MODEL_ARCH.BERT]]
    known = {template.format(bid=layer) for template in templates for layer in range(LAYERS)}
    assert {name.rsplit(".", 1)[0] for name in tensors} <= known

    assert field(reader, "general.architecture") == "bert"
    assert field(reader, "general.name") == "tiny"
    assert field(reader, "general.file_type") == gguf.LlamaFileType.MOSTLY_F16
    assert field(reader, "bert.block_count") == LAYERS
    assert field(reader, "bert.context_length") == POSITIONS
    assert field(reader, "bert.embedding_length") == HIDDEN
    assert field(reader, "bert.feed_forward_length") == FFN
    assert field(reader, "bert.attention.head_count") == HEADS
    assert field(reader, "bert.attention.layer_norm_epsilon") == pytest.approx(1e-12)
    assert field(reader, "bert.attention.causal") is False
    assert field(reader, "bert.pooling_type") == gguf.PoolingType.MEAN
    assert field(reader, "tokenizer.ggml.model") == "bert"
    assert field(reader, "tokenizer.ggml.pre") == "jina-v2-en"
    assert field(reader, "tokenizer.ggml.token_type_count") == 2
    assert field(reader, "tokenizer.ggml.tokens") == [
        "[PAD]", "▁[unused0]", "[UNK]", "[CLS]", "[SEP]", "[MASK]",
        "▁hello", "▁world", "▁play", "▁the", "▁,", "▁!", "s", "ing", "b", "▁a",
    ]  # fmt: skip
    control, normal = gguf.TokenType.CONTROL, gguf.TokenType.NORMAL
    assert (
        field(reader, "tokenizer.ggml.token_type")
        == [control, normal] + [control] * 4 + [normal] * 10
    )
    assert field(reader, "tokenizer.ggml.bos_token_id") == 3
    assert field(reader, "tokenizer.ggml.eos_token_id") == 4
    assert field(reader, "tokenizer.ggml.seperator_token_id") == 4
    assert field(reader, "tokenizer.ggml.unknown_token_id") == 2
    assert field(reader, "tokenizer.ggml.padding_token_id") == 0
    assert field(reader, "tokenizer.ggml.mask_token_id") == 5
    assert field(reader, "tokenizer.ggml.add_bos_token") is True
    assert field(reader, "tokenizer.ggml.add_eos_token") is True
    assert field(reader, "tokenizer.ggml.normalizer.lowercase") is True
    assert [p.name for p in result.path.parent.iterdir()] == ["tiny.gguf"]


def test_llama_cpp_tokenizes_the_converted_vocabulary_like_wordpiece(tmp_path: Path) -> None:
    """The phantom-space spelling is what makes llama.cpp split words the WordPiece way."""
    result = convert_bert_folder(make_bert_folder(tmp_path), tmp_path / "tiny.gguf", name="tiny")
    llm = llama_cpp.Llama(model_path=str(result.path), vocab_only=True, verbose=False)
    try:
        ids = llm.tokenize(b"Hello WORLDS, playing ab!", add_bos=True, special=False)
    finally:
        llm.close()
    words = ["[CLS]", "hello", "world", "##s", ",", "play", "##ing", "a", "##b", "!", "[SEP]"]
    assert ids == [VOCAB.index(w) for w in words]


def test_cls_pooling_is_taken_from_the_pooling_config(tmp_path: Path) -> None:
    result = convert_bert_folder(
        make_bert_folder(tmp_path, pooling="cls"), tmp_path / "t.gguf", name="t"
    )
    assert result.pooling == "cls"
    assert field(gguf.GGUFReader(result.path), "bert.pooling_type") == gguf.PoolingType.CLS


def test_read_safetensors_round_trips_f32_f16_bf16_and_i64(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    f32 = rng.standard_normal((3, 5)).astype(np.float32)
    f16 = rng.standard_normal((7,)).astype(np.float16)
    bf16_values = np.array([[1.0, -2.5], [0.15625, 3.0e38]], dtype=np.float32)
    bf16_bits = (bf16_values.view(np.uint32) >> 16).astype(np.uint16)
    tensors: dict[str, np.ndarray] = {
        "a": f32,
        "b": f16,
        "c": bf16_bits,
        "d": np.arange(4, dtype=np.int64),
        "e": np.zeros((0, 3), np.float32),
    }
    path = tmp_path / "x.safetensors"
    write_safetensors(path, tensors, bf16=frozenset({"c"}))

    loaded = read_safetensors(path)
    assert set(loaded) == set(tensors)
    assert loaded["a"].dtype == np.float32 and loaded["b"].dtype == np.float16
    np.testing.assert_array_equal(loaded["a"], f32)
    np.testing.assert_array_equal(loaded["b"], f16)
    np.testing.assert_array_equal(loaded["c"], (bf16_bits.astype(np.uint32) << 16).view(np.float32))
    np.testing.assert_allclose(loaded["c"], bf16_values, rtol=1e-2)
    np.testing.assert_array_equal(loaded["d"], np.arange(4))
    assert loaded["e"].shape == (0, 3)
    assert not loaded["a"].flags.writeable  # a read-only mapping, not a copy to scribble on


def _valid_file(tmp_path: Path) -> bytes:
    write_safetensors(tmp_path / "ok.safetensors", {"w": np.ones((2, 2), np.float32)})
    return (tmp_path / "ok.safetensors").read_bytes()


def _with_header(header: dict[str, Any], data: bytes = b"\0" * 16) -> bytes:
    raw = json.dumps(header).encode()
    return struct.pack("<Q", len(raw)) + raw + data


@pytest.mark.parametrize(
    "corrupt",
    [
        pytest.param(lambda ok: b"", id="empty"),
        pytest.param(lambda ok: ok[:5], id="shorter-than-length-prefix"),
        pytest.param(lambda ok: struct.pack("<Q", 10**9) + ok[8:], id="header-longer-than-file"),
        pytest.param(lambda ok: struct.pack("<Q", 2**63) + ok[8:], id="huge-header-length"),
        pytest.param(lambda ok: struct.pack("<Q", 4) + b"{{{{" + ok[12:], id="not-json"),
        pytest.param(lambda ok: struct.pack("<Q", 4) + b"\xff\xfe{}" + ok[12:], id="not-utf8"),
        pytest.param(lambda ok: _with_header([1, 2]), id="header-not-object"),  # type: ignore[arg-type]
        pytest.param(lambda ok: _with_header({"w": "x"}), id="entry-not-object"),
        pytest.param(
            lambda ok: _with_header(
                {"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 32]}}
            ),
            id="data-past-end",
        ),
        pytest.param(
            lambda ok: _with_header({"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 16]}}),
            id="size-mismatch",
        ),
        pytest.param(
            lambda ok: _with_header(
                {"w": {"dtype": "F32", "shape": [-4], "data_offsets": [0, 16]}}
            ),
            id="negative-dim",
        ),
        pytest.param(
            lambda ok: _with_header({"w": {"dtype": "F32", "shape": [4], "data_offsets": [16, 0]}}),
            id="reversed-offsets",
        ),
        pytest.param(
            lambda ok: _with_header(
                {"w": {"dtype": "F8_E4M3", "shape": [16], "data_offsets": [0, 16]}}
            ),
            id="unsupported-dtype",
        ),
        pytest.param(
            lambda ok: _with_header({"w": {"dtype": "F32", "shape": [4]}}), id="no-offsets"
        ),
    ],
)
def test_malformed_safetensors_raise_model_error(tmp_path: Path, corrupt: Any) -> None:
    path = tmp_path / "bad.safetensors"
    path.write_bytes(corrupt(_valid_file(tmp_path)))
    with pytest.raises(ModelError, match="safetensors"):
        read_safetensors(path)


def test_missing_safetensors_file_raises_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError):
        read_safetensors(tmp_path / "absent.safetensors")


def test_a_malformed_model_file_fails_the_conversion_without_output(tmp_path: Path) -> None:
    folder = make_bert_folder(tmp_path)
    weights = folder / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:-10])  # truncated download
    out = tmp_path / "out"
    with pytest.raises(ModelError):
        convert_bert_folder(folder, out / "tiny.gguf", name="tiny")
    assert not out.exists() or not any(out.iterdir())


def test_missing_vocab_raises_model_error(tmp_path: Path) -> None:
    folder = make_bert_folder(tmp_path)
    (folder / "vocab.txt").unlink()
    out = tmp_path / "out"
    with pytest.raises(ModelError, match=r"vocab\.txt"):
        convert_bert_folder(folder, out / "tiny.gguf", name="tiny")
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        pytest.param(lambda f: (f / "config.json").unlink(), "config.json", id="no-config"),
        pytest.param(
            lambda f: (f / "1_Pooling" / "config.json").unlink(), "config.json", id="no-pooling"
        ),
        pytest.param(
            lambda f: (f / "1_Pooling" / "config.json").write_text(
                '{"pooling_mode_max_tokens": true}'
            ),
            "pooling",
            id="max-pooling",
        ),
        pytest.param(
            lambda f: (f / "config.json").write_text('{"model_type": "nomic_bert"}'),
            "not BERT",
            id="not-bert",
        ),
        pytest.param(
            lambda f: (f / "vocab.txt").write_text("a\nb\n"), "special token", id="no-specials"
        ),
        pytest.param(
            lambda f: (f / "model.safetensors").unlink(), "model.safetensors", id="no-weights"
        ),
    ],
)
def test_unusable_folders_raise_model_error(tmp_path: Path, edit: Any, message: str) -> None:
    folder = make_bert_folder(tmp_path)
    edit(folder)
    with pytest.raises(ModelError, match=message):
        convert_bert_folder(folder, tmp_path / "tiny.gguf", name="tiny")
    assert not (tmp_path / "tiny.gguf").exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(
            lambda w: w.update(
                {"encoder.layer.0.intermediate.dense.weight": np.zeros((FFN, FFN), np.float32)}
            ),
            "shape",
            id="wrong-shape",
        ),
        pytest.param(
            lambda w: w.pop("encoder.layer.1.output.LayerNorm.bias"), "missing", id="missing-tensor"
        ),
        pytest.param(
            lambda w: w.update(
                {"encoder.layer.0.attention.self.rotary.weight": np.zeros(2, np.float32)}
            ),
            "Unexpected tensor",
            id="unknown-tensor",
        ),
        pytest.param(
            lambda w: w.update({"encoder.layer.2.output.dense.bias": np.zeros(HIDDEN, np.float32)}),
            "unexpected",
            id="extra-layer",
        ),
    ],
)
def test_weights_that_do_not_fit_the_config_raise_model_error(
    tmp_path: Path, change: Any, message: str
) -> None:
    weights = tiny_weights()
    change(weights)
    folder = make_bert_folder(tmp_path, weights=weights)
    with pytest.raises(ModelError, match=message):
        convert_bert_folder(folder, tmp_path / "tiny.gguf", name="tiny")
    assert not (tmp_path / "tiny.gguf").exists()


def test_a_failure_while_writing_removes_the_partial_file_and_keeps_the_old_one(
    tmp_path: Path,
) -> None:
    """A value that overflows F16 is only found while tensors are written, after the file is opened."""
    weights = tiny_weights()
    weights["encoder.layer.1.output.dense.weight"][0, 0] = 1e6  # > 65504, the largest F16
    folder = make_bert_folder(tmp_path, weights=weights)
    out = tmp_path / "out"
    out.mkdir()
    (out / "tiny.gguf").write_bytes(b"previous model")
    with pytest.raises(ModelError, match="F16"):
        convert_bert_folder(folder, out / "tiny.gguf", name="tiny")
    assert [p.name for p in out.iterdir()] == ["tiny.gguf"]
    assert (out / "tiny.gguf").read_bytes() == b"previous model"


def test_vocab_lines_split_on_newlines_only(tmp_path: Path) -> None:
    """U+2028 is a line break for str.splitlines but an ordinary character in a WordPiece vocabulary."""
    folder = make_bert_folder(tmp_path)
    vocab = [*VOCAB[:-1], "a\u2028b"]
    (folder / "vocab.txt").write_text("\r\n".join(vocab) + "\r\n", encoding="utf-8")
    result = convert_bert_folder(folder, tmp_path / "tiny.gguf", name="tiny")
    tokens = field(gguf.GGUFReader(result.path), "tokenizer.ggml.tokens")
    assert len(tokens) == len(VOCAB)
    assert tokens[-1] == "▁a\u2028b"
