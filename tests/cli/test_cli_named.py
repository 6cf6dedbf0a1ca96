"""The user's sitemaps named in sitemill's index, through the real `sitemill` command: those a
generator's index named beside its own children (kept byte for byte, named on every later run
while their file is there) and those `sitemaps = [...]` / `--sitemap` names (the location rule:
the index names only what is at or below its folder on its host; robots.txt the rest)."""

from __future__ import annotations

from pathlib import Path

from test_cli_takeover import ASTRO_URLSET, BLOG_SITEMAP, DOCS_SITEMAP, astro_index

from clirun import run_sitemill
from conftest import BASE_URL, SiteMaker, page


def build(site: Path, *flags: str) -> tuple[int, str, str]:
    done = run_sitemill("build", str(site), "--base-url", BASE_URL, *flags, env={"no_proxy": "*"})
    return done.returncode, done.stdout, done.stderr


def index_locs(site: Path) -> list[str]:
    text = (site / "sitemap.xml").read_text()
    return [part.split("</loc>")[0] for part in text.split("<loc>")[1:]]


def astro_site(make_site: SiteMaker) -> Path:
    index = astro_index(
        f"{BASE_URL}docs/sitemap.xml",
        f"{BASE_URL}sitemap-0.xml",
        f"{BASE_URL}blog-sitemap.xml",
        "https://elsewhere.example.org/sitemap.xml",
    )
    site = make_site(
        {"index.html": page("home"), "sitemap-index.xml": index, "sitemap-0.xml": ASTRO_URLSET}
    )
    (site / "blog-sitemap.xml").write_bytes(BLOG_SITEMAP)
    (site / "docs").mkdir()
    (site / "docs" / "sitemap.xml").write_bytes(DOCS_SITEMAP)
    return site


def test_astros_custom_sitemaps_are_named_in_sitemills_index_run_after_run(
    make_site: SiteMaker,
) -> None:
    """One page fits one file, yet the entry file is an index: sitemill's own URLs in
    sitemap-1.xml, then the user's sitemaps in a sorted order and without a <lastmod>."""
    site = astro_site(make_site)
    code, stdout, stderr = build(site)
    assert code == 0, stderr
    counts = stdout.splitlines()[1]  # (the first: what needs the user)
    assert counts.startswith(f"1 URL in an index of 1 sitemap and 2 of yours in {site} ")
    assert index_locs(site) == [
        f"{BASE_URL}sitemap-1.xml",
        f"{BASE_URL}blog-sitemap.xml",
        f"{BASE_URL}docs/sitemap.xml",
    ]
    text = (site / "sitemap.xml").read_text()
    assert "<sitemap><loc>https://example.com/blog-sitemap.xml</loc></sitemap>" in text
    assert (site / "blog-sitemap.xml").read_bytes() == BLOG_SITEMAP
    assert (site / "docs" / "sitemap.xml").read_bytes() == DOCS_SITEMAP
    assert not (site / "sitemap-index.xml").exists()
    assert "keeping and naming docs/sitemap.xml, blog-sitemap.xml, not Astro's own" in stderr
    assert run_sitemill("validate", str(site)).returncode == 0
    before = {path: path.stat().st_mtime_ns for path in site.rglob("*") if path.is_file()}
    # A second run: Astro's index is gone (a committed tree); the state says which to name.
    code, stdout, stderr = build(site)
    assert (code, stderr) == (0, "")
    assert "nothing changed" in stdout
    assert {path: path.stat().st_mtime_ns for path in site.rglob("*") if path.is_file()} == before


def test_a_tree_built_fresh_names_them_again_from_the_generators_index(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    """No state kept beside the build (each CI run builds the site anew): the generator's index
    says them again, and the same bytes come out."""
    site = astro_site(make_site)
    state = tmp_path / "state.json.gz"
    assert build(site, "--state", str(state))[0] == 0
    first = (site / "sitemap.xml").read_bytes()
    state.unlink()
    (site / "sitemap-index.xml").write_text(
        astro_index(f"{BASE_URL}sitemap-0.xml", f"{BASE_URL}blog-sitemap.xml")
    )
    (site / "sitemap-0.xml").write_text(ASTRO_URLSET)
    assert build(site, "--state", str(state))[0] == 0
    assert index_locs(site) == [f"{BASE_URL}sitemap-1.xml", f"{BASE_URL}blog-sitemap.xml"]
    assert first != (site / "sitemap.xml").read_bytes()


def test_a_found_sitemap_whose_file_is_gone_is_no_longer_named(make_site: SiteMaker) -> None:
    site = astro_site(make_site)
    assert build(site)[0] == 0
    (site / "docs" / "sitemap.xml").unlink()
    (site / "blog-sitemap.xml").write_text(page("now a page"))  # no sitemap any more
    code, _, stderr = build(site)
    assert code == 0, stderr
    assert "<urlset" in (site / "sitemap.xml").read_text()  # one file again: no index needed
    assert not (site / "sitemap-1.xml").exists()
    code, stdout, stderr = build(site)  # and it stays so, with nothing to say
    assert (code, stderr) == (0, "") and "nothing changed" in stdout


def test_named_sitemaps_go_where_the_location_rule_allows(make_site: SiteMaker) -> None:
    """Relative names and an absolute URL below the folder on the host: in the index; another
    host and a path above the folder: robots.txt's Sitemap lines (sitemill keeps them there),
    every other byte of robots.txt kept."""
    site = make_site(
        {
            "index.html": page("home"),
            "robots.txt": "User-agent: *\nDisallow: /private/\n",
            "blog-sitemap.xml": BLOG_SITEMAP.decode(),
            "docs/sitemap.xml": DOCS_SITEMAP.decode(),
        }
    )
    base = BASE_URL + "site/"
    config = site / "sitemill.toml"
    config.write_text(
        'sitemaps = ["blog-sitemap.xml", "https://EXAMPLE.com:443/site/docs/sitemap.xml",\n'
        '  "https://shop.example.net/sitemap.xml", "/other/sitemap.xml"]\n'
    )
    done = run_sitemill(
        "build", str(site), "--base-url", base, "--robots-txt", "--config", str(config)
    )
    assert done.returncode == 0, done.stderr
    text = (site / "sitemap.xml").read_text()
    locs = [part.split("</loc>")[0] for part in text.split("<loc>")[1:]]
    assert locs == [f"{base}sitemap-1.xml", f"{base}blog-sitemap.xml", f"{base}docs/sitemap.xml"]
    assert (site / "robots.txt").read_text() == (
        "User-agent: *\nDisallow: /private/\n"
        f"Sitemap: {base}sitemap.xml\n"
        "Sitemap: https://shop.example.net/sitemap.xml # named by sitemill\n"
        "Sitemap: https://example.com/other/sitemap.xml # named by sitemill\n"
    )
    again = run_sitemill(
        "build", str(site), "--base-url", base, "--robots-txt", "--config", str(config)
    )
    assert "nothing changed" in again.stdout, again.stdout + again.stderr


def test_without_robots_txt_the_line_to_add_is_said(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page("home")})
    code, _, stderr = build(site, "--sitemap", "https://shop.example.net/sitemap.xml")
    assert code == 0
    assert stderr == (
        "sitemill: warning: sitemaps: https://shop.example.net/sitemap.xml is on another host or "
        "above the folder of sitemill's index, which may not name it: add `Sitemap: "
        "https://shop.example.net/sitemap.xml` to the host's robots.txt (or set robots_txt = "
        "true)\n"
    )
    assert "<urlset" in (site / "sitemap.xml").read_text()  # nothing in it names another's


def test_a_named_file_that_is_no_sitemap_is_said_and_not_named(make_site: SiteMaker) -> None:
    """A page under the name is not named (one warning); a name the site does not hold is
    named all the same (another app on the host may serve it), with one warning."""
    site = make_site({"index.html": page("home"), "feed.xml": "<rss><channel/></rss>"})
    code, _, stderr = build(site, "--sitemap", "feed.xml", "--sitemap", "shop/sitemap.xml")
    assert code == 0
    assert stderr.splitlines() == [
        "sitemill: warning: sitemaps: https://example.com/feed.xml is not a sitemap (no "
        "<urlset> or <sitemapindex> of the sitemaps.org namespace at its start): not named",
        "sitemill: warning: sitemaps: https://example.com/shop/sitemap.xml is not in the site; "
        "named all the same (another app on the host may serve it): `sitemill check` says "
        "whether it is live",
    ]
    assert index_locs(site) == [f"{BASE_URL}sitemap-1.xml", f"{BASE_URL}shop/sitemap.xml"]


def test_a_bad_name_is_a_config_error_naming_the_key(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page("home")})
    for name, said in (
        ("sitemap-1.xml", "is sitemill's own output"),
        ("docs/", "names a folder"),
        ("ftp://example.com/sitemap.xml", "absolute http(s) URL"),
        ("a b.xml", "no spaces"),
    ):
        code, _, stderr = build(site, "--sitemap", name)
        assert code == 2, name
        assert stderr.startswith("sitemill: error: sitemaps: "), stderr
        assert said in stderr, stderr
    assert not (site / "sitemap.xml").exists()


def test_an_index_naming_the_users_is_still_sitemills_own(make_site: SiteMaker) -> None:
    """No state (content dates off): only the live index tells which children are sitemill's;
    naming the user's sitemap beside them keeps it sitemill's, so a stale child goes."""
    pages = {f"p{n}.html": page(f"page {n}") for n in range(3)}
    site = make_site({**pages, "blog-sitemap.xml": BLOG_SITEMAP.decode()})
    flags = ("--no-content-dates", "--max-urls", "1", "--shards", "off")
    flags += ("--sitemap", "blog-sitemap.xml")
    assert build(site, *flags)[0] == 0
    assert (site / "sitemap-3.xml").exists()
    assert not (site / "sitemill-state.json.gz").exists()
    (site / "p2.html").unlink()
    code, stdout, stderr = build(site, *flags)
    assert code == 0, stderr
    assert "deleted: sitemap-3.xml" in stdout
    assert index_locs(site) == [
        f"{BASE_URL}sitemap-1.xml",
        f"{BASE_URL}sitemap-2.xml",
        f"{BASE_URL}blog-sitemap.xml",
    ]


def test_a_url_list_names_them_as_given(tmp_path: Path) -> None:
    """No site to read: each one the location rule lets the index name is named as given."""
    out = tmp_path / "out"
    flags = ("--sitemap", "blog-sitemap.xml", "--sitemap", "https://shop.example.net/s.xml")
    done = run_sitemill(
        "urls", "-", "--base-url", BASE_URL, "--out", str(out), *flags, stdin=f"{BASE_URL}a\n"
    )
    assert done.returncode == 0, done.stderr
    assert index_locs(out) == [f"{BASE_URL}sitemap-1.xml", f"{BASE_URL}blog-sitemap.xml"]
    assert "add `Sitemap: https://shop.example.net/s.xml`" in done.stderr


def test_a_robots_line_sitemill_wrote_goes_when_taken_out_the_users_stays(
    make_site: SiteMaker,
) -> None:
    """robots.txt keeps every line the user wrote, one naming a sitemap of `sitemaps` too (not
    written twice); the state remembers the lines sitemill wrote, and a later run removes the one
    it no longer wants."""
    user = "https://other.example.net/user.xml"
    shop = "https://shop.example.net/sitemap.xml"
    rules = f"User-agent: *\nDisallow:\nSitemap: {user}\n"
    site = make_site({"index.html": page("home"), "robots.txt": rules})
    config = site / "sitemill.toml"
    config.write_text(f'sitemaps = ["{shop}", "{user}"]\n')
    flags = ("--robots-txt", "--config", str(config))
    assert build(site, *flags)[0] == 0
    ours = f"Sitemap: {BASE_URL}sitemap.xml\n"
    assert (
        site / "robots.txt"
    ).read_text() == f"{rules}{ours}Sitemap: {shop} # named by sitemill\n"
    config.write_text("sitemaps = []\n")
    assert build(site, *flags)[0] == 0
    assert (site / "robots.txt").read_text() == rules + ours
    code, stdout, _ = build(site, *flags)
    assert code == 0 and "nothing changed" in stdout
