"""Taking over from a site generator's sitemap, through the real `sitemill` command: the
generator is named once with the setting that turns its sitemap off, the files of its sitemap
that would contradict sitemill's go, nothing else does, and a second run says nothing."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from clirun import run_sitemill
from conftest import BASE_URL, SiteMaker, page
from gitutil import commit, make_repo

# The shapes of real generators' files (benchmarks/realsites: pymdown-extensions, hugegraph,
# typescript-book), cut to a few entries.
MKDOCS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "    <url>\n"
    f"         <loc>{BASE_URL}</loc>\n"
    "         <lastmod>2025-07-28</lastmod>\n"
    "    </url>\n"
    "    <url>\n"
    f"         <loc>{BASE_URL}gone/</loc>\n"
    "         <lastmod>2025-07-28</lastmod>\n"
    "    </url>\n"
    "</urlset>"
).encode()
HUGO_DECLARATION = '<?xml version="1.0" encoding="utf-8" standalone="yes"?>'
HUGO_INDEX = (
    f'{HUGO_DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    "<sitemap><loc>/en/sitemap.xml</loc><lastmod>2026-04-17T09:48:13+08:00</lastmod></sitemap>"
    f"<sitemap><loc>{BASE_URL}fr/sitemap.xml</loc></sitemap>"
    "<sitemap><loc>/de/sitemap.xml</loc></sitemap>"
    "</sitemapindex>"
)


def hugo_urlset(loc: str) -> str:
    return (
        f'{HUGO_DECLARATION}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>'
        f"{loc}</loc><lastmod>2026-03-09T20:36:34+08:00</lastmod></url></urlset>"
    )


ASTRO_INDEX = (
    '<?xml version="1.0" encoding="UTF-8"?><sitemapindex '
    'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap>'
    f"<loc>{BASE_URL}sitemap-0.xml</loc></sitemap></sitemapindex>"
)
ASTRO_URLSET = (
    '<?xml version="1.0" encoding="UTF-8"?><urlset '
    'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
    'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" '
    'xmlns:xhtml="http://www.w3.org/1999/xhtml" '
    'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" '
    'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">'
    f"<url><loc>{BASE_URL}</loc></url></urlset>"
)


def build(site: Path) -> tuple[int, str, str]:
    done = run_sitemill("build", str(site), "--base-url", BASE_URL, env={"no_proxy": "*"})
    return done.returncode, done.stdout, done.stderr


def validate(site: Path) -> None:
    done = run_sitemill("validate", str(site))
    assert done.returncode == 0, done.stdout + done.stderr


def warnings_of(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("sitemill: warning:")]


def test_mkdocs_sitemap_and_its_gz_twin_are_replaced_once(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page("home"), "about/index.html": page("about")})
    (site / "sitemap.xml").write_bytes(MKDOCS)
    (site / "sitemap.xml.gz").write_bytes(gzip.compress(MKDOCS, mtime=0))
    code, stdout, stderr = build(site)
    assert code == 0, stderr
    (warning,) = warnings_of(stderr)
    assert warning.startswith(
        "sitemill: warning: replacing MkDocs' sitemap.xml with sitemill's "
        "(deleting sitemap.xml.gz with it): MkDocs writes both on every build"
    )
    assert "was the state deleted" not in stderr
    assert "deleted: sitemap.xml.gz" in stdout
    assert not (site / "sitemap.xml.gz").exists()
    assert b"gone/" not in (site / "sitemap.xml").read_bytes()
    validate(site)
    code, stdout, stderr = build(site)  # a second run: nothing to say, nothing to do
    assert (code, stderr) == (0, "")
    assert "nothing changed" in stdout


RSS = (
    b'<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n'
    b'<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>x</title>'
    b"</channel></rss>"
)


@pytest.mark.parametrize(
    ("twin", "gone"),
    [
        (gzip.compress(MKDOCS.replace(b"gone/", b"stale/"), mtime=0), True),  # stale: a sitemap
        (gzip.compress(RSS, mtime=0), False),  # a feed, gzipped: never deleted
        (b"not gzip at all", False),
        (gzip.compress(b"<urlset/>", mtime=0), False),  # no sitemaps.org namespace
    ],
)
def test_a_gz_twin_goes_only_when_it_is_a_sitemap(
    make_site: SiteMaker, twin: bytes, gone: bool
) -> None:
    site = make_site({"index.html": page("home")})
    (site / "sitemap.xml").write_bytes(MKDOCS)
    (site / "sitemap.xml.gz").write_bytes(twin)
    code, stdout, stderr = build(site)
    assert code == 0
    (warning,) = warnings_of(stderr)
    assert "replacing MkDocs' sitemap.xml" in warning
    assert ("deleting sitemap.xml.gz" in warning) is gone
    assert ("deleted: sitemap.xml.gz" in stdout) is gone
    assert (site / "sitemap.xml.gz").exists() is not gone


def test_hugo_multilingual_index_and_its_children_are_replaced(make_site: SiteMaker) -> None:
    site = make_site(
        {
            "index.html": page("home"),
            "fr/index.html": page("accueil"),
            "sitemap.xml": HUGO_INDEX,
            "en/sitemap.xml": hugo_urlset(BASE_URL),
            "fr/sitemap.xml": hugo_urlset(f"{BASE_URL}fr/"),
            # Named by the index but not Hugo's: never deleted; not named: never deleted.
            "de/sitemap.xml": "<urlset/>",
            "es/sitemap.xml": hugo_urlset(f"{BASE_URL}es/"),
        }
    )
    code, stdout, stderr = build(site)
    assert code == 0, stderr
    (warning,) = warnings_of(stderr)
    assert warning == (
        "sitemill: warning: replacing Hugo's sitemap.xml with sitemill's (deleting "
        'en/sitemap.xml, fr/sitemap.xml with it): turn it off with `disableKinds = ["sitemap"]` '
        "in hugo.toml (in hugo.yaml: `disableKinds: [sitemap]`)"
    )
    assert not (site / "en" / "sitemap.xml").exists()
    assert not (site / "fr" / "sitemap.xml").exists()
    assert (site / "de" / "sitemap.xml").read_text() == "<urlset/>"
    assert (site / "es" / "sitemap.xml").exists()
    assert "deleted: en/sitemap.xml, fr/sitemap.xml" in stdout or "en/sitemap.xml" in stdout
    code, _, stderr = build(site)
    assert (code, stderr) == (0, "")


@pytest.mark.parametrize(
    ("config", "setting"),
    [
        ("config.yml", "`disableKinds: [sitemap]` in config.yml"),
        ("config/_default/hugo.json", '`"disableKinds": ["sitemap"]` in config/_default/hugo.json'),
        ("hugo.toml", '`disableKinds = ["sitemap"]` in hugo.toml'),
    ],
)
def test_hugos_setting_is_advised_in_the_sites_own_config_file(
    tmp_path: Path, config: str, setting: str
) -> None:
    """The advice names the file the Hugo project is configured in, in its syntax (issue 82:
    hugo.toml and TOML were advised to a site configured in config.yml)."""
    repo = make_repo(tmp_path / "repo")
    built = {"public/index.html": page("home"), "public/sitemap.xml": hugo_urlset(BASE_URL)}
    commit(repo, {config: "title: x\n", "content/_index.md": "# home\n", **built}, "2024-01-05")
    code, _, stderr = build(repo / "public")
    assert code == 0, stderr
    said = "sitemill: warning: replacing Hugo's sitemap.xml with sitemill's: turn it off with"
    assert warnings_of(stderr) == [f"{said} {setting}"]


def test_astro_index_and_child_go_and_robots_txt_is_pointed_out(make_site: SiteMaker) -> None:
    robots = f"User-agent: *\nAllow: /\n\nSitemap: {BASE_URL}sitemap-index.xml\n"
    site = make_site(
        {
            "index.html": page("home"),
            "sitemap-index.xml": ASTRO_INDEX,
            "sitemap-0.xml": ASTRO_URLSET,
            "robots.txt": robots,
        }
    )
    code, _, stderr = build(site)
    assert code == 0, stderr
    takeover, pointed = warnings_of(stderr)
    assert takeover == (
        "sitemill: warning: sitemill's sitemap.xml takes over from Astro's sitemap-index.xml "
        "(deleting it and sitemap-0.xml): turn it off by removing `@astrojs/sitemap` from "
        "`integrations` in astro.config.mjs"
    )
    assert pointed.startswith("sitemill: warning: robots.txt still names Astro's sitemap-index")
    assert not (site / "sitemap-index.xml").exists()
    assert not (site / "sitemap-0.xml").exists()
    assert (site / "robots.txt").read_text() == robots
    validate(site)


@pytest.mark.parametrize(
    ("head", "named", "setting"),
    [
        (
            '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns:xsi="http://www.w3.org/2001/'
            'XMLSchema-instance" xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9 '
            'http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd" '
            'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url>\n',
            "Jekyll's",
            "removing `jekyll-sitemap` from `plugins` in _config.yml",
        ),
        (ASTRO_URLSET.split("<url>")[0] + "<url>", "Docusaurus'", "`sitemap: false`"),
        (
            "<?xml version='1.0' encoding='utf-8'?>\n<urlset xmlns=\"http://www.sitemaps.org/"
            'schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"><url>',
            "Sphinx's",
            "removing `sphinx_sitemap` from `extensions` in conf.py",
        ),
    ],
)
def test_each_generator_is_named_with_its_setting(
    make_site: SiteMaker, head: str, named: str, setting: str
) -> None:
    site = make_site({"index.html": page("home")})
    (site / "sitemap.xml").write_text(f"{head}<loc>{BASE_URL}</loc></url></urlset>")
    code, _, stderr = build(site)
    assert code == 0
    (warning,) = warnings_of(stderr)
    assert f"replacing {named} sitemap.xml with sitemill's: " in warning
    assert setting in warning


# Hugo's RSS feed (layouts/_default/rss.xml): the same declaration as its sitemap.
HUGO_RSS = (
    f'{HUGO_DECLARATION}\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n'
    f"  <channel>\n    <title>Site</title>\n    <link>{BASE_URL}</link>\n  </channel>\n</rss>"
)


def hugo_index(*locs: str) -> str:
    items = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return (
        f'{HUGO_DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"{items}</sitemapindex>"
    )


def test_an_index_naming_a_feed_and_a_page_deletes_only_its_sitemaps(
    make_site: SiteMaker,
) -> None:
    about = page("about")
    site = make_site(
        {
            "index.html": page("home"),
            "about/index.html": about,
            "index.xml": HUGO_RSS,
            "sitemap.xml": hugo_index(
                "/index.xml", f"{BASE_URL}about/index.html", "/en/sitemap.xml", "/fr/sitemap.xml"
            ),
            "en/sitemap.xml": hugo_urlset(BASE_URL),
            "fr/sitemap.xml": hugo_urlset(f"{BASE_URL}fr/"),
        }
    )
    code, stdout, stderr = build(site)
    assert code == 0, stderr
    (warning,) = warnings_of(stderr)
    assert warning.startswith(
        "sitemill: warning: replacing Hugo's sitemap.xml with sitemill's (deleting "
        "en/sitemap.xml, fr/sitemap.xml with it): "
    )
    assert (site / "index.xml").read_text() == HUGO_RSS  # the feed and the page stay
    assert (site / "about" / "index.html").read_text() == about
    assert not (site / "en" / "sitemap.xml").exists()
    assert not (site / "fr" / "sitemap.xml").exists()
    assert "deleted: en/sitemap.xml, fr/sitemap.xml" in stdout
    assert "index.xml" not in stdout.replace("sitemap.xml", "")
    validate(site)


def test_a_named_child_that_is_a_link_stays_and_so_does_its_target(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere.xml"
    outside.write_text(hugo_urlset(BASE_URL))
    site = make_site(
        {"index.html": page("home"), "sitemap.xml": hugo_index("/en/sitemap.xml", "/de/x.xml")}
    )
    (site / "en").mkdir()
    (site / "en" / "sitemap.xml").symlink_to(outside)
    (site / "de").symlink_to(tmp_path, target_is_directory=True)  # a folder leading outside
    (tmp_path / "x.xml").write_text(hugo_urlset(BASE_URL))
    code, _, stderr = build(site)
    assert code == 0, stderr
    (warning,) = [line for line in warnings_of(stderr) if "Hugo" in line]
    assert warning.startswith("sitemill: warning: replacing Hugo's sitemap.xml with sitemill's: ")
    assert (site / "en" / "sitemap.xml").is_symlink()
    assert outside.read_text() == hugo_urlset(BASE_URL)
    assert (tmp_path / "x.xml").exists()


def test_text_output_touches_neither_hugos_index_nor_its_children(make_site: SiteMaker) -> None:
    files = {
        "sitemap.xml": hugo_index("/en/sitemap.xml", "/fr/sitemap.xml"),
        "en/sitemap.xml": hugo_urlset(BASE_URL),
        "fr/sitemap.xml": hugo_urlset(f"{BASE_URL}fr/"),
    }
    site = make_site({"index.html": page("home"), "fr/index.html": page("accueil"), **files})
    done = run_sitemill("build", str(site), "--base-url", BASE_URL, "--format", "txt")
    assert done.returncode == 0, done.stderr
    (warning,) = warnings_of(done.stderr)
    assert warning == (
        "sitemill: warning: Hugo's sitemap.xml stays beside sitemill's sitemap.txt (text output "
        "replaces neither it nor the files it names), and crawlers may read both: turn it off "
        'with `disableKinds = ["sitemap"]` in hugo.toml (in hugo.yaml: `disableKinds: [sitemap]`)'
    )
    assert "replacing" not in done.stderr
    assert "deleted" not in done.stdout
    for name, text in files.items():
        assert (site / name).read_text() == text, name
    assert set((site / "sitemap.txt").read_text().split()) == {BASE_URL, f"{BASE_URL}fr/"}
    again = run_sitemill("build", str(site), "--base-url", BASE_URL, "--format", "txt")
    assert (again.returncode, again.stderr) == (0, "")  # said once


def test_text_output_leaves_mkdocs_sitemap_and_says_how_to_drop_it(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page("home")})
    (site / "sitemap.xml").write_bytes(MKDOCS)
    (site / "sitemap.xml.gz").write_bytes(gzip.compress(MKDOCS, mtime=0))
    done = run_sitemill("build", str(site), "--base-url", BASE_URL, "--format", "txt")
    assert done.returncode == 0, done.stderr
    (warning,) = warnings_of(done.stderr)
    assert warning.startswith("sitemill: warning: MkDocs' sitemap.xml stays beside sitemill's")
    assert warning.endswith(
        'delete both after every `mkdocs build`, or let sitemill write XML (format = "xml")'
    )
    assert "which replaces them" not in warning
    assert (site / "sitemap.xml").read_bytes() == MKDOCS
    assert gzip.decompress((site / "sitemap.xml.gz").read_bytes()) == MKDOCS


def test_text_output_leaves_astros_index_and_says_so(make_site: SiteMaker) -> None:
    site = make_site(
        {
            "index.html": page("home"),
            "sitemap-index.xml": ASTRO_INDEX,
            "sitemap-0.xml": ASTRO_URLSET,
        }
    )
    done = run_sitemill("build", str(site), "--base-url", BASE_URL, "--format", "txt")
    assert done.returncode == 0, done.stderr
    (warning,) = warnings_of(done.stderr)
    assert warning.startswith("sitemill: warning: Astro's sitemap-index.xml stays beside")
    assert (site / "sitemap-index.xml").read_text() == ASTRO_INDEX
    assert (site / "sitemap-0.xml").read_text() == ASTRO_URLSET


# MkDocs 1.6 without site_url (`mkdocs build`, checked): an empty urlset, and its .gz twin.
MKDOCS_EMPTY = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>'
)
HAND_WRITTEN = (
    b'<?xml version="1.0" encoding="UTF-8"?>\r\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\r\n'
    b"  <url>\r\n    <loc>https://example.org/old-page.html</loc>\r\n  </url>\r\n</urlset>\r\n"
)
OTHER_TOOL = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<!-- generated by some-sitemap-tool 2.1 -->\n'
    b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    b"<sitemap><loc>https://example.org/sitemap-pages.xml</loc></sitemap>\n</sitemapindex>\n"
)
GENERIC = "a sitemap.xml sitemill did not write (no state names it)"


@pytest.mark.parametrize(
    ("data", "named"),
    [(MKDOCS_EMPTY, "MkDocs' sitemap.xml"), (HAND_WRITTEN, GENERIC), (OTHER_TOOL, GENERIC)],
)
def test_any_foreign_sitemap_is_replaced_once_with_its_stale_twin(
    make_site: SiteMaker, data: bytes, named: str
) -> None:
    site = make_site({"index.html": page("home"), "about/index.html": page("about")})
    (site / "sitemap.xml").write_bytes(data)
    (site / "sitemap.xml.gz").write_bytes(gzip.compress(data, mtime=0))
    child = b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>'
    (site / "sitemap-pages.xml").write_bytes(child)  # the other tool's child, or the user's
    code, stdout, stderr = build(site)
    assert code == 0, stderr
    (warning,) = warnings_of(stderr)
    assert warning.startswith(f"sitemill: warning: replacing {named} with sitemill's (deleting ")
    assert "was the state deleted" not in stderr
    assert not (site / "sitemap.xml.gz").exists()
    assert "deleted: " in stdout
    # Whose child it is cannot be told (and the index names it on another host): it stays.
    assert (site / "sitemap-pages.xml").read_bytes() == child
    kept = "; keeping https://example.org/sitemap-pages.xml, on another host or outside the folder"
    assert (kept in warning) is (data is OTHER_TOOL)
    validate(site)
    code, _, stderr = build(site)  # a second run: nothing to say
    assert (code, stderr) == (0, "")


def test_a_sitemap_this_run_leaves_as_it_was_is_ours_whatever_its_shape(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    """No state names it, and it is not in sitemill's templates' shape (the user's own
    template), but this run writes the same bytes: sitemill's, and only the lost state is said."""
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "urlset.xml.j2").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "{% for entry in entries %}    <url><loc>{{ entry.loc }}</loc></url>\n{% endfor %}"
        "</urlset>\n"
    )
    site = make_site({"index.html": page("home")})
    flags = ("build", str(site), "--base-url", BASE_URL, "--templates-dir", str(templates))
    assert run_sitemill(*flags).returncode == 0
    (site / "sitemill-state.json.gz").unlink()
    done = run_sitemill(*flags)
    assert done.returncode == 0, done.stderr
    (warning,) = warnings_of(done.stderr)
    assert "was the state deleted?" in warning


# @astrojs/sitemap's customSitemaps: its index names the user's own sitemaps beside its children.
BLOG_SITEMAP = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    b"  <url><loc>https://example.com/blog/first/</loc></url>\n</urlset>\n"
)
DOCS_SITEMAP = BLOG_SITEMAP.replace(b"blog/first/", b"docs/")


def astro_index(*locs: str) -> str:
    items = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return (
        '<?xml version="1.0" encoding="UTF-8"?><sitemapindex '
        f'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{items}</sitemapindex>'
    )


def test_astros_takeover_keeps_the_sitemaps_the_user_wrote_byte_for_byte(
    make_site: SiteMaker,
) -> None:
    index = astro_index(
        f"{BASE_URL}blog-sitemap.xml",
        f"{BASE_URL}docs/sitemap.xml",
        f"{BASE_URL}sitemap-0.xml",
        f"{BASE_URL}sitemap-pages-0.xml",  # a `chunks` option's child: Astro's too
        "https://elsewhere.example.org/sitemap-1.xml",  # another host: never touched
    )
    site = make_site(
        {
            "index.html": page("home"),
            "sitemap-index.xml": index,
            "sitemap-0.xml": ASTRO_URLSET,
            "sitemap-pages-0.xml": ASTRO_URLSET,
        }
    )
    (site / "blog-sitemap.xml").write_bytes(BLOG_SITEMAP)
    (site / "docs").mkdir()
    (site / "docs" / "sitemap.xml").write_bytes(DOCS_SITEMAP)
    code, stdout, stderr = build(site)
    assert code == 0, stderr
    assert (site / "blog-sitemap.xml").read_bytes() == BLOG_SITEMAP
    assert (site / "docs" / "sitemap.xml").read_bytes() == DOCS_SITEMAP
    assert not (site / "sitemap-0.xml").exists()
    assert not (site / "sitemap-pages-0.xml").exists()
    assert not (site / "sitemap-index.xml").exists()
    (warning,) = warnings_of(stderr)
    assert warning == (
        "sitemill: warning: sitemill's sitemap.xml takes over from Astro's sitemap-index.xml "
        "(deleting it and sitemap-0.xml, sitemap-pages-0.xml; keeping and naming blog-sitemap.xml, "
        "docs/sitemap.xml, not Astro's own; keeping https://elsewhere.example.org/sitemap-1.xml, "
        "on another host or outside the folder): turn it off by removing `@astrojs/sitemap` "
        "from `integrations` in astro.config.mjs"
    )
    assert "blog-sitemap.xml" not in stdout and "docs/sitemap.xml" not in stdout
    validate(site)
    code, _, stderr = build(site)  # a second run: nothing to say, nothing more to delete
    assert (code, stderr) == (0, "")
    assert (site / "blog-sitemap.xml").read_bytes() == BLOG_SITEMAP


def test_an_index_whose_writer_cannot_be_told_keeps_every_sitemap_it_names(
    make_site: SiteMaker,
) -> None:
    """A hand-written sitemap.xml index (no generator's shape) naming the user's own sitemaps:
    sitemill replaces the index, and none of the sitemaps it names is deleted."""
    index = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"<sitemap><loc>{BASE_URL}sitemap-pages.xml</loc></sitemap>\n"
        f"<sitemap><loc>{BASE_URL}news/sitemap.xml</loc></sitemap>\n"
        f"<sitemap><loc>{BASE_URL}lmth\u202e.xml</loc></sitemap>\n"  # escaped when said
        "</sitemapindex>\n"
    )
    site = make_site({"index.html": page("home"), "sitemap.xml": index})
    (site / "sitemap-pages.xml").write_bytes(BLOG_SITEMAP)
    (site / "news").mkdir()
    (site / "news" / "sitemap.xml").write_bytes(DOCS_SITEMAP)
    (site / "lmth\u202e.xml").write_bytes(BLOG_SITEMAP)
    code, stdout, stderr = build(site)
    assert code == 0, stderr
    assert (site / "sitemap-pages.xml").read_bytes() == BLOG_SITEMAP
    assert (site / "news" / "sitemap.xml").read_bytes() == DOCS_SITEMAP
    assert (site / "lmth\u202e.xml").read_bytes() == BLOG_SITEMAP
    (warning,) = warnings_of(stderr)
    assert warning == (
        "sitemill: warning: replacing a sitemap.xml sitemill did not write (no state names it) "
        "with sitemill's (keeping and naming sitemap-pages.xml, news/sitemap.xml, "
        "lmth\\u202e.xml, not known to be the index writer's): if a tool writes it on every "
        "build, turn that off or run sitemill after it"
    )
    assert "deleted" not in stdout


def test_an_index_in_astros_shape_naming_none_of_astros_sitemaps_is_the_users(
    make_site: SiteMaker,
) -> None:
    """A sitemap-index.xml the user's own endpoint writes on one line, as @astrojs/sitemap
    does, but naming no sitemap-<n>.xml (Astro's always names one): it and all it names stay."""
    index = astro_index(f"{BASE_URL}sitemap-posts.xml", f"{BASE_URL}sitemap-pages.xml")
    site = make_site({"index.html": page("home"), "sitemap-index.xml": index})
    (site / "sitemap-posts.xml").write_bytes(BLOG_SITEMAP)
    (site / "sitemap-pages.xml").write_bytes(DOCS_SITEMAP)
    code, stdout, stderr = build(site)
    assert (code, stderr) == (0, "")
    assert (site / "sitemap-index.xml").read_text() == index
    assert (site / "sitemap-posts.xml").read_bytes() == BLOG_SITEMAP
    assert (site / "sitemap-pages.xml").read_bytes() == DOCS_SITEMAP
    assert "deleted" not in stdout


def test_a_generators_52_mib_sitemap_is_replaced_in_one_warning(make_site: SiteMaker) -> None:
    """Issue 78: a urlset over the protocol's bound is told from its head and replaced as a
    smaller one is; the run says so once (no "refusing to read or replace" beside it)."""
    site = make_site({"index.html": page("home")})
    head = MKDOCS.partition(b"    <url>")[0]
    row = f"<url><loc>{BASE_URL}page/</loc></url>\n".encode()
    with (site / "sitemap.xml").open("wb") as out:
        out.write(head)
        for _ in range(52 * 1024 * 1024 // (len(row) * 1024) + 1):
            out.write(row * 1024)
        out.write(b"</urlset>\n")
    assert (site / "sitemap.xml").stat().st_size > 52 * 1024 * 1024
    code, _, stderr = build(site)
    assert code == 0, stderr
    (warning,) = warnings_of(stderr)
    assert warning.startswith("sitemill: warning: replacing a sitemap.xml sitemill did not write")
    assert b"page/" not in (site / "sitemap.xml").read_bytes()


def test_an_index_over_the_protocols_bound_keeps_what_it_names_past_it(
    make_site: SiteMaker,
) -> None:
    """Issue 78: what a replaced index names is read to the protocol's bound (50 MiB), never
    further: the children named before it go with it, those named past it stay (nothing
    read shows they are sitemaps), and the one warning says so."""
    site = make_site(
        {
            "index.html": page("home"),
            "en/sitemap.xml": hugo_urlset(BASE_URL),
            "fr/sitemap.xml": hugo_urlset(f"{BASE_URL}fr/"),
        }
    )
    start, _, _ = HUGO_INDEX.partition("<sitemap>")
    padding = b"<!--" + b" " * (1024 * 1024) + b"-->"
    with (site / "sitemap.xml").open("wb") as out:
        out.write(f"{start}<sitemap><loc>/en/sitemap.xml</loc></sitemap>".encode())
        for _ in range(51):
            out.write(padding)
        out.write(b"<sitemap><loc>/fr/sitemap.xml</loc></sitemap></sitemapindex>")
    code, _, stderr = build(site)
    assert code == 0, stderr
    (warning,) = warnings_of(stderr)
    assert warning.startswith(
        "sitemill: warning: replacing Hugo's sitemap.xml with sitemill's (deleting "
        "en/sitemap.xml with it; it is larger than an index may be (52,428,800 bytes): the "
        "files it names past that stay, delete them yourself): "
    ), warning
    assert not (site / "en" / "sitemap.xml").exists()
    assert (site / "fr" / "sitemap.xml").exists()
