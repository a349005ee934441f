"""The lexical language as a store setting, through the real CLI with the real starter model.

- A small German corpus is detected as ``de``; ``store retrieval`` and ``source list`` say so.
- ``--language en`` re-analyses a local store's index at once (no embedding): a German question that
  needs German stemming ("Wohnung" for "Wohnungen") stops matching lexically, and ``--language de``
  brings it back.
- An invalid value is a usage error listing the allowed ones; a busy store is refused and keeps
  its setting.
- A Qdrant store keeps its points' terms until ``store rebuild``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.qdrant import isolate_keyring
from tests.helpers.qdrant_server import FaultyQdrant

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.index.lock import StoreLock

GERMAN_NOTES = {
    "renovierung.md": "# Renovierung\n\nDie Wohnungen im dritten Stock werden im Frühjahr "
    "renoviert. Alle Mieter erhalten vorher einen Brief der Hausverwaltung mit den genauen "
    "Terminen. Während der Arbeiten bleibt das Treppenhaus geöffnet.",
    "garten.md": "# Garten\n\nIm Garten blühen jetzt die ersten Tulpen. Der Rasen muss im April "
    "zum ersten Mal gemäht werden, und die Beete brauchen frischen Kompost.",
    "fahrrad.md": "# Fahrrad\n\nDas Fahrrad steht im Keller neben den Winterreifen. Vor der ersten "
    "Tour sollten die Bremsen geprüft und die Kette geölt werden.",
    "kochen.md": "# Kartoffelsalat\n\nFür den Kartoffelsalat werden die Kartoffeln am Vortag "
    "gekocht. Am nächsten Morgen schneidet man sie in Scheiben und mischt sie mit Brühe, Essig "
    "und Zwiebeln.",
    "reise.md": "# Reise\n\nDie Zugfahrt nach Hamburg dauert etwa vier Stunden. Wir reservieren die "
    "Sitzplätze rechtzeitig, weil die Züge am Freitag oft voll sind.",
}
#: German stemming makes "Wohnungen" and "Wohnung" one term; English stemming leaves them apart
QUESTION = "Wohnung"
ANSWER = "renovierung.md"
KEY = "qk-language-test-0123456789"


@pytest.fixture
def german(tmp_path: Path) -> Path:
    docs = tmp_path / "notizen"
    docs.mkdir()
    for name, text in GERMAN_NOTES.items():
        (docs / name).write_text(text + "\n", encoding="utf-8")
    return docs


def cli_json(run_cli: Any, *args: str) -> Any:
    result = run_cli(*args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def lexical_hits(run_cli: Any, store: str) -> list[str]:
    found = cli_json(run_cli, "search", store, QUESTION, "--lexical-only")
    return [Path(e["path"]).name for e in found["excerpts"]]


def test_a_local_store_is_reanalysed_in_the_language_set(
    run_cli: Any, starter_model: InstalledModel, german: Path, kortty_home: Path
) -> None:
    assert run_cli("store", "create", "Notizen", "--model", starter_model.id).returncode == 0
    added = cli_json(run_cli, "source", "add", "Notizen", str(german), "--yes")
    chunks = added["summary"]["chunks_embedded"]
    assert chunks >= len(GERMAN_NOTES)

    shown = cli_json(run_cli, "store", "retrieval", "Notizen")
    assert shown["retrieval"]["language"] == "auto"
    assert shown["lexical_index"]["language"] == "de"  # detected from the text
    assert shown["lexical_index"]["reanalysed_chunks"] is None
    text = run_cli("store", "retrieval", "Notizen").stdout
    assert "auto (detected from the text); the index is analysed in German (de)" in text
    # the starter model was trained on English: its part weighs less in German notes
    assert shown["dense_weight_applied"] == 0.6
    assert "dense weight 0.6 (its model was not trained for German (de) text)" in text
    assert shown["relevance"]["lexical_min_coverage"] == 0.4
    listed = run_cli("source", "list", "Notizen").stdout
    assert "the index is analysed in German (de)" in listed
    assert lexical_hits(run_cli, "Notizen") == [ANSWER]

    english = cli_json(run_cli, "store", "retrieval", "Notizen", "--language", "en")
    assert english["retrieval"]["language"] == "en"
    assert english["dense_weight_applied"] == 0.8  # analysed as English: the defaults
    assert english["relevance"]["lexical_min_coverage"] == 0.5
    assert english["lexical_index"] == {
        "language": "en",
        "reanalysed_chunks": chunks,
        "rebuild_needed": False,
        "error": None,
    }
    (definition,) = (kortty_home / "rag" / "stores").glob("*/store.json")
    saved = json.loads(definition.read_text(encoding="utf-8"))
    assert saved["store"]["settings"]["retrieval"]["language"] == "en"
    assert lexical_hits(run_cli, "Notizen") == []  # "wohnungen" is no longer "wohnung"
    table = run_cli("store", "list").stdout.splitlines()
    assert table[0].split()[-1] == "LEXICAL" and table[1].split()[-1] == "en"
    assert cli_json(run_cli, "store", "list")[0]["lexical_language"] == "en"

    again = run_cli("store", "retrieval", "Notizen", "--language", "de")
    assert again.returncode == 0, again.stderr
    assert f"German (de); re-analysed {chunks} chunks in German (de)" in again.stdout
    assert lexical_hits(run_cli, "Notizen") == [ANSWER]
    unchanged = cli_json(run_cli, "store", "retrieval", "Notizen", "--language", "de")
    assert unchanged["lexical_index"]["reanalysed_chunks"] == 0  # already analysed in German
    assert unchanged["dense_weight_applied"] == 0.6
    chosen = cli_json(run_cli, "store", "retrieval", "Notizen", "--dense-weight", "0.7")
    assert chosen["dense_weight_applied"] == 0.7  # a weight the person set is kept

    refused = run_cli("store", "retrieval", "Notizen", "--language", "klingon")
    assert refused.returncode == 2
    assert "invalid choice: 'klingon'" in refused.stderr
    for allowed in ("auto", "none", "de", "en", "tr"):
        assert f"'{allowed}'" in refused.stderr

    store = StoreRegistry().get("Notizen")
    with StoreLock(StoreRegistry().folder(store), purpose="scan/index"):
        busy = run_cli("store", "retrieval", "Notizen", "--language", "en")
    assert busy.returncode == 2
    assert "busy" in busy.stderr and "what to do" in busy.stderr
    assert StoreRegistry().get("Notizen").settings["retrieval"]["language"] == "de"
    assert lexical_hits(run_cli, "Notizen") == [ANSWER]

    # back to auto after a language set by hand: detected from the text again
    plain = cli_json(run_cli, "store", "retrieval", "Notizen", "--language", "none")
    assert plain["lexical_index"]["language"] == "none"
    assert lexical_hits(run_cli, "Notizen") == []  # no stemming: "wohnungen" is not "wohnung"
    detected = cli_json(run_cli, "store", "retrieval", "Notizen", "--language", "auto")
    assert detected["retrieval"]["language"] == "auto"
    assert detected["lexical_index"]["language"] == "de"
    assert lexical_hits(run_cli, "Notizen") == [ANSWER]


def test_a_qdrant_store_keeps_its_terms_until_rebuilt(
    run_cli: Any,
    starter_model: InstalledModel,
    german: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    isolate_keyring(monkeypatch, tmp_path / "keyring", "keyrings.alt.file.PlaintextKeyring")
    server = FaultyQdrant(api_key=KEY).start()
    try:
        created = run_cli(
            "store", "create", "Fern", "--model", starter_model.id, "--type", "qdrant",
            "--url", server.url, "--api-key-from-stdin", input=KEY + "\n",
        )  # fmt: skip
        assert created.returncode == 0, created.stderr
        cli_json(run_cli, "source", "add", "Fern", str(german), "--yes")
        assert cli_json(run_cli, "store", "retrieval", "Fern")["lexical_index"]["language"] == "de"
        assert lexical_hits(run_cli, "Fern") == [ANSWER]

        changed = cli_json(run_cli, "store", "retrieval", "Fern", "--language", "en")
        assert changed["retrieval"]["language"] == "en"
        assert changed["lexical_index"]["language"] == "de"  # the points keep their terms
        assert changed["lexical_index"]["rebuild_needed"] is True
        assert changed["lexical_index"]["reanalysed_chunks"] is None
        text = run_cli("store", "retrieval", "Fern").stdout
        assert "its points are analysed in German (de)" in text
        assert "kortty-rag store rebuild 'Fern'" in text
        assert lexical_hits(run_cli, "Fern") == [ANSWER]

        assert run_cli("store", "rebuild", "Fern").returncode == 0
        rebuilt = cli_json(run_cli, "store", "retrieval", "Fern")
        assert rebuilt["lexical_index"]["language"] == "en"
        assert rebuilt["lexical_index"]["rebuild_needed"] is False
        assert lexical_hits(run_cli, "Fern") == []
    finally:
        server.stop()
