"""llama.cpp's OpenMP threads sleep while they wait, unless the user chose a wait policy.

The oracle is libgomp's own report of what it read when it was loaded (``OMP_DISPLAY_ENV=VERBOSE``):
``GOMP_SPINCOUNT`` is 0 for passive waiting, 300,000 spins for libgomp's default and 30 billion for
``ACTIVE`` (beside another busy program the spinning cost indexing two thirds of its speed;
``benchmarks/fair_share.py``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

LOAD = "from kortty_rag.embedding.llama import import_llama_cpp; import_llama_cpp()"


def spin_count(code: str, policy: str | None) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMP_", "GOMP_"))}
    env["OMP_DISPLAY_ENV"] = "VERBOSE"
    if policy is not None:
        env["OMP_WAIT_POLICY"] = policy
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = re.search(r"GOMP_SPINCOUNT = '(\d+)'", done.stdout + done.stderr)
    assert found, "libgomp did not report its settings"
    return int(found.group(1))


def test_llama_cpp_loaded_by_the_product_waits_passively() -> None:
    assert spin_count("import llama_cpp", None) > 0  # libgomp on its own spins first
    assert spin_count(LOAD, None) == 0


@pytest.mark.parametrize("policy", ["ACTIVE", "active"])
def test_a_wait_policy_the_user_set_is_kept(policy: str) -> None:
    assert spin_count(LOAD, policy) > 10**9
