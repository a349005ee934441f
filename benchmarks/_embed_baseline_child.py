"""One benchmark-only embedding baseline, in a process of its own (run by ``embed_baselines.py``
with the Python of a separate environment that has torch, sentence-transformers and onnxruntime;
none of them is a dependency of the product).

    PYTHON _embed_baseline_child.py ENGINE MODEL_DIR TEXTS_JSON THREADS

``ENGINE`` is ``torch`` (sentence-transformers on PyTorch) or ``onnx`` (the same weights exported
with ``torch.onnx.export`` and run by ONNX Runtime; tokenizer, mean pooling and normalising as
sentence-transformers does them). It loads the model, warms up, prints ``ready``, then for each
line ``round`` on stdin embeds all texts in batches of 32 and prints the round's chunks/s; for
``vectors`` it prints the first texts' vectors (to compare with the product's); ``quit`` ends it.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

BATCH = 32
MAX_TOKENS = 256


def torch_engine(model_dir: Path, threads: int) -> Any:
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(threads)
    model = SentenceTransformer(str(model_dir), device="cpu")
    model.max_seq_length = MAX_TOKENS

    def embed(texts: list[str]) -> np.ndarray:
        with torch.inference_mode():
            return np.asarray(
                model.encode(texts, batch_size=BATCH, normalize_embeddings=True),
                dtype=np.float32,
            )

    return embed


def onnx_engine(model_dir: Path, threads: int) -> Any:
    import onnxruntime as ort
    import torch
    from transformers import AutoModel, AutoTokenizer

    torch.set_num_threads(threads)
    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    inner = AutoModel.from_pretrained(str(model_dir)).eval()

    class Bert(torch.nn.Module):
        """The model with its inputs by name (its forward's positions vary between versions)."""

        def __init__(self) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, ids: Any, mask: Any, types: Any) -> Any:
            output = self.inner(input_ids=ids, attention_mask=mask, token_type_ids=types)
            return output.last_hidden_state

    bert = Bert().eval()
    path = Path(tempfile.mkdtemp(prefix="kortty-onnx-")) / "model.onnx"
    sample = tokenizer(["a b c", "d"], padding=True, return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    dynamic = {name: {0: "batch", 1: "tokens"} for name in names}
    dynamic["last_hidden_state"] = {0: "batch", 1: "tokens"}
    with torch.no_grad():
        torch.onnx.export(
            bert,
            tuple(sample[name] for name in names),
            str(path),
            input_names=names,
            output_names=["last_hidden_state"],
            dynamic_axes=dynamic,
            opset_version=17,
            dynamo=False,
        )
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def embed(texts: list[str]) -> np.ndarray:
        # as sentence-transformers does: longest first, so each batch pads little
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        out = np.empty((len(texts), 384), dtype=np.float32)
        for first in range(0, len(order), BATCH):
            part = order[first : first + BATCH]
            encoded = tokenizer(
                [texts[i] for i in part],
                padding=True,
                truncation=True,
                max_length=MAX_TOKENS,
                return_tensors="np",
            )
            feeds = {name: encoded[name].astype(np.int64) for name in names}
            hidden = session.run(None, feeds)[0]
            mask = feeds["attention_mask"][..., None].astype(np.float32)
            pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
            pooled /= np.linalg.norm(pooled, axis=1, keepdims=True)
            out[part] = pooled
        return out

    return embed


def main() -> None:
    engine, model_dir, texts_file, threads = sys.argv[1:5]
    texts: list[str] = json.loads(Path(texts_file).read_text(encoding="utf-8"))
    make = torch_engine if engine == "torch" else onnx_engine
    embed = make(Path(model_dir), int(threads))
    embed(texts[:BATCH])  # warm up
    print("ready", flush=True)
    for line in sys.stdin:
        command = line.strip()
        if command == "round":
            started = time.perf_counter()
            for first in range(0, len(texts), BATCH):
                embed(texts[first : first + BATCH])
            print(f"{len(texts) / (time.perf_counter() - started):.4f}", flush=True)
        elif command == "vectors":
            print(json.dumps(embed(texts[:BATCH]).tolist()), flush=True)
        else:
            break


if __name__ == "__main__":
    main()
