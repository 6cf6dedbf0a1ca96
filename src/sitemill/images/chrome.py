"""Site chrome: images shown on (nearly) every page, left out of the image entries."""
# Images such as a logo, an avatar or a theme's banner are the site's and no page's content. An
# image is chrome when more than ``image_chrome_share`` of the listed pages whose images were read
# show it, and at least MIN_CHROME_PAGES do. That is known only once every page was seen: ``count``
# sees the entries go by, a stage that holds them (sitemill.bounded.spool, or the hreflang clusters'
# spool) waits for the last one, and ``drop`` takes the chrome out as they are written. Memory: a
# count per distinct image, for at most MAX_IMAGES_COUNTED of them.
#
# Per language (``/img/logo.svg`` on every English page, ``/fr/img/logo.svg`` on every French one):
# the share is counted among the pages of the image's own language (its hreflang cluster's, else
# its language folder's, else its ``<html lang>``); languages under MIN_LANGUAGE_PAGES pages and
# pages of none count together as one more. A site with fewer than two languages counts as one.

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Iterator
from typing import Final

from sitemill.alternates.declared import cluster_language
from sitemill.bounded.dedupe import SeenUrls
from sitemill.entries import Entry

MIN_CHROME_PAGES: Final = 20  # an image on fewer pages than this is never site chrome
# A language of fewer pages has no chrome of its own (no image is on MIN_CHROME_PAGES of
# them): its pages are counted with those of no known language, and it makes no site
# multilingual (a stray translated page leaves the share counted over the whole site).
MIN_LANGUAGE_PAGES: Final = MIN_CHROME_PAGES
MAX_IMAGES_COUNTED: Final = 100_000  # distinct images counted (about 250 bytes each)
MAX_LANGUAGES_NAMED: Final = 8  # languages named in the summary line
_OTHER: Final = ""  # the group of the pages of no language of its own


class SiteChrome:
    """Counts the pages that show each image, per language, then leaves out the chrome."""

    def __init__(self, share: float, pages_read: SeenUrls) -> None:
        """``pages_read``: the listed pages whose images were read (the pages that count)."""
        self.share = share
        self.pages_read = pages_read
        self.pages = 0  # listed pages whose images were read
        self.uncounted = 0  # image entries of images past MAX_IMAGES_COUNTED
        self.chrome: dict[str, int] = {}  # chrome image -> the pages that show it
        self.languages: dict[str, int] = {}  # languages of their own -> their pages (2+)
        self.left_out = 0  # image entries left out
        self._pages_in: Counter[str] = Counter()  # language -> its pages ("": none known)
        self._counts: dict[str, int] = {}
        self._language: dict[str, str] = {}  # image -> the language of its first page
        self._mixed: dict[str, set[str]] = {}  # image -> its languages, when more than one
        self._counted = False

    def count(self, entries: Iterable[Entry]) -> Iterator[Entry]:
        """``entries`` as they come, counting the pages each image is shown on. A page's
        language is its cluster's (once resolved), else the one the entry carries."""
        counts, pages_read, first = self._counts, self.pages_read, self._language
        for entry in entries:
            if entry.loc in pages_read:
                self.pages += 1
                language = cluster_language(entry) or entry.language
                self._pages_in[language] += 1
                for image in entry.images:  # (each image is once in an entry)
                    url = image.loc
                    if url in counts:
                        counts[url] += 1
                        if first[url] != language:
                            self._mixed.setdefault(url, {first[url]}).add(language)
                    elif len(counts) < MAX_IMAGES_COUNTED:
                        counts[url] = 1
                        first[url] = language
                    else:
                        self.uncounted += 1
            yield entry
        self._counted = True

    def look(self, entries: Iterator[Entry]) -> None:
        """Counts ``entries`` all (shown them by a stage that holds them: the clusters')."""
        deque(self.count(entries), maxlen=0)

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
        own = {
            language: pages
            for language, pages in self._pages_in.items()
            if language and pages >= MIN_LANGUAGE_PAGES
        }
        self.languages = own if len(own) >= 2 else {}
        among = self._pages_among
        self.chrome = {
            url: shown
            for url, shown in self._counts.items()
            if shown >= MIN_CHROME_PAGES and shown > self.share * among(url)
        }
        self._counts, self._language, self._mixed = {}, {}, {}
        return frozenset(self.chrome)

    def _pages_among(self, url: str) -> int:
        """The pages an image's share is counted among: those of its languages."""
        own = self.languages
        if not own:
            return self.pages
        shown_in = self._mixed.get(url) or (self._language[url],)
        groups = {language if language in own else _OTHER for language in shown_in}
        other = self.pages - sum(own.values())
        return sum(own.get(group, other) for group in groups)

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
                f"{shown} of {self.pages:,} pages{self._per_language()} (e.g. {example}); "
                f"keep_image_chrome = true keeps {'it' if many == 1 else 'them'}"
            )
        if self.uncounted:
            lines.append(
                f"looked for site chrome among the first {MAX_IMAGES_COUNTED:,} distinct "
                f"images only: {self.uncounted:,} image entries of later ones were kept "
                "uncounted"
            )
        return lines

    def _per_language(self) -> str:
        """ ", most of their language's (en 193, fr 193)" when counted per language."""
        if not self.languages:
            return ""
        ranked = sorted(self.languages.items(), key=lambda item: (-item[1], item[0]))
        named = ", ".join(
            f"{language} {pages:,}" for language, pages in ranked[:MAX_LANGUAGES_NAMED]
        )
        more = len(ranked) - MAX_LANGUAGES_NAMED
        named += f" and {more:,} more" if more > 0 else ""
        return f", most of their language's ({named})"
