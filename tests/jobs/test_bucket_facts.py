"""A bucket's page facts: the same sitemap as the tree, each head read once per ETag, and
every way a careless user or an attacker can break the state or the reads."""

from __future__ import annotations

import gzip
import json
import random
import re
import threading
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from botocore.exceptions import ClientError
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends

from hidden import json_strings
from outputlist import build_from_tree, rebuild_bucket
from s3util import BASE, BUCKET, make_config, moto_bucket, restored_logging
from sitemill.aws.handler import handle
from sitemill.cli.main import main
from sitemill.entries import SkipReason
from sitemill.errors import SourceError
from sitemill.filenames.outputs import STATE_NAME, is_own_name
from sitemill.html.facts import PAGE_FACTS_BYTES, PageFacts
from sitemill.jobs.bucket import BucketSite
from sitemill.report import Report
from sitemill.sinks import MemorySink
from sitemill.state.parse import parse_state
from xsd import assert_valid_sitemaps, assert_xsd_valid


def page(title: str, head: str = "") -> bytes:
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"{head}</head><body><h1>{title}</h1></body></html>"
    ).encode()


# Hugo's alias template, as `hugo` writes it for `aliases: [/old/]`.
HUGO_ALIAS = (
    b"<!DOCTYPE html><html><head><title>https://example.com/new/</title>"
    b'<link rel="canonical" href="https://example.com/new/">'
    b'<meta name="robots" content="noindex"><meta charset="utf-8">'
    b'<meta http-equiv="refresh" content="0; url=https://example.com/new/"></head></html>'
)
# mkdocs-redirects on the home page of a site whose pages live under en/ (no noindex).
MKDOCS_REDIRECT = (
    b'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Redirecting...</title>'
    b'<meta http-equiv="refresh" content="1; url=en/"></head><body>'
    b'<a href="en/">Redirecting...</a></body></html>'
)
# A Sphinx theme's Jinja macros, shipped in the built site's _static/.
JINJA_MACROS = (
    b"{% macro head_pre_bootstrap() %}\n"
    b'  <link href="{{ pathto(\'_static/styles/theme.css\', 1) }}" rel="stylesheet">\n'
    b"{% endmacro %}\n"
)
VERIFICATION = "google1234567890abcdef.html"
BIG = page("big") + b"<p>" + b"lorem ipsum " * (5 * 1024 * 1024 // 12) + b"</p>"

SITE: dict[str, bytes] = {
    "robots.txt": b"User-agent: *\nDisallow: /private/\n",
    "index.html": MKDOCS_REDIRECT,
    "en/index.html": page("Home"),
    "old/index.html": HUGO_ALIAS,
    "new/index.html": page("New", '<link rel="canonical" href="https://example.com/new/">'),
    "blog/index.html": page("Blog", '<link rel="canonical" href="https://example.com/blog/">'),
    # Hugo's paginator: page 2 of the blog names the blog as its canonical.
    "blog/page/2/index.html": page("Blog, page 2", '<link rel="canonical" href="/blog/">'),
    # Self-canonicals written three ways: relative, index.html for "/", other escapes.
    "docs/guide.html": page("Guide", '<link rel="canonical" href="guide.html">'),
    "docs/index.html": page(
        "Docs", '<link rel="canonical" href="https://example.com/docs/index.html">'
    ),
    "café/index.html": page("Café", '<link rel="canonical" href="https://EXAMPLE.com/caf%c3%a9/">'),
    "elsewhere.html": page("Moved", '<link rel="canonical" href="https://other.example.org/x/">'),
    # A Sphinx theme's assets under _static/ (its macros, a PDF of its own): never pages.
    "_static/webpack-macros.html": JINJA_MACROS,
    "_static/theme-guide.pdf": b"%PDF-1.4\n",
    # The same macros copied anywhere else: read, and no HTML document.
    "theme/macros.html": JINJA_MACROS,
    # The 404 page as Gatsby and Next.js write it, and a language's own.
    "404/index.html": page("Not found"),
    "fr/404.html": page("Introuvable"),
    # Gatsby keeps ( ) ! in a path raw, as RFC 3986 allows: so does the sitemap.
    "C/unicode(a)!/index.html": page("Unicode", '<link rel="canonical" href="/C/unicode(a)!/">'),
    VERIFICATION: f"google-site-verification: {VERIFICATION}".encode(),
    "node_modules/pkg/index.html": page("pkg README"),
    "draft.html": page("Draft", '<meta name="robots" content="noindex, nofollow">'),
    "private/a.html": page("Private"),
    "big.html": BIG,
    "manual.pdf": b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n",
    "style.css": b"body { color: #333 }\n",
}
EXPECTED_URLS = {
    BASE + path
    for path in (
        "en/",
        "new/",
        "blog/",
        "docs/guide.html",
        "docs/",
        "caf%C3%A9/",
        "elsewhere.html",
        "node_modules/pkg/",
        "big.html",
        "manual.pdf",
        "C/unicode(a)!/",
    )
}
EXPECTED_SKIPS = {
    SkipReason.REDIRECT: 1,  # index.html
    SkipReason.NOINDEX: 2,  # old/ (Hugo's alias says noindex first), draft.html
    SkipReason.CANONICAL: 1,  # blog/page/2/
    SkipReason.NOT_A_PAGE: 1,  # theme/macros.html
    # the verification file, the two 404 pages, the two files under _static/
    SkipReason.EXCLUDED: 5,
    SkipReason.ROBOTS_TXT: 1,  # private/a.html
}
# The HTML pages whose heads the pipeline looks at: robots.txt leaves them in, and they are
# no built-in exclude. Each costs one ranged GET when its ETag is new.
BUILTIN_EXCLUDES = (VERIFICATION, "404/index.html", "fr/404.html", "_static/webpack-macros.html")
HEADS = sorted(
    path
    for path in SITE
    if path.endswith(".html") and not path.startswith("private/") and path not in BUILTIN_EXCLUDES
)
# What the state remembers by ETag alone: those pages the sitemap leaves out.
LEFT_OUT = {
    "index.html": SkipReason.REDIRECT,
    "old/index.html": SkipReason.NOINDEX,
    "draft.html": SkipReason.NOINDEX,
    "theme/macros.html": SkipReason.NOT_A_PAGE,
    "blog/page/2/index.html": SkipReason.CANONICAL,
}
LISTED_HEADS = [path for path in HEADS if path not in LEFT_OUT]
RANGE = f"bytes=0-{PAGE_FACTS_BYTES - 1}"
LONG_AGO = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def backend() -> Any:
    return s3_backends[DEFAULT_ACCOUNT_ID]["aws"]


def upload(client: Any, files: dict[str, bytes], bucket: str = BUCKET) -> None:
    """Put each file, then date it long ago: a later upload gets a LastModified of its own."""
    for key, body in files.items():
        client.put_object(Bucket=bucket, Key=key, Body=body)
        backend().get_object(bucket, key).last_modified = LONG_AGO


class Calls:
    """Every S3 call of a client: (operation, key or prefix, Range header)."""

    def __init__(self, client: Any) -> None:
        self.calls: list[tuple[str, str, str | None]] = []
        client.meta.events.register("provide-client-params.s3.*", self._params)
        client.meta.events.register("before-call.s3.GetObject", self._range)
        self._ranges: dict[str, str | None] = {}

    def _params(self, model: Any, params: dict[str, Any], **_: Any) -> None:
        where = params.get("Key", params.get("Prefix", ""))
        self.calls.append((model.name, where, None))

    def _range(self, params: dict[str, Any], **_: Any) -> None:
        self._ranges[unquote(params["url_path"][1:])] = params["headers"].get("Range")

    def gets(self) -> list[str]:
        return [key for name, key, _ in self.calls if name == "GetObject"]

    def page_gets(self) -> list[str]:
        """Sorted: the heads are read many at a time, in no fixed order."""
        return sorted(key for key in self.gets() if key != "robots.txt" and not is_own_name(key))

    def puts(self) -> list[str]:
        return [key for name, key, _ in self.calls if name == "PutObject"]

    def summary(self) -> Counter[str]:
        return Counter(name for name, _, _ in self.calls)

    def ranges(self) -> dict[str, str | None]:
        """The Range header of the (last) GET of each key."""
        return dict(self._ranges)

    def clear(self) -> None:
        self.calls.clear()
        self._ranges.clear()


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


@pytest.fixture
def site(s3: Any) -> Any:
    upload(s3, SITE)
    return s3


def rebuild(client: Any, **options: Any) -> Report:
    # Page facts alone: with content dates an HTML page is read whole, not only its head
    # (tests/jobs/test_content_dates.py).
    return rebuild_bucket(make_config(content_dates=False), client, BucketSite(BUCKET), **options)


def live(client: Any, key: str = "sitemap.xml", bucket: str = BUCKET) -> bytes:
    data: bytes = client.get_object(Bucket=bucket, Key=key)["Body"].read()
    return data


def locs(data: bytes) -> list[str]:
    return re.findall(r"<loc>(.*?)</loc>", data.decode())


def keys(client: Any, bucket: str = BUCKET) -> list[str]:
    listing = client.list_objects_v2(Bucket=bucket).get("Contents", [])
    return [item["Key"] for item in listing]


# --- the same site as a tree, a bucket and through the Lambda -----------------------------


def test_tree_bucket_and_lambda_list_the_same_pages_for_the_same_reasons(
    s3: Any, tmp_path: Path
) -> None:
    root = tmp_path / "site"
    for path, body in SITE.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(body)
    sink = MemorySink()
    tree = build_from_tree(make_config(lastmod="mtime", content_dates=False), root, sink)
    assert set(locs(sink.files["sitemap.xml"])) == EXPECTED_URLS
    assert tree.skipped == EXPECTED_SKIPS
    out = tmp_path / "out"
    out.mkdir()
    (out / "sitemap.xml").write_bytes(sink.files["sitemap.xml"])
    assert_valid_sitemaps(out, BASE)

    upload(s3, SITE)
    calls = Calls(s3)
    bucket = rebuild(s3)
    # One ranged GET of the first 64 KiB of each HTML candidate (the 5 MB page too), and
    # robots.txt's first 500 KiB and the state.
    assert calls.page_gets() == HEADS
    assert calls.ranges() == dict.fromkeys(HEADS, RANGE) | {
        "robots.txt": f"bytes=0-{500 * 1024 - 1}",
        STATE_NAME: f"bytes=0-{64 * 1024 * 1024 - 1}",
    }
    assert set(locs(live(s3))) == EXPECTED_URLS
    assert bucket.skipped == tree.skipped
    assert_xsd_valid(live(s3))
    # The same two surprises, each one summary line: an off-site canonical, vendored HTML.
    assert bucket.warnings == tree.warnings
    assert len(bucket.warnings) == 2
    assert "canonical URL off this site" in bucket.warnings[0]
    assert "elsewhere.html names https://other.example.org/x/" in bucket.warnings[0]
    assert "under node_modules/" in bucket.warnings[1]
    assert (bucket.heads_read, bucket.heads_reused, bucket.state_written) == (len(HEADS), 0, True)

    s3.create_bucket(Bucket="lambda-bucket")
    upload(s3, SITE, "lambda-bucket")
    env = {
        "SITEMILL_BASE_URL": BASE,
        "SITEMILL_BUCKET": "lambda-bucket",
        "SITEMILL_CONTENT_DATES": "false",
    }
    result = handle({"action": "rebuild"}, None, env=env, s3=s3)
    assert result["status"] == "ok", result
    assert set(locs(live(s3, bucket="lambda-bucket"))) == EXPECTED_URLS
    assert result["skipped"] == {reason.value: count for reason, count in EXPECTED_SKIPS.items()}
    assert (result["urls"], result["pages_read"], result["state"]) == (11, len(HEADS), "written")
    assert_xsd_valid(live(s3, bucket="lambda-bucket"))


def test_the_state_remembers_pages_left_out_by_etag_alone(site: Any) -> None:
    rebuild(site)
    data = live(site, STATE_NAME)
    state = parse_state(data)
    assert sorted(state.pages) == LISTED_HEADS
    for path, record in state.pages.items():
        assert record.version == site.head_object(Bucket=BUCKET, Key=path)["ETag"], path
    etag = {path: site.head_object(Bucket=BUCKET, Key=path)["ETag"] for path in LEFT_OUT}
    # Pages left out by their own bytes: the verdict only, none of their facts' URLs.
    for path in ("draft.html", "theme/macros.html"):
        assert state.unlisted[etag[path]] == LEFT_OUT[path], path
    # A redirect stub to a listed page (Hugo's alias is noindex too): its refresh, which names
    # that listed page only (a canonical naming the stub is followed).
    assert state.unlisted[etag["index.html"]] == PageFacts(refresh="en/")
    alias = PageFacts(noindex=True, refresh="https://example.com/new/")
    assert state.unlisted[etag["old/index.html"]] == alias
    # Left out by its canonical, which names a listed page: its facts (the gate needs them).
    assert state.unlisted[etag["blog/page/2/index.html"]].canonical == "/blog/"
    strings = set(json_strings(json.loads(gzip.decompress(data))))
    for path in (*LEFT_OUT, "private/a.html", *BUILTIN_EXCLUDES, "_static/theme-guide.pdf"):
        named = {path, "/" + path, BASE + path, path.removesuffix("index.html")}
        assert not strings & named, path
    head = site.head_object(Bucket=BUCKET, Key=STATE_NAME)
    assert head["ContentType"] == "application/gzip"


# --- request counts ---------------------------------------------------------------------


def test_first_rebuild_reads_each_head_once_and_an_unchanged_one_reads_none(site: Any) -> None:
    calls = Calls(site)
    first = rebuild(site)
    # LIST, GET robots.txt, GET the state (none yet), a ranged GET per HTML candidate, then
    # the sitemap and the state.
    assert calls.summary() == {"ListObjectsV2": 1, "GetObject": 2 + len(HEADS), "PutObject": 2}
    assert calls.gets()[:2] == ["robots.txt", STATE_NAME]
    assert calls.page_gets() == HEADS
    assert calls.puts() == ["sitemap.xml", STATE_NAME]
    assert first.result.written == ["sitemap.xml"]

    calls.clear()
    second = rebuild(site)
    # Nothing changed: LIST, GET robots.txt, the state and the live index (before deleting
    # stale files, its children are read); zero page GETs; no PUT.
    assert calls.summary() == {"ListObjectsV2": 1, "GetObject": 3}
    assert calls.gets() == ["robots.txt", STATE_NAME, "sitemap.xml"]
    assert (second.heads_read, second.heads_reused, second.state_written) == (0, len(HEADS), False)
    assert second.result.unchanged == ["sitemap.xml"]
    assert second.skipped == first.skipped


def test_sync_of_identical_bytes_reads_no_page(site: Any) -> None:
    rebuild(site)
    before = live(site)
    # `aws s3 sync` of a fresh build: every object uploaded again, a new LastModified and
    # the same ETag.
    for key, body in SITE.items():
        site.put_object(Bucket=BUCKET, Key=key, Body=body)
    calls = Calls(site)
    report = rebuild(site)
    assert calls.page_gets() == []
    assert (report.heads_read, report.heads_reused) == (0, len(HEADS))
    # The pages' dates moved (plain LastModified), so the sitemap is written; the state,
    # keyed by ETag, keeps every page: it is written for the sitemap's new digest alone
    # (what tells sitemill's own sitemap from another writer's: sitemill.aws._overwritten).
    assert calls.puts() == ["sitemap.xml", STATE_NAME]
    assert calls.page_gets() == []
    assert locs(live(site)) == locs(before)
    assert report.skipped == EXPECTED_SKIPS


def test_changing_one_page_reads_that_page_only(site: Any) -> None:
    rebuild(site)
    site.put_object(
        Bucket=BUCKET, Key="new/index.html", Body=page("New", '<meta name="robots" content="none">')
    )
    calls = Calls(site)
    report = rebuild(site)
    assert calls.page_gets() == ["new/index.html"]
    assert (report.heads_read, report.heads_reused) == (1, len(HEADS) - 1)
    assert calls.puts() == ["sitemap.xml", STATE_NAME]
    assert set(locs(live(site))) == EXPECTED_URLS - {BASE + "new/"}
    assert report.skipped[SkipReason.NOINDEX] == 3
    state = parse_state(live(site, STATE_NAME))
    assert "new/index.html" not in state.pages
    etag = site.head_object(Bucket=BUCKET, Key="new/index.html")["ETag"]
    assert state.unlisted[etag] is SkipReason.NOINDEX


def test_a_deleted_state_costs_one_full_pass_and_the_same_sitemap(site: Any) -> None:
    rebuild(site)
    sitemap, state = live(site), live(site, STATE_NAME)
    site.delete_object(Bucket=BUCKET, Key=STATE_NAME)  # `aws s3 sync --delete`
    calls = Calls(site)
    report = rebuild(site)
    assert calls.page_gets() == HEADS
    assert report.warnings == rebuild_warnings()  # a missing state is no warning
    assert calls.puts() == [STATE_NAME]  # the sitemap is the same bytes: not written
    assert (live(site), live(site, STATE_NAME)) == (sitemap, state)


def rebuild_warnings() -> list[str]:
    """The two summary warnings the fixture site always gives."""
    return [
        "1 listed page(s) declare a canonical URL off this site (https://example.com/), e.g. "
        "elsewhere.html names https://other.example.org/x/: check the generator's site URL "
        "setting (site_url, baseURL, html_baseurl, url)",
        "listed 1 page(s) under node_modules/, e.g. node_modules/pkg/index.html: third-party "
        'files? exclude them with exclude = ["**/node_modules/**"]',
    ]


def gzip_bomb() -> bytes:
    """300 MiB of zeros in 300 KB: more than the state may inflate to."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    chunk = bytes(1024 * 1024)
    return b"".join(compressor.compress(chunk) for _ in range(300)) + compressor.flush()


def gzipped(document: object) -> bytes:
    return gzip.compress(json.dumps(document).encode(), mtime=0)


def random_bytes() -> bytes:
    return random.Random(7).randbytes(4096)


# Built when a test runs, not when the module is collected (the bomb takes a second).
CORRUPT_STATES: dict[str, tuple[Callable[[], bytes], str]] = {
    "random bytes": (random_bytes, "not a sitemill state (not gzip)"),
    "empty": (lambda: b"", "cut off"),
    "plain JSON": (
        lambda: b'{"format": "sitemill-state", "version": 1}',
        "not a sitemill state",
    ),
    "another tool's JSON": (
        lambda: gzipped({"version": 1, "files": {"a.html": "x"}}),
        "no format marker",
    ),
    "a newer format": (
        lambda: gzipped({"format": "sitemill-state", "version": 99, "pages": {}}),
        "written by a newer sitemill (format version 99)",
    ),
    "pages not a table": (
        lambda: gzipped({"format": "sitemill-state", "version": 1, "pages": []}),
        "its pages are not a table",
    ),
    "cut off": (
        lambda: gzipped({"format": "sitemill-state", "version": 1, "pages": {}})[:-9],
        "cut off",
    ),
    "nested ten thousand deep": (
        lambda: gzip.compress(
            b'{"format": "sitemill-state", "pages": ' + b"[" * 10_000 + b"]" * 10_000 + b"}"
        ),
        "not a sitemill state (JSON nested too deep)",
    ),
    "a gzip bomb": (gzip_bomb, "not a sitemill state (not ASCII JSON text)"),
}


@pytest.mark.parametrize(("make", "problem"), CORRUPT_STATES.values(), ids=CORRUPT_STATES.keys())
def test_a_corrupt_state_is_a_warning_and_a_full_pass_never_a_crash(
    site: Any, make: Callable[[], bytes], problem: str
) -> None:
    rebuild(site)
    sitemap = live(site)
    site.put_object(Bucket=BUCKET, Key=STATE_NAME, Body=make())
    calls = Calls(site)
    report = rebuild(site)
    warning = report.warnings[0]
    assert warning.startswith(f"ignoring the state s3://{BUCKET}/{STATE_NAME}: "), warning
    assert problem in warning and warning.endswith("; dates and page facts start over")
    assert "\n" not in warning
    assert report.warnings[1:] == rebuild_warnings()
    assert calls.page_gets() == HEADS
    assert live(site) == sitemap
    assert calls.puts() == [STATE_NAME]  # replaced by a good one
    assert sorted(parse_state(live(site, STATE_NAME)).pages) == LISTED_HEADS


# --- reads that fail ---------------------------------------------------------------------


def access_denied(operation: str = "GetObject") -> ClientError:
    return ClientError(
        {
            "Error": {"Code": "AccessDenied", "Message": "Access Denied"},
            "ResponseMetadata": {"HTTPStatusCode": 403},
        },
        operation,
    )


@pytest.mark.parametrize("answer", ["404", "403"])
def test_a_page_deleted_between_list_and_get_is_no_crash(site: Any, answer: str) -> None:
    # S3 answers a GET of a missing key with 404, or with 403 to a role that may not list
    # it (the stack's s3:ListBucket has an s3:prefix condition that a GET does not carry).
    gone = "draft.html"

    def delete_first(params: dict[str, Any], **_: Any) -> None:
        if params["url_path"] == f"/{gone}":
            backend().delete_object(BUCKET, gone)
            if answer == "403":
                raise access_denied()

    site.meta.events.register("before-call.s3.GetObject", delete_first)
    calls = Calls(site)
    report = rebuild(site)
    assert calls.page_gets() == HEADS
    if answer == "403":  # one LIST of exactly that key tells "gone" from "denied"
        assert [c for c in calls.calls if c[0] == "ListObjectsV2"][1:] == [
            ("ListObjectsV2", gone, None)
        ]
    # Listed without facts (its deletion's event brings the next rebuild), never remembered.
    assert BASE + gone in locs(live(site))
    assert gone not in parse_state(live(site, STATE_NAME)).pages
    assert (report.heads_read, report.skipped[SkipReason.NOINDEX]) == (len(HEADS), 1)
    site.meta.events.unregister("before-call.s3.GetObject", delete_first)

    calls.clear()
    rebuild(site)  # the rebuild its deletion triggers
    assert calls.page_gets() == []
    assert set(locs(live(site))) == EXPECTED_URLS


def test_access_denied_on_a_page_is_one_line_naming_it_and_publishes_nothing(
    site: Any,
) -> None:
    rebuild(site)
    before = {key: live(site, key) for key in ("sitemap.xml", STATE_NAME)}
    site.put_object(Bucket=BUCKET, Key="new/index.html", Body=page("New, again"))
    site.put_object(Bucket=BUCKET, Key="added.html", Body=page("Added"))

    def deny(params: dict[str, Any], **_: Any) -> None:
        if params["url_path"] == "/added.html":
            raise access_denied()

    site.meta.events.register("before-call.s3.GetObject", deny)
    calls = Calls(site)
    with pytest.raises(SourceError) as caught:
        rebuild(site)
    message = str(caught.value)
    assert message == (
        f"cannot read s3://{BUCKET}/added.html: AccessDenied (HTTP 403): Access Denied "
        "(the object exists: these credentials may not read it)"
    )
    assert isinstance(caught.value.__cause__, ClientError)
    assert calls.puts() == [] and "DeleteObject" not in calls.summary()
    assert {key: live(site, key) for key in before} == before


@pytest.mark.parametrize("exists", [False, True])
def test_a_state_the_role_may_not_read_is_a_warning_only_when_it_exists(
    site: Any, exists: bool
) -> None:
    # A first run on the stack with a prefix: S3 says 403 for the missing state, and one
    # LIST of its key tells that it is missing (no warning), not denied.
    if exists:
        rebuild(site)

    def deny(params: dict[str, Any], **_: Any) -> None:
        if params["url_path"] == f"/{STATE_NAME}":
            raise access_denied()

    site.meta.events.register("before-call.s3.GetObject", deny)
    calls = Calls(site)
    report = rebuild(site)
    assert ("ListObjectsV2", STATE_NAME, None) in calls.calls
    assert calls.page_gets() == HEADS
    denied = (
        f"cannot read s3://{BUCKET}/{STATE_NAME}: AccessDenied (HTTP 403): Access Denied "
        "(the object exists: these credentials may not read it); starting without the state"
    )
    assert report.warnings == ([denied] if exists else []) + rebuild_warnings()
    assert set(locs(live(site))) == EXPECTED_URLS


def test_a_dry_run_writes_no_state(site: Any) -> None:
    calls = Calls(site)
    report = rebuild(site, dry_run=True)
    assert report.result.written == ["sitemap.xml"]
    assert report.state_written  # it would be
    assert calls.puts() == [] and calls.page_gets() == HEADS
    assert STATE_NAME not in keys(site) and "sitemap.xml" not in keys(site)
    rebuild(site)
    calls.clear()
    rebuild(site, dry_run=True)
    assert calls.page_gets() == [] and calls.puts() == []


def test_a_state_that_cannot_be_written_is_a_warning_after_the_sitemaps(site: Any) -> None:
    def deny(params: dict[str, Any], **_: Any) -> None:
        if params["url_path"] == f"/{STATE_NAME}":
            raise access_denied("PutObject")

    site.meta.events.register("before-call.s3.PutObject", deny)
    report = rebuild(site)
    assert set(locs(live(site))) == EXPECTED_URLS
    assert not report.state_written
    assert report.warnings[-1] == (
        f"cannot write s3://{BUCKET}/{STATE_NAME}: AccessDenied (HTTP 403): Access Denied; "
        "the sitemaps are published, but the next run starts over"
    )


# --- the command line ----------------------------------------------------------------------


def test_cli_prints_how_many_heads_it_read_and_remembered(
    site: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["s3", "--bucket", BUCKET, "--base-url", BASE]
    assert main([*argv, "--dry-run"]) == 0
    assert f"page heads: {len(HEADS)} read, 0 remembered from the last run\n" in (
        capsys.readouterr().out
    )
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"page heads: {len(HEADS)} read, 0 remembered from the last run\n" in out
    assert (
        "skipped: excluded 5, not a page 1, robots.txt 1, noindex 2, redirect 1, canonical 1\n"
        in out
    )
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "nothing changed\n" in out
    assert f"page heads: 0 read, {len(HEADS)} remembered from the last run\n" in out


def test_no_thread_is_left_behind(site: Any) -> None:
    # The head readers are a pool per rebuild: a failed one leaves no thread running either.
    before = {thread.name for thread in threading.enumerate()}
    rebuild(site)

    def deny(**_: Any) -> None:
        raise access_denied()

    site.put_object(Bucket=BUCKET, Key="added.html", Body=page("Added"))
    site.meta.events.register("before-call.s3.GetObject", deny)
    with pytest.raises(SourceError):
        rebuild(site)
    after = {thread.name for thread in threading.enumerate()}
    assert not any(name.startswith("sitemill-head") for name in after - before)
