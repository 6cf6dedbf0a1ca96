"""The `diff` command's run: a site's build as a dry run, compared with the state it starts from."""
# A site directory (diff_tree): the ordinary build into memory from the state compared against, so
# its dates are the real build's; its redirects read where a removed URL's file would be and in the
# host's rules. `sitemill build --dry-run` (preview_tree) is the same dry build over the output
# folder's files (an overlay), from the state the build would start from. A bucket (diff_bucket):
# the ordinary rebuild writing nothing, not the state either, asking the bucket only where a removed
# URL leads (jobs.bucketremoved); a state kept in parts is the same run from every shard's pages in
# one (jobs.bucketsite.partitioned_start).

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.config.model import Config, LastmodMode
from sitemill.diff.model import SiteDiff
from sitemill.diff.suggested import Suggested, suggest
from sitemill.errors import DiffError, StateError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.asked import SITEMAPS_ALONE, RunAsked
from sitemill.jobs.bucketsite import open_partitioned, partitioned_start
from sitemill.jobs.removedpages import diff_states
from sitemill.jobs.siteredirects import site_redirects, stub_page
from sitemill.redirects import RedirectForm, detect_generator, form_for
from sitemill.report import Report
from sitemill.safefs import Root
from sitemill.sinks.folders import OverlaySink
from sitemill.sinks.port import MemorySink, Sink
from sitemill.state.model import State
from sitemill.state.parse import parse_state
from sitemill.state.previous import PreviousState
from sitemill.state.store import SinkStateStore

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.jobs.bucket import BucketSite
    from sitemill.state.partitioned import PartitionedStore

log = logging.getLogger(__name__)


@dataclass
class TreeDiff:
    """A diff's report, the build it made and what it compared."""

    diff: SiteDiff
    report: Report
    before: State
    after: State
    generator: str | None = None  # what the home page names (<meta name="generator">)

    def suggested(
        self, base_url: str, form: RedirectForm | None, file_name: str | None = None
    ) -> Suggested | None:
        """A redirect for each renamed URL, in ``form``, else in the form of the redirects file
        ``file_name`` names or of the generator the home page names, else as `_redirects`
        lines (redirects.form_for); None when the report suggests none."""
        chosen = form or form_for(file_name, self.generator, bucket=False)
        return suggest(self.diff, base_url, chosen)


def diff_tree(
    config: Config, site_dir: Path, against: PreviousState, asked: RunAsked = SITEMAPS_ALONE
) -> TreeDiff:
    """The change report of the site directory against the state ``against`` names (its
    dry build as the front end ``asked``: its progress, the outputs it lists)."""
    _keeps_state(config)
    data, before = _compared(against, config.base_url)
    dry = replace(config, llms_full=False, llms_pages=False)  # (no page read again for Markdown)
    report, written = _dry_build(dry, site_dir, MemorySink(), data, asked)
    return _diff_of(config, site_dir, report, (before, data, written))


@dataclass
class TreePreview:
    """What a build would do (`sitemill build --dry-run`): its report, the files it would
    write and delete (``sink`` holds them), whether its state would change, and its change
    report against that state (None: there is none yet, a first run)."""

    report: Report
    sink: OverlaySink
    state_changed: bool
    diff: TreeDiff | None


def preview_tree(
    config: Config,
    site_dir: Path,
    out: Sink,
    against: PreviousState | None,
    asked: RunAsked = SITEMAPS_ALONE,
    *,
    output_dir: Path | None = None,
) -> TreePreview:
    """The whole build of the site directory into ``out`` (its sitemaps as they are there)
    from the state ``against`` names, the dry run `diff` makes as ``asked``: nothing is
    written."""
    data = None if against is None else against.read()  # (None: a first run, as the build's)
    sink = OverlaySink(out)
    report, written = _dry_build(config, site_dir, sink, data, asked, output_dir)
    changed = written is not None and written != data
    before = _parsed(data)
    diff = None
    if before is not None and data is not None and before.base_url in (None, config.base_url):
        diff = _diff_of(config, site_dir, report, (before, data, written))
    return TreePreview(report, sink, changed, diff)


def _parsed(data: bytes | None) -> State | None:
    """The state in ``data``; None when there is none or it is no state (the build itself
    warns of that and starts over)."""
    try:
        return None if data is None else parse_state(data)
    except StateError:
        return None


def _keeps_state(config: Config) -> None:
    if not config.content_dates or config.lastmod is LastmodMode.NONE:
        raise DiffError(
            "diff compares the states builds keep, and a build with content_dates = false or "
            'lastmod = "none" keeps none: turn content dates on (the default)'
        )


def _dry_build(
    config: Config,
    site_dir: Path,
    sink: Sink,
    data: bytes | None,
    asked: RunAsked,
    output_dir: Path | None = None,
) -> tuple[Report, bytes | None]:
    """The ordinary build with nothing written: into ``sink``, from the state ``data`` (None:
    a first run); its report and the state it would write."""
    from sitemill.jobs.tree import build_tree  # (Jinja, the workers: here)

    kept = MemorySink({} if data is None else {STATE_NAME: data})  # (what it would write)
    dry = replace(asked, dry_run=True, state_store=SinkStateStore(kept), previous=None)
    report = build_tree(config, site_dir, sink, dry, output_dir=output_dir)
    return report, kept.files.get(STATE_NAME)


def _diff_of(
    config: Config, site_dir: Path, report: Report, states: tuple[State, bytes, bytes | None]
) -> TreeDiff:
    """The change report of a dry build: ``states``, the state it started from (parsed, and
    its bytes) and the one it would write."""
    before, data, written = states
    after = before if written in (None, data) else parse_state(written)
    style = report.url_style.style if report.url_style is not None else config.url_style
    site = Root(site_dir, hidden=False)
    diff = diff_states(config, before, after, style, site_redirects(site, config.base_url))
    generator = detect_generator(lambda name: stub_page(site, name))
    return TreeDiff(diff, report, before, after, generator)


def _compared(against: PreviousState, base_url: str) -> tuple[bytes, State]:
    """The bytes and the state ``against`` names; a DiffError, one line, when there is none,
    it is no sitemill state, or it is another site's (another base URL: every page would be
    "renamed")."""
    try:
        data = against.read()
        if data is None:
            raise DiffError(f"no state to compare with at {against.location}")
        before = parse_state(data)
    except StateError as exc:
        said = str(exc)  # ("no state at X ...", "not a sitemill state (not gzip)")
        named = said if against.location in said else f"{against.location} is {said}"
        raise DiffError(f"cannot compare: {named}") from exc
    if before.base_url and before.base_url != base_url:
        raise DiffError(
            f"{against.location} is the state of {before.base_url}, not of {base_url}: "
            f"compare with --base-url {before.base_url}, or with a state of {base_url}"
        )
    return data, before


@dataclass(frozen=True)
class BucketDiff:
    """A bucket's change report and the dry run that made it (its requests, its warnings)."""

    diff: SiteDiff
    report: Report


def diff_bucket(
    config: Config, client: S3Client, site: BucketSite, asked: RunAsked = SITEMAPS_ALONE
) -> BucketDiff:
    """The change report of ``site``'s objects against its state (``asked``: its state store,
    default beside the sitemaps; its previous state when that holds none; the output features
    the front end lists): nothing is written. A state kept in parts (open_partitioned) is read
    whole (diff_partitioned)."""
    from sitemill.jobs.bucket import build_bucket  # (boto's: not the Action's)

    partitioned = open_partitioned(config, client, site)
    if partitioned is not None:
        return diff_partitioned(config, site, partitioned, asked)
    report = build_bucket(config, client, site, replace(asked, dry_run=True))
    where = asked.state_store.where if asked.state_store else None
    return BucketDiff(_found_diff(report, where, site), report)


def diff_partitioned(
    config: Config, site: BucketSite, partitioned: PartitionedStore, asked: RunAsked
) -> BucketDiff:
    """diff_bucket of a state kept in parts (as open_partitioned opened it, with the site's
    client), read whole: the run starts from its shards' pages in one, and its warnings and
    reads are the report's (as a one-state run counts the read of its state; a manifest read
    already, by the Lambda's size guard, is not read again)."""
    from sitemill.jobs.bucket import BucketAsked, build_bucket
    from sitemill.sources.s3 import counted_requests

    client, read = partitioned.client, Counter[str]()
    with counted_requests(client, read):
        partitioned.ensure_manifest()
        partitioned.say_move()  # (once, as the run that starts from it would)
        start, _ = partitioned_start(config, partitioned)
    dry = replace(asked, dry_run=True)
    report = build_bucket(config, client, site, dry, BucketAsked(start=start))
    report.warnings.extend(partitioned.warnings)
    report.requests.update(read)
    return BucketDiff(_found_diff(report, config.state, site), report)


def _found_diff(report: Report, where: str | None, site: BucketSite) -> SiteDiff:
    """A bucket's dry run's change report; a DiffError when it had no state to compare with
    (at ``where``, default beside the sitemaps)."""
    if report.diff is None:
        place = where or f"s3://{site.bucket}/{site.root}{STATE_NAME}"
        raise DiffError(f"no state to compare with at {place}")
    return report.diff
