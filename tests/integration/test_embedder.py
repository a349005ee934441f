"""The llama.cpp embedder on the real starter model: flash attention, pooling from the GGUF, bounded
inputs, batches, the known-answer self-test."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from tests.helpers.tiny_bert import make_bert_folder

from kortty_rag.chunking.splitter import Splitter
from kortty_rag.config.atomic import sha256_file
from kortty_rag.embedding.convert import convert_bert_folder
from kortty_rag.embedding.install import _verify_and_register
from kortty_rag.embedding.installed import InstalledModel, install_file, list_models
from kortty_rag.embedding.llama import LlamaEmbedder
from kortty_rag.embedding.loader import load_embedder
from kortty_rag.embedding.selftest import run_self_test
from kortty_rag.errors import IncompatibleIndexError, ModelError

LONG_TEXT = " ".join(
    f"paragraph {i} talks about rivers, mountains and forests." for i in range(900)
)


def test_runtime_settings_come_from_the_gguf(starter_model: InstalledModel) -> None:
    import llama_cpp

    embedder = LlamaEmbedder(starter_model)
    try:
        llama = embedder._llama
        assert llama.context_params.flash_attn_type == llama_cpp.LLAMA_FLASH_ATTN_TYPE_ENABLED
        assert llama.pooling_type() == llama_cpp.LLAMA_POOLING_TYPE_MEAN
        assert embedder.chunking().budget == 254  # 256 trained tokens minus [CLS] and [SEP]
        assert embedder.chunking().overlap == 38
    finally:
        embedder.close()


def test_inputs_are_bounded_by_the_model_tokenizer(starter_model: InstalledModel) -> None:
    embedder = load_embedder(starter_model.identity())
    assert embedder.count_tokens(LONG_TEXT) > 9000
    tokens = embedder.tokens_for(LONG_TEXT)  # type: ignore[attr-defined]
    full = embedder._llama.tokenize(LONG_TEXT.encode(), add_bos=True, special=False)  # type: ignore[attr-defined]
    assert len(tokens) == 256 and tokens[-1] == full[-1]  # cut, but [SEP] kept
    vectors = embedder.embed_documents([LONG_TEXT, "short text"])
    assert vectors.shape == (2, 384) and np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-4)


def test_an_overlong_input_cannot_abort_the_process(starter_model: InstalledModel) -> None:
    """llama.cpp asserts (SIGABRT) on a sequence longer than the context with n_batch > 512; the
    embedder's bound keeps that from ever happening, even with a huge physical batch."""
    code = textwrap.dedent(
        f"""
        from kortty_rag.embedding.installed import get_model
        from kortty_rag.embedding.llama import LlamaEmbedder
        e = LlamaEmbedder(get_model({starter_model.id!r}), batch_tokens=4096)
        v = e.embed_documents([{LONG_TEXT!r} * 3] * 3)
        print(v.shape)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "(3, 384)"
    # the hazard is real: the same input straight into llama-cpp-python kills the process
    raw = textwrap.dedent(
        f"""
        import llama_cpp
        llm = llama_cpp.Llama({str(starter_model.path)!r}, embedding=True, flash_attn=True,
                              n_ctx=4096, n_batch=4096, n_ubatch=4096, verbose=False)
        llm.embed({LONG_TEXT!r})
        """
    )
    # ggml's abort handler forks a debugger to print a backtrace; that fork can keep the pipes open
    # long after the abort, so the control child is asked not to
    quiet = {**os.environ, "GGML_NO_BACKTRACE": "1"}
    control = subprocess.run(
        [sys.executable, "-c", raw],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=quiet,
    )
    assert control.returncode < 0 or control.returncode == 134


def test_batches_match_single_embeddings(starter_model: InstalledModel) -> None:
    embedder = load_embedder(starter_model.identity())
    texts = [f"Sentence number {i} about topic {i % 7}." * (1 + i % 5) for i in range(40)]
    batched = embedder.embed_documents(texts)
    single = np.stack([embedder.embed_documents([t])[0] for t in texts[:8]])
    assert (np.sum(batched[:8] * single, axis=1) > 0.9999).all()


def test_real_chunks_never_exceed_the_trained_length(starter_model: InstalledModel) -> None:
    embedder = load_embedder(starter_model.identity())
    splitter = Splitter(embedder, embedder.chunking())
    text = Path(__file__).parent.parent.joinpath("data", "corpus", "code", "retry.py").read_text()
    chunks = splitter.split((text + "\n\n" + LONG_TEXT) * 2)
    assert len(chunks) > 10
    for chunk in chunks:
        assert len(embedder.tokens_for(chunk.text)) <= 256  # type: ignore[attr-defined]
        full = embedder._llama.tokenize(chunk.text.encode(), add_bos=True, special=False)  # type: ignore[attr-defined]
        assert len(full) <= 256  # fits without being cut


def test_self_test_passes_on_the_starter_model(starter_model: InstalledModel) -> None:
    result = run_self_test(load_embedder(starter_model.identity()), name="starter")
    assert result.nearest == (1, 0, 3, 2, 5, 4)
    assert result.batch_consistency > 0.999


def test_a_model_that_fails_the_self_test_is_refused_and_removed(tmp_path: Path) -> None:
    converted = convert_bert_folder(make_bert_folder(tmp_path), tmp_path / "tiny.gguf", name="tiny")
    folder = install_file(converted.path, "tiny-random")
    model = InstalledModel(
        id="tiny-random",
        name="tiny random BERT",
        folder=folder,
        sha256=sha256_file(converted.path),
        size=converted.path.stat().st_size,
        architecture="bert",
        dimensions=converted.dimensions,
        pooling=converted.pooling,
        trained_tokens=converted.trained_tokens,
        chunk_tokens=converted.trained_tokens,
        query_prefix="",
        document_prefix="",
        origin="import",
        installed_at="2026-01-01T00:00:00+00:00",
    )
    with pytest.raises(ModelError, match="failed its self-test"):
        _verify_and_register(model, replace=False)
    assert not folder.exists()
    assert [m.id for m in list_models()] == []


def test_a_changed_model_file_is_refused_for_an_existing_store(
    starter_model: InstalledModel,
) -> None:
    identity = starter_model.identity()
    other = type(identity)(**{**identity.to_json(), "model_sha256": "f" * 64})
    with pytest.raises(IncompatibleIndexError, match="differs"):
        load_embedder(other)


def test_one_gguf_installed_twice_keeps_each_installs_limits(starter_model: InstalledModel) -> None:
    """Regression: the process-wide embedder cache was keyed by file hash only, so the starter GGUF
    imported under another id (trained length read from the GGUF: 512) handed its 512-token limit
    to the starter (256) in whichever test ran later."""
    from kortty_rag.embedding.install import import_gguf

    copy = import_gguf(starter_model.path, model_id="minilm-copy")
    assert copy.sha256 == starter_model.sha256 and copy.trained_tokens == 512
    wide = load_embedder(copy.identity())
    narrow = load_embedder(starter_model.identity())
    assert wide is not narrow
    assert len(narrow.tokens_for(LONG_TEXT)) == 256  # type: ignore[attr-defined]
    assert len(wide.tokens_for(LONG_TEXT)) == 512  # type: ignore[attr-defined]


def test_queries_on_fewer_threads_embed_as_documents_do(starter_model: InstalledModel) -> None:
    """A query is embedded with its own thread count, and the documents after it with theirs; the
    vectors do not depend on it (an oracle from a second embedder that never switches)."""
    texts = ["otters hunt along the river at dusk", "a heron waits in the shallow water"]
    switching = LlamaEmbedder(starter_model, n_threads=2, query_threads=1)
    steady = LlamaEmbedder(starter_model, n_threads=2, query_threads=2)
    try:
        before = switching.embed_documents(texts)
        query = switching.embed_query("where do otters hunt?")
        after = switching.embed_documents(texts)
        np.testing.assert_allclose(query, steady.embed_query("where do otters hunt?"), atol=1e-5)
        np.testing.assert_allclose(before, after, atol=1e-6)
        np.testing.assert_allclose(after, steady.embed_documents(texts), atol=1e-5)
        assert switching._current_threads == 2  # back to the documents' count
    finally:
        switching.close()
        steady.close()
