"""The BF16 copy of an F16 model (``embedding/bf16_copy.py``) on the real starter model: llama.cpp's
quantizer writes it beside the F16 file, the gguf library reads its matrices back as BF16, and its
vectors are the F16 file's to a cosine of 0.999; a stale record writes it again; a failing
quantizer and the switch leave the F16 file in use. Whether this CPU multiplies BF16 natively is
set by each test, so they run the same on any CPU (llama.cpp reads BF16 everywhere)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kortty_rag.embedding import bf16_copy
from kortty_rag.embedding.bf16_copy import COPY_FILE, COPY_RECORD, SWITCH, weights_for
from kortty_rag.embedding.installed import InstalledModel, install_file
from kortty_rag.embedding.llama import LlamaEmbedder, import_llama_cpp

TEXTS = [
    "Tomatoes need six hours of sun and evenly moist soil.",
    "The harbour master posts the tide tables every Monday.",
    "Bake the loaf at 220 degrees until it sounds hollow.",
    "A short one.",
]


@pytest.fixture
def model(starter_model: InstalledModel, monkeypatch: pytest.MonkeyPatch) -> InstalledModel:
    """The starter model without a copy yet, on a CPU said to multiply BF16 natively."""
    for name in (COPY_FILE, COPY_RECORD):
        (starter_model.folder / name).unlink(missing_ok=True)  # a link: the cache keeps its own
    monkeypatch.setattr(bf16_copy, "native_bf16", lambda llama_cpp: True)
    monkeypatch.delenv(SWITCH, raising=False)
    return starter_model


def tensor_types(path: Path) -> set[str]:
    import gguf

    return {tensor.tensor_type.name for tensor in gguf.GGUFReader(str(path), "r").tensors}


def test_the_copy_is_bf16_and_embeds_as_the_f16_file_does(
    model: InstalledModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = weights_for(model, import_llama_cpp())
    assert copy == model.folder / COPY_FILE and copy.is_file()
    assert "BF16" in tensor_types(copy) and "F16" not in tensor_types(copy)
    assert "F16" in tensor_types(model.path)  # the model's own file is untouched
    record = json.loads((model.folder / COPY_RECORD).read_text(encoding="utf-8"))
    assert record["source_sha256"] == model.sha256 and record["size"] == copy.stat().st_size
    assert not [p for p in model.folder.iterdir() if p.name.endswith(".tmp")]

    fast = LlamaEmbedder(model)
    monkeypatch.setenv(SWITCH, "0")
    plain = LlamaEmbedder(model)
    try:
        assert fast._llama.model_path == str(copy)
        assert plain._llama.model_path == str(model.path)
        assert fast.identity == plain.identity  # the store's model is the F16 file either way
        a, b = fast.embed_documents(TEXTS), plain.embed_documents(TEXTS)
        assert float(np.min(np.sum(a * b, axis=1))) > 0.999
        assert not np.array_equal(a, b)  # another file really was used
        query = fast.embed_query("When are the tide tables posted?")
        assert int(np.argmax(b @ query)) == 1
    finally:
        fast.close()
        plain.close()


def test_a_stale_copy_is_written_again(model: InstalledModel) -> None:
    llama_cpp = import_llama_cpp()
    copy = weights_for(model, llama_cpp)
    record = model.folder / COPY_RECORD
    record.write_text(json.dumps({"source_sha256": "0" * 64, "size": 1}), encoding="utf-8")
    copy.write_bytes(b"not a model")
    assert weights_for(model, llama_cpp) == copy
    assert "BF16" in tensor_types(copy)
    assert json.loads(record.read_text(encoding="utf-8"))["source_sha256"] == model.sha256


def test_a_copy_llama_cpp_cannot_load_is_removed_and_the_f16_file_loaded(
    model: InstalledModel,
) -> None:
    copy = weights_for(model, import_llama_cpp())
    copy.write_bytes(b"GGUF" + bytes(copy.stat().st_size - 4))  # damaged, its size as recorded
    assert weights_for(model, import_llama_cpp()) == copy  # the record still matches
    embedder = LlamaEmbedder(model)
    try:
        assert embedder._llama.model_path == str(model.path)
        assert embedder.embed_documents(TEXTS[:1]).shape == (1, 384)
    finally:
        embedder.close()
    assert not copy.exists() and not (model.folder / COPY_RECORD).exists()
    assert weights_for(model, import_llama_cpp()) == copy and "BF16" in tensor_types(copy)


def test_installing_the_file_again_removes_the_copy(model: InstalledModel, tmp_path: Path) -> None:
    weights_for(model, import_llama_cpp())
    again = tmp_path / "model.gguf"
    again.write_bytes(model.path.read_bytes())
    install_file(again, model.id)
    assert not (model.folder / COPY_FILE).exists()
    assert not (model.folder / COPY_RECORD).exists()
    assert (model.folder / "model.gguf").is_file()


class FakeLlamaCpp:
    def __init__(self, info: bytes) -> None:
        self.info = info

    def llama_print_system_info(self) -> bytes:
        return self.info


def test_native_bf16_is_read_from_llama_cpps_system_info() -> None:
    with_bf16 = b"CPU : AVX2 = 1 | AVX512 = 1 | AVX512_VNNI = 1 | AVX512_BF16 = 1 | OPENMP = 1 |"
    without = b"CPU : AVX2 = 1 | AVX512 = 1 | AVX512_BF16 = 0 | OPENMP = 1 |"
    assert bf16_copy.native_bf16(FakeLlamaCpp(with_bf16))
    assert not bf16_copy.native_bf16(FakeLlamaCpp(without))
    assert not bf16_copy.native_bf16(FakeLlamaCpp(b"CPU : NEON = 1 | ARM_FMA = 1 |"))


class FailingQuantizer:
    """llama_cpp as it is, but its quantizer fails."""

    def __init__(self, llama_cpp: Any) -> None:
        self._llama_cpp = llama_cpp

    def __getattr__(self, name: str) -> Any:
        return getattr(self._llama_cpp, name)

    def llama_model_quantize(self, *args: Any) -> int:
        return 1


def test_a_failed_copy_leaves_the_f16_file_in_use(
    model: InstalledModel, caplog: pytest.LogCaptureFixture
) -> None:
    assert weights_for(model, FailingQuantizer(import_llama_cpp())) == model.path
    assert sorted(p.name for p in model.folder.iterdir()) == sorted(
        ["model.gguf", "model.json", "LICENSE", "NOTICE"]
    )
    assert "no BF16 copy" in caplog.text


def test_the_switch_and_a_cpu_without_bf16_use_the_f16_file(
    model: InstalledModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    llama_cpp = import_llama_cpp()
    monkeypatch.setenv(SWITCH, "0")
    assert weights_for(model, llama_cpp) == model.path
    monkeypatch.delenv(SWITCH)
    monkeypatch.setattr(bf16_copy, "native_bf16", lambda llama_cpp: False)
    assert weights_for(model, llama_cpp) == model.path
    assert not (model.folder / COPY_FILE).exists()
