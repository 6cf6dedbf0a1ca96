"""A suggested redirect, the host forms it is written in, and the limits of those forms."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

# An S3 website configuration holds at most 50 routing rules (PutBucketWebsite refuses more).
# https://docs.aws.amazon.com/AmazonS3/latest/userguide/how-to-page-redirect.html
MAX_ROUTING_RULES: Final = 50
# The redirect statuses a host serves; 301 is the default of every form.
REDIRECT_STATUSES: Final = frozenset({301, 302, 303, 307, 308})


@dataclass(frozen=True, slots=True)
class Redirect:
    """One removed URL and where it should lead.

    ``source`` is the removed URL's path on the site's host, percent-encoded as in the sitemap
    ("/docs/old/x.html", "/docs/old/"); ``target`` a path on the same host ("/docs/new/x/") or
    an absolute URL on another host.
    """

    source: str
    target: str
    status: int = 301

    def __post_init__(self) -> None:
        if self.status not in REDIRECT_STATUSES:
            raise ValueError(f"a redirect's status is one of {sorted(REDIRECT_STATUSES)}")


class RedirectForm(Enum):
    """The forms a host or a generator takes redirects in."""

    NETLIFY = "netlify"  # `_redirects` lines (Netlify and Cloudflare Pages: one syntax)
    S3_RULES = "s3-rules"  # S3 website RoutingRules (put-bucket-website's JSON)
    S3_OBJECTS = "s3-objects"  # objects with x-amz-website-redirect-location (a sh script)
    HUGO = "hugo"  # `aliases` front matter per target page
    MKDOCS = "mkdocs"  # mkdocs-redirects' `redirect_maps` (YAML)
    DOCUSAURUS = "docusaurus"  # @docusaurus/plugin-client-redirects' `redirects` (JSON)
    JEKYLL = "jekyll"  # jekyll-redirect-from's `redirect_from` per target page


def is_redirect_status(status: int) -> bool:
    """Whether a rule's status sends the reader elsewhere (3xx); 200 is a rewrite (the URL
    still serves content), 404/410 a custom not-found page."""
    return 300 <= status < 400
