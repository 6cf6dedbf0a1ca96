"""A bucket's pages as a crawler meets them: HTML objects' facts, objects' website redirects."""
# An HTML object's facts come from one ranged GET. A website redirect
# (``x-amz-website-redirect-location``: S3 website hosting answers it with a 301) is a redirect stub
# like a meta refresh; an empty object (its usual form) is skipped by the listing and asked (one
# HEAD) only when a canonical names it (docs/pages.md, "Canonicals that name a redirect stub").

from __future__ import annotations

from collections.abc import Callable, Container
from typing import TYPE_CHECKING, Final
from urllib.parse import unquote

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.errors import SourceError
from sitemill.html.facts import PAGE_FACTS_BYTES, PageFacts, read_page_facts, with_images
from sitemill.html.links import url_key
from sitemill.lastmod.fingerprint.versions import MAX_FINGERPRINT_BYTES
from sitemill.sources.s3 import describe_error, is_not_found, read_missing_as_none

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

_PAGE_SUFFIXES: Final = (".html", ".htm")
_INDEX_NAMES: Final = ("index.html", "index.htm")


def read_page(
    client: S3Client,
    bucket: str,
    key: str,
    fingerprint: Callable[[bytes], str] | None,
    *,
    images: bool = False,
    titles: bool = False,
    seen: Callable[[bytes], None] | None = None,
) -> tuple[PageFacts, str | None] | None:
    """The facts of an HTML object (its first PAGE_FACTS_BYTES: one ranged GET; its title
    with ``titles``) and, with ``fingerprint``, the fingerprint of its content, with
    ``images`` the images it shows (then the GET reads the object, up to MAX_FINGERPRINT_BYTES);
    None when the object is gone since it was listed (its deletion brings another rebuild).
    An object with a website redirect is a redirect stub to it, whatever its bytes say.
    ``seen`` is given the bytes read (a first run's declared dates are read from them)."""
    limit = PAGE_FACTS_BYTES if fingerprint is None and not images else MAX_FINGERPRINT_BYTES
    redirect: list[str] = []
    data = read_missing_as_none(client, bucket, key, limit=limit, redirect=redirect)
    if data is None:
        return None
    if seen is not None:
        seen(data)
    printed = None if fingerprint is None else fingerprint(data)
    if redirect:  # (read as complete: nothing of its bytes is shown)
        title = "" if titles else None
        shown = () if images else None
        facts = PageFacts(refresh=redirect[0], images=shown, title=title, website_redirect=True)
        return facts, printed
    facts = read_page_facts(data[:PAGE_FACTS_BYTES], titles=titles)
    if images and facts.document:
        facts = with_images(facts, data)
    return facts, printed


def key_paths(rest: str) -> tuple[str, ...]:
    """The keys (relative to the site root) whose URL key ends in ``rest``, decoded."""
    stem = unquote(rest, errors="surrogateescape")
    if not stem or stem.endswith("/"):
        return tuple(stem + name for name in _INDEX_NAMES)
    return (
        *(stem + suffix for suffix in _PAGE_SUFFIXES),
        stem,
        *(f"{stem}/{name}" for name in _INDEX_NAMES),
    )


class WebsiteRedirects:
    """The website redirect of the empty object at a URL, asked lazily (a HEAD each)."""

    def __init__(
        self,
        client: S3Client,
        bucket: str,
        root: str,
        empty: Container[str],
        site_url: str,
    ) -> None:
        self.client, self.bucket, self.root = client, bucket, root
        self.empty = empty  # the empty objects of the listing, relative to ``root``
        # A website redirect names "/..." or an http(s) URL (S3 refuses any other), so it
        # resolves alike against every URL of the site: against its root here.
        self.site_url = site_url
        self.site_key = url_key(site_url)
        self.asked = 0

    def __call__(self, key: str) -> tuple[str, str] | None:
        """The URL of the empty object that is the page ``key`` and where it redirects (as
        written), or None: no such object, or no redirect."""
        if not key.startswith(self.site_key):
            return None
        for path in key_paths(key[len(self.site_key) :]):
            if path in self.empty:
                location = self._location(path)
                return None if location is None else (self.site_url, location)
        return None

    def _location(self, path: str) -> str | None:
        self.asked += 1
        key = self.root + path
        try:
            found = self.client.head_object(Bucket=self.bucket, Key=key)
        except ClientError as exc:
            if is_not_found(exc):
                return None  # deleted since it was listed
            raise SourceError(
                f"cannot read s3://{self.bucket}/{key}: {describe_error(exc)}"
            ) from exc
        except BotoCoreError as exc:
            raise SourceError(
                f"cannot read s3://{self.bucket}/{key}: {describe_error(exc)}"
            ) from exc
        return found.get("WebsiteRedirectLocation") or None
