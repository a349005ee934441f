"""Questions no knowledge store is about: the probes of a store's relevance calibration.

After each index, these questions are embedded with the store's own model and searched in the new
snapshot (:mod:`kortty_rag.index.calibration`); how close its chunks come to them tells how close an
unrelated question comes to *this* store, which is where its dense relevance floor is set
(:mod:`kortty_rag.retrieval.relevance`). They span many domains and several languages, so that a store
about one of them (cooking, travel, law) still has most probes unrelated to it; the floor reads a
quantile, not the maximum. The set is fixed: changing it changes every store's floor at its next
index. The questions the README's relevance figures were measured with are a different, separate set
(``benchmarks/data/relevance``).
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

from kortty_rag.embedding.base import Embedder

PROBES: tuple[str, ...] = (
    "Who won the women's singles at Wimbledon last year?",
    "How many players are on a rugby union team?",
    "What is a good warm-up before a 10 km run?",
    "Which ski resorts in Norway open earliest in autumn?",
    "How do I book a seat reservation on a long-distance train?",
    "What documents do I need to rent a car abroad?",
    "Is it cheaper to fly on a Tuesday?",
    "What are the visa rules for a short stay in Japan?",
    "How long can cooked rice stay in the fridge?",
    "What can I use instead of eggs in pancakes?",
    "How do I sharpen a chef's knife with a whetstone?",
    "How much notice does a landlord have to give before a rent increase?",
    "Can my employer read my private emails at work?",
    "What happens if I miss the deadline for my tax return?",
    "How is interest on a savings account taxed?",
    "What is the difference between an ETF and a mutual fund?",
    "Should I pay off my credit card or build an emergency fund first?",
    "Why did the Roman Empire split into east and west?",
    "When did the Berlin Wall come down?",
    "Who was the first emperor of China?",
    "What key is Beethoven's fifth symphony in?",
    "How do I change the strings on an acoustic guitar?",
    "Which chords are in a twelve-bar blues?",
    "Why is my car making a squealing noise when I brake?",
    "How often should the timing belt be replaced?",
    "What tyre pressure should a small hatchback have?",
    "Will it rain in Lisbon this weekend?",
    "Why is the sky blue during the day and red at sunset?",
    "When is the next total solar eclipse visible from Europe?",
    "How many moons does Jupiter have?",
    "How often should I take my dog to the vet?",
    "Why does my cat knead blankets?",
    "What should I feed a pet rabbit?",
    "How do I renew my health insurance card?",
    "Where can I get a flu vaccination without an appointment?",
    "How do I center a div in CSS?",
    "What is the difference between a tuple and a list in Haskell?",
    "How do I undo the last commit in Mercurial?",
    "How do I fix a dripping kitchen tap?",
    "What size drill bit do I need for a 6 mm wall plug?",
    "How do I bleed a radiator?",
    "Which streaming service has the most documentaries?",
    "Who plays the main character in the latest superhero film?",
    "What are the rules of the card game Skat?",
    "Where can I buy a second-hand washing machine?",
    "Is it worth buying an extended warranty for a laptop?",
    "How do I return a parcel without the original box?",
    "What time does the post office close on Saturdays?",
    "How do I apply for a fishing licence?",
    "What should I wear to a job interview at a bank?",
    "How do I write a cover letter for an internship?",
    "How do I get red wine out of a white shirt?",
    "Which houseplants survive in a dark bathroom?",
    "How do I descale an electric kettle?",
    "What is the best way to learn Spanish vocabulary?",
    "How many hours of sleep does a teenager need?",
    "What is a polite way to decline a wedding invitation?",
    "How do I plan a children's birthday party on a budget?",
    "Which board games are good for four players?",
    "Who wrote the novel One Hundred Years of Solitude?",
    "What is the longest river in South America?",
    "How deep is the Mariana Trench?",
    "Why do volcanoes erupt?",
    "How do bees make honey?",
    "What does a notary public do?",
    "How do I transfer my phone number to a new provider?",
    "Why is my Wi-Fi slow in the evenings?",
    "How do I set up a shared family calendar?",
    "What is the difference between baroque and classical architecture?",
    "Who painted the ceiling of the Sistine Chapel?",
    "How do you play the opening move e4 in chess?",
    "What is the score of yesterday's basketball game?",
    "Wie viel kostet ein Deutschlandticket im Monat?",
    "Wann beginnt die Sommerzeit in diesem Jahr?",
    "Wie beantrage ich einen neuen Personalausweis?",
    "Welche Unterlagen brauche ich für die Steuererklärung?",
    "Wie lange ist der Urlaubsanspruch bei einer Vollzeitstelle?",
    "Was ist die beste Route von Hamburg nach Kopenhagen mit dem Fahrrad?",
    "Wie bekomme ich Kalk von den Fliesen im Bad?",
    "Welche Fußballmannschaft wurde letzte Saison Meister?",
    "Wie kündige ich meinen Handyvertrag fristgerecht?",
    "Was sollte man bei einer Wohnungsbesichtigung fragen?",
    "Wie wechsle ich den Reifen an meinem Fahrrad?",
    "Welches Wetter wird morgen in München erwartet?",
    "Quelle est la meilleure saison pour visiter la Provence ?",
    "Comment préparer une pâte à crêpes sans grumeaux ?",
    "¿Cuál es la mejor playa de la Costa Brava?",
    "¿Cómo se cuida una orquídea en casa?",
    "How do I convert a recipe from cups to grams?",
    "How far is the Moon from the Earth?",
    "What is the population of Canada?",
    "How do I clean the filter of a dishwasher?",
    "How long does a passport photo stay valid?",
    "What should I pack for a week of camping in the rain?",
    "Which vitamins are in a banana?",
    "Why do leaves change colour in autumn?",
    "How do I stop my glasses from fogging up with a mask?",
    "What are the opening hours of the city museum on Sundays?",
    "How do I calculate the area of a circle?",
    "What is the plot of the opera La Traviata?",
)

_lock = threading.Lock()
#: the probes' query vectors per embedder (an embedder's model never changes)
_vectors: weakref.WeakKeyDictionary[Embedder, np.ndarray] = weakref.WeakKeyDictionary()


def probe_vectors(embedder: Embedder) -> np.ndarray:
    """The probes embedded as queries by ``embedder`` (one row each), computed once per embedder."""
    with _lock:
        cached = _vectors.get(embedder)
    if cached is not None:
        return cached
    vectors = np.stack([embedder.embed_query(question) for question in PROBES]).astype(np.float32)
    with _lock:
        _vectors[embedder] = vectors
    return vectors
