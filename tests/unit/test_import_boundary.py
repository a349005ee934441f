"""The Qt rule: only ``kortty_rag.gui`` imports PySide6; the core works headless."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import importlib, pkgutil, sys
import kortty_rag
for info in pkgutil.walk_packages(kortty_rag.__path__, "kortty_rag."):
    if info.name.startswith("kortty_rag.gui") or info.name == "kortty_rag.__main__":
        continue
    importlib.import_module(info.name)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {"PySide6", "shiboken6"})
print(",".join(loaded))
"""


def test_core_imports_without_qt() -> None:
    result = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, check=False, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_core_does_not_load_llama_cpp_until_asked() -> None:
    code = "import sys, kortty_rag.cli, kortty_rag.sync.session; print('llama_cpp' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    assert result.stdout.strip() == "False"
