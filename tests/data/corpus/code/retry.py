"""Call a flaky HTTP endpoint with exponential backoff and jitter."""

import random
import time
import urllib.request


def fetch_with_backoff(url: str, attempts: int = 5, base_delay: float = 0.5) -> bytes:
    """Try ``url`` up to ``attempts`` times, sleeping twice as long after every failed try."""
    for attempt in range(attempts):
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return response.read()
        except OSError:
            if attempt == attempts - 1:
                raise
            delay = base_delay * (2**attempt)
            time.sleep(delay + random.uniform(0, delay / 2))
    raise RuntimeError("unreachable")
