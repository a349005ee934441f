"""A damaged ``store.json`` is named with its file and field, and never breaks the other stores.

The damage table is generated from a valid definition: every value in it is replaced by values of other
JSON types (and by null where the field may not be null), every key is deleted, unknown keys are added,
and the raw file is cut short, made invalid UTF-8 or given another top level. The expected field path is
the place the test itself damaged (``store.sources[1].counts``), and whether a value must be rejected is
decided from the JSON type the writer put there — never from the decoder's own tables.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kortty_rag.config.registry import STORE_FILE, StoreRegistry
from kortty_rag.errors import ConfigError, DamagedFileError
from kortty_rag.models import (
    EmbeddingIdentity,
    Source,
    SourceCounts,
    SourceKind,
    SourceOptions,
    SourceStatus,
    Store,
    StoreRoles,
    StoreType,
    SyncMode,
)

VICTIM = "victim-000001"
HEALTHY = "healthy-000002"
IDENTITY = EmbeddingIdentity("m", "sha", 8, "mean", "q: ", "d: ", 256, 38)

#: The only fields that may hold null (written as null by the writer when unset).
NULLABLE = {"last_indexed_at", "real_path"}
#: Keys whose absence is a damage; every other key has a default.
REQUIRED = {
    "store.id",
    "store.name",
    "store.type",
    "store.embedding",
    "store.sources[].id",
    "store.sources[].path",
    "store.sources[].kind",
} | {f"store.embedding.{key}" for key in IDENTITY.to_json()}


def definition(store_id: str, name: str) -> dict[str, Any]:
    """A valid file with every kind of value present (no null anywhere)."""
    sources = tuple(
        Source(
            id=f"src-{i}",
            path=f"/data/docs{i}",
            kind=SourceKind.FOLDER if i else SourceKind.FILE,
            sync_mode=SyncMode.AUTO,
            options=SourceOptions(include=("*.md",), exclude=("tmp",)),
            status=SourceStatus.READY,
            status_reason="",
            counts=SourceCounts(3, 7, 1),
            last_indexed_at="2026-01-01T00:00:00+00:00",
            real_path=f"/data/docs{i}",
        )
        for i in range(2)
    )
    store = Store(
        id=store_id,
        name=name,
        type=StoreType.LOCAL,
        embedding=IDENTITY,
        roles=StoreRoles(text=True, coding=True),
        sources=sources,
        created_at="2026-01-01T00:00:00+00:00",
        settings={
            "retrieval": {
                "dense": True,
                "lexical": True,
                "dense_weight": 0.5,
                "rrf_k": 60,
                "min_relevance": "medium",
                "language": "de",
            }
        },
    )
    return {"product": "kortty-rag", "schema": 1, "store": store.to_json()}


@dataclass(frozen=True)
class Damage:
    label: str
    apply: Callable[[dict[str, Any]], bytes]
    field: str | None  # the field the error must name; None: the whole file


def walk(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from walk(inner, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from walk(inner, f"{path}[{i}]")


def pattern(path: str) -> str:
    return re.sub(r"\[\d+\]", "[]", path)


def set_at(data: dict[str, Any], path: str, value: Any, *, delete: bool = False) -> None:
    keys: list[Any] = []
    for token in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        keys.append(int(token[1:-1]) if token.startswith("[") else token)
    target: Any = data
    for key in keys[:-1]:
        target = target[key]
    if delete:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value


def others_than(value: Any) -> list[Any]:
    """Values of every other JSON type than ``value``'s (an int and a float count as a number)."""
    candidates: list[tuple[Callable[[Any], bool], Any]] = [
        (lambda v: isinstance(v, bool), True),
        (lambda v: isinstance(v, int | float) and not isinstance(v, bool), 17),
        (lambda v: isinstance(v, str), "x"),
        (lambda v: isinstance(v, list), [1]),
        (lambda v: isinstance(v, dict), {"a": 1}),
    ]
    return [sample for same, sample in candidates if not same(value)]


def in_file(data: dict[str, Any]) -> bytes:
    return json.dumps(data, indent=2).encode()


def damages() -> list[Damage]:
    base = definition(VICTIM, "Victim")
    table: list[Damage] = []

    def change(path: str, value: Any, *, delete: bool = False) -> Callable[[dict[str, Any]], bytes]:
        def apply(data: dict[str, Any]) -> bytes:
            set_at(data, path, value, delete=delete)
            return in_file(data)

        return apply

    for path, value in walk(base, ""):
        if path in ("", "product"):  # another product marker makes the folder someone else's
            continue
        for bad in others_than(value):
            table.append(Damage(f"{path}={json.dumps(bad)}", change(path, bad), path))
        list_item = re.search(r"\[\d+\]$", path) is not None
        if list_item or path.rsplit(".", 1)[-1] not in NULLABLE:
            table.append(Damage(f"{path}=null", change(path, None), path))
        if not list_item and pattern(path) in REQUIRED:
            table.append(Damage(f"{path} missing", change(path, None, delete=True), path))
    # values of the right type that are still wrong
    for path, bad in [
        ("store.type", "cloud"),
        ("store.sources[1].kind", "socket"),
        ("store.sources[0].sync_mode", "sometimes"),
        ("store.sources[1].status", "FINE"),
        ("store.sources[1].counts.chunks", -1),
        ("store.sources[0].options.max_file_size", 0),
        ("store.sources[1].path", "relative/docs"),
        ("store.sources[1].real_path", "relative/docs"),
        ("store.embedding.dimensions", 0),
        ("store.settings.retrieval.dense_weight", 2.5),
        ("store.settings.retrieval.rrf_k", 0),
        ("store.settings.retrieval.min_relevance", "strict"),
        ("store.settings.retrieval.language", "klingon"),
        ("store.settings.retrieval.language", "DE"),
        ("store.id", "another-folder"),
    ]:
        table.append(Damage(f"{path}={json.dumps(bad)}", change(path, bad), path))
    table.append(Damage("store missing", change("store", None, delete=True), "store"))
    # the whole file
    table.append(Damage("trailing junk", lambda d: in_file(d) + b"\n}junk", None))
    for top in ([1], "x", 3, None, True):
        table.append(
            Damage(f"top level {json.dumps(top)}", lambda d, t=top: json.dumps(t).encode(), None)
        )
    table.append(
        Damage("invalid UTF-8", lambda d: in_file(d).replace(b'"Victim"', b'"Vic\xfftim"'), None)
    )
    table.append(Damage("empty file", lambda d: b"", None))
    for fraction in (0.1, 0.5, 0.9, 0.999):
        table.append(
            Damage(
                f"truncated at {fraction:.0%}",
                lambda d, f=fraction: in_file(d)[: int(len(in_file(d)) * f)],
                None,
            )
        )
    return table


DAMAGES = damages()


def write(home: Path, store_id: str, raw: bytes) -> Path:
    folder = home / "rag" / "stores" / store_id
    folder.mkdir(parents=True, exist_ok=True)
    (folder / STORE_FILE).write_bytes(raw)
    return folder / STORE_FILE


def named_field(message: str) -> str | None:
    match = re.search(r"is damaged: field (\S+) ", message)
    return match.group(1) if match else None


def test_the_table_covers_every_kind_of_damage() -> None:
    assert len(DAMAGES) > 150
    labels = " ".join(d.label for d in DAMAGES)
    for needle in ("=null", "missing", '="x"', "=[1]", "top level", "UTF-8", "truncated", "junk"):
        assert needle in labels


def test_the_undamaged_definition_loads(kortty_home: Path) -> None:
    write(kortty_home, VICTIM, in_file(definition(VICTIM, "Victim")))
    assert [s.id for s in StoreRegistry().list()] == [VICTIM]


@pytest.mark.parametrize("damage", DAMAGES, ids=[d.label for d in DAMAGES])
def test_damage_names_file_and_field_and_spares_the_other_store(
    kortty_home: Path, damage: Damage
) -> None:
    path = write(kortty_home, VICTIM, damage.apply(copy.deepcopy(definition(VICTIM, "Victim"))))
    write(kortty_home, HEALTHY, in_file(definition(HEALTHY, "Healthy")))
    registry = StoreRegistry()

    survey = registry.survey()
    assert [s.id for s in survey.stores] == [HEALTHY]  # the other store keeps working
    assert registry.get("Healthy").id == HEALTHY
    (broken,) = survey.damaged
    assert broken.id == VICTIM and broken.folder == path.parent
    error = broken.error
    assert isinstance(error, DamagedFileError)
    assert str(path) in error.message and error.hint
    if damage.field is None:
        assert error.field == "" and "field" not in error.message
        assert re.search(r"not (valid JSON|UTF-8)|must be an object", error.message)
    else:
        assert named_field(error.message) == damage.field, error.message
        assert error.field == damage.field
    with pytest.raises(DamagedFileError) as info:
        registry.get(VICTIM)
    assert info.value.message == error.message


@pytest.mark.parametrize(
    "where", ["store", "store.roles", "store.sources[1]", "store.sources[0].counts"]
)
def test_unknown_keys_are_ignored(kortty_home: Path, where: str) -> None:
    data = definition(VICTIM, "Victim")
    target: Any = data
    for token in re.findall(r"[^.\[\]]+|\[\d+\]", where):
        target = target[int(token[1:-1])] if token.startswith("[") else target[token]
    target["added_by_a_newer_version"] = {"any": ["thing"]}
    write(kortty_home, VICTIM, in_file(data))
    assert StoreRegistry().get(VICTIM) == Store.from_json(definition(VICTIM, "Victim")["store"])


def test_a_newer_schema_is_listed_as_damaged_not_raised(kortty_home: Path) -> None:
    data = definition(VICTIM, "Victim") | {"schema": 99}
    write(kortty_home, VICTIM, in_file(data))
    write(kortty_home, HEALTHY, in_file(definition(HEALTHY, "Healthy")))
    registry = StoreRegistry()
    assert [s.id for s in registry.list()] == [HEALTHY]
    with pytest.raises(ConfigError, match="newer kortty-rag"):
        registry.get("Victim")  # found by the name still readable in the file


def test_a_damaged_store_name_cannot_be_taken_again(kortty_home: Path) -> None:
    data = definition(VICTIM, "Victim")
    data["store"]["roles"] = None
    write(kortty_home, VICTIM, in_file(data))
    from kortty_rag.errors import AlreadyExistsError

    with pytest.raises(AlreadyExistsError):
        StoreRegistry().create("victim", IDENTITY)
