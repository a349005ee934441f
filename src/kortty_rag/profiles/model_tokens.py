"""A local chat model's own control tokens, read from its GGUF file (docs/DESIGN.md §12).

``ask`` with a llama.cpp profile neutralises, besides the bundled catalogue's tokens
(:mod:`kortty_rag.retrieval.chat_tokens`), the tokens of the model that will read the block: the
markup-shaped CONTROL and USER_DEFINED tokens of its ``tokenizer.ggml.tokens`` /
``tokenizer.ggml.token_type`` and the tokens its ``tokenizer.chat_template`` names.

Only the key-value section at the start of the file is read (a few MB even for a 262,144-token
vocabulary, about 0.1 s), not the tensors: ``gguf.GGUFReader`` builds every field and tensor view of
the whole file, which takes seconds for a large model.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from kortty_rag.retrieval.chat_tokens import (
    CONTROL,
    USER_DEFINED,
    tokens_of_template,
    tokens_of_vocabulary,
)

TOKENS = "tokenizer.ggml.tokens"
TOKEN_TYPES = "tokenizer.ggml.token_type"
CHAT_TEMPLATE = "tokenizer.chat_template"
_MAGIC = b"GGUF"
_STRING, _ARRAY = 8, 9
#: GGUF value types with a fixed size (``enum gguf_type``), as ``struct`` formats
_FIXED = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_MAX_ITEMS = 1 << 24  # no tokenizer has more tokens; a larger count is a damaged file


class GgufFormatError(ValueError):
    """The file is not a GGUF file this reader understands (or is truncated)."""


@dataclass(frozen=True)
class Vocabulary:
    tokens: tuple[str, ...]
    types: tuple[int, ...]
    chat_template: str


class _Reader:
    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle

    def read(self, size: int) -> bytes:
        data = self.handle.read(size)
        if len(data) != size:
            raise GgufFormatError("truncated GGUF metadata")
        return data

    def number(self, fmt: str) -> int:
        value: int = struct.unpack("<" + fmt, self.read(struct.calcsize(fmt)))[0]
        return value

    def string(self) -> bytes:
        return self.read(self.number("Q"))

    def skip(self, kind: int) -> None:
        if kind == _STRING:
            self.handle.seek(self.number("Q"), 1)
        elif kind == _ARRAY:
            inner, count = self.number("I"), self.number("Q")
            if inner == _STRING:
                for _ in range(count):
                    self.handle.seek(self.number("Q"), 1)
            elif inner in _FIXED:
                self.handle.seek(count * struct.calcsize(_FIXED[inner]), 1)
            else:
                raise GgufFormatError(f"unsupported GGUF array of type {inner}")
        elif kind in _FIXED:
            self.handle.seek(struct.calcsize(_FIXED[kind]), 1)
        else:
            raise GgufFormatError(f"unknown GGUF value type {kind}")

    def value(self, kind: int) -> object:
        if kind == _STRING:
            return self.string().decode("utf-8", "replace")
        if kind == _ARRAY:
            inner, count = self.number("I"), self.number("Q")
            if count > _MAX_ITEMS:
                raise GgufFormatError("implausible GGUF array length")
            if inner == _STRING:
                return [self.string().decode("utf-8", "replace") for _ in range(count)]
            if inner not in _FIXED:
                raise GgufFormatError(f"unsupported GGUF array of type {inner}")
            fmt = _FIXED[inner]
            return list(struct.unpack(f"<{count}{fmt}", self.read(count * struct.calcsize(fmt))))
        if kind in _FIXED:
            return self.number(_FIXED[kind])
        raise GgufFormatError(f"unknown GGUF value type {kind}")


def read_vocabulary(handle: BinaryIO) -> Vocabulary:
    """The tokens, token types and chat template in the metadata of the GGUF file ``handle``."""
    reader = _Reader(handle)
    if reader.read(4) != _MAGIC:
        raise GgufFormatError("not a GGUF file")
    reader.number("I")  # version
    reader.number("Q")  # tensor count
    found: dict[str, object] = {}
    for _ in range(reader.number("Q")):
        key = reader.string().decode("utf-8", "replace")
        kind = reader.number("I")
        if key in (TOKENS, TOKEN_TYPES, CHAT_TEMPLATE):
            found[key] = reader.value(kind)
        else:
            reader.skip(kind)
    tokens = found.get(TOKENS, [])
    types = found.get(TOKEN_TYPES, [])
    template = found.get(CHAT_TEMPLATE, "")
    if not isinstance(tokens, list) or not isinstance(types, list):
        raise GgufFormatError("tokenizer metadata of the wrong type")
    return Vocabulary(
        tuple(str(t) for t in tokens),
        tuple(int(t) for t in types),
        template if isinstance(template, str) else "",
    )


def control_tokens(vocabulary: Vocabulary, known: Sequence[str] = ()) -> tuple[str, ...]:
    """The tokens of ``vocabulary`` that may act as structure: its markup-shaped CONTROL tokens, the
    USER_DEFINED ones its chat template names or that look unmistakable, and the tokens its chat
    template names (``known``: tokens known from elsewhere, which a template's plain tag may be)."""
    specials = [
        t
        for t, k in zip(vocabulary.tokens, vocabulary.types, strict=False)
        if k in (CONTROL, USER_DEFINED)
    ]
    named = tokens_of_template(vocabulary.chat_template, [*specials, *known])
    own = tokens_of_vocabulary(vocabulary.tokens, vocabulary.types, named)
    return tuple(dict.fromkeys([*own, *named]))


@functools.lru_cache(maxsize=8)
def _model_tokens(path: Path, size: int, mtime: int) -> tuple[str, ...]:
    with path.open("rb") as handle:
        return control_tokens(read_vocabulary(handle))


def model_tokens(path: Path) -> tuple[str, ...]:
    """The control tokens of the GGUF model at ``path`` (empty when its metadata cannot be read:
    the catalogue still applies, and loading the model reports what is wrong with it)."""
    try:
        stat = path.stat()
        return _model_tokens(path, stat.st_size, stat.st_mtime_ns)
    except (OSError, GgufFormatError, struct.error):
        return ()
