"""A list page's content is its own text plus which pages it lists (issue 63, decision 2): the
same new entry put on a few list pages by the commit that added the page it links to is theirs,
not a template edit, however few other pages that commit changed; a menu item put on every page
of the site stays the template's. Shaped like Lektor's plugin lists (text our own)."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo, unix
from sitemill.lastmod.history.edits import edit_of, lists_pages, site_targets
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import built_lastmods

BASE = "https://example.org/"
WHEN = ("2024-01-10 09:00:00", "2024-02-11 09:00:00")
PLUGINS = ("atom", "bibtex", "citation", "disqus", "gist", "markdown", "minify", "webpack")
LISTS = ("plugins", "plugins/categories/build", "plugins/tag/setup-env", "plugins/tag/build-all")
Build = dict[str, str]


def page(title: str, body: str, menu: tuple[str, ...] = ()) -> str:
    links = "".join(f'<li><a href="/{name}/">{name.title()}</a></li>' for name in menu)
    return (
        f"<html><head><title>{title}</title></head><body><header><nav>Site</nav></header>"
        f'<main><ul class="menu">{links}</ul>{body}</main><footer>Footer</footer></body></html>\n'
    )


def entry(name: str) -> str:
    return f'<li><a href="/plugins/{name}/">{name}</a>: a plugin that helps with {name}.</li>'


def site(new: str = "", menu: tuple[str, ...] = ("docs", "plugins")) -> Build:
    """A plugin directory: a page per plugin, four lists of them (all, a category, two tags)
    and a home page, docs beside; ``new``: a plugin added, listed on the four lists."""
    names = (*PLUGINS, new) if new else PLUGINS
    build = {
        f"plugins/{name}/index.html": page(name, f"<h1>{name}</h1><p>What {name} does.</p>", menu)
        for name in names
    }
    for path in LISTS:
        listed = "".join(entry(name) for name in names)
        build[f"{path}/index.html"] = page(path, f"<h1>Plugins</h1><ul>{listed}</ul>", menu)
    news = f"<p>Newest plugin: {new}.</p>" if new else ""
    build["index.html"] = page("Home", f"<h1>Home</h1><p>A static site generator.</p>{news}", menu)
    for topic in ("install", "content", "templates", "deploy", "plugins-api"):
        build[f"docs/{topic}/index.html"] = page(topic, f"<h1>{topic}</h1><p>On {topic}.</p>", menu)
    build["about/index.html"] = page("About", "<h1>About</h1><p>Who we are.</p>", menu)
    return build


def dated(tmp_path: Path, builds: list[Build]) -> dict[str, str]:
    """Each page's lastmod (by its site path, without index.html) after one commit per build."""
    repo = make_repo(tmp_path / "site")
    for build, when in zip(builds, WHEN, strict=True):
        commit(repo, build, when)
    return built_lastmods(repo)


def at(index: int) -> str:
    return lastmod_from_timestamp(unix(WHEN[index]), Precision.DATETIME)


def test_a_new_plugins_entry_on_the_four_lists_dates_them(tmp_path: Path) -> None:
    # Lektor: one commit added a plugin, its entry on the four lists that name it, and changed
    # the home page its own way; the four lists were most of the pages it changed.
    found = dated(tmp_path, [site(), site(new="redirect")])
    late = {*LISTS, "plugins/redirect", ""}
    assert found == {path: at(1 if path in late else 0) for path in found}, found
    assert len(found) == len(site(new="redirect"))


def test_a_menu_item_on_every_page_to_a_new_page_moves_none(tmp_path: Path) -> None:
    # A theme's menu given an item for the page the commit added, on every page of the site.
    builds = [site(), site(menu=("docs", "plugins", "contact"))]
    builds[1]["contact/index.html"] = page("Contact", "<h1>Contact</h1><p>Write to us.</p>")
    found = dated(tmp_path, builds)
    assert found == {path: at(1 if path == "contact" else 0) for path in found}, found


def test_an_edit_that_links_to_a_page_of_the_site_says_so() -> None:
    pages = site_targets(["plugins/redirect/index.html", "docs/install/index.html"])
    older = "Plugins \x01T\x01 atom"
    newer = "Plugins \x01T\x01 atom \x01H/plugins/redirect\x01 redirect \x01E\x01"
    assert lists_pages(edit_of(newer, older, "plugins/index.html", pages))
    assert not lists_pages(edit_of(newer, older, "plugins/index.html"))
