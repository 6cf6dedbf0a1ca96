"""Each page's images as its entry lists them: the site path an image URL names, off-site
hosts counted per host in bounded memory, missing files counted with an example."""

from __future__ import annotations

import pytest

from sitemill.config.model import load_config
from sitemill.entries import Image
from sitemill.html.facts import PageFacts
from sitemill.images import pages as pages_module
from sitemill.images.pages import PageImages, image_path

BASE = "https://example.com/docs/"


@pytest.mark.parametrize(
    ("url", "path"),
    [
        (BASE + "img/a.png", "img/a.png"),
        (BASE + "img/a.png?v=2", "img/a.png"),
        (BASE + "my%20photo.png", "my photo.png"),
        (BASE + "gr%C3%B6%C3%9Fe.png", "größe.png"),
        (BASE + "a%2Fb.png", "a/b.png"),  # (a server that decodes %2F finds a/b.png)
        (BASE + "latin%E9.png", "latin\udce9.png"),  # not UTF-8: the name's own byte
        (BASE + "Algo.PNG", "Algo.PNG"),
        (BASE, None),  # the site's root: no file
        (BASE + "img/", None),  # a folder
        (BASE + "a//b.png", None),  # an empty segment: no file a server agrees on
        (BASE + "a/%2E%2E/b.png", None),  # (never above the root)
        (BASE + "..%2Fsecret.png", None),
        (BASE + "%2E/b.png", None),
        (BASE + "a%00.png", None),
        ("https://example.com/img/a.png", None),  # not below the base URL
        ("https://cdn.example.com/docs/a.png", None),
        ("http://example.com/docs/a.png", None),
    ],
)
def test_image_path(url: str, path: str | None) -> None:
    assert image_path(url, BASE) == path


def images_of(found: PageImages, *sources: str, path: str = "p/index.html") -> list[str]:
    facts = PageFacts(images=sources)
    return [image.loc for image in found.of(path, BASE + "p/", facts)]


def test_files_are_asked_for_by_site_path_and_missing_ones_counted() -> None:
    asked: list[str] = []

    def has_file(path: str) -> bool:
        asked.append(path)
        return path != "p/gone.png"

    config = load_config({"base_url": BASE, "image_hosts": ["cdn.example.com"]})
    found = PageImages(config, has_file)
    listed = images_of(found, "a.png", "gone.png", "https://cdn.example.com/c.png", "/x.png")
    assert listed == [
        BASE + "p/a.png",
        "https://cdn.example.com/c.png",
        "https://example.com/x.png",
    ]
    assert asked == ["p/a.png", "p/gone.png"]  # the CDN and the path above the base: not
    assert found.missing == 1
    assert found.messages() == [
        f"left out 1 image whose file is not in the site, e.g. {BASE}p/gone.png on "
        "p/index.html (a web server compares file names exactly: algo.png is not Algo.png)"
    ]


def test_without_a_file_check_nothing_is_left_out_as_missing() -> None:
    found = PageImages(load_config({"base_url": BASE}))
    assert images_of(found, "gone.png") == [BASE + "p/gone.png"]
    assert found.messages() == []


def test_unread_pages_are_not_counted_as_read() -> None:
    found = PageImages(load_config({"base_url": BASE}))
    assert found.of("a.pdf", BASE + "a.pdf", None) == ()
    assert found.of("b.html", BASE + "b.html", PageFacts()) == ()  # body not read
    assert found.of("c.html", BASE + "c.html", PageFacts(images=())) == ()
    assert found.of("d.html", BASE + "d.html", PageFacts(images=("d.png",))) == (
        Image(BASE + "d.png"),
    )
    assert BASE + "c.html" in found.pages_read and BASE + "d.html" in found.pages_read
    assert BASE + "a.pdf" not in found.pages_read and BASE + "b.html" not in found.pages_read


def test_off_site_hosts_are_ranked_by_count_then_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages_module, "MAX_HOST_LINES", 2)
    found = PageImages(load_config({"base_url": BASE}))
    images_of(found, "https://b.example/1.png", "https://a.example/1.png", "//c.example/x.png")
    images_of(
        found, "https://b.example/2.png", "https://a.example/2.png", "https://a.example/2.png#x"
    )
    assert found.messages() == [
        "left out 2 images on a.example (not the site's host); add it to image_hosts to list them",
        "left out 2 images on b.example (not the site's host); add it to image_hosts to list them",
        "and 1 image on 1 more host (not the site's host)",
    ]


def test_hosts_past_the_bound_are_counted_together(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages_module, "MAX_HOSTS_TRACKED", 2)
    found = PageImages(load_config({"base_url": BASE}))
    for number in range(1_000):
        images_of(found, f"https://h{number % 50}.example/{number}.png")
    assert len(found.off_site) == 2
    assert found.off_site_untracked == 960
    assert found.messages()[-1] == "and 960 images on at least 1 more host (not the site's host)"


def test_images_that_are_no_url_are_not_off_site() -> None:
    found = PageImages(load_config({"base_url": BASE}))
    assert images_of(found, "javascript:x", "mailto:a@b.c", "https://u:p@other.example/x.png") == []
    assert found.messages() == []
