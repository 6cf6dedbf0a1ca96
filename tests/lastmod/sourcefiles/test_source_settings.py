"""The generator's own settings move its pages (Jekyll permalink styles, Docusaurus
routeBasePath and trailingSlash, Hugo's config folder, Eleventy's permalink: false), and the
project is found where the generator keeps it (docs/lastmod.md, rung 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from srcmaputil import build_site, mapped, prose, repo_view

from sitemill.lastmod.sourcefiles.conventions.base import RepoView
from sitemill.lastmod.sourcefiles.sourcemap import source_map

POST = "_posts/2024-02-09-my-post.md"
POST_TEXT = "---\ncategory: Notes\n---\nHello"


@pytest.mark.parametrize(
    ("permalink", "post_page", "page", "recipe"),
    [
        ("date", "notes/2024/02/09/my-post.html", "about.html", "recipes/soup.html"),
        (
            "pretty",
            "notes/2024/02/09/my-post/index.html",
            "about/index.html",
            "recipes/soup/index.html",
        ),
        ("ordinal", "notes/2024/040/my-post.html", "about.html", "recipes/soup.html"),
        ("none", "notes/my-post.html", "about.html", "recipes/soup.html"),
        (
            "/blog/:year/:title/",
            "blog/2024/my-post/index.html",
            "about/index.html",
            "recipes/soup/index.html",
        ),
        (
            '"/:year/:month/:title:output_ext"',
            "2024/02/my-post.html",
            "about.html",
            "recipes/soup.html",
        ),
        ("/:title", "my-post.html", "about.html", "recipes/soup.html"),
    ],
)
def test_jekyll_posts_pages_and_collections_follow_the_permalink_setting(
    tmp_path: Path, permalink: str, post_page: str, page: str, recipe: str
) -> None:
    # Checked against Jekyll 4.3 builds of the same project for date, pretty, none and
    # /blog/:year/:title/.
    files = {
        "_config.yml": f"permalink: {permalink}\ncollections:\n  recipes:\n    output: true\n",
        POST: POST_TEXT,
        "about.md": "---\ntitle: About\n---\n",
        "_recipes/soup.md": "---\ntitle: Soup\n---\n",
    }
    found = mapped(tmp_path, files, "_site", [post_page, page, recipe])
    assert found == {post_page: (POST,), page: ("about.md",), recipe: ("_recipes/soup.md",)}


def test_docusaurus_route_base_path_and_no_trailing_slash(tmp_path: Path) -> None:
    files = {
        "website/docusaurus.config.ts": "export default { trailingSlash: false, presets: "
        "[['classic', { docs: { routeBasePath: '/' }, blog: { routeBasePath: 'news' } }]] };",
        "website/docs/intro.md": "# Intro",
        "website/docs/guide/setup.mdx": "---\nslug: start\n---\n",
        "website/blog/2020-05-06-hello.md": "# Hi",
    }
    pages = ["intro.html", "guide/start.html", "news/2020/05/06/hello.html"]
    found = mapped(tmp_path, files, "website/build", pages)
    assert found == {
        "intro.html": ("website/docs/intro.md",),
        "guide/start.html": ("website/docs/guide/setup.mdx",),
        "news/2020/05/06/hello.html": ("website/blog/2020-05-06-hello.md",),
    }


def test_hugo_settings_in_a_config_folder(tmp_path: Path) -> None:
    files = {
        "config/_default/hugo.toml": 'contentDir = "pages"\n',
        "config/_default/languages.toml": "[en]\nweight = 1\n[de]\ncontentDir = 'pages-de'\n",
        "pages/guide.md": "---\ntitle: G\n---\n",
        "pages-de/guide.md": "---\ntitle: G\n---\n",
    }
    found = mapped(tmp_path, files, "public", ["guide/index.html", "de/guide/index.html"])
    assert found == {
        "guide/index.html": ("pages/guide.md",),
        "de/guide/index.html": ("pages-de/guide.md",),
    }


def test_eleventy_permalink_false_builds_no_page(tmp_path: Path) -> None:
    files = {
        "eleventy.config.js": "export default function () {}",
        "draft.md": "---\npermalink: false\n---\nnot written",
        "kept.md": "# Kept",
    }
    found = mapped(tmp_path, files, "_site", ["draft/index.html", "kept/index.html"])
    assert found == {"draft/index.html": (), "kept/index.html": ("kept.md",)}


def test_the_generator_meta_chooses_between_two_projects(tmp_path: Path) -> None:
    # A mkdocs.yml beside a Hugo project: the built pages say which one built them; without a
    # generator meta, the project whose output the folder is (Hugo's public/, MkDocs' site/).
    files = {
        "mkdocs.yml": "site_name: Docs\n",
        "docs/guide.md": "# Guide (MkDocs)",
        "config.toml": "title = 'Blog'\n",
        "content/guide.md": "---\ntitle: Guide (Hugo)\n---\n",
    }
    hugo = '<meta name="generator" content="Hugo 0.111.3">'
    assert mapped(tmp_path / "a", files, "public", ["guide/index.html"], hugo) == {
        "guide/index.html": ("content/guide.md",)
    }
    assert mapped(tmp_path / "b", files, "public", ["guide/index.html"]) == {
        "guide/index.html": ("content/guide.md",)
    }
    assert mapped(tmp_path / "c", files, "site", ["guide/index.html"]) == {
        "guide/index.html": ("docs/guide.md",)
    }


def test_a_site_at_the_repository_root_has_no_sources(tmp_path: Path) -> None:
    files = {"index.md": "---\ntitle: x\n---\n", "_config.yml": "", "index.html": "<p>x</p>"}
    root = build_site(tmp_path, {"index.html": "x"})
    assert source_map(repo_view(files), "", root).sources("index.html") == ()


def test_sources_inside_the_built_folder_are_no_candidates(tmp_path: Path) -> None:
    # A Sphinx build folder inside the source folder, committed: its .txt copies are no docs.
    files = {
        "docs/conf.py": "source_suffix = ['.rst', '.txt']\n",
        "docs/page.txt": "Page\n====\n",
        "docs/_build/html/_sources/page.rst.txt": "Page\n====\n",
        "docs/_build/html/other.rst": "Other\n=====\n",
    }
    found = mapped(tmp_path, files, "docs/_build/html", ["page.html", "_build/html/other.html"])
    assert found == {"page.html": ("docs/page.txt",), "_build/html/other.html": ()}


def test_hugo_permalinks_place_a_section_s_pages(tmp_path: Path) -> None:
    # Short pages: the content match could not find them; the setting does.
    files = {
        "hugo.yaml": "permalinks:\n  posts: /:year/:month/:title/\n  notes: /n/:slug/\n",
        "content/posts/first.md": "---\ntitle: First Post!\ndate: 2024-03-05T10:00:00Z\n---\nHi",
        "content/posts/bundle/index.md": '+++\ntitle = "B"\ndate = 2023-07-01\n+++\n',
        "content/notes/x.md": "---\ntitle: X\nslug: Exe\n---\n",
        "content/notes/undated.md": "---\ntitle: Undated\n---\n",
        "content/posts/_index.md": "---\ntitle: Posts\n---\n",
    }
    pages = [
        "2024/03/first-post/index.html",
        "2023/07/b/index.html",
        "n/exe/index.html",
        "n/undated/index.html",
        "posts/index.html",
    ]
    assert mapped(tmp_path, files, "public", pages) == {
        "2024/03/first-post/index.html": ("content/posts/first.md",),
        "2023/07/b/index.html": ("content/posts/bundle/index.md",),
        "n/exe/index.html": ("content/notes/x.md",),
        "n/undated/index.html": ("content/notes/undated.md",),
        "posts/index.html": ("content/posts/_index.md",),
    }


def test_sphinx_viewcode_pages_come_from_their_modules(tmp_path: Path) -> None:
    files = {
        "docs/conf.py": "extensions = ['sphinx.ext.autodoc', 'sphinx.ext.viewcode']\n",
        "docs/index.rst": "API\n===\n\n.. automodule:: pkg.mod\n",
        "src/pkg/__init__.py": "",
        "src/pkg/mod.py": "def f():\n    return 1\n",
    }
    pages = ["_modules/pkg/mod.html", "_modules/pkg.html", "_modules/index.html"]
    assert mapped(tmp_path, files, "docs/_build/html", pages) == {
        "_modules/pkg/mod.html": ("src/pkg/mod.py",),
        "_modules/pkg.html": ("src/pkg/__init__.py",),
        "_modules/index.html": (),
    }


def test_mdbook_s_whole_book_page_is_no_chapter_s(tmp_path: Path) -> None:
    # A one-chapter book: print.html holds that chapter's text, yet it is the whole book.
    chapter = prose("chapter")
    files = {"book.toml": "[book]\n", "src/SUMMARY.md": "- [C](c.md)\n", "src/c.md": chapter}
    root = build_site(tmp_path / "book", {"print.html": chapter, "c.html": chapter})
    found = source_map(repo_view(files), "book", root)
    assert (found.sources("print.html"), found.sources("c.html")) == ((), ("src/c.md",))


def test_an_unsorted_file_list_is_read_all_the_same(tmp_path: Path) -> None:
    files = {"mkdocs.yml": "", "docs/b.md": "# B", "docs/a.md": "# A", "README.md": "r"}
    root = build_site(tmp_path / "site", {"a/index.html": "A", "b/index.html": "B"})
    view = RepoView(("mkdocs.yml", "docs/b.md", "docs/a.md", "README.md"), files.get)
    found = source_map(view, "site", root)
    assert (found.sources("a/index.html"), found.sources("b/index.html")) == (
        ("docs/a.md",),
        ("docs/b.md",),
    )


def test_the_site_folder_is_read_as_a_path(tmp_path: Path) -> None:
    files = {"mkdocs.yml": "", "docs/a.md": "# A"}
    root = build_site(tmp_path / "site", {"a/index.html": "A"})
    spelled = [
        source_map(repo_view(files), site_dir, root).sources("a/index.html")
        for site_dir in ("./site", "site/", "site/./", "../site")
    ]
    assert spelled == [("docs/a.md",), ("docs/a.md",), ("docs/a.md",), ()]


def test_a_config_file_inside_the_built_folder_is_no_project(tmp_path: Path) -> None:
    # Hugo publishes into docs/ (for GitHub Pages); a conf.py from its static/ folder lands
    # there too: no Sphinx project builds from the built folder.
    files = {
        "hugo.toml": "publishDir = 'docs'\n",
        "content/a.md": "---\ntitle: A\n---\n",
        "static/conf.py": "",
        "docs/conf.py": "",
        "docs/a/index.html": "<p>built</p>",
    }
    assert mapped(tmp_path, files, "docs", ["a/index.html"]) == {"a/index.html": ("content/a.md",)}


def test_a_sphinx_page_s_included_files_are_its_sources_too(tmp_path: Path) -> None:
    files = {
        "docs/conf.py": "",
        "docs/community/updates.rst": "Updates\n=======\n\n.. include:: ../../HISTORY.md\n",
        "docs/guide.md": "# Guide\n\n```{include} /snippets/intro.md\n```\n",
        "docs/snippets/intro.md": "Intro",
        "docs/missing.rst": ".. include:: nowhere.rst\n",
        # A literalinclude shows the file's text (or some of its lines) in the page: the whole
        # file is a source (a change outside the lines shown dates the page later, never earlier).
        "docs/blocks.rst": (
            "Blocks\n======\n\n.. literalinclude:: ../src/pkg/theme.conf\n   :lines: 10-20\n"
        ),
        "docs/myst.md": "# MyST\n\n```{literalinclude} /snippets/intro.md\n```\n",
        "src/pkg/theme.conf": "[theme]",
        "HISTORY.md": "# History",
    }
    pages = ["community/updates.html", "guide.html", "missing.html", "blocks.html", "myst.html"]
    assert mapped(tmp_path, files, "docs/_build/html", pages) == {
        "community/updates.html": ("docs/community/updates.rst", "HISTORY.md"),
        "guide.html": ("docs/guide.md", "docs/snippets/intro.md"),
        "missing.html": ("docs/missing.rst",),
        "blocks.html": ("docs/blocks.rst", "src/pkg/theme.conf"),
        "myst.html": ("docs/myst.md", "docs/snippets/intro.md"),
    }


def test_mkdocs_snippets_and_includes_are_a_page_s_sources_too(tmp_path: Path) -> None:
    files = {
        "mkdocs.yml": "markdown_extensions:\n  - pymdownx.snippets\n",
        "docs/index.md": '# Home\n\n--8<-- "README.md"\n',
        "docs/guide.md": '# Guide\n\n{% include-markdown "parts/intro.md" %}\n--8<-- "gone.md"\n',
        "docs/parts/intro.md": "Intro",
        "README.md": "# The project",
    }
    pages = ["index.html", "guide/index.html"]
    assert mapped(tmp_path, files, "site", pages) == {
        "index.html": ("docs/index.md", "README.md"),
        "guide/index.html": ("docs/guide.md", "docs/parts/intro.md"),
    }
