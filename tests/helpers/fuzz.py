"""Hypothesis profiles of the fuzzing properties: 1,000 examples per property in the CI tier, 100,000 in
the soak tier (``KORTTY_SOAK=1``); ``KORTTY_FUZZ_EXAMPLES`` overrides both.

Decorate a property with ``@FUZZ``. Every failure Hypothesis finds becomes a permanent ``@example`` on
its property, so it is checked first in every later run.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from tests.helpers.reliability import SOAK

_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile(
    "kortty-ci", max_examples=1000, deadline=None, suppress_health_check=_CHECKS
)
settings.register_profile(
    "kortty-soak", max_examples=100_000, deadline=None, suppress_health_check=_CHECKS
)
PROFILE = "kortty-soak" if SOAK else "kortty-ci"
EXAMPLES = (
    int(os.environ.get("KORTTY_FUZZ_EXAMPLES", "0")) or settings.get_profile(PROFILE).max_examples
)
FUZZ = settings(settings.get_profile(PROFILE), max_examples=EXAMPLES)
