"""A build's base URL or ``path`` that what the site says of its URL contradicts: a mistake."""

from __future__ import annotations

from pathlib import PurePosixPath
from urllib.parse import unquote

from sitemill.errors import ConfigError
from sitemill.github.settings import Settings
from sitemill.listing.siteurl import what_the_site_says
from sitemill.report import Report

ALLOW_INPUT = "allow-base-url-mismatch"


def refuse_mismatch(settings: Settings, report: Report) -> None:
    """Raise a ConfigError (nothing is committed) when what the site says of its URL (its
    pages' canonicals and og:url, CNAME, the generator's config, the previous state:
    listing.siteurl, the decision the CLI warns on) contradicts the run's base URL, unless
    the ``allow-base-url-mismatch`` input says it is meant (a domain move)."""
    if settings.allow_base_url_mismatch:
        return
    base = settings.config.base_url
    says = what_the_site_says(base, report.site_urls)
    if says is None:
        return
    declared, where = says.base, says.where
    override = f"or set `{ALLOW_INPUT}: true` if the change is meant (a domain move)"
    below = PurePosixPath(_folder_below(base, declared)).parts
    path = PurePosixPath(settings.site_dir.relative_to(settings.workspace).as_posix())
    if below and len(path.parts) >= len(below) and path.parts[-len(below) :] == below:
        root = PurePosixPath(*path.parts[: -len(below)]).as_posix()  # ("." for the workspace)
        raise ConfigError(
            "path",
            f"{path.as_posix()!r} looks like a sub-folder of the site: the site says its pages "
            f"are under {declared} ({where}), not under the base URL {base}; nothing was "
            f"committed. Set path to {root!r} (the site's root), or base-url to {declared}, "
            + override,
        )
    raise ConfigError(
        "base-url",
        f"{base} is not where the site says it is served: {declared} ({where}); nothing was "
        f"committed. Set base-url to {declared} (or fix what says otherwise: the generator's "
        "site URL setting, CNAME), " + override,
    )


def _folder_below(base: str, declared: str) -> str:
    """``blog`` when ``declared`` is ``base`` + ``blog/`` (decoded: a folder's name); else ""."""
    if declared.startswith(base) and len(declared) > len(base):
        return unquote(declared[len(base) :].strip("/"))
    return ""
