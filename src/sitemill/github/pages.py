"""Where GitHub Pages serves the repository the Action runs in, against the base URL."""
# A project site (any repository but ``<owner>.github.io``) is served at
# ``https://<owner>.github.io/<repository>/``: a base URL of ``https://<owner>.github.io/`` left its
# path out, and every URL of the sitemap is wrong. Pages that declare no canonical (Sphinx without
# ``html_baseurl``, many themes) give sitemill nothing else to tell it by (listing.declaredbase), so
# the repository's name is asked about.

from __future__ import annotations

from urllib.parse import urlsplit


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
