"""Whether a live page is the version that was published: its bytes first, then its content."""
# Compared like with like. The same bytes are the same version: a bucket's page by the ETag the
# state keeps (the MD5 of one PUT's bytes), a tree's by the file the build read, still in the site
# folder. Other bytes are compared by content, both fingerprints made the same way from the bytes
# alone: a page's fingerprint in the state was made with the other pages' lines at hand
# (fingerprint.linememo), and on some pages that reads a block of furniture differently, so the
# remembered fingerprint is the last resort, where no published bytes are at hand; and no resort
# at all when it is of a version this sitemill cannot compute (the page is then not compared).

from __future__ import annotations

from sitemill.check.published import Fingerprinting, PublishedPage
from sitemill.check.sitefolder import SiteFolder
from sitemill.filenames.outputs import stored_digest
from sitemill.lastmod.fingerprint.digest import MAX_FINGERPRINT_BYTES, fingerprint_file
from sitemill.safefs import read_regular, relative_inside


def same_version(
    page: PublishedPage,
    raw: bytes,
    body: bytes,
    how: Fingerprinting,
    files: SiteFolder | None,
) -> bool | None:
    """Whether ``body`` (``raw`` as served, before a Content-Encoding is undone) is the
    version of ``page`` that was published; ``files``: the site folder that holds it. None:
    not compared (no bytes at hand, and a remembered fingerprint this sitemill cannot make)."""
    etag = (page.version or "").strip('"')
    whole = len(raw) < MAX_FINGERPRINT_BYTES  # (a head read of a longer page is not its bytes)
    if etag and "-" not in etag and whole and stored_digest(raw) == etag:
        return True
    published = _published_bytes(files, page.path) if files is not None else None
    if published is not None:
        return published == body or _fingerprint(page, published, how) == _fingerprint(
            page, body, how
        )
    if not how.remembered and page.html:  # (another file's fingerprint hashes its bytes)
        return None
    return _fingerprint(page, body, how) == page.fingerprint


def _published_bytes(files: SiteFolder, path: str) -> bytes | None:
    """The first MAX_FINGERPRINT_BYTES of the file at ``path`` in ``files``: None when it is
    not a regular file inside the folder (a state names paths: it is input from outside)."""
    real = files.real_path(path)
    if relative_inside(files.real, real) in (None, ""):
        return None
    try:
        return read_regular(real, MAX_FINGERPRINT_BYTES, follow_symlinks=False)
    except (OSError, ValueError):
        return None


def _fingerprint(page: PublishedPage, body: bytes, how: Fingerprinting) -> str:
    return fingerprint_file(page.path, body, how.ignore, how.version, main=how.main, base=how.base)
