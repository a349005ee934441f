"""The Qt rule: only ``kortty_rag.gui`` imports PySide6; the core works headless."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

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


ANSWER_WITHOUT_THE_CORE = """
import contextlib, io, sys
from kortty_rag.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    for argv in (["--version"], ["--help"], ["search", "--help"], ["store", "create"]):
        with contextlib.suppress(SystemExit):
            main(argv)
heavy = ("numpy", "hnswlib", "llama_cpp", "watchdog", "kortty_rag.app", "kortty_rag.index",
         "kortty_rag.retrieval", "kortty_rag.sync", "kortty_rag.config", "kortty_rag.embedding",
         "kortty_rag.cli.stores_cmd")
# the parser's fixed choices (profile presets, request kinds, the watcher's quiet time) come from
# the one module of the application layer that loads nothing of it
light = {"kortty_rag.app", "kortty_rag.app.choices"}
print(",".join(sorted(m for m in sys.modules if m.startswith(heavy) and m not in light)))
"""


def test_version_help_and_usage_errors_answer_without_loading_the_core() -> None:
    # what makes `kortty-rag --version` instant: only the chosen command's module loads the core
    result = subprocess.run(
        [sys.executable, "-c", ANSWER_WITHOUT_THE_CORE],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert result.stdout.strip() == ""


def test_a_command_loads_what_it_needs() -> None:
    code = (
        "import sys, contextlib, io\nfrom kortty_rag.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    main(['doctor', '--json'])\n"
        "print('kortty_rag.app.workspace' in sys.modules, 'kortty_rag.cli.doctor_cmd' in sys.modules)"
    )
    env = {**os.environ, "KORTTY_HOME": tempfile.mkdtemp(prefix="kortty-cli-")}
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert result.stdout.strip().splitlines()[-1] == "True True", result.stderr
