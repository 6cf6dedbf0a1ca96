"""send_announcements against a local server on 127.0.0.1 standing for both the engine
(POST /indexnow, answers programmed in turn) and the site (its key file): every answer an
engine gives, the key file's check, batches by size and by host, the waits after a 429, the
deadline, a dry run; and the key in no message or repr."""

from __future__ import annotations

import socket
from email.utils import formatdate
from typing import Any

import pytest

from enginestand import KEY, Reply, Stand
from sitemill.indexnow._post import MAX_RETRY_WAIT, retry_wait
from sitemill.indexnow._send import (
    BATCH_SIZE,
    KEY_MISSING,
    SendLimits,
    SendReport,
    send_announcements,
)
from sitemill.indexnow.key import IndexNowTarget

LIMITS = ("batch_size", "sleep", "timeout", "deadline", "max_wait")  # SendLimits' fields


def no_sleep(seconds: float) -> None:
    raise AssertionError(f"slept {seconds} s")


def send(stand: Stand, urls: dict[str, str], **options: Any) -> SendReport:
    limits = {name: options.pop(name) for name in LIMITS if name in options}
    limits.setdefault("sleep", no_sleep)
    settings = options.pop("settings", None) or stand.settings()
    report = send_announcements(urls, settings, limits=SendLimits(**limits), **options)
    assert_no_key(report)
    return report


def assert_no_key(report: SendReport) -> None:
    assert KEY not in repr(report)
    for message in report.messages:
        assert KEY not in message
        assert "\n" not in message


def posted(stand: Stand) -> list[list[str]]:
    return [body["urlList"] for body in stand.posts]


# --- the engine's answers -----------------------------------------------------------------


@pytest.mark.parametrize("status", [200, 202])
def test_accepted_urls_are_sent_after_the_key_file_check(stand: Stand, status: int) -> None:
    stand.replies = [Reply(status)]
    urls = stand.urls(5)
    report = send(stand, urls)
    assert report.sent == urls
    assert (report.pending, report.refused, report.held, report.messages) == ({}, {}, {}, [])
    assert stand.requests == [("GET", f"/{KEY}.txt"), ("POST", "/indexnow")]
    assert stand.posts == [
        {
            "host": "127.0.0.1",
            "key": KEY,
            "keyLocation": f"{stand.origin}/{KEY}.txt",
            "urlList": sorted(urls),
        }
    ]
    assert stand.content_types == ["application/json; charset=utf-8"]


@pytest.mark.parametrize(
    ("status", "reason"), [(400, "400 bad request"), (422, "422 URLs not for this host or key")]
)
def test_a_refused_batch_is_dropped_and_later_batches_go_on(
    stand: Stand, status: int, reason: str
) -> None:
    stand.replies = [Reply(status, b'{"message": "no such\\nthing"}'), Reply(200)]
    urls = stand.urls(5)
    report = send(stand, urls, batch_size=2)
    first, *rest = posted(stand)
    assert [first, *rest] == [sorted(urls)[:2], sorted(urls)[2:4], sorted(urls)[4:]]
    assert report.refused == {reason: 2}
    assert report.sent == {url: urls[url] for batch in rest for url in batch}
    assert (report.pending, report.held) == ({}, {})
    [message] = report.messages
    assert f"HTTP {reason}" in message and "2 URLs" in message
    assert '{"message": "no such\\nthing"}' in message  # the answer quoted, on one line


def test_a_403_keeps_the_batch_and_the_rest_of_the_origin(stand: Stand) -> None:
    stand.replies = [Reply(200), Reply(403, b"key not verified")]
    urls = stand.urls(6)
    report = send(stand, urls, batch_size=2)
    assert len(stand.posts) == 2
    assert sorted(report.sent) == sorted(urls)[:2]
    assert report.pending == {url: urls[url] for url in sorted(urls)[2:]}
    assert report.held == {"403 key not verified": 4}
    [message] = report.messages
    assert "HTTP 403" in message and f"{stand.origin}/<key>.txt" in message
    assert "4 URLs kept for the next run" in message


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (Reply(500, b"oops"), "500 server error"),
        (Reply(503, b"", {"Retry-After": "1"}), "503 server error"),
        (Reply(404, b"no engine here"), "404 unexpected answer"),
        (Reply(301, b"", {"Location": "/elsewhere"}), "301 unexpected answer"),
        (Reply(204), "204 unexpected answer"),
    ],
)
def test_other_answers_keep_the_origin_for_the_next_run(
    stand: Stand, reply: Reply, reason: str
) -> None:
    stand.replies = [reply]
    urls = stand.urls(5)
    report = send(stand, urls, batch_size=2)
    assert len(stand.posts) == 1  # the origin stops at the first
    assert ("GET", "/elsewhere") not in stand.requests  # a 3xx to the POST is not followed
    assert (report.sent, report.refused) == ({}, {})
    assert report.pending == urls
    assert report.held == {reason: 5}
    [message] = report.messages
    assert f"HTTP {reason}" in message and "5 URLs kept" in message


def test_a_429_is_waited_out_as_asked_then_the_batch_goes_again(stand: Stand) -> None:
    stand.replies = [
        Reply(429, headers={"Retry-After": "3"}),
        Reply(429),
        Reply(429, headers={"Retry-After": "120"}),  # capped
        Reply(429),
        Reply(200),
    ]
    waits: list[float] = []
    urls = stand.urls(3)
    report = send(stand, urls, sleep=waits.append, max_wait=60)
    assert waits == [3.0, 2.0, MAX_RETRY_WAIT, 8.0]
    assert posted(stand) == [sorted(urls)] * 5
    assert report.sent == urls
    assert (report.pending, report.messages) == ({}, [])


def test_429_forever_stops_when_the_waiting_is_spent(stand: Stand) -> None:
    stand.replies = [Reply(429, b"slow down")]
    waits: list[float] = []
    urls = stand.urls(4)
    report = send(stand, urls, sleep=waits.append, max_wait=10, batch_size=2)
    assert waits == [1.0, 2.0, 4.0]  # 8 more would pass 10
    assert posted(stand) == [sorted(urls)[:2]] * 4  # the second batch never went
    assert report.pending == urls
    assert report.held == {"429 too many requests": 4}
    [message] = report.messages
    assert "HTTP 429" in message and "after 7 s of waiting" in message and "slow down" in message


def test_an_engine_that_never_answers_meets_the_deadline(stand: Stand) -> None:
    stand.replies = [Reply(stall=True)]
    urls = stand.urls(4)
    report = send(stand, urls, batch_size=2, timeout=60, deadline=0.4)
    # (the deadline ended it, not the stall's end: the message says so, and no clock is read)
    assert "no complete answer within 0.4 s" in report.messages[0]
    assert len(stand.posts) == 1
    assert report.pending == urls
    assert report.held == {"no answer": 4}
    [message] = report.messages
    assert message.startswith(f"IndexNow: no answer from {stand.origin}/indexnow for")
    assert "within 0.4 s" in message


@pytest.mark.parametrize(
    "partial",
    [
        b"HTTP/1.1 200 OK\r\nContent-Ty",
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\nshort",
    ],
    ids=["cut in a header", "cut between headers", "cut in the body"],
)
def test_a_200_cut_by_the_deadline_is_no_answer(stand: Stand, partial: bytes) -> None:
    """The engine's status line came, the rest of its answer did not before the deadline
    (issue 39, item 9): that is no answer, and the URLs are kept, never counted as sent."""
    stand.replies = [Reply(stall=True, partial=partial)]
    urls = stand.urls(2)
    report = send(stand, urls, timeout=5, deadline=0.4)
    assert (report.sent, report.pending) == ({}, urls)
    assert report.held == {"no answer": 2}


def test_an_engine_that_refuses_connections_is_no_answer(stand: Stand) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    settings = stand.settings(endpoint=f"http://127.0.0.1:{closed}/indexnow")
    report = send(stand, stand.urls(2), settings=settings)
    assert report.held == {"no answer": 2}
    assert stand.requests == [("GET", f"/{KEY}.txt")]


# --- the key file ------------------------------------------------------------------------


def test_the_key_file_missing_then_wrong_then_right(stand: Stand) -> None:
    urls = stand.urls(3)
    path = f"/{KEY}.txt"
    del stand.files[path]
    missing = send(stand, urls)
    stand.files[path] = (200, b"another-key-entirely", {})
    wrong = send(stand, urls)
    stand.files[path] = (200, b"\xef\xbb\xbf" + KEY.encode() + b" \r\n", {})
    right = send(stand, urls)
    assert stand.requests == [("GET", path)] * 3 + [("POST", "/indexnow")]
    for report, why in ((missing, "(HTTP 404)"), (wrong, "(it does not hold the key)")):
        assert (report.sent, report.pending) == ({}, urls)
        assert report.held == {"key file not live": 3}
        [message] = report.messages
        assert f"its key file {stand.origin}/<key>.txt is not live {why}" in message
    assert right.sent == urls


def test_an_unreachable_site_sends_nothing_to_the_engine(stand: Stand) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    urls = {f"http://127.0.0.1:{closed}/a": "added"}
    report = send(stand, urls)
    assert stand.requests == []
    assert report.held == {"key file not live": 1}
    assert f"http://127.0.0.1:{closed}/<key>.txt is not live" in report.messages[0]


def test_a_key_file_that_redirects_is_not_live_and_its_target_is_not_asked(
    stands: list[Stand],
) -> None:
    # `sitemill indexnow` reads the key file as `sitemill check` does: no redirect followed,
    # another host (here serving the key) never asked.
    stand, other = stands
    urls = stand.urls(2)
    other.files[f"/{KEY}.txt"] = (200, KEY.encode(), {})
    stand.files[f"/{KEY}.txt"] = (301, b"", {"Location": f"{other.origin}/{KEY}.txt"})
    report = send(stand, urls)
    assert other.requests == [] and stand.posts == []
    assert (report.sent, report.pending) == ({}, urls)
    assert f"HTTP 301, a redirect to {other.origin}/<key>.txt (not followed)" in report.messages[0]


def test_a_check_s_key_files_are_the_evidence_and_none_is_read_again(stand: Stand) -> None:
    urls = stand.urls(2)
    location = f"{stand.origin}/{KEY}.txt"
    sent = send(stand, urls, key_files={location: None})
    assert stand.requests == [("POST", "/indexnow")] and sent.sent == urls
    kept = send(stand, urls, key_files={location: "answers 404 (not found)"})
    unread = send(stand, urls, key_files={})
    assert stand.requests == [("POST", "/indexnow")]
    assert kept.pending == unread.pending == urls
    assert "(answers 404 (not found))" in kept.messages[0]
    assert "(the check did not read it)" in unread.messages[0]


def test_a_key_location_of_its_own_is_read_and_named(stand: Stand) -> None:
    location = f"{stand.origin}/keys/{KEY}.txt"
    stand.files = {f"/keys/{KEY}.txt": (200, KEY.encode(), {})}
    report = send(stand, stand.urls(2), settings=stand.settings(key_location=location))
    assert len(report.sent) == 2
    assert [body["keyLocation"] for body in stand.posts] == [location]


def test_no_key_sends_nothing(stand: Stand) -> None:
    urls = stand.urls(3)
    report = send(stand, urls, settings=stand.settings(key=""))
    assert stand.requests == []
    assert (report.sent, report.pending, report.held) == ({}, urls, {"no key": 3})
    [message] = report.messages
    assert KEY_MISSING in message


def test_the_key_is_in_no_message_nor_repr(stand: Stand) -> None:
    """The engine quotes the key, a redirect names it: messages show ``<key>``."""
    urls = stand.urls(2)
    stand.replies = [Reply(422, f"key {KEY} does not match".encode())]
    stand.files[f"/{KEY}.txt"] = (302, b"", {"Location": f"ftp://127.0.0.1/{KEY}.txt"})
    not_live = send(stand, urls)
    assert "ftp://127.0.0.1/<key>.txt" in not_live.messages[0]
    stand.files[f"/{KEY}.txt"] = (200, KEY.encode(), {})
    refused = send(stand, urls)
    assert "key <key> does not match" in refused.messages[0]
    settings = stand.settings()
    assert KEY not in repr(settings) and KEY not in str(settings)
    with pytest.raises(ValueError) as caught:
        send_announcements(urls, settings, limits=SendLimits(batch_size=0))
    assert KEY not in str(caught.value)


# --- batches -----------------------------------------------------------------------------


def test_batches_split_at_ten_thousand(stand: Stand) -> None:
    urls = stand.urls(BATCH_SIZE + 1)
    report = send(stand, urls)
    assert [len(batch) for batch in posted(stand)] == [10_000, 1]
    assert posted(stand)[0] + posted(stand)[1] == sorted(urls)
    assert report.sent == urls


def test_each_origin_is_checked_and_posted_on_its_own(stands: list[Stand]) -> None:
    engine, other = stands
    urls = {**engine.urls(3), **other.urls(2)}
    report = send(engine, urls)
    assert report.sent == urls
    assert other.requests == [("GET", f"/{KEY}.txt")]
    sent = sorted((body["keyLocation"], body["host"], body["urlList"]) for body in engine.posts)
    assert sent == sorted(
        [
            (f"{engine.origin}/{KEY}.txt", "127.0.0.1", sorted(engine.urls(3))),
            (f"{other.origin}/{KEY}.txt", "127.0.0.1", sorted(other.urls(2))),
        ]
    )


def test_an_origin_without_its_key_file_does_not_stop_the_other(stands: list[Stand]) -> None:
    engine, other = stands
    other.files = {}
    report = send(engine, {**engine.urls(3), **other.urls(2)})
    assert report.sent == engine.urls(3)
    assert report.pending == other.urls(2)
    assert report.held == {"key file not live": 2}
    assert posted(engine) == [sorted(engine.urls(3))]


# --- a dry run, and what is never sent ---------------------------------------------------


def test_a_dry_run_contacts_nothing(stands: list[Stand]) -> None:
    engine, other = stands
    urls = {**engine.urls(7), **other.urls(2)}
    urls[engine.origin.replace("http://", "HTTP://") + "/Upper"] = "added"
    urls[engine.origin.replace("http://", "http://someone@") + "/who"] = "added"
    report = send(engine, urls, dry_run=True, batch_size=3)
    assert engine.requests == other.requests == []
    expected = [(engine.origin, 3), (engine.origin, 3), (engine.origin, 3)]
    expected += [(other.origin, 2)]
    assert sorted(report.would_send) == sorted(expected)
    assert (report.sent, report.pending, report.messages) == ({}, {}, [])


def test_a_dry_run_without_a_key_says_so() -> None:
    settings = IndexNowTarget(endpoint="http://127.0.0.1:9/indexnow")
    report = send_announcements({"http://127.0.0.1:9/a": "added"}, settings, dry_run=True)
    assert report.would_send == [("http://127.0.0.1:9", 1)]
    assert report.pending == {}
    assert [KEY_MISSING in message for message in report.messages] == [True]


def test_urls_without_an_http_host_are_refused(stand: Stand) -> None:
    urls = {"mailto:a@example.com": "added", "/relative": "changed", "http://[::1/": "added"}
    urls |= stand.urls(1)
    report = send(stand, urls)
    assert report.refused == {"not an absolute http(s) URL": 3}
    assert list(report.sent) == list(stand.urls(1))


def test_retry_wait_reads_seconds_and_dates_within_bounds() -> None:
    now = 1_700_000_000.0
    assert [retry_wait(None, attempt, now) for attempt in range(7)] == [1, 2, 4, 8, 16, 30, 30]
    assert retry_wait("0", 0, now) == 1.0  # no hammering
    assert retry_wait(" 12 ", 3, now) == 12.0
    assert retry_wait(formatdate(now + 5, usegmt=True), 0, now) == 5.0
    assert retry_wait("soon", 2, now) == 4.0
