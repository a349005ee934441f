"""A tiny synthetic BERT sentence-transformers folder (2 layers, hidden size 8), written with numpy
and a minimal safetensors writer: for converter tests, and as a model that fails the self-test."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import numpy as np

HIDDEN, LAYERS, HEADS, FFN, POSITIONS = 8, 2, 2, 16, 16
VOCAB = [
    "[PAD]", "[unused0]", "[UNK]", "[CLS]", "[SEP]", "[MASK]",
    "hello", "world", "play", "the", ",", "!", "##s", "##ing", "##b", "a",
]  # fmt: skip
LAYER_WEIGHTS = {  # Hugging Face module -> (GGUF name, weight shape)
    "attention.self.query": ("attn_q", (HIDDEN, HIDDEN)),
    "attention.self.key": ("attn_k", (HIDDEN, HIDDEN)),
    "attention.self.value": ("attn_v", (HIDDEN, HIDDEN)),
    "attention.output.dense": ("attn_output", (HIDDEN, HIDDEN)),
    "attention.output.LayerNorm": ("attn_output_norm", (HIDDEN,)),
    "intermediate.dense": ("ffn_up", (FFN, HIDDEN)),
    "output.dense": ("ffn_down", (HIDDEN, FFN)),
    "output.LayerNorm": ("layer_output_norm", (HIDDEN,)),
}
SAFETENSORS_CODES = {np.dtype("<f4"): "F32", np.dtype("<f2"): "F16", np.dtype("<i8"): "I64"}


def write_safetensors(
    path: Path, tensors: dict[str, np.ndarray], *, bf16: frozenset[str] = frozenset()
) -> None:
    """Write a real .safetensors file; names in ``bf16`` hold uint16 bit patterns stored as BF16."""
    header: dict[str, Any] = {"__metadata__": {"format": "pt"}}
    blobs, offset = [], 0
    for name, array in tensors.items():
        blob = np.ascontiguousarray(array).tobytes()
        code = "BF16" if name in bf16 else SAFETENSORS_CODES[array.dtype]
        header[name] = {
            "dtype": code,
            "shape": list(array.shape),
            "data_offsets": [offset, offset + len(blob)],
        }
        blobs.append(blob)
        offset += len(blob)
    raw = json.dumps(header).encode()
    raw += b" " * (-len(raw) % 8)  # the reference writer pads the header to 8 bytes with spaces
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b"".join(blobs))


def tiny_weights(seed: int = 0) -> dict[str, np.ndarray]:
    """Random BERT weights, including the tensors the converter must drop (pooler, position_ids)."""
    rng = np.random.default_rng(seed)

    def rand(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32)

    weights = {
        "embeddings.position_ids": np.arange(POSITIONS, dtype=np.int64)[None, :],
        "embeddings.word_embeddings.weight": rand(len(VOCAB), HIDDEN),
        "embeddings.position_embeddings.weight": rand(POSITIONS, HIDDEN),
        "embeddings.token_type_embeddings.weight": rand(2, HIDDEN),
        "embeddings.LayerNorm.weight": rand(HIDDEN),
        "embeddings.LayerNorm.bias": rand(HIDDEN),
        "pooler.dense.weight": rand(HIDDEN, HIDDEN),
        "pooler.dense.bias": rand(HIDDEN),
    }
    for layer in range(LAYERS):
        for module, (_, shape) in LAYER_WEIGHTS.items():
            weights[f"encoder.layer.{layer}.{module}.weight"] = rand(*shape)
            weights[f"encoder.layer.{layer}.{module}.bias"] = rand(shape[0])
    return weights


def make_bert_folder(
    root: Path, *, weights: dict[str, np.ndarray] | None = None, pooling: str = "mean"
) -> Path:
    folder = root / "tiny-bert"
    (folder / "1_Pooling").mkdir(parents=True)
    config = {
        "architectures": ["BertModel"], "model_type": "bert", "hidden_act": "gelu",
        "hidden_size": HIDDEN, "num_hidden_layers": LAYERS, "num_attention_heads": HEADS,
        "intermediate_size": FFN, "max_position_embeddings": POSITIONS, "type_vocab_size": 2,
        "vocab_size": len(VOCAB), "layer_norm_eps": 1e-12, "position_embedding_type": "absolute",
    }  # fmt: skip
    (folder / "config.json").write_text(json.dumps(config))
    (folder / "1_Pooling" / "config.json").write_text(
        json.dumps(
            {
                "pooling_mode_mean_tokens": pooling == "mean",
                "pooling_mode_cls_token": pooling == "cls",
            }
        )
    )
    (folder / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 12}))
    (folder / "tokenizer_config.json").write_text(json.dumps({"do_lower_case": True}))
    (folder / "vocab.txt").write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    write_safetensors(folder / "model.safetensors", tiny_weights() if weights is None else weights)
    return folder
