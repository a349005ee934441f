"""A query's compound words, split into words the lexical index knows.

German writes "Bildschirmvorschau" where English writes "screen preview", so a question's compound is
often in no chunk while its parts are ("Bildschirm", "Vorschau"). A query term the index does not
know is split in two where both parts are terms of the index (the index's own vocabulary is the
dictionary, as in Lucene's dictionary compound word filter), allowing a linking element between
them ("Netzwerk-s-verbindungen"), in the languages that write compounds as one word. Only the query
is split: the index keeps its terms, and a term the index knows is never split. On 400 German
manual-page questions 26 of the 70 terms no chunk holds split this way, and the lexical part finds
the page among its first six for 0.853 of them instead of 0.845; of 81 such terms in 147 unrelated
German questions, one splits (``benchmarks/german_eval.py``, ``benchmarks/relevance_eval.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

#: the languages that write a compound as one word (ISO codes of the analyzer's languages); in the
#: others a word the index does not know is rather a name or a term of art, and splitting it only
#: adds noise (SciFact's English questions: hybrid nDCG@10 0.743 → 0.742 when split)
COMPOUNDING_LANGUAGES = frozenset({"da", "de", "fi", "hu", "nl", "no", "sv"})
#: linking elements between the two parts of a compound (German "Fugen": -s-, -es-, -n-, -en-, -e-)
LINKS = ("", "s", "es", "n", "en", "e")
#: the shortest part kept: shorter ones ("ab", "ein") split nearly anything
MIN_PART = 4
#: the longest term split: the candidates grow with the square of its length, and a longer run of
#: letters is not a word (a pasted sentence of a script without spaces, a hash)
MAX_TERM = 40


def _splits(term: str) -> Iterable[tuple[str, str]]:
    """Every (head, tail) a compound ``term`` could be made of, the linking element dropped."""
    for cut in range(MIN_PART, len(term) - MIN_PART + 1):
        head, tail = term[:cut], term[cut:]
        for link in LINKS:
            if link and not head.endswith(link):
                continue
            stem = head[: len(head) - len(link)]
            if len(stem) >= MIN_PART:
                yield stem, tail


def candidate_parts(terms: Iterable[str]) -> set[str]:
    """The words to look up in the index to split ``terms`` (alphabetic terms only: identifiers
    and numbers are never split)."""
    return {
        part for term in terms if _splittable(term) for split in _splits(term) for part in split
    }


def _splittable(term: str) -> bool:
    return term.isalpha() and 2 * MIN_PART <= len(term) <= MAX_TERM


def split_compound(term: str, known: Collection[str]) -> tuple[str, str] | None:
    """``term`` as two ``known`` parts, or ``None``; of several splits the most even one (then the
    longer head), so "netzwerkdateisystem" is "netzwerk" + "dateisystem" when both are known."""
    if not _splittable(term):
        return None
    found = [
        (min(len(h), len(t)), len(h), h, t) for h, t in _splits(term) if h in known and t in known
    ]
    if not found:
        return None
    _, _, head, tail = max(found)
    return head, tail


def with_compounds_split(
    terms: list[str], known_of: Callable[[set[str]], Collection[str]], absent: Collection[str]
) -> list[str]:
    """``terms`` with each of ``absent`` (terms the index does not hold) replaced by its two known
    parts where it splits; ``known_of`` says which of a set of words the index holds."""
    if not absent:
        return terms
    known = known_of(candidate_parts(absent))
    result: list[str] = []
    for term in terms:
        split = split_compound(term, known) if term in absent else None
        result.extend(split or (term,))
    return list(dict.fromkeys(result))
