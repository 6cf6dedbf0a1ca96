"""What a state remembers of the user's sitemaps: those found by name, robots.txt lines written."""
# Both are input from outside when read back (a state beside the sitemaps is public, and so are
# these: the index and robots.txt name them anyway). A found name is only read, and named only
# while that file is a sitemap (sitemill.writing.usersitemaps); a robots.txt line sitemill wrote is
# one a later run may remove (sitemill.robots.lines): only an http(s) URL of printable characters.

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from sitemill.filenames.outputs import is_users_file_name
from sitemill.protocol import MAX_URL_LENGTH

MAX_NAMES: Final = 200_000  # (state.model.MAX_OUTPUTS)


def user_sitemaps_to_json(
    document: dict[str, Any], found: frozenset[str], robots: frozenset[str]
) -> None:
    """Put the found names and the robots.txt lines written in a state's ``document``."""
    if found:
        document["user_sitemaps"] = sorted(found)
    if robots:
        document["robots_sitemaps"] = sorted(robots)


def user_sitemaps_from_json(document: dict[str, Any]) -> tuple[frozenset[str], frozenset[str]]:
    """The found names and the robots.txt lines written; each list dropped whole when any
    of it is not what sitemill writes."""
    found = _valid_names(document.get("user_sitemaps"), _user_sitemap_name)
    return found, _valid_names(document.get("robots_sitemaps"), _robots_url)


def _valid_names(value: object, good: Callable[[str], bool]) -> frozenset[str]:
    """The strings of the list ``value``; none when it is no list, too long, or any item is
    not ``good``."""
    if not isinstance(value, list) or len(value) > MAX_NAMES:
        return frozenset()
    names = [name for name in value if isinstance(name, str)]
    if len(names) != len(value) or not all(map(good, names)):
        return frozenset()
    return frozenset(names)


def _user_sitemap_name(name: str) -> bool:
    no_surrogate = name.encode("utf-8", "ignore").decode("utf-8") == name
    return is_users_file_name(name) and no_surrogate


def _robots_url(url: str) -> bool:
    return (
        url.startswith(("http://", "https://"))
        and len(url) <= MAX_URL_LENGTH
        and url.isprintable()
        and " " not in url
        and "#" not in url
    )
