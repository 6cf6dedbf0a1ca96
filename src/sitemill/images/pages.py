"""The images of each listed page as its entry carries them, and what was left out, counted."""
# - Off-site images (on a host that is neither the site's nor one of ``image_hosts``) are counted
#   per host: one summary line for each of the hosts with the most, then one for the rest (a real
#   site left out 2,825 images of its CDN without a word).
# - In a tree (the job passes ``has_file``), an image on the site below ``base_url`` whose file the
#   site does not hold is left out and counted: a page that says ``algo.png`` when the file is
#   ``Algo.png`` shows a broken image on a web server, which compares names exactly.

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Final
from urllib.parse import urlsplit

from sitemill.bounded.dedupe import SeenUrls
from sitemill.config.model import Config
from sitemill.entries import Image
from sitemill.html.facts import PageFacts
from sitemill.html.imageurls import page_images, site_hosts
from sitemill.urls import site_file_path as image_path

# Off-site hosts counted one by one (a page of links to every site of the web stays bounded);
# images on further hosts are only counted together.
MAX_HOSTS_TRACKED: Final = 1_000
MAX_HOST_LINES: Final = 10  # off-site hosts named in a line of their own
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}

# Whether the site holds a file at a site path ("img/a.png"), named exactly so.
HasFile = Callable[[str], bool]


class PageImages:
    """Each page's listed images under ``config``, with the counts of what was left out."""

    def __init__(self, config: Config, has_file: HasFile | None = None) -> None:
        """``has_file``: whether the site holds a file at a site path (a tree knows)."""
        self.hosts = site_hosts(config.base_url, config.image_hosts)
        self.has_file = has_file
        # The site's root as image URLs write it (with a default port or without).
        self._bases = tuple(
            dict.fromkeys((config.base_url, _without_default_port(config.base_url)))
        )
        # Pages whose images were read: site chrome is a share of the listed ones.
        self.pages_read = SeenUrls()
        self.off_site: Counter[str] = Counter()
        self.off_site_untracked = 0  # images on hosts past MAX_HOSTS_TRACKED
        self.missing = 0
        self.missing_example = ""

    def of(self, path: str, loc: str, facts: PageFacts | None) -> tuple[Image, ...]:
        """The images the page at ``path`` (listed at ``loc``) shows, as its entry lists
        them."""
        if facts is None or facts.images is None:
            return ()
        self.pages_read.add(loc)
        if not facts.images:
            return ()
        found = page_images(facts.images, loc, facts.base, self.hosts, self._saw_off_site)
        if self.has_file is not None:
            found = tuple(url for url in found if self._in_site(url, path))
        return tuple(map(Image, found))

    def _saw_off_site(self, host: str) -> None:
        if host in self.off_site or len(self.off_site) < MAX_HOSTS_TRACKED:
            self.off_site[host] += 1
        else:
            self.off_site_untracked += 1

    def _in_site(self, url: str, page: str) -> bool:
        """Whether the image at ``url`` may be listed: its file is in the site, or it is
        not a file of the site's tree at all (a CDN, a path outside ``base_url``)."""
        assert self.has_file is not None
        site_path = next(filter(None, (image_path(url, base) for base in self._bases)), None)
        if site_path is None or self.has_file(site_path):
            return True
        self.missing += 1
        if not self.missing_example:
            self.missing_example = f"{url} on {page}"
        return False

    def messages(self) -> list[str]:
        """One summary line per kind of image left out (off-site: per host), with counts."""
        lines = []
        ranked = sorted(self.off_site.items(), key=lambda item: (-item[1], item[0]))
        for host, count in ranked[:MAX_HOST_LINES]:
            lines.append(
                f"left out {_images(count)} on {host} (not the site's host); add it to "
                "image_hosts to list them"
            )
        rest = ranked[MAX_HOST_LINES:]
        if rest or self.off_site_untracked:
            count = sum(count for _, count in rest) + self.off_site_untracked
            hosts = len(rest) + (1 if self.off_site_untracked else 0)
            more = f"{'at least ' if self.off_site_untracked else ''}{hosts:,} more host"
            lines.append(
                f"and {_images(count)} on {more}{'' if hosts == 1 else 's'} (not the site's host)"
            )
        if self.missing:
            lines.append(
                f"left out {_images(self.missing)} whose file is not in the site, e.g. "
                f"{self.missing_example} (a web server compares file names exactly: "
                "algo.png is not Algo.png)"
            )
        return lines


def _without_default_port(base_url: str) -> str:
    """``https://example.com:443/`` as image URLs write it: ``https://example.com/``."""
    parts = urlsplit(base_url)
    if parts.port is None or parts.port != _DEFAULT_PORTS.get(parts.scheme):
        return base_url
    netloc = parts.netloc.rpartition(":")[0]
    return base_url.replace(parts.netloc, netloc, 1)


def _images(count: int) -> str:
    return f"{count:,} image{'' if count == 1 else 's'}"
