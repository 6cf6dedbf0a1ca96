"""A build's base URL or ``path`` that the pages' own canonicals contradict: a likely mistake."""

from __future__ import annotations

from pathlib import PurePosixPath
from urllib.parse import unquote

from sitemill.errors import ConfigError
from sitemill.github.settings import Settings
from sitemill.report import Report

ALLOW_INPUT = "allow-base-url-mismatch"


def refuse_mismatch(settings: Settings, report: Report) -> None:
    """Raise a ConfigError (nothing is committed) when most pages' canonicals declare
    another base URL than the run's (listing.declaredbase), unless the ``allow-base-url-
    mismatch`` input says it is meant (a domain move, before the generator follows)."""
    declared = report.declared_base
    if declared is None or settings.allow_base_url_mismatch:
        return
    base = settings.config.base_url
    override = f"or set `{ALLOW_INPUT}: true` if the change is meant (a domain move)"
    below = PurePosixPath(_folder_below(base, declared)).parts
    path = PurePosixPath(settings.site_dir.relative_to(settings.workspace).as_posix())
    if below and len(path.parts) >= len(below) and path.parts[-len(below) :] == below:
        root = PurePosixPath(*path.parts[: -len(below)]).as_posix()  # ("." for the workspace)
        raise ConfigError(
            "path",
            f"{path.as_posix()!r} looks like a sub-folder of the site: most pages' canonicals "
            f"place them under {declared}, not under the base URL {base}; nothing was "
            f"committed. Set path to {root!r} (the site's root), or base-url to {declared}, "
            + override,
        )
    raise ConfigError(
        "base-url",
        f"{base} contradicts the pages' own canonicals: most pages with a canonical URL "
        f"declare the site under {declared}; nothing was committed. Set base-url to "
        f"{declared} (or fix the generator's site URL setting), " + override,
    )


def _folder_below(base: str, declared: str) -> str:
    """``blog`` when ``declared`` is ``base`` + ``blog/`` (decoded: a folder's name); else ""."""
    if declared.startswith(base) and len(declared) > len(base):
        return unquote(declared[len(base) :].strip("/"))
    return ""
