"""`{"action": "diff"}`: what the bucket's next rebuild would add, change and remove."""
# The rebuild as a dry run from the stack's state (commands.diff): nothing is written. A
# partitioned state is diffed by the same run dry from every shard's pages at once when it fits the
# function (at most MAX_TOUCHED shards); a larger one is refused in one line. Each list of the
# answer (diff.model.diff_to_json) is bounded to MAX_URLS_ANSWERED items; the counts are every
# URL's. A malformed event or a failure is status "error" and one line, never a traceback.

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from sitemill.aws._command import CommandInputs, ManualCommand, read_keys
from sitemill.commands.diff import BucketDiff, diff_bucket, diff_partitioned
from sitemill.config.model import Config
from sitemill.diff.model import diff_to_json
from sitemill.errors import DiffError
from sitemill.jobs.asked import RunAsked
from sitemill.jobs.bucketsite import BucketSite, open_partitioned
from sitemill.jobs.features import OUTPUTS
from sitemill.state.previous import open_previous
from sitemill.state.store import open_state_store

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)
# Items of each list (added, changed, removed) an answer holds at most: a Lambda's answer is
# 6 MB at most, and a restructure of a large site removes tens of thousands of URLs.
MAX_URLS_ANSWERED: Final = 1_000
DIFF_TOO_BIG: Final = (
    "this site's rebuild does not fit one function ({why}): its diff is not supported yet "
    "(the rebuild runs on the state machine)"
)


def _answer(command: CommandInputs, _: None, context: object) -> dict[str, Any]:
    bucket = command.bucket
    found = _diff(command.config, command.client, command.settings.site.site(bucket))
    report = diff_to_json(found.diff)
    answer: dict[str, Any] = {"status": "ok", "bucket": bucket, **cut_lists(report)}
    answer["requests"] = dict(sorted(found.report.requests.items()))
    if found.report.warnings:
        answer["warnings"] = found.report.warnings[:20]
    log.info("%s", json.dumps({"status": "ok", "bucket": bucket, "counts": report["counts"]}))
    return answer


def _diff(config: Config, client: S3Client, site: BucketSite) -> BucketDiff:
    """The bucket's diff, from its one state object or its partitioned state."""
    partitioned = open_partitioned(config, client, site)
    if partitioned is not None:  # (the function's size: the wing's measure of a rebuild)
        from sitemill.scaleout.partitioned import MAX_TOUCHED, too_big

        why = too_big(config, client, site, partitioned.read_manifest().plan, MAX_TOUCHED)
        if why is not None:
            raise DiffError(DIFF_TOO_BIG.format(why=why))
    store = open_state_store(config, s3_client=lambda: client)
    asked = RunAsked(OUTPUTS, state_store=store, previous=open_previous(config))
    if partitioned is None:
        return diff_bucket(config, client, site, asked)
    return diff_partitioned(config, site, partitioned, asked)  # (its manifest: read once)


def cut_lists(report: dict[str, Any]) -> dict[str, Any]:
    """The report with each list cut to its first MAX_URLS_ANSWERED items (``listed_at_most`` says
    so when one was cut; ``counts`` are every URL's)."""
    lists = ("added", "changed", "removed")
    cut = {name: report[name][:MAX_URLS_ANSWERED] for name in lists}
    if any(len(report[name]) > MAX_URLS_ANSWERED for name in lists):
        cut["listed_at_most"] = MAX_URLS_ANSWERED
    return report | cut


def _read(event: Mapping[str, Any]) -> None:
    read_keys(event, "diff", ("action", "bucket"))


# The change report of the function's bucket against its state (status ok or error).
handle_diff: Final = ManualCommand("diffs", _read, _answer, log)
