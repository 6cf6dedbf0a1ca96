"""The base URL against what the site says of its URL: a contradiction fails, a doubt is asked."""
# A build's base URL or ``path`` that what the site says of its URL contradicts is a mistake.
# A project site (any repository but ``<owner>.github.io``) is served at
# ``https://<owner>.github.io/<repository>/``: a base URL of ``https://<owner>.github.io/`` left its
# path out, and every URL of the sitemap is wrong. Pages that declare no canonical (Sphinx without
# ``html_baseurl``, many themes) give sitemill nothing else to tell it by (listing.declaredbase), so
# the repository's name is asked about.

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

from sitemill.errors import ConfigError
from sitemill.github.settings import Settings
from sitemill.listing.siteurl import what_the_site_says
from sitemill.report import Declared

ALLOW_INPUT = "allow-base-url-mismatch"


def refuse_mismatch(settings: Settings, evidence: Sequence[Declared]) -> None:
    """Raise a ConfigError (nothing is written, nothing committed) when what the site says of
    its URL (``evidence``: its pages' canonicals and og:url, CNAME, the generator's config, the
    previous state: listing.siteurl, the decision the CLI warns on) contradicts the run's base
    URL, unless the ``allow-base-url-mismatch`` input says it is meant (a domain move). The
    tree run asks it once every page is read, before it writes a file (jobs.tree.TreeAsked)."""
    if settings.allow_base_url_mismatch:
        return
    base = settings.config.base_url
    says = what_the_site_says(base, evidence)
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


def project_site_question(base_url: str, repository: str | None) -> str | None:
    """The question when ``repository`` (``owner/name``, GITHUB_REPOSITORY) is a project site
    and ``base_url`` is its owner's github.io root; else None."""
    owner, slash, name = (repository or "").partition("/")
    if not (owner and slash and name):
        return None
    host = f"{owner.lower()}.github.io"
    if name.lower() == host:  # the owner's own site: served at the root
        return None
    parts = urlsplit(base_url)
    if (parts.hostname or "").lower() != host or parts.path not in ("", "/"):
        return None
    return (
        f"{repository} is a GitHub Pages project site, served at https://{host}/{name}/, but the "
        f"base URL is {base_url} (its path left out): is base-url right? (if the site is "
        f"deployed to {host} from another repository, it is)"
    )
