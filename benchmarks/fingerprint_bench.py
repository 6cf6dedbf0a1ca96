"""`make bench` section fingerprint: the content fingerprint of a realistic 100 KB page.

The page is generated (fixed seed): a head with 10 stylesheet links, preloads, icons, Open
Graph and generator meta tags, JSON-LD and inline scripts and styles; a body with a navigation
bar, about 1,500 words of text in paragraphs, 100 links, 20 images (with srcset, some in
<picture>), a footer and scripts; class attributes as a utility-CSS theme writes them.
Reported: µs per page (the median of 5 repeats of 200 calls), and per MB on a 1 MB page of
the same kind (the cost is linear). Checked: the page re-rendered (new asset names and query
strings, another generator version, other script bodies, reindented) has the same
fingerprint, and one added word moves it. Beside it, in the same run: the page's resemblance
sketch (what a build keeps for sitemill diff, made from the fingerprint's reduction) against
the fingerprint, and against the sketch's plain spelling (the tests' plain_sketch).

    .venv/bin/python benchmarks/run.py --only fingerprint
"""

from __future__ import annotations

import random
import statistics
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sitemill.lastmod.fingerprint.digest import fingerprint_html, reduce_html
from sitemill.lastmod.fingerprint.resemblance import sketch_text

TARGET_US = 2_000  # per 100 KB page
# The sketch of a page beside its fingerprint, and beside its plain spelling. Issue 66 asks a
# first run with sketches for at most 5 % more CPU; a first run does much besides fingerprinting
# the current pages (their heads, declared dates, git, the walk's older versions): at 0.21x the
# fingerprint here, first runs of real sites took 1.005-1.016x the CPU (benchmarks/README.md).
SKETCH_SHARE, SPELLING_SHARE = 0.25, 0.80
TESTS = Path(__file__).resolve().parent.parent / "tests"
CALLS, REPEATS = 200, 5
VOCABULARY = (
    "static site sitemap search engine crawler page content reader change build deploy "
    "bucket object commit history theme template render markdown header footer link image "
    "date time index file folder path query fragment host domain server cache asset style "
    "script the a of and to in is it that for on with as by at from this be are was"
)
WORDS = VOCABULARY.split()
CLASSES = (
    "flex items-center justify-between px-4 py-2 text-sm font-medium text-gray-700 "
    "hover:text-gray-900 dark:text-gray-300 rounded-md transition-colors duration-150"
)


def make_page(
    seed: int = 1,
    *,
    build: str = "3f2a",
    generator: str = "0.120",
    indent: str = "  ",
    paragraphs: int = 50,
    nav: int = 30,
) -> bytes:
    """A realistic page of about 100 KB (``paragraphs`` of the article: 50, ``nav`` links in
    the header's navigation: 30); ``build``,
    ``generator`` and ``indent`` vary what a re-render changes (asset names and query
    strings, the generator tag, white space)."""
    rng = random.Random(seed)
    nl = "\n" if indent else ""

    def words(count: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(count))

    head = [
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{words(6).title()} | Example Docs</title>",
        f'<meta name="description" content="{words(25)}">',
        f'<meta name="generator" content="Hugo {generator}">',
        f'<meta property="og:title" content="{words(6)}">',
        '<meta property="og:image" content="https://example.com/og.png">',
        '<link rel="canonical" href="https://example.com/docs/page/">',
        '<link rel="icon" href="/favicon.ico"><link rel="apple-touch-icon" href="/apple.png">',
        f'<link rel="preload" href="/fonts/inter.{build}.woff2" as="font" crossorigin>',
    ]
    head += [
        f'<link rel="stylesheet" href="/css/part{n}.{build}.css?v={build}">' for n in range(10)
    ]
    head.append(
        '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article",'
        f'"headline":"{words(6)}","dateModified":"2024-0{len(build) % 9 + 1}-01"}}</script>'
    )
    rules = (
        f".c{n}-{build}{{margin:0 auto;padding:{n % 4}rem;color:#{n:03x}}}" for n in range(400)
    )
    head.append(f"<style>{''.join(rules)}</style>")  # critical CSS, inlined
    head.append(f"<script>window.__BUILD__='{build}';{'function f(a){return a*2}' * 40}</script>")
    data = ",".join(f'{{"id":{n},"title":"{words(5)}","href":"/docs/{n}/"}}' for n in range(250))
    head.append(f'<script id="__DATA__" type="application/json">{{"pages":[{data}]}}</script>')
    path = " ".join(f"M{n} {n * 3 % 24}l2 2-4 4" for n in range(30))
    icons = "".join(
        f'<symbol id="i{n}" viewBox="0 0 24 24"><path d="{path}"/></symbol>' for n in range(12)
    )
    body = [f'<svg style="display:none">{icons}</svg>']
    body.append(f'<header class="{CLASSES}"><nav class="{CLASSES}"><ul class="{CLASSES}">')
    body += [
        f'<li class="{CLASSES}"><a class="{CLASSES}" href="/docs/section-{n}/">{words(2)}</a></li>'
        for n in range(nav)
    ]
    body.append(f'</ul></nav></header><main class="{CLASSES}"><article class="prose">')
    links, images = 30, 0
    for paragraph in range(paragraphs):
        if paragraph % 6 == 0:
            body.append(f'<h2 id="h{paragraph}" class="{CLASSES}">{words(5)}</h2>')
        text = [words(13)]
        for _ in range(2):
            if links < 90:
                href = f"/docs/topic-{links}/#part-{links % 7}"
                text.append(f'<a class="{CLASSES}" href="{href}">{words(3)}</a> {words(7)}')
                links += 1
        body.append(f'<p class="{CLASSES}">{" ".join(text)}.</p>')
        if paragraph % 2 == 1 and images < 20:
            src = f"/img/figure-{images}"
            image = (
                f'<img class="{CLASSES}" src="{src}.png?v={build}" alt="{words(4)}" '
                f'srcset="{src}-480.png 480w, {src}-960.png 960w" loading="lazy" width="960">'
            )
            if images % 4 == 0:
                image = f'<picture><source srcset="{src}.avif" type="image/avif">{image}</picture>'
            body.append(f'<figure class="{CLASSES}">{image}<figcaption>{words(6)}</figcaption>')
            body.append("</figure>")
            images += 1
    body.append(f'</article></main><footer class="{CLASSES}"><ul>')
    body += [f'<li><a href="https://example.com/l{n}">{words(2)}</a></li>' for n in range(10)]
    body.append(f"</ul><!-- built {build} --></footer>")
    body += [f'<script src="/js/app{n}.{build}.js" defer></script>' for n in range(5)]
    body.append(f"<script>{'console.log(' + repr(build) + ');' * 30}</script>")
    lines = ["<!DOCTYPE html>", '<html lang="en">', "<head>"]
    lines += [indent + line for line in head]
    lines += ["</head>", "<body>"]
    lines += [indent + line for line in body]
    lines += ["</body>", "</html>", ""]
    return nl.join(lines).encode()


def microseconds_per_call(data: bytes, calls: int = CALLS, repeats: int = REPEATS) -> float:
    times = timeit.repeat(lambda: fingerprint_html(data), number=calls, repeat=repeats)
    return statistics.median(times) / calls * 1e6


def measure_fingerprint(section: Any, *, quick: bool) -> None:
    """Fill ``section`` (run.Section) with the µs per page and the re-render checks."""
    page = make_page()
    calls = CALLS // 10 if quick else CALLS
    per_page = microseconds_per_call(page, calls)
    size = f"{len(page) / 1000:.0f} KB"
    section.check(
        f"fingerprint of a {size} page",
        f"≤ {TARGET_US:,} µs",
        f"{per_page:,.0f} µs",
        per_page <= TARGET_US,
    )
    big = b"".join([page] * 10)
    per_big = microseconds_per_call(big, max(1, calls // 10))
    growth = per_big / per_page
    section.check(
        f"a {len(big) / 1e6:.1f} MB page vs {size}",
        "≤ 12.0× (linear)",
        f"{growth:.1f}× ({per_big / 1000:,.1f} ms, {len(big) / per_big:,.0f} MB/s)",
        growth <= 12,
    )

    measure_sketch(section, page, per_page, calls)

    def targets(links: int, images: int, srcsets: int, descriptions: int) -> str:
        return f"{links} links, {images} img, {srcsets} srcset, {descriptions} desc."

    # (every srcset of the page stands beside its <img src> or in its <picture>: copies of the
    # picture, which fingerprint version 9 leaves out; version 8 read 25)
    for scope, main, expected in (
        ("body", False, targets(100, 20, 0, 1)),
        ("main region", True, targets(60, 20, 0, 1)),  # no header nav, no footer links
    ):
        reduction = reduce_html(page, main=main)
        found = targets(*[reduction.count(f"\x01{kind}") for kind in "HISD"])
        section.check(f"targets read ({scope})", expected, found, found == expected)
    rerendered = make_page(build="9c1d", generator="0.121", indent="")
    same = fingerprint_html(rerendered) == fingerprint_html(page)
    section.check(
        "re-rendered page: fingerprint", "unchanged", "unchanged" if same else "moved", same
    )
    edited = page.replace(b"<p class", b"<p class=x>one more word</p><p class", 1)
    moved = fingerprint_html(edited) != fingerprint_html(page)
    section.check("one added word: fingerprint", "moved", "moved" if moved else "unchanged", moved)


def measure_sketch(section: Any, page: bytes, per_page: float, calls: int) -> None:
    """The page's resemblance sketch: µs per page against its fingerprint's ``per_page``, and
    against its plain spelling (each the median of REPEATS runs of ``calls``)."""
    sys.path.insert(0, str(TESTS / "lastmod" / "fingerprint"))
    from test_resemblance_spelling import plain_sketch  # (the tests' plain spelling)

    reduction = reduce_html(page)
    assert sketch_text(reduction) == plain_sketch(reduction) is not None
    sketch = _per_call(sketch_text, reduction, calls)
    plain = _per_call(plain_sketch, reduction, calls)
    share = sketch / per_page
    section.check(
        "its resemblance sketch vs its fingerprint",
        f"≤ {SKETCH_SHARE:.2f}×",
        f"{share:.2f}× ({sketch:,.0f} µs)",
        share <= SKETCH_SHARE,
    )
    spelt = sketch / plain
    section.check(
        "the sketch vs its plain spelling",
        f"≤ {SPELLING_SHARE:.2f}×",
        f"{spelt:.2f}× ({plain:,.0f} µs)",
        spelt <= SPELLING_SHARE,
    )


def _per_call(make: Callable[[str], object], text: str, calls: int) -> float:
    """µs per call of ``make`` on ``text``: the median of REPEATS runs of ``calls``."""
    times = timeit.repeat(lambda: make(text), number=calls, repeat=REPEATS)
    return statistics.median(times) / calls * 1e6
