"""Where the tree job's own outputs stand in the site: the output folder as a path prefix."""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

from sitemill.errors import SinkError
from sitemill.filenames.outputs import HTML_SITEMAP, ROBOTS_TXT, is_own_name


def outputs_prefix(site_dir: Path, output_dir: Path | None) -> str | None:
    """The output folder as a site path prefix ("out/"), or None when it is not inside.

    A folder named inside the site that a symbolic link takes outside it is a SinkError:
    sitemill would write (and the Action commit) wherever a committed link points.
    """
    if output_dir is None:
        return None
    site_real = os.path.realpath(site_dir)
    out_real = os.path.realpath(output_dir)
    if os.path.commonpath([site_real, out_real]) != site_real:
        named = os.path.abspath(output_dir)
        site_named = os.path.abspath(site_dir)
        if os.path.commonpath([site_named, named]) == site_named:
            raise SinkError(
                f"output folder {output_dir} is inside the site but leads outside it "
                f"(to {out_real}): refusing to write through a symbolic link"
            )
        return None
    inside = Path(out_real).relative_to(site_real)
    return "" if inside == Path() else inside.as_posix() + "/"


def is_output(
    path: str, prefix: str | None, groups: Collection[str] = (), *, html_sitemap: bool = True
) -> bool:
    """Whether ``path`` is one of sitemill's files in the output folder (``prefix``: where
    that lies in the site; ``groups``: the named groups whose children are sitemill's;
    sitemap.html is the user's page while ``html_sitemap`` is off, unless its bytes say
    sitemill made it: sitemill.jobs.tree.is_leftover)."""
    if prefix is None or not path.startswith(prefix):
        return False
    name = path[len(prefix) :]
    if name == HTML_SITEMAP:
        return html_sitemap
    return "/" not in name and (is_own_name(name, groups) or name == ROBOTS_TXT)
