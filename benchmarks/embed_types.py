"""The starter model's weight types and batch sizes on this CPU: chunks/s and SciFact nDCG@10.

The installed starter model is F16 (matrices; norms and embeddings F32). llama.cpp's own quantizer
(``llama_model_quantize``) writes it as F32, BF16, Q8_0, Q5_0 and Q4_0; each file is embedded
through the product's ``LlamaEmbedder``:

* **throughput**: chunks/s over the same SciFact abstracts (cut to the model's 256 tokens, batches of
  32, as the pipeline embeds), the types taking turns, :data:`ROUNDS` rounds; and F16 at other
  physical batch sizes (tokens per decode: several chunks are packed into one decode);
* **quality**: dense-only nDCG@10 and Recall@100 on SciFact's dev queries (every abstract one
  vector, exact cosine search with numpy), so a faster type's cost is measured, not assumed.

Measured on an idle machine; a busy one lowers every rate alike (the ratios stay comparable, as
they are measured in turns).

    .venv/bin/python benchmarks/embed_types.py [BEIR_DIR] [--chunks 256] [--no-quality]
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _beir import DEFAULT_BEIR, read_qrels, read_queries
from beir_eval import ndcg_at, recall_at

#: (name, llama.cpp's file type constant; None: the installed file as it is)
TYPES: list[tuple[str, str | None]] = [
    ("F16", None),
    ("F32", "LLAMA_FTYPE_ALL_F32"),
    ("BF16", "LLAMA_FTYPE_MOSTLY_BF16"),
    ("Q8_0", "LLAMA_FTYPE_MOSTLY_Q8_0"),
    ("Q5_0", "LLAMA_FTYPE_MOSTLY_Q5_0"),
    ("Q4_0", "LLAMA_FTYPE_MOSTLY_Q4_0"),
]
BATCH_TOKENS = [256, 512, 1024, 2048]
ROUNDS = 2


def quantize(llama_cpp: Any, source: Path, target: Path, ftype: str) -> None:
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = getattr(llama_cpp, ftype)
    params.nthread = os.cpu_count() or 1
    failed = llama_cpp.llama_model_quantize(
        str(source).encode(), str(target).encode(), ctypes.byref(params)
    )
    if failed:
        raise SystemExit(f"llama_model_quantize failed for {ftype} ({failed})")


def rate(embedder: Any, texts: list[str]) -> float:
    started = time.perf_counter()
    for first in range(0, len(texts), 32):
        embedder.embed_documents(texts[first : first + 32])
    return len(texts) / (time.perf_counter() - started)


def quality(embedder: Any, dataset: Path) -> tuple[float, float]:
    docs = [json.loads(line) for line in (dataset / "corpus.jsonl").open(encoding="utf-8")]
    ids = [str(d["_id"]) for d in docs]
    texts = [f"{d.get('title', '')}\n{d['text']}" for d in docs]
    vectors = np.concatenate(
        [embedder.embed_documents(texts[i : i + 32]) for i in range(0, len(texts), 32)]
    )
    qrels = read_qrels(dataset)
    queries = read_queries(dataset)
    ndcg, recall = [], []
    for qid, relevant in qrels.items():
        scores = vectors @ embedder.embed_query(queries[qid])
        order = np.argsort(-scores)[:100]
        ranking = [ids[i] for i in order]
        ndcg.append(ndcg_at(ranking, relevant))
        recall.append(recall_at(ranking, relevant))
    return float(np.mean(ndcg)), float(np.mean(recall))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", type=Path, default=DEFAULT_BEIR)
    parser.add_argument("--chunks", type=int, default=256, help="abstracts per throughput round")
    parser.add_argument("--no-quality", action="store_true", help="skip the nDCG@10 runs")
    parser.add_argument(
        "--no-throughput", action="store_true", help="only the nDCG@10 runs (any load will do)"
    )
    parser.add_argument("--types", help="only these types, e.g. F16,Q8_0 (F16 is always measured)")
    args = parser.parse_args()
    chosen = {"F16", *(args.types.split(",") if args.types else [n for n, _ in TYPES])}
    work = Path(tempfile.mkdtemp(prefix="kortty-embed-types-"))
    os.environ["KORTTY_HOME"] = str(work / "home")
    os.environ["KORTTY_EMBED_BF16"] = "0"  # each file as it is written (embedding/bf16_copy.py)

    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.installed import get_model, list_models
    from kortty_rag.embedding.llama import LlamaEmbedder, import_llama_cpp

    llama_cpp = import_llama_cpp()
    installed = any(m.id == STARTER_ID for m in list_models())
    model = get_model(STARTER_ID) if installed else install_starter()
    embedders: dict[str, Any] = {}
    sizes: dict[str, int] = {}
    for name, ftype in [(n, f) for n, f in TYPES if n in chosen]:
        folder = work / name
        folder.mkdir()
        if ftype is None:
            os.link(model.path, folder / model.path.name)
        else:
            quantize(llama_cpp, model.path, folder / model.path.name, ftype)
        sizes[name] = (folder / model.path.name).stat().st_size
        embedders[name] = LlamaEmbedder(replace(model, folder=folder, sha256=name))
    batches = {
        b: LlamaEmbedder(model, batch_tokens=b)
        for b in BATCH_TOKENS
        if b != 512 and not args.no_throughput
    }

    docs = [json.loads(line) for line in (args.dataset / "corpus.jsonl").open(encoding="utf-8")]
    texts = [f"{d.get('title', '')}\n{d['text']}" for d in docs[: args.chunks]]
    for embedder in [*embedders.values(), *batches.values()]:
        embedder.embed_documents(texts[:32])  # warm up
    rates: dict[str, list[float]] = {name: [] for name in [*embedders, *map(str, batches)]}
    for _ in range(0 if args.no_throughput else ROUNDS):
        for name, embedder in embedders.items():
            rates[name].append(rate(embedder, texts))
        for size, embedder in batches.items():
            rates[str(size)].append(rate(embedder, texts))
    base = float(np.mean(rates["F16"])) if rates["F16"] else float("nan")
    print(f"{os.cpu_count()} CPUs, {len(texts)} SciFact abstracts per round, {ROUNDS} rounds")
    print(f"{'type':<7}{'MiB':>6}{'chunks/s':>10}{'x F16':>7}{'nDCG@10':>9}{'R@100':>8}")
    reference: float | None = None
    for name, embedder in embedders.items():
        mean = float(np.mean(rates[name])) if rates[name] else float("nan")
        line = f"{name:<7}{sizes[name] / 2**20:6.1f}{mean:10.1f}{mean / base:7.2f}"
        if not args.no_quality:
            ndcg, recall = quality(embedder, args.dataset)
            reference = ndcg if reference is None else reference
            line += f"{ndcg:9.4f}{recall:8.4f}  ({ndcg - reference:+.4f} vs F16)"
        print(line, flush=True)
    print("F16 at other physical batch sizes (tokens per decode; the product uses 512):")
    for size in batches:
        mean = float(np.mean(rates[str(size)]))
        print(f"  {size:>5}: {mean:6.1f} chunks/s ({mean / base:.2f}x of 512)")


if __name__ == "__main__":
    main()
