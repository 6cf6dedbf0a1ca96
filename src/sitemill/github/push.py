"""Commit sitemill's outputs and push them; when the remote moved meanwhile, replay and retry."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from sitemill.errors import GitError
from sitemill.github.repo import Repo
from sitemill.messages import redact

log = logging.getLogger(__name__)

PUSH_ATTEMPTS: Final = 3
_CREDENTIALS_HINT: Final = (
    "if it is about credentials: does the job have `permissions: contents: write`, and did "
    "actions/checkout keep its credentials (persist-credentials: true, the default)?"
)


@dataclass
class Published:
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
) -> Published:
    """Generate (``produce`` returns the output names), commit the changes and push them.

    A push that fails because the remote moved is replayed on the new tip (regenerating, so
    the sitemap lists the tree that is actually pushed) and retried, ``attempts`` in all.
    """
    remote, ref = repo.push_target(branch)
    shown = redact(remote)  # a remote may be a URL with a token in it
    for attempt in range(1, attempts + 1):
        changed = repo.stage(produce())
        if not changed:
            return Published(None, branch, attempts=attempt)
        sha = repo.commit(changed, message)
        error = repo.push(remote, ref)
        if error is None:
            return Published(sha, branch, changed, attempt)
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
