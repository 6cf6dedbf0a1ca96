"""Whether a full rebuild fits the router's own function, or goes to the distributed rebuild."""
# A site of at most ``max_shards`` shards' worth of pages is rebuilt in it, so that a small site's
# first rebuild answers with its URLs; a bigger one goes to the distributed rebuild
# (docs/distributed.md, When it runs).
#
# With a plan, its shard count decides (the last full build's listing, cut by the cut rule). Without
# one, the bucket is listed and its pages counted (the keys ``include``, ``exclude`` and the
# built-in excludes leave in), and the listing stops as soon as the answer is known: past
# ``max_shards * shard_fill`` pages, or past twice as many keys of any kind (a bucket of images with
# few pages hands over too, after a bounded listing: 1,601 LISTs at most with the defaults, about a
# minute, never the whole of a huge bucket).

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from sitemill.config.model import Config
from sitemill.jobs.bucketsite import BucketSite
from sitemill.rules import is_page_candidate
from sitemill.shards.plan import Plan
from sitemill.sources.s3 import list_objects

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

# Keys listed per page of the bound before the count stops (assets, images, feeds...).
KEYS_PER_PAGE: Final = 2


def too_big(
    config: Config, client: S3Client, site: BucketSite, plan: Plan | None, max_shards: int
) -> str | None:
    """Why a full rebuild of ``site`` does not fit the function (None: it fits)."""
    if plan is not None:
        shards = len(plan.afters)
        return f"{shards} shards, more than {max_shards}" if shards > max_shards else None
    pages_bound = max_shards * config.shard_fill
    keys_bound = pages_bound * KEYS_PER_PAGE
    pages = 0
    for keys, listed in enumerate(list_objects(client, site.bucket, site.root), start=1):
        path = listed.get("Key", "")[len(site.root) :]
        if is_page_candidate(config, path):
            pages += 1
            if pages > pages_bound:
                worth = f"{max_shards} shard{'' if max_shards == 1 else 's'}"
                return (
                    f"no plan yet, and more than {pages_bound:,} pages "
                    f"({worth} of {config.shard_fill:,} the function takes)"
                )
        if keys > keys_bound:
            return f"no plan yet, and more than {keys_bound:,} objects under the prefix"
    return None
