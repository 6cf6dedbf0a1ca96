"""The Lambda and IndexNow, end to end: a moto bucket, and one local server on 127.0.0.1 that is
both the IndexNow engine and the live site (its key file). What each event announces, what an
engine's 429 and 503 do, where the key never goes, the key file, a dry run; what is trusted:
the reducer of a distributed run announces only URLs below the base URL whatever a run file
names, and a state beside the sitemaps (public) has no URL announced the run does not list."""

from __future__ import annotations

import functools
import gzip
import json
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from botocore.exceptions import ClientError

import sitemill.indexnow._send
from enginestand import KEY, Reply, Stand
from s3util import BUCKET, moto_bucket, restored_logging
from sitemill.aws import steps
from sitemill.aws.handler import handle

STATE_BUCKET = "sitemill-state-bucket"
PRIVATE_STATE = f"s3://{STATE_BUCKET}/{BUCKET}/sitemill-state.json.gz"
# Where the state is kept: partitioned in a bucket of its own (the stack's), one object there
# (shards off), or beside the sitemaps (public: it keeps no removed URL pending).
LAYOUTS = {
    "partitioned": {"SITEMILL_STATE": PRIVATE_STATE},
    "one private state": {"SITEMILL_STATE": PRIVATE_STATE, "SITEMILL_SHARDS": "off"},
    "state beside": {},
}


def page(text: str, *, footer: str = "2024", head: str = "") -> bytes:
    return (
        f"<!doctype html><html><head><title>{text}</title>{head}</head><body>"
        f"<nav>home</nav><main><h1>{text}</h1><p>{text} in full.</p></main>"
        f"<footer>{footer}</footer></body></html>"
    ).encode()


SITE = {
    "index.html": page("home"),
    "about/index.html": page("about"),
    "blog/post.html": page("a post"),
    "news.html": page("news"),
}


@dataclass
class Site:
    """The bucket, the stand, the function's environment; every summary the function gave."""

    s3: Any
    stand: Stand
    env: dict[str, str]
    summaries: list[dict[str, Any]] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)  # the sleeps after a 429

    @property
    def base(self) -> str:
        return self.stand.origin + "/"

    def url(self, path: str) -> str:
        return self.base + path

    def accepted(self, statuses: list[int]) -> list[str]:
        """Every URL of the POSTs the engine answered 200, given its answers in turn."""
        assert len(statuses) == len(self.stand.posts)
        pairs = zip(statuses, self.stand.posts, strict=True)
        return [url for status, body in pairs if status == 200 for url in body["urlList"]]

    def invoke(self, event: dict[str, Any]) -> dict[str, Any]:
        summary = handle(event, env=self.env, s3=self.s3)
        assert summary["status"] == "ok", summary
        self.summaries.append(summary)
        return summary

    def rebuild(self, *, dry_run: bool = False) -> dict[str, Any]:
        event: dict[str, Any] = {"action": "rebuild"}
        if dry_run:
            event["dry_run"] = True
        return self.invoke(event)

    def upload(self, key: str, body: bytes) -> dict[str, Any]:
        """A deploy of one object, and the S3 notification it sends."""
        self.s3.put_object(Bucket=BUCKET, Key=key, Body=body)
        record = {
            "eventSource": "aws:s3",
            "eventName": "ObjectCreated:Put",
            "s3": {"bucket": {"name": BUCKET}, "object": {"key": key}},
        }
        return self.invoke({"Records": [record]})

    def objects(self, bucket: str) -> dict[str, bytes]:
        listed = self.s3.list_objects_v2(Bucket=bucket).get("Contents", [])
        return {
            item["Key"]: self.s3.get_object(Bucket=bucket, Key=item["Key"])["Body"].read()
            for item in listed
        }


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A moto bucket of SITE's pages, and a state bucket."""
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        for key, body in SITE.items():
            client.put_object(Bucket=BUCKET, Key=key, Body=body)
        yield client


@pytest.fixture
def stand(monkeypatch: pytest.MonkeyPatch) -> Iterator[Stand]:
    """The engine and the live site, on 127.0.0.1 (and no proxy in the way)."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    real = socket.create_connection

    def loopback_only(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        assert address[0] == "127.0.0.1", f"the test contacted {address[0]}"
        return real(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", loopback_only)
    running = Stand()
    running.thread.start()
    yield running
    running.release.set()
    running.httpd.shutdown()
    running.httpd.server_close()


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits after a 429, recorded rather than slept (run.deliver imports the sender
    when it sends)."""
    recorded: list[float] = []
    limits = sitemill.indexnow._send.SendLimits(sleep=recorded.append)
    quick = functools.partial(sitemill.indexnow._send.send_announcements, limits=limits)
    monkeypatch.setattr(sitemill.indexnow._send, "send_announcements", quick)
    return recorded


@pytest.fixture
def make_site(s3: Any, stand: Stand, waits: list[float]) -> Callable[..., Site]:
    """The function's environment for a layout (LAYOUTS) and extra variables."""

    def make(layout: str = "partitioned", **extra: str) -> Site:
        env = {
            "SITEMILL_BUCKET": BUCKET,
            "SITEMILL_BASE_URL": stand.origin + "/",
            "SITEMILL_INDEXNOW": "send",
            "SITEMILL_INDEXNOW_KEY": KEY,
            "SITEMILL_INDEXNOW_ENDPOINT": stand.origin + "/indexnow",
            **LAYOUTS[layout],
            **extra,
        }
        return Site(s3, stand, env, waits=waits)

    return make


def warnings(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The warnings the function logged (JSON lines on stdout) since the last call."""
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return [line["message"] for line in lines if line["level"] == "WARNING"]


def counts(
    found: dict[str, int] | None = None, *, sent: int = 0, pending: int = 0, earlier: int = 0
) -> dict[str, Any]:
    """A summary's "indexnow" when nothing was refused or withheld."""
    return {
        "mode": "send",
        "found": found or {},
        "from_earlier_runs": earlier,
        "sent": sent,
        "pending": pending,
        "refused": 0,
    }


def test_a_first_rebuild_announces_nothing(make_site: Callable[..., Site]) -> None:
    site = make_site()
    summary = site.rebuild()
    assert summary["urls"] == 4
    assert summary["indexnow"] == counts()
    assert site.stand.requests == []  # not even the key file is read
    assert f"{KEY}.txt" not in site.objects(BUCKET)  # (not asked to write it)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_each_event_announces_exactly_what_it_changed(
    make_site: Callable[..., Site], layout: str
) -> None:
    site = make_site(layout)
    site.rebuild()
    edited = site.upload("blog/post.html", page("a post, edited"))
    assert edited["indexnow"] == counts({"changed": 1}, sent=1)
    added = site.upload("new.html", page("new"))
    assert added["indexnow"] == counts({"added": 1}, sent=1)
    noindex = '<meta name="robots" content="noindex">'
    removed = site.upload("news.html", page("news", head=noindex))
    assert removed["indexnow"] == counts({"removed": 1}, sent=1)
    assert (edited["urls"], added["urls"], removed["urls"]) == (4, 5, 4)
    assert [body["urlList"] for body in site.stand.posts] == [
        [site.url("blog/post.html")],
        [site.url("new.html")],
        [site.url("news.html")],
    ]
    location = f"{site.base}{KEY}.txt"
    for body in site.stand.posts:
        assert body == {
            "host": "127.0.0.1",
            "key": KEY,
            "keyLocation": location,
            "urlList": body["urlList"],
        }
    # Each POST after a read of the key file on the live site, and nothing else was asked.
    one = [("GET", f"/{KEY}.txt"), ("POST", "/indexnow")]
    assert site.stand.requests == one * 3


@pytest.mark.parametrize("layout", ["partitioned", "one private state"])
def test_a_reupload_that_changes_no_content_announces_nothing(
    make_site: Callable[..., Site], layout: str
) -> None:
    site = make_site(layout)
    site.rebuild()
    # New bytes (a new ETag: the page is read again), the same content: a footer and the
    # white space between tags.
    body = page("a post", footer="2025").replace(b"<main>", b"<main>\n  ")
    assert body != SITE["blog/post.html"]
    summary = site.upload("blog/post.html", body)
    assert summary["pages_read"] == 1
    assert summary["indexnow"] == counts()
    assert site.stand.requests == []


def test_a_429_is_waited_out_within_the_run(make_site: Callable[..., Site]) -> None:
    site = make_site()
    site.rebuild()
    site.stand.replies = [Reply(429, headers={"Retry-After": "0"}), Reply(200)]
    summary = site.upload("blog/post.html", page("a post, edited"))
    assert summary["indexnow"] == counts({"changed": 1}, sent=1)
    assert site.waits == [1.0]  # Retry-After: 0 is waited at least a second
    assert site.accepted([429, 200]) == [site.url("blog/post.html")]


@pytest.mark.parametrize("layout", ["partitioned", "one private state"])
def test_a_503_keeps_the_url_for_the_next_event_which_sends_it_once(
    make_site: Callable[..., Site], layout: str, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(layout)
    site.rebuild()
    site.stand.replies = [Reply(503, b"try again later"), Reply(200)]
    capsys.readouterr()
    failed = site.upload("blog/post.html", page("a post, edited"))
    assert failed["indexnow"] == {
        **counts({"changed": 1}, pending=1),
        "pending_by_reason": {"503 server error": 1},
    }
    assert [w for w in warnings(capsys) if "503" in w] == [
        f"IndexNow: {site.stand.origin}/indexnow answered HTTP 503 server error for "
        f"{site.stand.origin}: try again later; 1 URL kept for the next run"
    ]
    # The next event changes nothing of its own: it sends what the last one kept.
    unrelated = site.upload("about/index.html", SITE["about/index.html"])
    assert unrelated["indexnow"] == counts(sent=1, earlier=1)
    again = site.upload("about/index.html", SITE["about/index.html"])
    assert again["indexnow"] == counts()
    assert site.accepted([503, 200]) == [site.url("blog/post.html")]


def readable(data: bytes) -> bytes:
    """An object's bytes, and the text inside when it is gzipped."""
    return data + (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else b"")


@pytest.mark.parametrize("layout", ["partitioned", "one private state"])
def test_the_key_is_in_no_log_summary_or_state(
    make_site: Callable[..., Site], layout: str, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(layout, SITEMILL_INDEXNOW_WRITE_KEY_FILE="true")
    site.rebuild()
    # Messages that name the key file's location, and quote the engine's answer.
    site.stand.replies = [Reply(403, KEY.encode()), Reply(503), Reply(200)]
    site.upload("blog/post.html", page("a post, edited"))
    site.upload("new.html", page("new"))
    site.upload("new.html", page("new, edited"))
    assert len(site.stand.posts) == 3
    assert [summary["indexnow"]["pending"] for summary in site.summaries] == [0, 1, 2, 0]
    logs = capsys.readouterr().out
    # The 403's warning says where the engine reads the key, with the key hidden.
    assert f"(it reads the key at {site.base}<key>.txt): <key>;" in logs
    assert logs.count("sitemill summary") == 4
    assert KEY not in logs
    assert KEY not in json.dumps(site.summaries)
    state = site.objects(STATE_BUCKET)
    assert state  # (the partitioned state and its pending URLs, or the one state)
    for key, data in state.items():
        assert KEY.encode() not in readable(data), key
    for key, data in site.objects(BUCKET).items():
        if key != f"{KEY}.txt":
            assert KEY.encode() not in readable(data), key


def test_the_key_file_is_written_to_the_site_bucket_once(make_site: Callable[..., Site]) -> None:
    site = make_site(SITEMILL_INDEXNOW_WRITE_KEY_FILE="true", SITEMILL_PREFIX="site/")
    for key, body in SITE.items():
        site.s3.put_object(Bucket=BUCKET, Key="site/" + key, Body=body)
    site.rebuild()
    written = site.s3.get_object(Bucket=BUCKET, Key=f"site/{KEY}.txt")
    assert written["Body"].read() == KEY.encode()
    assert written["ContentType"] == "text/plain; charset=utf-8"
    site.upload("site/blog/post.html", page("a post, edited"))
    again = site.s3.head_object(Bucket=BUCKET, Key=f"site/{KEY}.txt")
    assert again["LastModified"] == written["LastModified"]  # the same bytes: not put again
    assert site.summaries[-1]["indexnow"] == counts({"changed": 1}, sent=1)


@pytest.mark.parametrize("layout", ["partitioned", "one private state"])
def test_a_dry_run_sends_nothing(make_site: Callable[..., Site], layout: str) -> None:
    site = make_site(layout, SITEMILL_INDEXNOW_WRITE_KEY_FILE="true")
    site.rebuild()
    site.s3.delete_object(Bucket=BUCKET, Key=f"{KEY}.txt")
    site.s3.put_object(Bucket=BUCKET, Key="blog/post.html", Body=page("a post, edited"))
    before = {bucket: site.objects(bucket) for bucket in (BUCKET, STATE_BUCKET)}
    summary = site.rebuild(dry_run=True)
    assert summary["dry_run"] is True
    assert summary["indexnow"] == {**counts({"changed": 1}, pending=1), "would_send": 1}
    assert site.stand.requests == []
    assert {bucket: site.objects(bucket) for bucket in (BUCKET, STATE_BUCKET)} == before
    # The real run after it still announces the change.
    assert site.rebuild()["indexnow"] == counts({"changed": 1}, sent=1)
    assert site.accepted([200]) == [site.url("blog/post.html")]


def test_a_key_file_that_cannot_be_written_is_a_warning_and_the_run_goes_on(
    make_site: Callable[..., Site], capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(SITEMILL_INDEXNOW_WRITE_KEY_FILE="true")

    def deny(params: dict[str, Any], **_: Any) -> None:
        if params.get("Key") == f"{KEY}.txt":
            raise ClientError(
                {"Error": {"Code": "AccessDenied", "Message": "Access Denied"}}, "PutObject"
            )

    site.s3.meta.events.register("before-parameter-build.s3.PutObject", deny)
    site.rebuild()  # (status ok: asserted by invoke)
    site.upload("blog/post.html", page("a post, edited"))
    assert site.summaries[-1]["indexnow"]["sent"] == 1  # the stand serves the key all the same
    found = [line for line in warnings(capsys) if "cannot write the key file" in line]
    assert len(found) == 2 and all(KEY not in line for line in found)
    assert "sitemap.xml" in site.objects(BUCKET)


# --- what IndexNow trusts (issue 39, items 4 and 9) --------------------------------------


def test_the_reducer_announces_only_urls_below_the_base_url(
    make_site: Callable[..., Site], s3: Any
) -> None:
    site = make_site("partitioned", SITEMILL_SHARDS="on", SITEMILL_MAX_URLS="3")
    site.rebuild()  # a first build: nothing to announce
    other = Stand()  # a host a tampered run file names
    other.thread.start()
    try:
        s3.put_object(Bucket=BUCKET, Key="fresh.html", Body=page("fresh"))
        request = {"bucket": BUCKET, "prefix": "", "mode": "full"}
        steps.plan({"input": request, "run": "full-2"}, env=site.env, s3=s3)
        run = steps._setup(site.env, s3)
        files = run.files("full-2")
        items = files.get_json("shards.json")
        assert isinstance(items, list) and items
        for item in items:
            steps.shard(item, env=site.env, s3=s3)
        name = f"summaries/{items[0]['shard']}.json"
        summary = files.get_json(name)
        assert isinstance(summary, dict)
        summary["found"] = {
            **summary["found"],
            other.origin + "/elsewhere.html": "added",  # another host
            site.base + "../escape.html": "added",  # out of the base path
            site.base + "%2e%2e/escape.html": "changed",
            site.base + "a/./b.html": "changed",
            site.base + "index.html": "deleted",  # no kind of announcement
        }
        files.put_json(name, summary)

        answer = steps.reduce({"run": "full-2"}, env=site.env, s3=s3)

        assert other.requests == []
        assert site.stand.requests == [("GET", f"/{KEY}.txt"), ("POST", "/indexnow")]
        assert [body["urlList"] for body in site.stand.posts] == [[site.url("fresh.html")]]
        assert answer["status"] == "published"
        assert answer["indexnow"]["sent"] == 1 and answer["indexnow"]["pending"] == 0, answer
    finally:
        other.httpd.shutdown()
        other.httpd.server_close()


def test_an_edited_public_state_has_no_url_announced_the_run_does_not_list(
    make_site: Callable[..., Site], s3: Any
) -> None:
    site = make_site("state beside")
    hidden = page("hidden", head='<meta name="robots" content="noindex">')
    s3.put_object(Bucket=BUCKET, Key="hidden.html", Body=hidden)
    site.rebuild()
    key = "sitemill-state.json.gz"
    state = json.loads(gzip.decompress(s3.get_object(Bucket=BUCKET, Key=key)["Body"].read()))
    state["indexnow"] = {
        "pending": {
            site.url("hidden.html"): "added",  # noindex: the sitemaps leave it out
            site.url("never/listed.html"): "added",
            site.url("../outside.html"): "changed",
            site.url("news.html"): "removed",  # listed: a public state keeps no removed URL
            site.url("about/"): "changed",  # listed: announced
        }
    }
    s3.put_object(Bucket=BUCKET, Key=key, Body=gzip.compress(json.dumps(state).encode()))

    summary = site.upload("blog/post.html", page("a post, edited"))

    posted = [body["urlList"] for body in site.stand.posts]
    assert posted == [[site.url("about/"), site.url("blog/post.html")]]
    assert summary["indexnow"]["sent"] == 2 and summary["indexnow"]["pending"] == 0
