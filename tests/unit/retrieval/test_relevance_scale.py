"""One relevance value from 0 to 1 on a scale every store shares, and a dense floor calibrated per
store from its off-topic probes (never below the model's own floors)."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.helpers.fakes import HashEmbedder

from kortty_rag.embedding import catalog
from kortty_rag.index.manifest import HnswParams, Manifest
from kortty_rag.models import RelevanceLevel, Source, SourceKind, Store, StoreType
from kortty_rag.retrieval.relevance import floor_for

SOURCE = Source(id="s0", path="/data/notes", kind=SourceKind.FOLDER)
STARTER = Store(
    "st",
    "Garden",
    StoreType.LOCAL,
    replace(HashEmbedder().identity, model_id=catalog.STARTER_ID),
    sources=(SOURCE,),
)
LEVELS = (RelevanceLevel.LOW, RelevanceLevel.MEDIUM, RelevanceLevel.HIGH)

similarities = st.lists(st.floats(-0.2, 0.8), min_size=5, max_size=120).map(sorted)
scores = st.one_of(st.none(), st.floats(-1.0, 1.0))
coverages = st.one_of(st.none(), st.floats(0.0, 1.0))


def test_the_floors_are_at_the_same_relevance_in_every_store() -> None:
    plain = floor_for(STARTER)
    crowded = floor_for(STARTER, calibration=[0.2] * 10 + [0.4] * 90)
    assert not plain.calibrated and crowded.calibrated
    for floor in (plain, crowded):
        assert floor.dense is not None
        assert floor.threshold == 0.5
        assert floor.relevance(floor.dense, None) == 0.5
        assert floor.relevance(None, floor.lexical) == 0.5
        assert floor.relevance(1.0, None) == 1.0 and floor.relevance(None, 1.0) == 1.0
    assert [floor_for(STARTER, level).threshold for level in LEVELS] == [0.5, 0.6, 0.7]
    assert floor_for(STARTER, RelevanceLevel.OFF).threshold == 0.0


def test_a_store_that_unrelated_questions_come_close_to_gets_a_higher_floor() -> None:
    probes = sorted([0.14, 0.18, 0.21, 0.22, 0.23, 0.24, 0.25, 0.26, 0.27, 0.37])  # one on topic
    floor = floor_for(STARTER, calibration=probes)
    # 0.9 quantile of ten values: between the ninth (0.27) and the tenth (0.37), a tenth of the way
    quantile = 0.27 + (0.37 - 0.27) * 0.1
    assert floor.dense is not None and abs(floor.dense - (quantile + 0.05)) < 1e-6
    medium = floor_for(STARTER, RelevanceLevel.MEDIUM, probes)
    high = floor_for(STARTER, RelevanceLevel.HIGH, probes)
    assert medium.dense is not None and high.dense is not None
    assert abs((medium.dense - floor.dense) - 0.10) < 1e-6  # the model's steps are kept
    assert abs((high.dense - medium.dense) - 0.10) < 1e-6
    # raised at most by one step: to the model's medium floor
    crowded = floor_for(STARTER, calibration=[0.3] * 5 + [0.5] * 95)
    assert crowded.dense == catalog.relevance_floors(catalog.STARTER_ID)[1]
    assert floor_for(STARTER, calibration=[0.3] * 5 + [0.5] * 95, language="en").dense == 0.35
    # German text and the English starter: any two texts look alike to it, so up to its high floor
    german = floor_for(STARTER, calibration=[0.3] * 5 + [0.36] * 95, language="de")
    assert german.dense is not None and abs(german.dense - (0.36 + 0.05)) < 1e-6
    assert floor_for(STARTER, calibration=[0.3] * 5 + [0.5] * 95, language="de").dense == 0.45
    # … where the words carry the evidence, a match needs one step less of them
    assert [floor_for(STARTER, lv, language="de").lexical for lv in LEVELS] == [0.4, 0.5, 0.6]
    assert [floor_for(STARTER, lv, language="en").lexical for lv in LEVELS] == [0.5, 0.6, 0.75]
    # a store far from every probe keeps the model's fixed floors
    quiet = floor_for(STARTER, calibration=[0.0, 0.05, 0.1])
    assert quiet.calibrated and quiet.dense == catalog.relevance_floors(catalog.STARTER_ID)[0]


@settings(max_examples=300, deadline=None)
@given(similarities, scores, coverages)
def test_admitted_exactly_when_the_relevance_reaches_the_levels_value(
    probes: list[float], dense: float | None, coverage: float | None
) -> None:
    for calibration, level, language in itertools.product(((), probes), LEVELS, (None, "de")):
        floor = floor_for(STARTER, level, calibration, language)
        relevance = floor.relevance(dense, coverage)
        assert 0.0 <= relevance <= 1.0
        if abs(relevance - floor.threshold) > 1e-5:  # the value is rounded for display
            assert floor.admits(dense, coverage) == (relevance >= floor.threshold)


@settings(max_examples=200, deadline=None)
@given(similarities, st.floats(-1.0, 1.0), st.floats(-1.0, 1.0))
def test_the_scale_is_piecewise_linear_through_the_floors(
    probes: list[float], a: float, b: float
) -> None:
    floor = floor_for(STARTER, calibration=probes)
    medium = floor_for(STARTER, RelevanceLevel.MEDIUM, probes).dense
    high = floor_for(STARTER, RelevanceLevel.HIGH, probes).dense
    noise = floor.scale[0]
    xs = [noise, floor.dense, medium, high, 1.0]
    expected = np.interp(a, xs, [0.0, 0.5, 0.6, 0.7, 1.0])  # an oracle of its own: numpy
    assert abs(floor.relevance(a, None) - float(expected)) < 1e-5
    low, top = sorted((a, b))
    assert floor.relevance(low, None) <= floor.relevance(top, None)  # monotone


def test_the_manifest_keeps_the_calibration_and_ignores_a_malformed_one() -> None:
    identity = HashEmbedder().identity
    manifest = Manifest(
        3, "snap-1", 1, "2026-12-03T10:00:00Z", identity, HnswParams(), 5, 2, {}, (0.1, 0.2)
    )
    data = json.loads(json.dumps(manifest.to_json()))
    assert data["calibration"] == [0.1, 0.2]
    assert Manifest.from_json(data).calibration == (0.1, 0.2)
    for bad in ("x", [0.1, "y"], [2.0], {"a": 1}):
        assert Manifest.from_json(data | {"calibration": bad}).calibration == ()
    assert "calibration" not in replace(manifest, calibration=()).to_json()
