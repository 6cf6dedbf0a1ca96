"""A date the state kept, and its root evidence found again for ``sitemill why``."""
# The state records a date's rung and commit, never a file's name (lastmod.proof): the source a
# commit dated is found again as a first run finds it, and the commit is named by git.

from __future__ import annotations

from pathlib import Path

from sitemill.errors import GitError
from sitemill.git.run import Git, git_env
from sitemill.jobs.treedating import PageWatch
from sitemill.lastmod.decide import DateReason
from sitemill.lastmod.history.commits import NamedCommit
from sitemill.lastmod.pagedate import source_again
from sitemill.lastmod.proof import Rung


def dating_source(site_dir: Path, watch: PageWatch) -> tuple[str | None, NamedCommit | None] | None:
    """The source (repo-relative) and the commit that dated the watched page by rung 2: the
    first run's rung, or the proof the state recorded for a date it kept (the source found
    again as a first run finds it, while that commit still last changed its text; the
    commit named by git); None: neither."""
    plan = watch.plan
    if plan is not None and plan.source is not None:
        return plan.source.commit(watch.path)
    record = None if plan is None else plan.known.record(watch.path)
    proof = None if record is None else record.proof
    kept = watch.dated is not None and watch.dated.reason is DateReason.KEPT
    if not kept or watch.from_history or proof is None or proof.commit is None:
        return None
    if proof.rung is Rung.SOURCE and (found := source_again(site_dir, watch.path, proof.commit)):
        return found
    return None, named_commit(site_dir, proof.commit)


def named_commit(site_dir: Path, sha: str) -> NamedCommit | None:
    """The commit ``sha`` (a full hash, as a state keeps it) of the repository holding
    ``site_dir``, as a user names it; None when it has none such."""
    git = Git(site_dir, git_env(reading=True))
    try:
        done = git.run("log", "-1", "--no-show-signature", "--format=%H %ct %s", sha, "--")
    except GitError:
        return None
    found, _, rest = done.stdout.decode("utf-8", "replace").strip("\n").partition(" ")
    when, _, subject = rest.partition(" ")
    if done.returncode != 0 or found != sha or not when.isdigit():
        return None
    return NamedCommit(sha, int(when), subject)
