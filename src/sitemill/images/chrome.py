"""Site chrome: images shown on (nearly) every page, such as a logo, an avatar or a theme's
banner, are the site's and no page's content, so they are left out of the image entries.

On one real site, 772 of 950 image entries were a logo and an avatar. An image is chrome when
more than ``image_chrome_share`` of the listed pages whose images were read show it, and at
least MIN_CHROME_PAGES do (a site of three pages has no chrome to speak of). Which images
those are is known only once every page was seen: ``count`` sees the entries go by, a stage
that holds them (sitemill.spool, or the hreflang clusters' spool) waits for the last one, and
``drop`` then takes the chrome out as they are written. Memory: a count per distinct image,
for at most MAX_IMAGES_COUNTED of them (an image first seen after that is never chrome).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from sitemill.dedupe import SeenUrls
from sitemill.entries import Entry

MIN_CHROME_PAGES: Final = 20  # an image on fewer pages than this is never site chrome
MAX_IMAGES_COUNTED: Final = 100_000  # distinct images counted (about 150 bytes each)


class SiteChrome:
    """Counts the pages that show each image, then leaves out the chrome."""

    def __init__(self, share: float, pages_read: SeenUrls) -> None:
        """``pages_read``: the listed pages whose images were read (the pages that count)."""
        self.share = share
        self.pages_read = pages_read
        self.pages = 0  # listed pages whose images were read
        self.uncounted = 0  # image entries of images past MAX_IMAGES_COUNTED
        self.chrome: dict[str, int] = {}  # chrome image -> the pages that show it
        self.left_out = 0  # image entries left out
        self._counts: dict[str, int] = {}
        self._counted = False

    def count(self, entries: Iterable[Entry]) -> Iterator[Entry]:
        """``entries`` as they come, counting the pages each image is shown on."""
        counts, pages_read = self._counts, self.pages_read
        for entry in entries:
            if entry.loc in pages_read:
                self.pages += 1
                for image in entry.images:  # (each image is once in an entry)
                    url = image.loc
                    if url in counts:
                        counts[url] += 1
                    elif len(counts) < MAX_IMAGES_COUNTED:
                        counts[url] = 1
                    else:
                        self.uncounted += 1
            yield entry
        self._counted = True

    def drop(self, entries: Iterable[Entry]) -> Iterator[Entry]:
        """``entries`` without their chrome images. The first entry must come only once
        ``count`` saw the last (a spool between them waits for it)."""
        chrome: frozenset[str] | None = None
        for entry in entries:
            if chrome is None:
                chrome = self._decide()
            if chrome and entry.images:
                kept = tuple(image for image in entry.images if image.loc not in chrome)
                if len(kept) < len(entry.images):
                    self.left_out += len(entry.images) - len(kept)
                    entry = entry._replace(images=kept)
            yield entry

    def _decide(self) -> frozenset[str]:
        if not self._counted:
            raise RuntimeError("site chrome is decided only once every page was counted")
        threshold = self.share * self.pages
        self.chrome = {
            url: shown
            for url, shown in self._counts.items()
            if shown >= MIN_CHROME_PAGES and shown > threshold
        }
        self._counts = {}
        return frozenset(self.chrome)

    def messages(self) -> list[str]:
        """The summary: the chrome left out with an example, and whether counting stopped."""
        lines = []
        if self.chrome:
            example, most = min(self.chrome.items(), key=lambda item: (-item[1], item[0]))
            least = min(self.chrome.values())
            shown = f"{most:,}" if least == most else f"{least:,} to {most:,}"
            many = len(self.chrome)
            lines.append(
                f"left out {many:,} site-chrome image{'' if many == 1 else 's'} shown on "
                f"{shown} of {self.pages:,} pages (e.g. {example}); keep_image_chrome = true "
                f"keeps {'it' if many == 1 else 'them'}"
            )
        if self.uncounted:
            lines.append(
                f"looked for site chrome among the first {MAX_IMAGES_COUNTED:,} distinct "
                f"images only: {self.uncounted:,} image entries of later ones were kept "
                "uncounted"
            )
        return lines
