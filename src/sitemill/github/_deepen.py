"""Deepening a shallow checkout before a build, so pages can be dated by their history."""
# actions/checkout fetches one commit unless told otherwise. The Action then fetches the rest of
# HEAD's history once, with ``--filter=blob:limit=1m`` (every commit and tree, every file version up
# to 1 MiB: a site's text sources, docs/github-pages.md), so the history is read offline; with
# ``blob:none`` git would fetch each old source it reads over the network, one request at a time.

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from sitemill.config.model import LastmodMode
from sitemill.git.run import Git, find_top, git_env, last_line
from sitemill.github.settings import Command, Settings
from sitemill.messages import redact

# File versions larger than this stay on the server (images, videos, bundles).
BLOB_LIMIT: Final = "1m"
TURN_OFF: Final = "deepen: false turns this off"
_FILTERED: Final = "no file version over 1 MiB"
_UNFILTERED: Final = b"filtering not recognized by server"


@dataclass(frozen=True, slots=True)
class Deepening:
    """What deepening did: a line for the log, or a warning when it failed (both may be "")."""

    said: str = ""
    warning: str = ""


def deepen_checkout(settings: Settings, env: Mapping[str, str]) -> Deepening:
    """Fetch the history of a shallow checkout that holds the site, when dates are read from
    it (content dates on, the ``deepen`` input true); a failure is a warning, never fatal."""
    config = settings.config
    wanted = settings.deepen and config.content_dates and config.lastmod is not LastmodMode.NONE
    if not wanted or settings.command not in (Command.BUILD, Command.DIFF):
        return Deepening()
    top = find_top(settings.site_dir, env)
    if top is None:
        return Deepening()
    git = Git(top, git_env(env, reading=True), describe=_redacted)  # (messages in English)
    found = git.run("rev-parse", "--is-shallow-repository", "--verify", "-q", "HEAD^{commit}")
    shallow, _, head = found.stdout.decode("ascii", "replace").partition("\n")
    if found.returncode != 0 or shallow != "true":
        return Deepening()
    remotes = git.run("remote").stdout.decode("utf-8", "surrogateescape").split()
    if not remotes:
        return Deepening(warning=_cannot("the repository has no remote"))
    remote = "origin" if "origin" in remotes else remotes[0]
    started = time.monotonic()
    done = git.run(
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        "--unshallow",
        f"--filter=blob:limit={BLOB_LIMIT}",
        remote,
        head.strip(),
    )
    if done.returncode != 0:
        return Deepening(warning=_cannot(f"git fetch failed: {git.message(done)}"))
    seconds = time.monotonic() - started
    counted = git.run("rev-list", "--count", "HEAD").stdout.decode("ascii", "replace").strip()
    # A server that does not filter (uploadpack.allowFilter off) sends every version.
    unfiltered = _UNFILTERED in done.stderr
    which = "every file version (the server does not filter)" if unfiltered else _FILTERED
    return Deepening(
        said=f"Deepened the shallow checkout to its {int(counted or 0):,} commits, for the "
        f"pages' source dates, with {which} ({seconds:.1f} s; {TURN_OFF})"
    )


def _cannot(why: str) -> str:
    return (
        f"cannot deepen the shallow checkout ({why}): pages are dated without their "
        "history; set fetch-depth: 0 on actions/checkout"
    )


def _redacted(stderr: bytes, stdout: bytes, returncode: int) -> str:
    """git's last line of error output, any credentials in a URL it names left out."""
    return redact(last_line(stderr, stdout, returncode))
