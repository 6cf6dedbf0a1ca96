"""How llms.txt's kin read a listed page (a tree's, a bucket's), and which files are theirs."""

from __future__ import annotations

import hashlib
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.errors import ConfigError
from sitemill.lastmod.fingerprint.versions import MAX_FINGERPRINT_BYTES
from sitemill.safefs import Root
from sitemill.state.model import State
from sitemill.writing.llmsoutputs import LlmsSetup

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.jobs.bucketsite import BucketSite


def tree_llms_setup(
    config: Config, site_dir: Path, known: State | None, remember: State
) -> LlmsSetup:
    """A page read inside the site root (no link out of it), as much as a fingerprint reads;
    its fingerprint as the run keeps it (``remember``), when the run keeps a state."""
    pages = TreePages(site_dir)
    if known is None:
        if config.llms_pages:  # (no record of the twins: one of a page gone hidden would stay)
            raise ConfigError(
                "llms_pages",
                "needs the state a build keeps to know which twins it wrote (their pages may "
                'go): turn content dates on (content_dates = true, a lastmod other than "none")',
            )
        return LlmsSetup(pages, parallel=True)
    printed = partial(_tree_print, pages, remember)
    return LlmsSetup(pages, known.llms, printed, known.llms_source, parallel=True)


class TreePages:
    """A tree's page by its key: a callable that pickles (the conversion's worker processes
    read the pages they convert)."""

    def __init__(self, site_dir: Path) -> None:
        self.site_dir = site_dir

    def __call__(self, key: str) -> bytes | None:
        return Root(self.site_dir).read(key, MAX_FINGERPRINT_BYTES)


def bucket_llms_setup(
    client: S3Client, site: BucketSite, known: State, remember: State
) -> LlmsSetup:
    """A page read by one GET of as much as a fingerprint reads."""
    from sitemill.sources.s3 import read_object

    def page_bytes(key: str) -> bytes | None:
        return read_object(client, site.bucket, site.root + key, limit=MAX_FINGERPRINT_BYTES)

    return LlmsSetup(page_bytes, known.llms, partial(_bucket_print, remember), known.llms_source)


# What a page's Markdown is made from, as markdown_source_digest takes it: the version of its
# bytes (a bucket's ETag; a tree's MD5: a file is read again, as cheap as a state's blob is not at
# hand) and its content fingerprint, which no markup counts (a heading made a list item moves none).
def _bucket_print(state: State, key: str) -> str | None:
    record = state.pages.get(key)
    if record is None or record.fingerprint is None or record.version is None:
        return None
    return f"{record.version} {record.fingerprint}"


def _tree_print(pages: TreePages, state: State, key: str) -> str | None:
    record = state.pages.get(key)
    data = None if record is None or record.fingerprint is None else pages(key)
    if record is None or data is None:
        return None
    return f"{hashlib.md5(data, usedforsecurity=False).hexdigest()} {record.fingerprint}"
