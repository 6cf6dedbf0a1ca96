"""Each generator's convention maps its built pages to their sources, honouring its settings
(docs/lastmod.md, rung 2): a tmp repository shaped as the generator's project, its built
output on disk, and what each built page maps to (() for pages with no source of their own)."""

from __future__ import annotations

from pathlib import Path

import pytest
from srcmaputil import mapped

FM = "---\ntitle: T\n---\nbody\n"

MKDOCS = {
    "mkdocs.yml": "site_name: S\n",
    "docs/index.md": "# Home",
    "docs/about.md": "# About",
    "docs/guide/README.md": "# Guide",
    "docs/guide/install.md": "# Install",
    "docs/img/logo.png": "",
}
MKDOCS_DIR_FALSE = {
    "mkdocs.yml": "site_name: S\ndocs_dir: 'pages'  # renamed\nuse_directory_urls: false\n",
    "pages/index.md": "# Home",
    "pages/guide/index.md": "# Guide",
    "pages/guide/README.md": "# Readme beside index",
    "pages/guide/install.md": "# Install",
    "docs/stray.md": "# not the docs_dir",
}
HUGO = {
    "hugo.toml": 'baseURL = "https://e.org/"\n',
    "content/_index.md": FM,
    "content/posts/_index.md": FM,
    "content/posts/First Post.md": FM,
    "content/posts/bundle/index.md": FM,
    "content/posts/bundle/extra.md": FM,  # a page resource of the bundle
    "content/about.md": "---\ntitle: About\nslug: about-us\n---\n",
    "content/special.md": '+++\ntitle = "S"\nurl = "/Special/Place/"\n+++\n',
    "layouts/_default/single.html": "{{ .Content }}",
}
HUGO_UGLY = {
    "config.yaml": "uglyURLs: true\ncontentDir: src\ndefaultContentLanguage: en\n"
    "languages:\n  en:\n    weight: 1\n  fr:\n    weight: 2\n",
    "src/_index.md": FM,
    "src/posts/_index.md": FM,
    "src/posts/a.md": FM,
    "src/posts/a.fr.md": FM,
    "archetypes/default.md": FM,
}
JEKYLL = {
    "_config.yml": "title: S\ncollections:\n  recipes:\n    output: true\n  drafts:\n"
    "    output: false\n",
    "_posts/2024-03-05-hello-world.md": "---\ncategories: [News, Tech]\n---\nHi",
    "_posts/2024-03-06-own.md": "---\npermalink: /own/place/\n---\nHi",
    "blog/_posts/2023-01-02-in-folder.md": FM,
    "about.md": FM,
    "index.html": FM,
    "README.md": "no front matter: copied, not rendered",
    "_recipes/soup.md": FM,
    "_drafts_col/x.md": FM,
    "_layouts/default.html": "{{ content }}",
}
DOCUSAURUS = {
    "docusaurus.config.js": "module.exports = { presets: [['classic', { docs: "
    "{ sidebarPath: 'x' }, blog: { showReadingTime: true } }]] };",
    "docs/intro.md": FM,
    "docs/01-guides/02-install.md": FM,
    "docs/01-guides/index.md": FM,
    "docs/api.md": "---\nslug: /reference/api\n---\n",
    "docs/renamed.md": "---\nid: other-id\n---\n",
    "blog/2024-01-02-launch.md": FM,
    "blog/2024-02-03-folder/index.md": FM,
    "blog/custom.md": "---\nslug: my-slug\n---\n",
    "versioned_docs/version-1.0/intro.md": FM,
    "versions.json": '["1.0"]',
    "src/pages/index.js": "export default () => null;",
    "src/pages/help.md": FM,
}
HEXO = {
    "_config.yml": "title: S\npermalink: news/:year/:month/:day/:title/\narchive_dir: news\n"
    "new_post_name: :year-:month-:day-:title.md # file name of new posts\n",
    "package.json": '{"name": "s", "dependencies": {"hexo": "^8.0.0"}}',
    "source/_posts/2024-03-05-hello-world.md": FM,
    "source/_posts/2024-03-05-hello-world/diagram.png": "",  # the post's asset folder
    "source/_posts/renamed.md": "---\ntitle: R\ndate: 2023-11-02 10:00:00\n---\nHi",
    "source/_posts/own.md": "---\ndate: 2022-01-02\npermalink: elsewhere/own/\n---\n",
    "source/_posts/undated.md": FM,  # Hexo would date it by the file's time: no evidence
    "source/index.md": FM,
    "source/docs/setup.md": FM,
    "source/ja/docs/setup.md": FM,
    "source/_data/menu.md": FM,
    "themes/navy/layout/index.ejs": "<%- body %>",
}
HEXO_DEFAULTS = {
    "_config.yml": "title: S\nsource_dir: src\n",
    "package.json": '{"dependencies": {"hexo": "^7.0.0"}}',
    "src/_posts/first.md": "---\ndate: 2021-5-7 08:00\n---\n",
}
DOCUSAURUS_I18N = {
    "docusaurus.config.js": """module.exports = {
  i18n: { defaultLocale: 'en', locales: ['en', 'fr'] },
  plugins: [
    // the news blog
    ['@docusaurus/plugin-content-blog', { id: 'news', routeBasePath: 'updates', path: './news' }],
    /* [ '@docusaurus/plugin-content-blog', { id: 'old', path: './old' } ], */
  ],
  presets: [['classic', { docs: { editUrl: 'https://e.org/edit/' }, blog: {} }]],
};""",
    "docs/intro.md": FM,
    "docs/guide.md": FM,
    "blog/2021/07-20-post-mpd.md": FM,
    "news/2022/06-08-release.mdx": "---\nslug: 06-news-release\n---\n",
    "news/2022/07-01-other.mdx": FM,
    "old/2020-01-01-gone.md": FM,
    "src/pages/index.js": "export default () => null;",
    "i18n/fr/docusaurus-plugin-content-docs/current/intro.md": FM,
    "i18n/fr/docusaurus-plugin-content-blog-news/2022/06-08-release.mdx": (
        "---\nslug: 06-news-release\n---\n"
    ),
    "i18n/fr/docusaurus-plugin-content-pages/index.js": "export default () => null;",
    "src/pages/help.js": "export default () => null;",
    "i18n/fr/code.json": '{"help.title": {"message": "Aide"}}',
}
SPHINX = {
    "docs/conf.py": "project = 'P'\n",
    "docs/index.rst": "Home\n====\n",
    "docs/usage.md": "# Usage",
    "docs/api/module.rst": "Module\n======\n",
    "docs/notebook.ipynb": "{}",
    "docs/_templates/layout.html": "",
}
ASTRO = {
    "astro.config.mjs": "import starlight from '@astrojs/starlight';",
    "src/content/docs/index.mdx": FM,
    "src/content/docs/Guides/Example Guide!.md": FM,
    "src/content/blog/first.md": FM,
    "src/pages/blog/[...slug].astro": "---\n---",
    "src/pages/about.astro": "---\n---",
}
ELEVENTY = {
    ".eleventy.js": 'module.exports = () => ({ dir: { input: "src", output: "_site" } });',
    "src/index.md": FM,
    "src/about.md": FM,
    "src/posts/first/index.md": FM,
    "src/feed.njk": "---\npermalink: /feed.xml\n---\n",
    "src/moved.md": "---\npermalink: /elsewhere/\n---\n",
    "src/_includes/base.njk": "{{ content }}",
}
QUARTO = {
    "_quarto.yml": "project:\n  type: website\n",
    "index.qmd": FM,
    "about.md": FM,
    "posts/analysis.ipynb": "{}",
    "posts/report.Rmd": FM,
    "_partial.qmd": FM,
}
MDBOOK = {
    "book.toml": '[book]\ntitle = "B"\nsrc = "src"\n',
    "src/SUMMARY.md": "# Summary\n\n- [Intro](./intro.md)\n- [Ch](chapter/page.md)\n",
    "src/intro.md": "# Intro",
    "src/chapter/page.md": "# Page",
    "src/chapter/README.md": "# Chapter",
}

CASES = [
    (
        "mkdocs",
        MKDOCS,
        "site",
        {
            "index.html": ("docs/index.md",),
            "about/index.html": ("docs/about.md",),
            "guide/index.html": ("docs/guide/README.md",),
            "guide/install/index.html": ("docs/guide/install.md",),
            "404.html": (),
        },
    ),
    (
        "mkdocs docs_dir, use_directory_urls false, index.md over README.md",
        MKDOCS_DIR_FALSE,
        "site",
        {
            "index.html": ("pages/index.md",),
            "guide/index.html": ("pages/guide/index.md",),
            "guide/install.html": ("pages/guide/install.md",),
            "stray/index.html": (),
        },
    ),
    (
        "hugo: sections, bundles, slug, url, page resources, taxonomies",
        HUGO,
        "public",
        {
            "index.html": ("content/_index.md",),
            "posts/index.html": ("content/posts/_index.md",),
            "posts/first-post/index.html": ("content/posts/First Post.md",),
            "posts/bundle/index.html": ("content/posts/bundle/index.md",),
            "posts/bundle/extra/index.html": (),
            "about-us/index.html": ("content/about.md",),
            "Special/Place/index.html": ("content/special.md",),
            "tags/alpha/index.html": (),
            "tags/index.html": (),
            "posts/page/2/index.html": (),
        },
    ),
    (
        "hugo uglyURLs, contentDir, a second language",
        HUGO_UGLY,
        "public",
        {
            "index.html": ("src/_index.md",),
            "posts.html": ("src/posts/_index.md",),
            "posts/a.html": ("src/posts/a.md",),
            "fr/posts/a.html": ("src/posts/a.fr.md",),
        },
    ),
    (
        "jekyll: date permalinks, categories, front matter, pages, collections",
        JEKYLL,
        "_site",
        {
            "news/tech/2024/03/05/hello-world.html": ("_posts/2024-03-05-hello-world.md",),
            "own/place/index.html": ("_posts/2024-03-06-own.md",),
            "blog/2023/01/02/in-folder.html": ("blog/_posts/2023-01-02-in-folder.md",),
            "about.html": ("about.md",),
            "index.html": ("index.html",),
            "README.html": (),
            "recipes/soup.html": ("_recipes/soup.md",),
            "categories/news/index.html": (),
        },
    ),
    (
        "docusaurus: number prefixes, slug, id, blog dates, versions, pages",
        DOCUSAURUS,
        "build",
        {
            "docs/next/intro/index.html": ("docs/intro.md",),
            "docs/next/guides/install/index.html": ("docs/01-guides/02-install.md",),
            "docs/next/guides/index.html": ("docs/01-guides/index.md",),
            "docs/next/reference/api/index.html": ("docs/api.md",),
            "docs/next/other-id/index.html": ("docs/renamed.md",),
            "docs/intro/index.html": ("versioned_docs/version-1.0/intro.md",),
            "blog/2024/01/02/launch/index.html": ("blog/2024-01-02-launch.md",),
            "blog/2024/02/03/folder/index.html": ("blog/2024-02-03-folder/index.md",),
            "blog/my-slug/index.html": ("blog/custom.md",),
            "blog/tags/index.html": (),
            "index.html": ("src/pages/index.js",),
            "help/index.html": ("src/pages/help.md",),
        },
    ),
    (
        "hexo: new_post_name, permalink, front matter date and permalink, pages, archives",
        HEXO,
        "public",
        {
            "news/2024/03/05/hello-world/index.html": ("source/_posts/2024-03-05-hello-world.md",),
            "news/2023/11/02/renamed/index.html": ("source/_posts/renamed.md",),
            "elsewhere/own/index.html": ("source/_posts/own.md",),
            "index.html": ("source/index.md",),
            "docs/setup.html": ("source/docs/setup.md",),
            "ja/docs/setup.html": ("source/ja/docs/setup.md",),
            "_data/menu.html": (),
            "news/index.html": (),
            "news/2024/index.html": (),
            "news/2023/11/index.html": (),
        },
    ),
    (
        "hexo defaults: source_dir, permalink :year/:month/:day/:title/",
        HEXO_DEFAULTS,
        "public",
        {
            "2021/05/07/first/index.html": ("src/_posts/first.md",),
            "archives/2021/05/index.html": (),
        },
    ),
    (
        "docusaurus: locales, translations with fallback, a second blog instance",
        DOCUSAURUS_I18N,
        "build",
        {
            "docs/intro/index.html": ("docs/intro.md",),
            "fr/docs/intro/index.html": (
                "i18n/fr/docusaurus-plugin-content-docs/current/intro.md",
            ),
            "fr/docs/guide/index.html": ("docs/guide.md",),
            "blog/2021/07/20/post-mpd/index.html": ("blog/2021/07-20-post-mpd.md",),
            "fr/blog/2021/07/20/post-mpd/index.html": ("blog/2021/07-20-post-mpd.md",),
            "updates/06-news-release/index.html": ("news/2022/06-08-release.mdx",),
            "fr/updates/06-news-release/index.html": (
                "i18n/fr/docusaurus-plugin-content-blog-news/2022/06-08-release.mdx",
            ),
            "fr/updates/2022/07/01/other/index.html": ("news/2022/07-01-other.mdx",),
            "old/2020/01/01/gone/index.html": (),
            "index.html": ("src/pages/index.js",),
            "fr/index.html": (
                "i18n/fr/docusaurus-plugin-content-pages/index.js",
                "i18n/fr/code.json",
            ),
            "help/index.html": ("src/pages/help.js",),
            "fr/help/index.html": ("src/pages/help.js", "i18n/fr/code.json"),
        },
    ),
    (
        "sphinx html",
        SPHINX,
        "docs/_build/html",
        {
            "index.html": ("docs/index.rst",),
            "usage.html": ("docs/usage.md",),
            "api/module.html": ("docs/api/module.rst",),
            "notebook.html": ("docs/notebook.ipynb",),
            "genindex.html": (),
            "search.html": (),
        },
    ),
    (
        "sphinx dirhtml",
        SPHINX,
        "docs/_build/dirhtml",
        {
            "index.html": ("docs/index.rst",),
            "usage/index.html": ("docs/usage.md",),
            "api/module/index.html": ("docs/api/module.rst",),
            "genindex/index.html": (),
        },
    ),
    (
        # `sphinx-build -b dirhtml docs build/docs`: the builder is not in the folder's name.
        "sphinx dirhtml into a folder not named for it",
        SPHINX,
        "build/docs",
        {
            "index.html": ("docs/index.rst",),
            "usage/index.html": ("docs/usage.md",),
            "api/module/index.html": ("docs/api/module.rst",),
            "genindex/index.html": (),
        },
    ),
    (
        "astro starlight and a routed collection",
        ASTRO,
        "dist",
        {
            "index.html": ("src/content/docs/index.mdx",),
            "guides/example-guide/index.html": ("src/content/docs/Guides/Example Guide!.md",),
            "blog/first/index.html": ("src/content/blog/first.md",),
            "about/index.html": ("src/pages/about.astro",),
        },
    ),
    (
        "eleventy input folder and permalinks",
        ELEVENTY,
        "_site",
        {
            "index.html": ("src/index.md",),
            "about/index.html": ("src/about.md",),
            "posts/first/index.html": ("src/posts/first/index.md",),
            "elsewhere/index.html": ("src/moved.md",),
        },
    ),
    (
        "quarto",
        QUARTO,
        "_site",
        {
            "index.html": ("index.qmd",),
            "about.html": ("about.md",),
            "posts/analysis.html": ("posts/analysis.ipynb",),
            "posts/report.html": ("posts/report.Rmd",),
            "_partial.html": (),
        },
    ),
    (
        "mdbook",
        MDBOOK,
        "book",
        {
            "index.html": ("src/intro.md",),
            "intro.html": ("src/intro.md",),
            "chapter/page.html": ("src/chapter/page.md",),
            "chapter/index.html": ("src/chapter/README.md",),
            "print.html": (),
        },
    ),
]


@pytest.mark.parametrize(
    ("files", "site_dir", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_convention_maps_each_built_page_to_its_source(
    tmp_path: Path, files: dict[str, str], site_dir: str, expected: dict[str, tuple[str, ...]]
) -> None:
    assert mapped(tmp_path, files, site_dir, list(expected)) == expected


def test_a_versions_json_nested_past_the_recursion_limit_is_no_versions(tmp_path: Path) -> None:
    """json.loads recurses: a versions.json 100,000 deep is a RecursionError, read as none."""
    files = {**DOCUSAURUS, "versions.json": "[" * 100_000 + "]" * 100_000}
    found = mapped(tmp_path, files, "build", ["docs/intro/index.html"])
    assert found == {"docs/intro/index.html": ("docs/intro.md",)}


EXCERPT = "---\ntitle: T\nexcerpt: |\n  date: 2019-09-09\n  permalink: /{0}/\n---\nHi"


def test_a_date_or_permalink_inside_an_excerpt_is_no_evidence(tmp_path: Path) -> None:
    """The lines of a block scalar are its text: an excerpt's ``date:`` does not date a Hexo
    post, nor its ``permalink:`` move a Jekyll or Hexo post."""
    jekyll = {**JEKYLL, "_posts/2024-03-07-quoted.md": EXCERPT.format("jekyll-moved")}
    found = mapped(
        tmp_path / "j", jekyll, "_site", ["2024/03/07/quoted.html", "jekyll-moved/index.html"]
    )
    assert found == {
        "2024/03/07/quoted.html": ("_posts/2024-03-07-quoted.md",),
        "jekyll-moved/index.html": (),
    }
    hexo = {**HEXO, "source/_posts/excerpted.md": EXCERPT.format("hexo-moved")}
    pages = ["news/2019/09/09/excerpted/index.html", "hexo-moved/index.html"]
    assert mapped(tmp_path / "h", hexo, "public", pages) == dict.fromkeys(pages, ())
