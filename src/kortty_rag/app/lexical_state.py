"""A store's lexical language: the setting, and the one its index really uses.

A local store's index records the language its terms were made with (the active snapshot); a Qdrant
store's points record theirs in the store marker, and keep it until ``store rebuild``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kortty_rag import languages
from kortty_rag.errors import KorttyRagError
from kortty_rag.index.factory import lexical_language, open_vector_store
from kortty_rag.index.local import LocalStore
from kortty_rag.models import Store, StoreType
from kortty_rag.retrieval.fusion import FusionWeights
from kortty_rag.retrieval.search import store_weights


@dataclass(frozen=True)
class LexicalState:
    #: ``settings.retrieval.language`` (``auto`` when unset)
    setting: str
    #: the language of the active index's terms; ``None`` while the store has no index
    language: str | None
    #: why the index could not be read (then ``language`` is ``None``)
    error: str | None = None
    #: chunks analysed again by this command (``None``: it did not try)
    reanalysed: int | None = None
    qdrant: bool = False

    @property
    def rebuild_needed(self) -> bool:
        """A Qdrant store whose points were analysed in another language than the setting asks."""
        return (
            self.qdrant
            and self.setting != languages.AUTO
            and self.language is not None
            and self.language != self.setting
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "language": self.language,
            "reanalysed_chunks": self.reanalysed,
            "rebuild_needed": self.rebuild_needed,
            "error": self.error,
        }


def lexical_state(store: Store, reanalysed: int | None = None) -> LexicalState:
    """The setting and the language of the store's active index (a Qdrant store without sources has
    no points and is not contacted)."""
    setting = lexical_language(store)
    qdrant = store.type is StoreType.QDRANT
    if qdrant and not store.sources:
        return LexicalState(setting, None, qdrant=True)
    try:
        vectors = open_vector_store(store)
    except KorttyRagError as exc:
        return LexicalState(setting, None, exc.message, reanalysed, qdrant)
    try:
        if isinstance(vectors, LocalStore):
            snapshot = vectors.snapshot
            language = None if snapshot is None else snapshot.lexical_language
        else:
            words = getattr(vectors, "words", None)  # QdrantStore: the served points' analyzer
            language = None if words is None else str(words.language)
    except KorttyRagError as exc:
        return LexicalState(setting, None, exc.message, reanalysed, qdrant)
    finally:
        vectors.close()
    return LexicalState(setting, language, None, reanalysed, qdrant)


def applied_fusion(store: Store, language: str | None = None) -> FusionWeights:
    """The fusion the store's queries use: its settings, with a lower dense weight where its model
    was not trained for ``language``, the language of its text."""
    return store_weights(store, language)
