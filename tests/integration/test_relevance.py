"""Retrieval a user can trust, through the real CLI with the real starter model and real files.

- Diversity per document is a preference: eight notes that all answer one question give excerpts
  from at least three of them, and a store that is one long PDF still gets its six excerpts.
- The relevance floor: an unrelated question finds candidates, none is relevant enough, and nothing
  is injected — ``search`` and ``search --json`` say so, ``ask --show-prompt`` sends the plain prompt.
- ``min_relevance`` goes CLI → store.json → search; an invalid level is a usage error.

The floor values are provisional (they are being calibrated); a failure prints the dense scores.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.chat_model import chat_model_path
from tests.helpers.pdfs import text_pdf

from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.models import Role
from kortty_rag.profiles.kinds import Backend
from kortty_rag.profiles.registry import AiProfile, ProfileRegistry
from kortty_rag.retrieval.search import DROP_BELOW_FLOOR, NOTHING_RELEVANT

BACKUP_QUESTION = "how do I rotate the backup keys?"
UNRELATED_QUESTION = "What is the capital of Mongolia?"
BACKUP_NOTES = {
    "rotation-runbook.md": "# Key rotation runbook\n\nTo rotate the backup keys, generate a new "
    "key pair on the vault host, re-encrypt the latest backup set with it, and retire the old key "
    "after one full backup cycle.",
    "quarterly-checklist.md": "# Quarterly checklist\n\nEvery quarter we rotate the encryption "
    "keys used for the nightly backups. Create the new key first, then switch the backup job to it.",
    "restic.md": "# Restic notes\n\nRotating the restic repository key: run `restic key add`, test "
    "a restore with the new key, then `restic key remove` the old one so the backups use only the "
    "new key.",
    "offsite.md": "# Offsite backups\n\nThe offsite backup bucket is encrypted. When the backup key is "
    "rotated, upload the new public key and keep the old private key until old backups expire.",
    "incident-2023.md": "# Incident review\n\nAfter the laptop theft we rotated all backup keys the "
    "same day: new keys for every backup target, and the stolen key was revoked everywhere.",
    "onboarding.md": "# Onboarding for admins\n\nYou will rotate the backup keys twice a year. The "
    "procedure: new key, re-key the backup jobs, verify a restore, destroy the retired key.",
    "faq.md": "# FAQ\n\nQ: How often should backup encryption keys be rotated?\nA: At least yearly, "
    "and at once when someone with access to the backup keys leaves the team.",
    "gpg.md": "# GPG keys for backups\n\nTo replace the GPG key that signs and encrypts the backups, "
    "create a new subkey, update the backup script's recipient, and rotate the key in the keyring.",
}
BAKING_AND_ADMIN_NOTES = {
    "sourdough.md": "# Sourdough\n\nFeed the starter a day ahead so it doubles. Fold the dough every "
    "half hour, proof the loaf overnight in the fridge, and bake it in a preheated cast-iron pot.",
    "croissants.md": "# Croissants\n\nLaminate the butter into the dough with three letter folds, "
    "chilling between folds. Proof until wobbly and bake at 200 °C until deep golden.",
    "pie-crust.md": "# Pie crust\n\nKeep the butter cold, add ice water a spoon at a time, and rest "
    "the dough for an hour before rolling it out. Blind-bake the shell with weights.",
    "nginx.md": "# Reloading nginx\n\nTest the configuration with `nginx -t`, then reload the "
    "service with `systemctl reload nginx` so open connections are not dropped.",
    "disk-space.md": "# Disk space on the build server\n\nWhen the disk fills up, prune old Docker "
    "images, rotate the logs with logrotate, and clear the package cache.",
    "ssh.md": "# SSH access\n\nAdd new admins' public keys to authorized_keys, disable password "
    "logins in sshd_config, and restart sshd after checking the configuration.",
}
#: a 30-page handbook: every third page is about rotating the backup keys, the rest about other things
OTHER_PAGES = [
    "The office kitchen is cleaned on Fridays; please label your food in the fridge.",
    "Parking permits are renewed every January at the front desk.",
    "The printer on the second floor takes A3 paper in tray two.",
    "Holiday requests go through the HR portal at least two weeks ahead.",
    "The guest wifi password changes every Monday and is posted at reception.",
    "Fire drills happen twice a year; the assembly point is the car park.",
    "Plants in the meeting rooms are watered by the facilities team.",
    "Expense reports need receipts scanned as PDF files.",
    "The library corner has novels anyone may borrow for a month.",
    "Bicycles may be stored in the basement rack, not in the corridors.",
]
BACKUP_PAGES = [
    "Rotating the backup keys: generate a new encryption key on the vault host before anything else.",
    "Backup key rotation, step two: re-encrypt the most recent backup set with the new key.",
    "When you rotate the backup keys, keep the old key until every backup made with it has expired.",
    "Backup keys are rotated every quarter; the rotation is recorded in the change log.",
    "After rotating the backup keys, test a restore with the new key on a spare machine.",
    "Rotate the backup keys at once if a laptop holding them is lost or stolen.",
    "The backup job reads its key from the keyring; point it at the rotated key after rotation.",
    "Old backup keys are destroyed only after the rotation has been verified by a second admin.",
    "Backup key rotation for offsite copies: upload the new public key to the offsite bucket.",
    "Checklist for rotating backup keys: new key, re-key jobs, verify restore, retire the old key.",
]


def write_notes(folder: Path, notes: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    for name, text in notes.items():
        (folder / name).write_text(text + "\n", encoding="utf-8")
    return folder


def make_store(run_cli: Any, model: InstalledModel, name: str, path: Path) -> None:
    assert run_cli("store", "create", name, "--model", model.id).returncode == 0
    added = run_cli("source", "add", name, str(path), "--yes")
    assert added.returncode == 0, added.stderr


def search_json(run_cli: Any, *args: str) -> dict[str, Any]:
    result = run_cli("search", *args, "--json")
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def scores(data: dict[str, Any]) -> str:
    """Every candidate's dense score and coverage, for a failure message (the floor is provisional)."""
    rows = [
        f"  {entry.get('reason', 'EXCERPT')}: dense {entry['scores']['dense_score']} coverage "
        f"{entry['scores']['coverage']} {Path(entry['path']).name} page {entry['page']}"
        for entry in data["excerpts"] + data["dropped"]
    ]
    return f"floors {data['relevance']}\n" + "\n".join(rows)


def test_eight_notes_in_one_folder_give_six_excerpts_from_several_files(
    run_cli: Any, starter_model: InstalledModel, tmp_path: Path
) -> None:
    make_store(run_cli, starter_model, "Ops", write_notes(tmp_path / "ops", BACKUP_NOTES))
    data = search_json(run_cli, "Ops", BACKUP_QUESTION)
    files = Counter(Path(e["path"]).name for e in data["excerpts"])
    assert len(data["excerpts"]) == 6, scores(data)
    assert len(files) >= 3 and max(files.values()) <= 2, scores(data)
    assert [e["marker"] for e in data["excerpts"]] == [f"R{n}" for n in range(1, 7)]
    fused = [e["scores"]["fused"] for e in data["excerpts"]]
    assert fused == sorted(fused, reverse=True)
    assert data["note"] is None and data["block"].startswith("<retrieved_context>")


def test_one_long_pdf_still_gets_six_excerpts_from_its_pages(
    run_cli: Any, starter_model: InstalledModel, tmp_path: Path
) -> None:
    pages = [page for pair in zip(OTHER_PAGES, BACKUP_PAGES, strict=True) for page in pair]
    pages += OTHER_PAGES  # 30 pages: every other one of the first twenty is about backup keys
    folder = tmp_path / "handbook"
    folder.mkdir()
    text_pdf(folder / "handbook.pdf", pages)
    make_store(run_cli, starter_model, "Handbook", folder / "handbook.pdf")

    data = search_json(run_cli, "Handbook", BACKUP_QUESTION)
    excerpts = data["excerpts"]
    assert len(excerpts) == 6, scores(data)
    assert {Path(e["path"]).name for e in excerpts} == {"handbook.pdf"}
    pages_found = [e["page"] for e in excerpts]
    assert len(set(pages_found)) == 6 and all(p % 2 == 0 and p <= 20 for p in pages_found), scores(
        data
    )  # the backup pages: 2, 4, … 20
    # the block filled with the document's own pages: nothing was dropped for the document cap
    assert "per-document cap" not in {d["reason"] for d in data["dropped"]}


@pytest.fixture
def kitchen_and_servers(run_cli: Any, starter_model: InstalledModel, tmp_path: Path) -> str:
    make_store(
        run_cli, starter_model, "Notes", write_notes(tmp_path / "notes", BAKING_AND_ADMIN_NOTES)
    )
    return "Notes"


def test_an_unrelated_question_injects_nothing_and_says_so(
    run_cli: Any, kitchen_and_servers: str
) -> None:
    data = search_json(run_cli, kitchen_and_servers, UNRELATED_QUESTION)
    assert data["dropped"], "the store has candidates: they were rejected, not missing"
    assert (data["excerpts"], data["block"], data["note"]) == ([], "", NOTHING_RELEVANT), scores(
        data
    )
    assert {d["reason"] for d in data["dropped"]} == {DROP_BELOW_FLOOR}
    (floor,) = data["relevance"]
    assert (floor["store"], floor["level"], floor["min_relevance"]) == ("Notes", "low", 0.5)
    assert floor["calibrated"] is True  # the store's own probes set its dense floor
    assert floor["dense_min_similarity"] >= 0.25  # never below the model's fixed floor
    assert floor["lexical_min_coverage"] == 0.5
    for dropped in data["dropped"]:  # one scale: every rejected candidate is below the floor
        assert dropped["scores"]["relevance"] < 0.5

    plain = run_cli("search", kitchen_and_servers, UNRELATED_QUESTION)
    assert plain.returncode == 0
    assert plain.stdout == NOTHING_RELEVANT + "\n"
    assert "<retrieved_context>" not in plain.stdout + plain.stderr

    explained = run_cli("search", kitchen_and_servers, UNRELATED_QUESTION, "--explain")
    assert explained.returncode == 0
    lines = explained.stdout.splitlines()
    assert lines[0] == NOTHING_RELEVANT
    assert "Minimum relevance for 'Notes': low" in explained.stdout
    start = lines.index("Strongest rejected candidates:")
    rejected = lines[start + 1 :]
    assert 1 <= len(rejected) <= 6
    assert all(line.startswith(f"  {DROP_BELOW_FLOOR}: ") for line in rejected)

    # without a floor the same question fills the block: the floor is what kept it out
    off = search_json(run_cli, kitchen_and_servers, UNRELATED_QUESTION, "--min-relevance", "off")
    assert off["excerpts"] and off["block"].startswith("<retrieved_context>")


def test_ask_sends_the_plain_prompt_when_nothing_is_relevant(
    run_cli: Any, kitchen_and_servers: str
) -> None:
    profile = AiProfile(
        "Local", Backend.LLAMA_CPP, str(chat_model_path()), context_window=4096, preset="gemma"
    )
    ProfileRegistry().add(profile)
    ProfileRegistry().assign(Role.TEXT, "Local")
    result = run_cli(
        "ask", "Text", UNRELATED_QUESTION, "--show-prompt", "--max-tokens", "4",
        "--temperature", "0",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    prompt = result.stdout.split("=== answer ===")[0]
    assert "=== system ===" in prompt and UNRELATED_QUESTION in prompt
    assert "<retrieved_context>" not in prompt and "[R1]" not in prompt
    assert "no excerpt was relevant enough" in result.stderr


def test_min_relevance_round_trips_and_an_invalid_level_is_a_usage_error(
    run_cli: Any, kitchen_and_servers: str, kortty_home: Path
) -> None:
    shown = run_cli("store", "retrieval", kitchen_and_servers)
    assert shown.returncode == 0 and "minimum relevance low" in shown.stdout

    changed = run_cli("store", "retrieval", kitchen_and_servers, "--min-relevance", "off", "--json")
    assert changed.returncode == 0, changed.stderr
    data = json.loads(changed.stdout)
    assert data["retrieval"]["min_relevance"] == "off"
    assert data["relevance"]["level"] == "off" and data["relevance"]["dense_min_similarity"] is None
    (definition,) = (kortty_home / "rag" / "stores").glob("*/store.json")
    saved = json.loads(definition.read_text(encoding="utf-8"))
    assert saved["store"]["settings"]["retrieval"]["min_relevance"] == "off"
    # the store's own level applies to every search now
    assert search_json(run_cli, kitchen_and_servers, UNRELATED_QUESTION)["excerpts"]
    high = run_cli("store", "retrieval", kitchen_and_servers, "--min-relevance", "high")
    shown_high = re.search(
        r"minimum relevance high: relevance at least 0\.70 \(similarity at least "
        r"(\d\.\d\d)",
        high.stdout,
    )
    assert shown_high, high.stdout
    # the store's calibrated floor: never below the model's fixed one
    assert float(shown_high.group(1)) >= 0.45

    for args in (
        ("store", "retrieval", kitchen_and_servers, "--min-relevance", "strict"),
        ("search", kitchen_and_servers, "bread", "--min-relevance", "strict"),
    ):
        refused = run_cli(*args)
        assert refused.returncode == 2
        assert "invalid choice: 'strict'" in refused.stderr
        assert "off" in refused.stderr and "low" in refused.stderr
        assert "medium" in refused.stderr and "high" in refused.stderr
    saved = json.loads(definition.read_text(encoding="utf-8"))
    assert saved["store"]["settings"]["retrieval"]["min_relevance"] == "high"
