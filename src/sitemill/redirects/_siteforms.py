"""The generators' forms: Hugo `aliases`, jekyll-redirect-from `redirect_from` (per target
page), mkdocs-redirects `redirect_maps`, Docusaurus client redirects. Their paths are
relative to the site (its base path left out) and decoded, as the generator names files."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sitemill.redirects._hostforms import comment_lines
from sitemill.redirects._paths import (
    decode_path,
    is_absolute,
    mkdocs_source,
    site_relative,
    url_text,
)
from sitemill.redirects._quoting import json_text, toml_list, yaml_list, yaml_string
from sitemill.redirects.model import Redirect, RedirectForm


@dataclass(frozen=True, slots=True)
class SitePaths:
    """The redirects a generator can write, as site paths, and those it cannot."""

    inside: list[tuple[str, str, str]]  # (source, target) relative to the site (the target
    # may be a URL), and the target's path on the host
    outside: list[Redirect]  # a source outside the site, or a target it cannot name


# The generators whose redirect may lead to another host (mkdocs-redirects, and Docusaurus since
# 2.0: "to" may be any string); Hugo's aliases and jekyll-redirect-from's redirect_from name
# the target page itself.
_EXTERNAL_TARGETS: Final = frozenset({RedirectForm.MKDOCS, RedirectForm.DOCUSAURUS})
# What a Docusaurus `from` may not hold decoded: the plugin takes a path the WHATWG URL parser
# gives back as it is (or as encodeURI spells it); "?" and "#" end it, controls and "\\" change.
_NOT_A_PATHNAME: Final = re.compile(r"[?#\\\x00-\x1f\x7f]")


def split_by_site(redirects: Sequence[Redirect], base_path: str, form: RedirectForm) -> SitePaths:
    """Each redirect as site paths, or left out: its source is not under the base path, its
    target is on another host (or outside the site) where the form takes only pages, or the
    form cannot name it."""
    inside: list[tuple[str, str, str]] = []
    outside: list[Redirect] = []
    for redirect in redirects:
        source = site_relative(redirect.source, base_path)
        target: str | None = site_relative(redirect.target, base_path)
        if target is None and form in _EXTERNAL_TARGETS and is_absolute(redirect.target):
            target = url_text(redirect.target)
        if (
            form is RedirectForm.DOCUSAURUS
            and source
            and _NOT_A_PATHNAME.search(decode_path(source))
        ):
            source = None
        if source is None or target is None:
            outside.append(redirect)
        else:
            inside.append((source, target, url_text(redirect.target)))
    return SitePaths(sorted(set(inside)), outside)


def left_out_notes(outside: Sequence[Redirect], why: str) -> list[str]:
    """One line per redirect the form cannot hold (for the header)."""
    if not outside:
        return []
    lines = [f"Left out, {why}: use the host's redirects for them:"]
    return lines + [f"  {url_text(r.source)} -> {url_text(r.target)}" for r in outside]


def render_front_matter(paths: SitePaths, key: str, notes: Sequence[str], *, toml: bool) -> str:
    """Per target page, the paths that should lead to it, under ``key`` (Hugo's `aliases`,
    jekyll-redirect-from's `redirect_from`): a YAML mapping from the page's URL path, with
    the TOML spelling beside it where the generator reads TOML front matter."""
    by_target: dict[str, list[str]] = {}
    for source, _, served_at in paths.inside:
        by_target.setdefault(served_at, []).append(decode_path(source))
    lines = comment_lines(notes)
    for target, sources in sorted(by_target.items()):
        lines.append("")
        lines.append(f"# The page served at {target} takes in its front matter:")
        if toml:
            lines.append(f"#   TOML (+++): {key} = {toml_list(sources)}")
        lines.append(f"{yaml_string(target)}:")
        lines.append(f"  {key}: {yaml_list(sources)}")
    return "\n".join(lines) + "\n"


def render_mkdocs(paths: SitePaths, notes: Sequence[str]) -> str:
    """The mkdocs-redirects plugin's entry of mkdocs.yml: old page -> new page (or URL)."""
    lines = [*comment_lines(notes), "plugins:", "  - redirects:", "      redirect_maps:"]
    maps: dict[str, str] = {}
    for source, target, _ in paths.inside:  # two URLs of one guessed page: the first is kept
        page = target if is_absolute(target) else mkdocs_source(target)
        maps.setdefault(mkdocs_source(source), page)
    for source, target in sorted(maps.items()):
        lines.append(f"        {yaml_string(source)}: {yaml_string(target)}")
    return "\n".join(lines) + "\n"


def render_docusaurus(paths: SitePaths) -> str:
    """@docusaurus/plugin-client-redirects' options: {"redirects": [{"from", "to"}, ...]}."""
    redirects = [
        {"from": decode_path(source), "to": decode_path(target)}
        for source, target, _ in paths.inside
    ]
    return json_text({"redirects": redirects})
