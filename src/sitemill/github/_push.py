"""Commit sitemill's outputs and push them; when the remote moved meanwhile, replay and retry."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from sitemill.errors import GitError
from sitemill.github._repo import Repo
from sitemill.github.settings import Settings
from sitemill.messages import redact

log = logging.getLogger(__name__)

PUSH_ATTEMPTS: Final = 3
_CREDENTIALS_HINT: Final = (
    "if it is about credentials: does the job have `permissions: contents: write`, and did "
    "actions/checkout keep its credentials (persist-credentials: true, the default)? If the "
    "branch is protected (a rule or ruleset that requires pull requests or status checks), "
    "let the workflow's token bypass it, or set commit: false and commit another way"
)


@dataclass
class Pushed:
    """What commit_and_push did: the pushed commit (None: nothing to commit) and its files."""

    sha: str | None
    branch: str
    paths: list[str] = field(default_factory=list)
    attempts: int = 1


def commit_and_push(
    repo: Repo,
    branch: str,
    produce: Callable[[], Sequence[str]],
    message: str,
    *,
    attempts: int = PUSH_ATTEMPTS,
) -> Pushed:
    """Generate (``produce`` returns the output names), commit the changes and push them.

    A push that fails because the remote moved is replayed on the new tip (regenerating, so
    the sitemap lists the tree that is actually pushed) and retried, ``attempts`` in all.
    """
    remote, ref = repo.push_target(branch)
    shown = redact(remote)  # a remote may be a URL with a token in it
    for attempt in range(1, attempts + 1):
        changed = repo.stage(produce())
        if not changed:
            return Pushed(None, branch, attempts=attempt)
        sha = repo.commit(changed, message)
        error = repo.push(remote, ref)
        if error is None:
            return Pushed(sha, branch, changed, attempt)
        tip = repo.fetch(remote, ref)
        if tip is None or repo.contains(f"{sha}~1", tip):
            # The remote did not move, so retrying cannot help: report git's own reason.
            raise GitError(f"git push to {shown} failed: {error}; {_CREDENTIALS_HINT}")
        log.info("%s moved during the run (attempt %d); replaying on %s", shown, attempt, tip)
        repo.replay_onto(tip)
    raise GitError(
        f"git push to {shown} was rejected {attempts} times because {ref} kept moving; "
        "run the workflow again (or serialise it with `concurrency:`)"
    )


@dataclass
class Committed:
    """What ``commit_outputs`` did: the push (None: no commit was made, and why not)."""

    published: Pushed | None
    not_committed: str = ""
    warnings: list[str] = field(default_factory=list)


def commit_outputs(
    settings: Settings,
    env: Mapping[str, str],
    produce: Callable[[], Sequence[str]],
    extra: Mapping[str, str],
) -> Committed:
    """Make the outputs (``produce`` returns their names) and, when ``settings.commit``, commit
    and push them with the ``extra`` files (name -> what leaving it out costs): the state,
    the IndexNow key file. Names are relative to the output directory; an extra file that git
    ignores, or that lies outside the work tree, is left out with a warning."""
    if not settings.commit:
        produce()
        return Committed(None, "commit is false")
    # git runs from the work tree's top (Repo), so an output folder not made yet is made by the
    # sink when the first file is written: a run refused before that leaves none behind.
    repo = Repo.open(settings.out_dir, settings.committer, env)
    branch = repo.current_branch()
    if branch is None:
        # A pull_request checkout is a detached merge commit: nothing to push to.
        produce()
        why = "HEAD is detached (a pull_request or tag checkout?)"
        advice = "check out a branch (actions/checkout `ref:`) or set commit: false"
        return Committed(None, why, [f"{why}: the files were written but not committed; {advice}"])
    outside = repo.outside(list(extra))
    inside = [name for name in extra if name not in outside]
    ignored = repo.ignored(inside) if inside else []
    warnings = []
    for name, cost in extra.items():
        if name in outside:
            warnings.append(f"{name} is outside the git work tree, so it is not committed: {cost}")
        elif name in ignored:
            warnings.append(f"git ignores {name} (.gitignore), so it is not committed: {cost}")
    kept = [name for name in inside if name not in ignored]
    published = commit_and_push(repo, branch, lambda: [*produce(), *kept], settings.message)
    return Committed(published, "", warnings)
