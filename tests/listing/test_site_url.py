"""What a site says of its URL (listing.siteurl, jobs.treesiteurl): the decision by agreement, each
kind of evidence (og:url, CNAME, the generator's config), and the CLI's one warning line."""

from __future__ import annotations

from pathlib import Path

import pytest

from clirun import run_sitemill
from sitemill.html.facts import read_page_facts
from sitemill.jobs._treesiteurl import common_base, tree_site_urls
from sitemill.listing.siteurl import SiteSays, what_the_site_says
from sitemill.report import Declared

RUN = "http://example.org/"
LIVE = "https://example.org/"
OTHER = "https://other.example.net/"


def strong(base: str, source: str) -> Declared:
    return Declared(base, source, strong=True)


def weak(base: str, source: str) -> Declared:
    return Declared(base, source)


@pytest.mark.parametrize(
    ("evidence", "says"),
    [
        ([], None),
        ([weak(LIVE, "a")], None),  # one weak source says nothing
        ([weak(LIVE, "a"), weak(LIVE, "b")], SiteSays(LIVE, ("a", "b"))),  # two agree
        ([strong(LIVE, "CNAME")], SiteSays(LIVE, ("CNAME",))),
        ([strong(LIVE, "CNAME"), strong(RUN, "og:url")], None),  # the run's own as strong
        ([strong(LIVE, "CNAME"), weak(RUN, "x")], SiteSays(LIVE, ("CNAME",))),
        ([strong(LIVE, "CNAME"), strong(OTHER, "config")], None),  # split: no one answer
        ([strong(LIVE, "a"), weak(LIVE, "b"), strong(OTHER, "c")], SiteSays(LIVE, ("a", "b"))),
        ([strong(RUN, "og:url")], None),
    ],
)
def test_the_decision_is_by_agreement(evidence: list[Declared], says: SiteSays | None) -> None:
    assert what_the_site_says(RUN, evidence) == says


def test_og_url_is_a_head_fact() -> None:
    head = b'<!doctype html><head><meta property="OG:URL" content=" https://example.org/a ">'
    assert read_page_facts(head).og_url == "https://example.org/a"
    assert read_page_facts(b"<!doctype html><head><title>x</title>").og_url is None


def repository(tmp_path: Path, files: dict[str, str]) -> Path:
    """A work tree (a .git entry) holding ``files`` and a built site in public/."""
    (tmp_path / ".git").mkdir()
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    site = tmp_path / "public"
    site.mkdir(exist_ok=True)
    (site / "index.html").write_text("<!doctype html><title>Home</title>", encoding="utf-8")
    return site


CONFIGS = {
    "mkdocs": ({"mkdocs.yml": f"site_url: {LIVE}docs/\nsite_dir: public\n"}, f"{LIVE}docs/", True),
    "hugo": ({"hugo.toml": f'baseURL = "{LIVE}"\n'}, LIVE, True),
    "jekyll": (
        {"_config.yml": f"url: {LIVE}\nbaseurl: /blog\ndestination: public\n"},
        f"{LIVE}blog/",
        True,
    ),
    "docusaurus": (
        {"docusaurus.config.js": f"export default {{\n  url: '{LIVE}',\n  baseUrl: '/d/',\n}};"},
        f"{LIVE}d/",
        False,  # (it builds into build/)
    ),
    "astro": (
        {"astro.config.mjs": f'export default defineConfig({{ site: "{LIVE}", outDir: "x" }})'},
        LIVE,
        False,
    ),
    "sphinx": ({"conf.py": f"html_baseurl = '{LIVE}'\n"}, LIVE, False),
    "quarto": (
        {"_quarto.yml": f"project:\n  type: website\nwebsite:\n  site-url: {LIVE}\n"},
        LIVE,
        False,
    ),
}


@pytest.mark.parametrize("family", CONFIGS)
def test_the_generator_config_names_the_site_url(tmp_path: Path, family: str) -> None:
    files, base, builds_here = CONFIGS[family]
    site = repository(tmp_path, files)
    (found,) = tree_site_urls(site, None, RUN)
    assert (found.base, found.strong) == (base, builds_here)
    assert found.source == f"{next(iter(files))} of {family}"


@pytest.mark.parametrize(
    ("cname", "base"),
    [
        ("docs.example.org\n", "https://docs.example.org/"),
        ("Docs.Example.org", "https://docs.example.org/"),
        ("evil.example/path", None),
        ("user:secret@example.org", None),
        ("", None),
    ],
)
def test_cname_names_the_https_root(tmp_path: Path, cname: str, base: str | None) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "CNAME").write_text(cname, encoding="utf-8")
    found = tree_site_urls(site, None, RUN)
    assert found == ([Declared(base, "CNAME", strong=True)] if base else [])


def urlset(*urls: str) -> str:
    xmlns = "http://www.sitemaps.org/schemas/sitemap/0.9"
    listed = "".join(f"<url><loc>{url}</loc></url>" for url in urls)
    return f'<urlset xmlns="{xmlns}">{listed}</urlset>'


@pytest.mark.parametrize(
    ("files", "says"),
    [
        # The folder's URL is under the one its parent is served at, its name encoded.
        ({"public/sitemap.xml": urlset(LIVE, f"{LIVE}2019%20%E6%97%A5%E8%A8%98/")},
         [strong(f"{LIVE}2019%20%E6%97%A5%E8%A8%98/", "public/sitemap.xml")]),
        ({"public/sitemap.xml": urlset(LIVE, f"{LIVE}about.html")},  # (it lists none of it)
         [weak(f"{LIVE}2019%20%E6%97%A5%E8%A8%98/", "public/sitemap.xml")]),
        ({"public/CNAME": "docs.example.org"},
         [weak("https://docs.example.org/2019%20%E6%97%A5%E8%A8%98/", "public/CNAME")]),
        # The nearest folder that says anything speaks; what is not a sitemap says nothing.
        ({"CNAME": "other.example.net", "public/CNAME": "docs.example.org"},
         [weak("https://docs.example.org/2019%20%E6%97%A5%E8%A8%98/", "public/CNAME")]),
        ({"sitemap.xml": "---\nlayout: null\n---\n{% for page in site.pages %}"}, []),
    ],
)  # fmt: skip
def test_a_folder_above_says_where_a_sub_folder_is_served(
    tmp_path: Path, files: dict[str, str], says: list[Declared]
) -> None:
    """issue 82: a sub-folder ``path`` on a site without canonicals was built as the root."""
    folder = repository(tmp_path, files) / "2019 日記"
    folder.mkdir()
    assert tree_site_urls(folder, None, LIVE) == says


@pytest.mark.parametrize(
    ("files", "source"),
    [
        ({"mkdocs.yml": f"site_url: {LIVE}docs/\nsite_dir: public\n"}, "mkdocs.yml of mkdocs"),
        ({"hugo.toml": f'baseURL = "{LIVE}docs"\n', "content/a.md": "a"}, "hugo.toml of hugo"),
    ],
)
def test_the_generator_config_names_a_sub_folder_of_its_output(
    tmp_path: Path, files: dict[str, str], source: str
) -> None:
    """issue 82: ``path: public/2019`` of a site built into public/ is served below the
    configured URL, not at it."""
    folder = repository(tmp_path, files) / "2019 年"
    folder.mkdir()
    assert tree_site_urls(folder, None, LIVE) == [strong(f"{LIVE}docs/2019%20%E5%B9%B4/", source)]


@pytest.mark.parametrize(
    ("state", "run", "counted"),
    [
        (LIVE, RUN, True),  # https to http: a mistake
        (OTHER, LIVE, True),
        (RUN, LIVE, False),  # http to https: a correction
        (LIVE, LIVE, False),  # the run's own: never evidence for it
        (None, LIVE, False),
    ],
)
def test_the_previous_state_counts_against_another_base_url(
    tmp_path: Path, state: str | None, run: str, counted: bool
) -> None:
    found = tree_site_urls(tmp_path, state, run)
    assert found == ([Declared(state, "the previous state", strong=True)] if counted else [])


def test_the_cli_says_it_in_one_warning_line(tmp_path: Path) -> None:
    """`sitemill build` warns (exit 0) where the Action fails: one line, same finding."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "CNAME").write_text("example.org\n", encoding="utf-8")
    for name in ("index.html", "a.html", "b.html"):
        head = f'<meta property="og:url" content="{LIVE}{name}">'
        (site / name).write_text(f"<!doctype html><head>{head}</head>", encoding="utf-8")
    out = tmp_path / "out"
    result = run_sitemill("build", str(site), "--base-url", RUN, "--out", str(out))
    assert result.returncode == 0, result.stderr
    asked = [line for line in result.stderr.splitlines() if "is --base-url right?" in line]
    assert asked == [
        f"sitemill: warning: the base URL is {RUN} but the site says {LIVE} (og:url on 3 of 3 "
        "pages, CNAME): is --base-url right? If it is, fix what says otherwise (CNAME, the "
        "generator's site URL setting: site_url, baseURL, html_baseurl, url)"
    ]


@pytest.mark.parametrize(
    ("urls", "base"),
    [
        ([f"{LIVE}", f"{LIVE}a/", f"{LIVE}b/c.html"], LIVE),
        ([f"{LIVE}docs/a/", f"{LIVE}docs/b/"], f"{LIVE}docs/"),
        ([f"{LIVE}docs/a/", f"{LIVE}docsb/"], LIVE),  # (a name's prefix is no folder)
        ([f"{LIVE}a/", f"{OTHER}a/"], None),  # two origins
        (["/a/", "/b/"], None),  # no origin (Hugo's relative locs)
        ([], None),
    ],
)
def test_a_generator_sitemap_names_the_folder_its_urls_share(
    urls: list[str], base: str | None
) -> None:
    assert common_base(urls) == base
