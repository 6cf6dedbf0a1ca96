"""Which changes of an event concern a bucket's sitemaps, and which bucket to rebuild."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sitemill.aws.events import ObjectChange, Trigger
from sitemill.config.model import Config
from sitemill.errors import ConfigError
from sitemill.filenames.outputs import (
    HTML_SITEMAP,
    ROBOTS_TXT,
    STAGING_NAME,
    STATE_NAME,
    is_own_name,
    is_sitemap_file,
)
from sitemill.rules import is_page_candidate


@dataclass
class Selection:
    """The changes that matter for one bucket's sitemaps, and why the others do not."""

    buckets: set[str] = field(default_factory=set)
    relevant: int = 0
    sitemap_deletions: int = 0  # of the relevant: deletions of sitemill's own files
    paths: list[str] = field(default_factory=list)  # the relevant pages' paths (not own files)
    own_deleted: list[str] = field(default_factory=list)  # sitemill's own files deleted
    # sitemill's sitemap files and indexes written (by whom: sitemill.aws._overwritten), and
    # those of them found not to hold the bytes sitemill published (relevant then).
    own_written: list[ObjectChange] = field(default_factory=list)
    own_replaced: list[str] = field(default_factory=list)
    ignored: Counter[str] = field(default_factory=Counter)


def select_changes(
    changes: Iterable[ObjectChange],
    *,
    bucket: str | None,
    root: str,
    affects_sitemaps: Callable[[str], bool],
) -> Selection:
    """Keep changes in ``bucket`` (any when None) under ``root`` that can change a sitemap.

    Writing sitemill's own outputs (the state too) is left out, so that a rebuild cannot
    trigger another; a write of one of its sitemap files is kept aside in ``own_written``
    (is it the file sitemill published? sitemill.aws._overwritten). Deleting a sitemap
    counts: ``aws s3 sync --delete`` of a build without sitemaps removes the live ones, and
    the rebuild puts them back. A deletion sitemill made
    itself (a stale child) costs one more rebuild, which finds everything in place, so
    writes and deletes nothing, and the chain ends there. Deleting the state changes no
    sitemap (sitemill never deletes it; the next rebuild reads every page and writes it), nor
    does deleting a staging copy (a publish deletes its own once the final index is live).
    """
    selection = Selection()
    for change in changes:
        path = change.key[len(root) :]
        # (sitemap.html is the user's page while html_sitemap is off: a candidate then)
        own = "/" not in path and is_own_name(path)
        own = own and not (path == HTML_SITEMAP and affects_sitemaps(path))
        if bucket is not None and change.bucket != bucket:
            reason = "other_bucket"
        elif not change.key.startswith(root):
            reason = "outside_prefix"
        elif own and not change.deleted:
            reason = "own_output"  # (unless another writer's: aws.overwritten)
            if is_sitemap_file(path):
                selection.own_written.append(change)
        elif own and path == STATE_NAME:
            reason = "state_deleted"
        elif own and STAGING_NAME.fullmatch(path):
            reason = "staging_deleted"  # a copy no build needs any more: no sitemap changed
        elif not own and not affects_sitemaps(path):
            reason = "not_a_page"
        else:
            selection.relevant += 1
            selection.sitemap_deletions += int(own)
            (selection.own_deleted if own else selection.paths).append(path)
            selection.buckets.add(change.bucket)
            continue
        selection.ignored[reason] += 1
    return selection


def affects_sitemaps(config: Config, path: str) -> bool:
    """Whether a change of ``path`` can change the sitemaps: robots.txt, or a candidate page."""
    if path == ROBOTS_TXT:
        return config.respect_robots_txt
    return is_page_candidate(config, path)


def choose_bucket(trigger: Trigger, configured: str | None, selection: Selection) -> str | None:
    """The bucket to rebuild (``configured``: SITEMILL_BUCKET), or None when nothing in the
    event asks for a rebuild."""
    if trigger.rebuild:
        if configured and trigger.bucket and trigger.bucket != configured:
            raise ConfigError(
                "bucket", f"this function rebuilds {configured} (SITEMILL_BUCKET) only"
            )
        bucket = configured or trigger.bucket
        if bucket is None:
            raise ConfigError("bucket", 'give "bucket" in the event or set SITEMILL_BUCKET')
        return bucket
    if not selection.relevant:
        return None
    if len(selection.buckets) > 1:
        names = ", ".join(sorted(selection.buckets))
        raise ConfigError("bucket", f"events from several buckets ({names}); set SITEMILL_BUCKET")
    return configured or next(iter(selection.buckets))
