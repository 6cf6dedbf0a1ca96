"""What a shard rendered apart may ask of the others: is a URL listed, what its page declares."""
# Asked of the others as the last build left them, one build behind (docs/distributed.md, What it
# does not do).

from __future__ import annotations

from typing import Protocol

from sitemill.entries import Alternate


class OtherShards(Protocol):
    """The site's other shards, by URL key (sitemill.html.links.url_key)."""

    def lists(self, key: str) -> bool:
        """Whether another shard lists the page with this key."""
        ...

    def page(self, key: str) -> tuple[str, tuple[Alternate, ...]] | None:
        """The URL another shard lists for this key and the alternates its page declares
        (as (hreflang, URL key)), or None."""
        ...

    def redirect(self, key: str) -> tuple[str, str] | None:
        """The URL of a redirect stub with this key in another shard and the URL it leads
        to, or None."""
        ...
