"""The static-site generators rung 2 knows: each one's config files, generator meta and output."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class GeneratorLayout:
    """One generator (its ``family``): its config files, relative to a folder of the site's
    parent chain, in the order tried; the starts of a ``<meta name="generator">`` content
    (lower case) that name it; and where it builds: the keys leading to its output setting in
    its config (lower case: Hugo's keys are case-insensitive), or its output option in a
    JavaScript config, else the folder it builds into by default (None: no default)."""

    family: str
    configs: tuple[str, ...]
    metas: tuple[str, ...]
    default_output: str | None = None
    output_setting: tuple[str, ...] = ()
    output_option: str | None = None

    @property
    def output_on_command_line(self) -> bool:
        """Whether no config holds its output folder (``sphinx-build -b html SOURCE OUT``,
        ``docusaurus build --out-dir``): its own generator meta proves a build."""
        return not self.output_setting and self.output_option is None


def _named(stem: str, *extensions: str) -> tuple[str, ...]:
    return tuple(f"{stem}.{extension}" for extension in extensions)


_HUGO_CONFIGS: Final = tuple(
    f"{folder}{name}.{extension}"
    for folder in ("", "config/_default/")
    for name in ("hugo", "config")
    for extension in ("toml", "yaml", "yml", "json")
)
_SPHINX_CONFIGS: Final = ("conf.py", "source/conf.py", "docs/conf.py", "doc/conf.py")
_ELEVENTY_CONFIGS: Final = (
    ".eleventy.js",
    ".eleventy.cjs",
    *_named("eleventy.config", "js", "mjs", "cjs"),
)
# In the order their config files are tried in a folder (Hexo's _config.yml before Jekyll's).
GENERATORS: Final = (
    GeneratorLayout("mkdocs", _named("mkdocs", "yml", "yaml"), ("mkdocs",), "site", ("site_dir",)),
    GeneratorLayout("sphinx", (*_SPHINX_CONFIGS, "docs/source/conf.py"), ("sphinx",)),
    GeneratorLayout("hugo", _HUGO_CONFIGS, ("hugo",), "public", ("publishdir",)),
    GeneratorLayout("hexo", _named("_config", "yml", "yaml"), ("hexo",), "public", ("public_dir",)),
    GeneratorLayout(
        "jekyll", _named("_config", "yml", "yaml", "toml"), ("jekyll",), "_site", ("destination",)
    ),
    # (docusaurus build --out-dir is a flag)
    GeneratorLayout(
        "docusaurus",
        _named("docusaurus.config", "js", "ts", "mjs", "cjs"),
        ("docusaurus",),
        "build",
    ),
    GeneratorLayout(
        "astro",
        _named("astro.config", "mjs", "ts", "js", "mts", "cjs"),
        ("astro", "starlight"),
        "dist",
        output_option="outDir",
    ),
    # (dir: { output: "..." })
    GeneratorLayout("eleventy", _ELEVENTY_CONFIGS, ("eleventy",), "_site", output_option="output"),
    GeneratorLayout(
        "quarto", _named("_quarto", "yml", "yaml"), ("quarto",), "_site", ("project", "output-dir")
    ),
    GeneratorLayout("mdbook", ("book.toml",), ("mdbook",), "book", ("build", "build-dir")),
)
BY_FAMILY: Final = {generator.family: generator for generator in GENERATORS}
