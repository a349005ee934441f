"""The symlinked-parent attack through the real CLI with the real starter model.

``linkparent → victimhome``; adding ``linkparent/docs`` is refused (with the real path to add instead).
A root added by its real path is pinned: when ``victimhome`` is later replaced by a link to ``other``,
``source refresh`` marks the source ERROR with the reason, indexes nothing of ``other/docs``, and search
keeps serving the previous snapshot.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from kortty_rag.embedding.installed import InstalledModel

NOTE = "Volcanoes erupt when magma rises through the crust and pressure is released."
SECRET = "The quasiperiodic zorblat passphrase of the other account is hunter2."


def test_a_swapped_parent_is_refused_and_the_old_snapshot_keeps_serving(
    run_cli: Any, starter_model: InstalledModel, tmp_path: Path
) -> None:
    victim, other = tmp_path / "victimhome", tmp_path / "other"
    for home, text in ((victim, NOTE), (other, SECRET)):
        (home / "docs").mkdir(parents=True)
        (home / "docs" / "note.txt").write_text(text)
    link = tmp_path / "linkparent"
    link.symlink_to(victim, target_is_directory=True)
    assert run_cli("store", "create", "Pinned", "--model", starter_model.id).returncode == 0

    refused = run_cli("source", "add", "Pinned", str(link / "docs"), "--yes")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert f"lies under the symbolic link {link}" in refused.stderr
    real_docs = os.path.realpath(victim / "docs")
    assert f"what to do: Add the real path instead: {real_docs}" in refused.stderr

    added = run_cli("source", "add", "Pinned", real_docs, "--yes", "--json")
    assert added.returncode == 0, added.stderr
    (source,) = json.loads(run_cli("source", "list", "Pinned", "--json").stdout)
    assert source["real_path"] == real_docs and source["status"] == "READY"

    victim.rename(tmp_path / "victimhome.moved")  # the attacker swaps the parent for a link
    victim.symlink_to(other, target_is_directory=True)
    refreshed = run_cli("source", "refresh", "Pinned", "--yes", "--json")
    assert refreshed.returncode == 0, refreshed.stderr
    (source,) = json.loads(run_cli("source", "list", "Pinned", "--json").stdout)
    assert source["status"] == "ERROR"
    assert f"now leads to {os.path.realpath(other / 'docs')}" in source["status_reason"]
    assert source["counts"]["files"] == 1  # the old counts (and chunks) are kept

    # no relevance floor: the old note is not about the secret, but must still be served
    searched = run_cli("search", "Pinned", "zorblat passphrase", "--json", "--min-relevance", "off")
    found = json.loads(searched.stdout)
    assert "zorblat" not in found["block"]
    assert "magma" in found["block"]  # the previous snapshot still serves
