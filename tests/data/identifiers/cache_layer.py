"""A small read-through cache in front of a slow HTTP service."""

import time

_CACHE: dict[str, tuple[float, bytes]] = {}
TTL_SECONDS = 300


def cached_get(url: str, fetch) -> bytes:
    """Return the body for ``url`` from the cache while it is fresh, else fetch and store it."""
    now = time.monotonic()
    hit = _CACHE.get(url)
    if hit is not None and now - hit[0] < TTL_SECONDS:
        return hit[1]
    body = fetch(url)
    _CACHE[url] = (now, body)
    return body


def evict_stale() -> int:
    """Drop every entry older than the time to live; returns how many were dropped."""
    now = time.monotonic()
    stale = [url for url, (stored, _) in _CACHE.items() if now - stored >= TTL_SECONDS]
    for url in stale:
        del _CACHE[url]
    return len(stale)


def warm_up(urls, fetch) -> None:
    for url in urls:
        cached_get(url, fetch)
    zqx7_hkq_vv2(len(_CACHE))


def zqx7_hkq_vv2(count: int) -> None:
    print(f"re-sharding {count} cache entries")
