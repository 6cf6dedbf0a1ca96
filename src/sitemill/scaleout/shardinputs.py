"""What every shard of a sharded bucket depends on: robots.txt, the global inputs' fingerprint."""
# The manifest keeps them: a change to them is a full rebuild (docs/s3-lambda.md, Sharded buckets).

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.config.model import Config, IndexNowMode
from sitemill.errors import RefusedError
from sitemill.filenames.outputs import ROBOTS_TXT
from sitemill.jobs.bucketsite import BucketSite
from sitemill.render.templatenames import MAX_TEMPLATE_BYTES
from sitemill.robots.rules import MAX_ROBOTS_TXT_BYTES, RobotsRules
from sitemill.safefs import read_regular
from sitemill.sources.s3 import read_missing_as_none

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


def bucket_robots(
    config: Config, client: S3Client, site: BucketSite
) -> tuple[bytes | None, RobotsRules | None]:
    """robots.txt's bytes when the configuration reads it, and its rules when it obeys them."""
    data = _robots_bytes(client, site) if _reads_robots(config) else None
    if not config.respect_robots_txt or data is None:
        return data, None
    return data, RobotsRules.parse(data.decode("utf-8", "replace"))


def _reads_robots(config: Config) -> bool:
    return config.respect_robots_txt or config.robots_txt


def _robots_bytes(client: S3Client, site: BucketSite) -> bytes | None:
    return read_missing_as_none(
        client, site.bucket, site.root + ROBOTS_TXT, limit=MAX_ROBOTS_TXT_BYTES
    )


def inputs_fingerprint(config: Config, robots: bytes | None) -> str:
    """A digest of what every shard depends on: the configuration (not where the state lives
    nor how many workers run), robots.txt's rules, the templates' files."""
    settings = replace(  # (nor whether or where IndexNow announces: no shard depends on it)
        config,
        workers=None,
        state=None,
        previous_state=None,
        indexnow=IndexNowMode.OFF,
        indexnow_endpoint="",
        indexnow_key_location=None,
        indexnow_write_key_file=False,
    )
    digest = hashlib.blake2b(repr(settings).encode("utf-8", "surrogateescape"), digest_size=16)
    if robots is None:
        digest.update(b"\0no robots.txt")
    else:  # its rules, not the Sitemap lines sitemill itself rewrites
        for line in robots.splitlines():
            if not line.strip().lower().startswith(b"sitemap:"):
                digest.update(b"\0robots\0" + line)
    if config.templates_dir is not None:
        folder = Path(config.templates_dir)
        for path in sorted(folder.glob("*.j2")) if folder.is_dir() else ():
            try:  # (a regular file only: never a link, a FIFO, a device)
                data = read_regular(path, MAX_TEMPLATE_BYTES, whole=True, follow_symlinks=False)
            except (OSError, RefusedError):
                data = b"\0unreadable"
            digest.update(b"\0" + path.name.encode("utf-8", "surrogateescape") + b"\0" + data)
    return digest.hexdigest()
