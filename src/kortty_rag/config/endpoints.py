"""The URL rule for every network endpoint the product talks to (chat servers, Qdrant).

Remote endpoints must use HTTPS; plain HTTP is accepted only when the host is a loopback address
(``127.0.0.0/8``, ``::1``) or ``localhost``, because only then does the traffic (prompts with excerpts
of the user's files, API keys) never leave the machine. The check is purely syntactic and runs before
any connection is made: it never resolves a name, so ``http://127.0.0.1.example.com`` is remote, and
anything ambiguous (numeric shorthands like ``127.1``, credentials in the URL, a query or fragment on a
base URL) is refused rather than guessed at.

The check judges the URL the way the HTTP client will resolve it, not only the way ``urlsplit`` reads
it: clients join their base URL and each request path with ``urljoin``, which reads a path such as
``//remote.example:6333`` as a new host. So a base URL is exactly scheme, host, optional port and an
optional *plain* path prefix — segments of letters, digits, ``-``, ``.``, ``_`` and ``~`` between
single slashes, never ``.`` or ``..`` — and nothing else: no empty segment (``//``), no
percent-encoding, no ``@``, ``;``, ``:``, backslash, control or non-ASCII character. Callers build
their connection from the validated parts (host, port, prefix), never from the raw text.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from kortty_rag.errors import UsageError
from kortty_rag.messages import msg

DEFAULT_PORTS = {"http": 80, "https": 443}
_HINT = msg(
    "Use https:// for a remote server; plain http:// is accepted only for 127.0.0.1, [::1] or "
    "localhost."
)
_UNSAFE_CHARS = re.compile(r"[\x00-\x20\x7f\\]")
#: ``host`` or ``host:port`` exactly as written (IPv6 in brackets, no zone id, no user-info)
_NETLOC = re.compile(r"^(?:\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::[0-9]{1,5})?$", re.IGNORECASE)
#: one plain path segment: unreserved characters only (RFC 3986), so nothing in it can be re-read
#: as an authority, a parameter, an escape or a dot segment by a URL joiner
_SEGMENT = re.compile(r"^[A-Za-z0-9._~-]+$")
_PREFIX_HINT = msg(
    "Give only the scheme, host, port and an optional plain path prefix such as /qdrant or /v1 "
    "(letters, digits, '-', '.', '_' and '~' between single slashes)."
)
_HOST_NAME = re.compile(
    r"^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$"
)


#: what ``check_resource_url`` and ``check_endpoint`` call the URL they check, unless told
_DOWNLOAD_URL = msg("download URL")
_ENDPOINT = msg("endpoint")


def _not_a_url(what: str, shown: str, error: ValueError | None = None) -> str:
    """The refusal of a URL that cannot even be parsed (``shown``: the URL quoted, credentials
    redacted); ``error`` is the parser's own reason, when it gave one."""
    if error is None:
        return msg("The {what} {url} is not a valid URL", what=what, url=shown)
    return msg(
        "The {what} {url} is not a valid URL: {error}", what=what, url=shown, error=str(error)
    )


@dataclass(frozen=True)
class ParsedEndpoint:
    """A validated base URL. ``url`` is normalised (lower-case scheme and host, no trailing slash)."""

    url: str
    scheme: str
    host: str  # without IPv6 brackets
    port: int
    path: str  # "" or "/prefix" without a trailing slash
    loopback: bool

    @property
    def secure(self) -> bool:
        return self.scheme == "https"

    @property
    def url_host(self) -> str:
        """The host as written in a URL (IPv6 addresses in brackets)."""
        return f"[{self.host}]" if ":" in self.host else self.host

    @property
    def netloc(self) -> str:
        return _netloc(self.scheme, self.host, self.port)

    def join(self, path: str) -> str:
        """The request path below the base path (``path`` starts with ``/``)."""
        return f"{self.path}{path}"

    def __str__(self) -> str:
        return self.url


def is_loopback_host(host: str) -> bool:
    """``localhost`` or a literal loopback address; names are never resolved."""
    host = host.lower()
    if host in ("localhost", "localhost."):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def _valid_host(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return bool(_HOST_NAME.match(host)) and len(host) <= 253
    return True


def _netloc(scheme: str, host: str, port: int) -> str:
    bracketed = f"[{host}]" if ":" in host else host
    return bracketed if port == DEFAULT_PORTS[scheme] else f"{bracketed}:{port}"


def _redacted(url: str) -> str:
    """``url`` with any user-info (which may hold a password or key) replaced, for messages."""
    return re.sub(r"^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#]*@", r"\1***@", url)


def plain_prefix(path: str) -> str | None:
    """``path`` without its trailing slash if it is a plain prefix (see the module doc), else ``None``.

    ``""`` and ``"/"`` are the empty prefix.
    """
    if path in ("", "/"):
        return ""
    body = path[:-1] if path.endswith("/") else path
    if not body.startswith("/"):
        return None
    segments = body[1:].split("/")
    if all(_SEGMENT.match(s) and s.strip(".") for s in segments):
        return body
    return None


def check_resource_url(url: str, *, what: str = _DOWNLOAD_URL) -> tuple[ParsedEndpoint, str]:
    """The server and request target of one resource's URL (a download, or where it redirects to).

    Scheme, host and port obey the endpoint rule; unlike a base URL, a resource URL may carry any
    path and a query (download mirrors sign their links in the query). The request target (path and
    query; a fragment is never sent) goes to exactly the returned server, so nothing in it can name
    another one.
    """
    text = url.strip()
    shown = repr(_redacted(text))
    if not text or _UNSAFE_CHARS.search(text) or not text.isascii():
        raise UsageError(_not_a_url(what, shown), hint=_HINT)
    try:
        parts = urlsplit(text)
    except ValueError as exc:
        raise UsageError(_not_a_url(what, shown, exc), hint=_HINT) from exc
    server = check_endpoint(f"{parts.scheme}://{parts.netloc}", what=what)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    if not target.startswith("/"):
        raise UsageError(_not_a_url(what, shown), hint=_HINT)
    return server, target


def check_endpoint(url: str, *, what: str = _ENDPOINT) -> ParsedEndpoint:
    """Validate ``url`` against the endpoint rule, before any connection is attempted.

    Raises :class:`UsageError` naming the endpoint (credentials redacted) and saying what to fix.
    """
    text = url.strip()
    shown = repr(_redacted(text))
    if not text or _UNSAFE_CHARS.search(text):
        raise UsageError(
            _not_a_url(what, shown),
            hint=msg("Give a URL such as https://api.example.com or http://127.0.0.1:8080."),
        )
    try:
        parts = urlsplit(text)
        port = parts.port
        host = parts.hostname
    except ValueError as exc:
        raise UsageError(_not_a_url(what, shown, exc), hint=_HINT) from exc
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise UsageError(
            msg(
                "The {what} {url} must start with https:// (or http:// for a loopback address)",
                what=what,
                url=shown,
            ),
            hint=_HINT,
        )
    if not host:
        raise UsageError(msg("The {what} {url} has no host name", what=what, url=shown), hint=_HINT)
    if not _valid_host(host):
        raise UsageError(
            msg(
                "The {what} {url} has an invalid host name {host}",
                what=what,
                url=shown,
                host=repr(host),
            ),
            hint=msg("Use an ASCII host name (punycode for international names) or an IP address."),
        )
    if parts.username is not None or parts.password is not None:
        raise UsageError(
            msg("The {what} {url} contains credentials", what=what, url=shown),
            hint=msg(
                "Remove them from the URL; keep the API key in an environment variable or keyring."
            ),
        )
    if not _NETLOC.match(parts.netloc):
        raise UsageError(
            msg(
                "The {what} {url} has an invalid host or port {netloc}",
                what=what,
                url=shown,
                netloc=repr(parts.netloc),
            ),
            hint=_HINT,
        )
    if "?" in text or "#" in text:  # even an empty query or fragment: the URL is not plain
        raise UsageError(
            msg("The {what} {url} must be a base URL without '?' or '#'", what=what, url=shown),
            hint=_PREFIX_HINT,
        )
    if port == 0:
        raise UsageError(msg("The {what} {url} has port 0", what=what, url=shown), hint=_HINT)
    loopback = is_loopback_host(host)
    if scheme == "http" and not loopback:
        raise UsageError(
            msg(
                "The {what} {url} uses plain http:// to a remote host; prompts and keys would "
                "travel unencrypted",
                what=what,
                url=shown,
            ),
            hint=_HINT,
        )
    path = plain_prefix(parts.path)
    if path is None:
        raise UsageError(
            msg(
                "The {what} {url} has a path {path} that is not a plain prefix: a URL joiner could "
                "read it as another server or another location",
                what=what,
                url=shown,
                path=repr(parts.path),
            ),
            hint=_PREFIX_HINT,
        )
    port = port or DEFAULT_PORTS[scheme]
    return ParsedEndpoint(
        url=f"{scheme}://{_netloc(scheme, host, port)}{path}",
        scheme=scheme,
        host=host,
        port=port,
        path=path,
        loopback=loopback,
    )
