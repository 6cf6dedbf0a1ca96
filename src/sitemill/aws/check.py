"""`{"action": "check"}`: the Lambda checks the live site against what it last published."""
# Invoked by hand or by a deploy pipeline after CloudFront's invalidation (the stack's CheckCommand
# output). The answer is the check's JSON (status "ok" or "problems", each problem with its URL and
# fix), with the stack's distribution named in the invalidation a fix suggests; with IndexNow on,
# the pending URLs that passed are sent and the rest stay pending. A malformed event or a failure
# is status "error" and one line, never a traceback in the answer.

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from sitemill.aws._command import CommandInputs, ManualCommand, read_keys
from sitemill.check.run import CheckOptions
from sitemill.commands.check import Checked, check_bucket
from sitemill.errors import EventError
from sitemill.jobs.features import OUTPUTS
from sitemill.web.livesite import Limits

log = logging.getLogger(__name__)
_KEYS: Final = frozenset({"action", "bucket", "all"})
# A Lambda runs 15 minutes at most: the check stops asking before that, the answer still due.
LIMITS: Final = Limits(run_deadline=600.0)


def _limits(context: object) -> Limits:
    """LIMITS, the run's deadline 20 s before the invocation's own (its answer still due)."""
    remaining = getattr(context, "get_remaining_time_in_millis", None)
    if remaining is None:
        return LIMITS
    seconds = max(1.0, remaining() / 1000 - 20)
    return replace(LIMITS, run_deadline=min(LIMITS.run_deadline, seconds))


def _answer(command: CommandInputs, every: bool, context: object) -> dict[str, Any]:
    settings, config, bucket = command.settings, command.config, command.bucket
    site, options = settings.site.site(bucket), CheckOptions(every=every, outputs=OUTPUTS)
    checked = check_bucket(config, command.client, site, options, _limits(context))
    found = {"bucket": bucket, **_report(checked, settings.distribution_id)}
    log.info("%s", json.dumps({key: found[key] for key in found if key != "problems"}))
    return found


def _read(event: Mapping[str, Any]) -> bool:
    every = event.get("all", False)
    if set(event) <= _KEYS and not isinstance(every, bool):  # (before a bucket that is no name)
        raise EventError('"all" must be true or false')
    read_keys(event, "check", ("action", "bucket", "all"))
    return bool(every)


def _report(checked: Checked, distribution: str | None) -> dict[str, Any]:
    report = checked.report
    if distribution:
        report.problems = [
            replace(p, fix=p.fix.replace("<ID>", distribution)) for p in report.problems
        ]
    answer = report.to_json()
    if checked.indexnow is not None:
        answer["indexnow"] = checked.indexnow.counts()
    return answer


# Check the bucket's live site; the JSON answer (status ok, problems or error).
handle_check: Final = ManualCommand("checks", _read, _answer, log)
