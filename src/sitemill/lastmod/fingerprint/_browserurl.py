"""A link's target as a browser reads it before it is followed (the WHATWG URL standard)."""
# Fingerprint version 13 (issue 79), for every target the fingerprint spells (fingerprint.targets:
# links, images, srcsets, share buttons' queries; fingerprint.structureddata: JSON-LD) and for the
# canonical a page declares its site's root by (fingerprint.declaredroot). A page is served over
# http(s), so its relative targets are read under a special scheme too. What the URL parser
# normalises (https://url.spec.whatwg.org/#concept-basic-url-parser), none of which a reader sees:
#
# - leading and trailing C0 controls and spaces are no part of a URL (tabs and newlines inside
#   it neither: fingerprint.targets.spaced_targets, version 7);
# - a scheme is read in lower case;
# - in a special scheme (http, https, ws, wss, ftp, file) a backslash before the query is a
#   slash: ``file:///C:\Users\me\site\preview/x/index.html``, which a Windows generator writes
#   for its preview, is ``file:///C:/Users/me/site/preview/x/index.html``, and ``..\img\a.png``
#   on a page is ``../img/a.png``;
# - after such a scheme, any run of slashes starts the host (``https:/host/x``, ``https:///host``),
#   but on a page of the same scheme only two or more do (``https:x`` and ``https:/x`` are
#   relative there, ``x`` and ``/x``); a host is read in lower case, its scheme's default port
#   left out (``HTTP://Host:80/x`` is ``http://host/x``); a ``file`` URL's host ``localhost`` is
#   none, and a Windows drive (``file://C:/x``) no host.
#
# Dot segments and percent-encoding are read where a target is spelled (fingerprint.targets); any
# other scheme (``mailto:``, ``data:``, ``javascript:``) is read as written.

from __future__ import annotations

import re
from typing import Final

# The special schemes and their default ports (the standard's list; file has none).
_DEFAULT_PORTS: Final = {"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}
_SPECIAL: Final = frozenset((*_DEFAULT_PORTS, "file"))
# A URL's scheme at the start of a target (RFC 3986 section 3.1); anywhere else a ":" is a path's
# (``;https://host/``, written without its scheme at the start, is a relative path: the site's own).
SCHEME: Final = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")
_DRIVE: Final = re.compile(r"[a-zA-Z][:|]")
_EDGES: Final = "".join(map(chr, range(0x21)))  # (C0 controls and the space)


def browser_read(value: str, base: str = "https") -> str:
    """A target ``value`` (as written, on a page served over ``base``, its scheme: http or
    https) as a browser reads it before following it (see above)."""
    value = value.strip(_EDGES)
    found = SCHEME.match(value)
    scheme = "" if found is None else found[0][:-1].lower()
    if found is not None and scheme not in _SPECIAL:
        return value  # (another scheme: as written)
    head, tail = split_at_query(value if found is None else value[found.end() :])
    if "\\" in head:
        head = head.replace("\\", "/")
    if not scheme:
        return head + tail
    if scheme == base and not head.startswith("//"):
        return head + tail  # (relative to a page of its own scheme)
    if scheme == "file" and not head.startswith("//"):
        return f"file:///{head.lstrip('/')}{tail}"
    if scheme == "file":
        authority, slash, path = head[2:].partition("/")
        if _DRIVE.fullmatch(authority):  # (``file://C:/x``: a Windows drive, no host)
            authority, slash, path = "", "/", head[2:]
    else:
        authority, slash, path = head.lstrip("/").partition("/")
    return f"{scheme}://{_host(authority, scheme)}{slash}{path}{tail}"


def split_at_query(value: str) -> tuple[str, str]:
    """A URL ``value`` cut where its query or fragment starts: what stands before, and the rest."""
    cut = len(value)
    for sign in "?#":
        at = value.find(sign)
        if 0 <= at < cut:
            cut = at
    return value[:cut], value[cut:]


def _host(authority: str, scheme: str) -> str:
    """A URL's ``authority`` (its user information kept) with its host in lower case and its
    ``scheme``'s default port left out; a file URL's ``localhost`` none."""
    user, at, host = authority.rpartition("@")
    host = host.lower()
    name, colon, port = host.rpartition(":")
    if colon and "]" not in port and port == _DEFAULT_PORTS.get(scheme):
        host = name
    if scheme == "file" and host == "localhost":
        host = ""
    return f"{user}{at}{host}"
