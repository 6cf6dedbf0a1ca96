"""The library's front door: the public runs, writing every output feature the config turns on."""
# The runs of sitemill.jobs write only the output features their front end passes down (the core
# names none, docs/architecture.md). The CLI, the Action and the Lambda pass the list; this module
# is the front end of a program that calls `sitemill.build_from_tree` and friends, so that such a
# caller gets `sitemap.html`, llms.txt and IndexNow's pending list when its config turns them on,
# as the CLI does.

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Final

from sitemill.jobs import tree, urllist
from sitemill.jobs.features import OUTPUTS, URL_LIST_OUTPUTS
from sitemill.jobs.tree import TreeAsked

# The tree's and the URL list's runs, with every output feature asked unless the caller says.
build_from_tree: Final = partial(tree.build_tree, asked=TreeAsked(outputs=OUTPUTS))
build_from_url_list: Final = partial(urllist.build_url_list, outputs=URL_LIST_OUTPUTS)

if TYPE_CHECKING:
    from sitemill.jobs import bucket

    # sitemill.jobs.bucket.build_bucket, asking every output feature by default.
    rebuild_bucket: Final = partial(bucket.build_bucket, outputs=OUTPUTS)


def __getattr__(name: str) -> object:
    """``rebuild_bucket``, made on first use (botocore loads for a bucket's run alone), then
    kept: one object however often it is asked."""
    if name != "rebuild_bucket":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from sitemill.jobs import bucket

    made = globals()[name] = partial(bucket.build_bucket, outputs=OUTPUTS)
    return made
