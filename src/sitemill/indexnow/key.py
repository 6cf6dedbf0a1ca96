"""The IndexNow key: its syntax, its file, where engines read it, and that it is never shown."""
# The key proves the site's owner asked for an announcement: engines fetch ``<key>.txt`` from the
# site and compare. It is public on the site, but sitemill treats it as a secret all the same: no
# message, summary, log line or state holds it (``messages.redact`` hides a registered one).

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


def key_file_name(key: str) -> str:
    return f"{key}.txt"


@dataclass(frozen=True, slots=True)
class IndexNowTarget:
    """Where to announce, with which key, and where engines read the key file."""

    endpoint: str
    key: str = ""  # empty: none given (sending is refused, a dry run still shows the URLs)
    key_location: str | None = None  # None: <scheme>://<host>/<key>.txt for each host

    def __repr__(self) -> str:  # (the key never reaches a log through a repr)
        location = self.key_location
        if location is not None and self.key:
            location = location.replace(self.key, "***")  # the key file's URL names the key
        name = type(self).__name__
        return f"{name}(endpoint={self.endpoint!r}, key=***, key_location={location!r})"

    def location_for(self, origin: str) -> str:
        """The key file's URL for the host of ``origin`` (``scheme://host[:port]``)."""
        if self.key_location is not None:
            wanted = urlsplit(self.key_location)
            if f"{wanted.scheme}://{wanted.netloc}".lower() == origin.lower():
                return self.key_location
        return f"{origin}/{key_file_name(self.key)}"


def site_key_location(
    base_url: str, key: str, configured: str | None, *, written: bool
) -> str | None:
    """The key location to announce: the one configured; else, for a site below its host's
    root whose key file sitemill writes (so below the root too), that file, scoped to the
    site (engines then accept only URLs below the site's path, which are all it lists)."""
    if configured is not None or not written or urlsplit(base_url).path in ("", "/"):
        return configured
    return base_url + key_file_name(key)


def below_root_warning(base_url: str, key_location: str | None, *, written: bool) -> str | None:
    """A site served below its host's root (a GitHub Pages project site): engines read
    ``/<key>.txt`` at the host's root unless told, and some refuse a key file below it."""
    parts = urlsplit(base_url)
    if parts.path in ("", "/") or key_location is not None:
        return None
    root = f"{parts.scheme}://{parts.netloc}/<key>.txt"
    if written:
        return (
            f"the site is served below its host's root ({parts.path}): its key file is announced "
            f"as the keyLocation {base_url}<key>.txt, which engines accept only for URLs below "
            f"{parts.path}, and some refuse below a root; if announcements are refused, place a "
            f"key file at {root} and set indexnow_key_location to it"
        )
    return (
        f"the site is served below its host's root ({parts.path}): engines look for the IndexNow "
        f"key file at {root}; place it there, or set indexnow_key_location to "
        f"{base_url}<key>.txt (engines then accept only URLs below {parts.path}, and some refuse "
        "a key file below the root)"
    )
