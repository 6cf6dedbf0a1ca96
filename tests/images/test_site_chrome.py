"""Site chrome: counted over the listed pages whose images were read, decided only once the
last page was seen, left out deterministically, in bounded memory."""

from __future__ import annotations

import pytest

from sitemill.bounded.dedupe import SeenUrls
from sitemill.bounded.spool import Spool, spool_all
from sitemill.entries import Entry, Image
from sitemill.images import chrome as chrome_module
from sitemill.images.chrome import MIN_CHROME_PAGES, SiteChrome

SITE = "https://example.com/"


def page(number: int, *images: str, title: str | None = None) -> Entry:
    return Entry(
        f"{SITE}p{number}/", images=tuple(Image(SITE + name) for name in images), title=title
    )


def run(
    entries: list[Entry], share: float = 0.5, *, read: list[Entry] | None = None
) -> tuple[list[Entry], SiteChrome]:
    pages_read = SeenUrls()
    for entry in entries if read is None else read:
        pages_read.add(entry.loc)
    chrome = SiteChrome(share, pages_read)
    return list(chrome.drop(spool_all(chrome.count(entries)))), chrome


def test_an_image_on_most_pages_is_left_out_and_the_rest_kept() -> None:
    entries = [page(n, "logo.png", f"{n}.jpg", title=f"t{n}") for n in range(30)]
    out, chrome = run(entries)
    assert out == [page(n, f"{n}.jpg", title=f"t{n}") for n in range(30)]  # titles kept
    assert chrome.left_out == 30
    assert chrome.chrome == {SITE + "logo.png": 30}


def test_only_pages_whose_images_were_read_count() -> None:
    # 25 pages show the logo; 30 PDFs (no facts) do not dilute the share.
    with_logo = [page(n, "logo.png") for n in range(25)]
    pdfs = [Entry(f"{SITE}doc{n}.pdf") for n in range(30)]
    out, chrome = run(with_logo + pdfs, read=with_logo)
    assert chrome.pages == 25
    assert all(not entry.images for entry in out)
    # Read, they would: 25 of 55 is not more than half.
    out, chrome = run(with_logo + pdfs)
    assert chrome.pages == 55 and chrome.left_out == 0


def test_deciding_before_the_last_page_was_counted_is_an_error() -> None:
    chrome = SiteChrome(0.5, SeenUrls())
    entries = chrome.drop(chrome.count([page(1, "a.png")]))  # no spool between them
    with pytest.raises(RuntimeError, match="once every page was counted"):
        next(entries)


def test_the_summary_names_the_most_shown_image_and_is_deterministic() -> None:
    entries = [page(n, "b.png", "a.png", *(["c.png"] if n < 25 else [])) for n in range(40)]
    _, chrome = run(entries)
    _, again = run(list(reversed(entries)))
    assert (
        chrome.messages()
        == again.messages()
        == [
            f"left out 3 site-chrome images shown on 25 to 40 of 40 pages (e.g. {SITE}a.png); "
            "keep_image_chrome = true keeps them"
        ]
    )


def test_one_chrome_image_is_said_so() -> None:
    _, chrome = run([page(n, "logo.png") for n in range(MIN_CHROME_PAGES)])
    assert chrome.messages() == [
        f"left out 1 site-chrome image shown on 20 of 20 pages (e.g. {SITE}logo.png); "
        "keep_image_chrome = true keeps it"
    ]


def test_no_chrome_no_message() -> None:
    _, chrome = run([page(n, f"{n}.png") for n in range(100)])
    assert chrome.messages() == [] and chrome.left_out == 0


def test_at_most_max_images_are_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chrome_module, "MAX_IMAGES_COUNTED", 3)
    entries = [page(n, f"own{n}.png", "logo.png") for n in range(30)]
    out, chrome = run(entries)
    # own0, logo, own1 were counted; the logo is chrome, every later own image uncounted.
    assert chrome.chrome == {SITE + "logo.png": 30}
    assert chrome.uncounted == 28
    assert out[5].images == (Image(SITE + "own5.png"),)
    assert "the first 3 distinct images only: 28 image entries" in chrome.messages()[-1]


def test_memory_holds_one_count_per_distinct_image_not_per_entry() -> None:
    entries = (page(n, "logo.png", "me.jpg") for n in range(200_000))  # a generator
    pages_read = SeenUrls()
    for n in range(200_000):
        pages_read.add(f"{SITE}p{n}/")
    chrome = SiteChrome(0.5, pages_read)
    counted = 0
    for _entry in chrome.count(entries):
        counted += 1
        assert len(chrome._counts) <= 2
    assert counted == 200_000 and chrome.pages == 200_000


def test_the_spool_moves_to_disk_and_keeps_order() -> None:
    spool = Spool(in_memory=3)
    entries = [page(n, f"{n}.png") for n in range(10)]
    for entry in entries:
        spool.append(entry)
    assert spool._file is not None  # (on disk past three)
    assert list(spool.drain()) == entries
    assert list(spool.drain()) == []
