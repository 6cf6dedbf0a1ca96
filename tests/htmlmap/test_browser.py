"""sitemap.html in a real browser: headless Chromium renders it (a screenshot of the window's
size that is not one flat colour) and its DOM holds every listed page as a link, titles as
text, odd characters as characters, and no script. Skipped only where no Chromium exists
(.ci/run installs the Debian package)."""

from __future__ import annotations

import html
import re
import shutil
import struct
import subprocess
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_html_sitemap import links_of

from conftest import BASE_URL, SiteMaker, page
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import HTML_SITEMAP
from sitemill.sinks import LocalDirSink

WIDTH, HEIGHT = 480, 800  # a phone's width: the page must stay readable there
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SITE = {
    "index.html": page("Home &amp; <garden>"),
    "docs/index.html": page("Docs"),
    "docs/no-title.html": "<!doctype html><html><head></head><body>x</body></html>",
    "docs/script.html": page("<script>alert(1)</script><img src=x onerror=alert(2)>"),
    "docs/quotes.html": page("\"'><b>not bold</b>"),
    "docs/a & b+c.html": page("Caf\u00e9 \u65e5\u672c &#128512; \u202eRTL"),
    "docs/long.html": page("Long " * 100),
}


def find_browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip(f"no Chromium here (looked for {', '.join(BROWSERS)}); CI installs `chromium`")


def run_browser(browser: str, profile: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        f"--user-data-dir={profile}",
        f"--window-size={WIDTH},{HEIGHT}",
        *args,
    ]
    return subprocess.run(command, capture_output=True, timeout=60, check=False)


def png_pixels(data: bytes, rows: int) -> tuple[int, int, set[bytes]]:
    """Width, height and the distinct pixels of the first ``rows`` rows of an 8-bit PNG,
    decoded with the standard library (IHDR, the IDAT stream, the five row filters)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    assert depth == 8 and interlace == 0, (depth, interlace)
    size = {0: 1, 2: 3, 4: 2, 6: 4}[colour]  # grey, RGB, grey + alpha, RGBA
    stream, offset = bytearray(), 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        if kind == b"IDAT":
            stream += data[offset + 8 : offset + 8 + length]
        offset += 12 + length
    raw = zlib.decompress(bytes(stream))
    stride = width * size
    previous = bytearray(stride)
    pixels: set[bytes] = set()
    for row in range(min(rows, height)):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - size] if i >= size else 0
            up = previous[i]
            corner = previous[i - size] if i >= size else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up))
                near = min(near, (abs(guess - corner), 2, corner))
                line[i] = (line[i] + near[2]) & 0xFF
        pixels.update(bytes(line[i : i + size]) for i in range(0, stride, size * 3))
        previous = line
    return width, height, pixels


def test_chromium_renders_the_page_and_sees_every_link(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    browser = find_browser()
    site = make_site(SITE)
    config = load_config({"base_url": BASE_URL, "lastmod": "mtime", "html_sitemap": True})
    build_from_tree(config, site, LocalDirSink(site))
    url = (site / HTML_SITEMAP).as_uri()
    shot = tmp_path / "shot.png"
    with ThreadPoolExecutor(max_workers=2) as pool:  # two browsers at once: half the time
        screenshot = pool.submit(run_browser, browser, tmp_path / "p1", f"--screenshot={shot}", url)
        dumped = pool.submit(run_browser, browser, tmp_path / "p2", "--dump-dom", url)
        shown, dom_run = screenshot.result(), dumped.result()
    assert shown.returncode == 0, shown.stderr.decode(errors="replace")[-2000:]
    assert dom_run.returncode == 0, dom_run.stderr.decode(errors="replace")[-2000:]

    width, height, pixels = png_pixels(shot.read_bytes(), rows=400)
    assert (width, height) == (WIDTH, HEIGHT)
    assert len(pixels) >= 3, "the screenshot is one flat colour: nothing was drawn"

    dom = links_of(dom_run.stdout)
    links = dict(dom.links)
    assert "script" not in dom.tags and "img" not in dom.tags and "b" not in dom.tags
    text = (site / "sitemap.xml").read_text("utf-8")
    listed = [html.unescape(loc) for loc in re.findall(r"<loc>([^<]*)</loc>", text)]
    assert len(listed) == len(SITE)
    assert set(listed) <= set(links)
    assert links[BASE_URL] == "Home & <garden>"
    assert links[BASE_URL + "docs/no-title.html"] == "/docs/no-title.html"
    assert links[BASE_URL + "docs/script.html"] == (
        "<script>alert(1)</script><img src=x onerror=alert(2)>"
    )
    assert links[BASE_URL + "docs/quotes.html"] == "\"'><b>not bold</b>"
    assert links[BASE_URL + "docs/a%20&%20b%2Bc.html"] == (
        "Caf\u00e9 \u65e5\u672c \U0001f600 \u202eRTL"
    )
    assert links[BASE_URL + "docs/long.html"].endswith("\u2026")


def encode_png(rows: list[bytes], width: int, filters: list[int]) -> bytes:
    """An RGB PNG of ``rows``, each written with the given row filter (to test the decoder)."""

    def paeth(left: int, up: int, corner: int) -> int:
        guess = left + up - corner
        return min(
            (abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner)
        )[2]

    raw, previous = bytearray(), bytes(width * 3)
    for row, kind in zip(rows, filters, strict=True):
        out = bytearray([kind])
        for i, value in enumerate(row):
            left = row[i - 3] if i >= 3 else 0
            corner = previous[i - 3] if i >= 3 else 0
            predictor = (
                0,
                left,
                previous[i],
                (left + previous[i]) // 2,
                paeth(left, previous[i], corner),
            )[kind]
            out.append((value - predictor) & 0xFF)
        raw += out
        previous = row

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, len(rows), 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(raw)))
        + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("kind", [0, 1, 2, 3, 4])
def test_the_png_check_tells_a_flat_image_from_a_drawn_one(kind: int) -> None:
    width = 6
    flat = [bytes([250, 250, 250] * width)] * 4
    assert png_pixels(encode_png(flat, width, [kind] * 4), rows=4) == (width, 4, {b"\xfa\xfa\xfa"})
    drawn = [
        bytes((x * 40 + y * 7 + c) % 256 for x in range(width) for c in range(3)) for y in range(4)
    ]
    _, _, pixels = png_pixels(encode_png(drawn, width, [kind] * 4), rows=4)
    expected = {row[i : i + 3] for row in drawn for i in range(0, width * 3, 9)}
    assert pixels == expected
