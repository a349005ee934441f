"""``open_llama`` turns llama.cpp's weight repacking off exactly where its AMX kernels crash, for the
one construction, and leaves llama-cpp-python's defaults as they were (fakes for the module; the
real crash and its fix are exercised by tests/integration/test_ask.py on a CPU with AMX)."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest

from kortty_rag.embedding.llama import open_llama


class Params:
    def __init__(self) -> None:
        self.use_extra_bufts = True


def fake_llama_cpp(
    monkeypatch: pytest.MonkeyPatch, system_info: bytes, *, fail: bool = False
) -> Any:
    low = types.ModuleType("llama_cpp.llama_cpp")
    low.llama_model_default_params = Params  # type: ignore[attr-defined]
    high = types.ModuleType("llama_cpp.llama")
    high.llama_cpp = low  # type: ignore[attr-defined]
    package = types.ModuleType("llama_cpp")

    class Llama:
        def __init__(self, **kwargs: Any) -> None:
            if fail:
                raise ValueError("not a GGUF file")
            self.kwargs = kwargs
            self.model_params = low.llama_model_default_params()  # type: ignore[attr-defined]

    package.Llama = Llama  # type: ignore[attr-defined]
    package.llama = high  # type: ignore[attr-defined]
    package.llama_print_system_info = lambda: system_info  # type: ignore[attr-defined]
    package.llama_log_callback = lambda f: f  # type: ignore[attr-defined]
    package.llama_log_set = lambda *args: None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "llama_cpp", package)
    monkeypatch.setitem(sys.modules, "llama_cpp.llama", high)
    monkeypatch.setitem(sys.modules, "llama_cpp.llama_cpp", low)
    monkeypatch.setattr("kortty_rag.embedding.llama._log_callbacks", [object()])
    return low


AMX = b"CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 1 | AMX_INT8 = 1 | REPACK = 1 | "
NO_AMX = b"CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 1 | REPACK = 1 | "


def test_with_amx_the_model_loads_without_extra_buffer_types(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    low = fake_llama_cpp(monkeypatch, AMX)
    llama = open_llama(model_path="m.gguf", n_ctx=512)
    assert llama.kwargs == {"model_path": "m.gguf", "n_ctx": 512}
    assert llama.model_params.use_extra_bufts is False
    assert low.llama_model_default_params is Params  # restored for everyone else
    assert Params().use_extra_bufts is True


def test_without_amx_nothing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_llama_cpp(monkeypatch, NO_AMX)
    assert open_llama(model_path="m.gguf").model_params.use_extra_bufts is True


def test_a_failed_load_restores_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    low = fake_llama_cpp(monkeypatch, AMX, fail=True)
    with pytest.raises(ValueError, match="not a GGUF"):
        open_llama(model_path="broken.gguf")
    assert low.llama_model_default_params is Params
