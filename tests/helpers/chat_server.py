"""``python -m llama_cpp.server`` for the tests, safe on CPUs with AMX.

llama.cpp's AMX weight repacking segfaults at the first decode of a quantized model on such CPUs
(ggml-org/llama.cpp#20824; the product turns it off in ``kortty_rag.embedding.llama.open_llama``).
The server has no option for it, so this wrapper changes llama.cpp's default model parameters for
the whole (single-purpose) server process, then runs the server's own entry point with the same
arguments. On a CPU without AMX it changes nothing.

Run as ``python -m tests.helpers.chat_server --model FILE --host 127.0.0.1 --port N …``.
"""

from __future__ import annotations

from typing import Any


def main() -> None:
    import llama_cpp
    import llama_cpp.llama as high_level
    from llama_cpp.server.__main__ import main as serve

    if b"AMX_INT8 = 1" in llama_cpp.llama_print_system_info():
        low_level = high_level.llama_cpp
        defaults = low_level.llama_model_default_params

        def without_repacking() -> Any:
            params = defaults()
            params.use_extra_bufts = False
            return params

        low_level.llama_model_default_params = without_repacking
    serve()


if __name__ == "__main__":
    main()
