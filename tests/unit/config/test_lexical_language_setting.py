"""``settings.retrieval.language``: auto, none or a language the analyzer stems; anything else is a
damaged definition naming the field."""

from __future__ import annotations

import pytest

from kortty_rag import languages
from kortty_rag.decoding import FieldError
from kortty_rag.index.factory import lexical_language
from kortty_rag.languages import LANGUAGES
from kortty_rag.models import EmbeddingIdentity, Store, StoreType

IDENTITY = EmbeddingIdentity("m", "sha", 8, "mean", "", "", 256, 38)


def store_json(retrieval: dict[str, object]) -> dict[str, object]:
    store = Store("s-1", "S", StoreType.LOCAL, IDENTITY, settings={"retrieval": retrieval})
    return store.to_json()


def test_the_choices_are_auto_none_and_every_stemmed_language() -> None:
    assert languages.CHOICES[:2] == ("auto", "none")
    assert set(languages.CHOICES[2:]) == set(LANGUAGES) == set(languages.NAMES)
    assert languages.describe("de") == "German (de)"
    assert languages.describe("auto").startswith("auto")
    assert languages.describe("none").startswith("none")


@pytest.mark.parametrize("value", languages.CHOICES)
def test_every_choice_is_accepted(value: str) -> None:
    store = Store.from_json(store_json({"language": value}), "store")
    assert lexical_language(store) == value


def test_the_default_is_auto() -> None:
    assert lexical_language(Store.from_json(store_json({}), "store")) == "auto"


@pytest.mark.parametrize("value", ["klingon", "DE", "german", "", "en-US"])
def test_another_value_names_the_field_and_the_allowed_values(value: str) -> None:
    with pytest.raises(FieldError) as raised:
        Store.from_json(store_json({"language": value}), "store")
    assert raised.value.field == "store.settings.retrieval.language"
    assert "must be one of auto, none, ar," in raised.value.problem
    assert raised.value.problem.endswith(f'found the string "{value}"')


@pytest.mark.parametrize("value", [None, 3, True, ["de"], {"code": "de"}])
def test_a_value_of_another_type_names_the_field(value: object) -> None:
    with pytest.raises(FieldError) as raised:
        Store.from_json(store_json({"language": value}), "store")
    assert raised.value.field == "store.settings.retrieval.language"
    assert "must be a string" in raised.value.problem
