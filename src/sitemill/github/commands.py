"""What the Action tells the runner on stdout and in its files: workflow commands, outputs, logs."""
# See https://docs.github.com/actions/reference/workflow-commands-for-github-actions.
# Each phase (sitemill.progress) opens a ``::group::`` and its count closes it, so that a long first
# run shows where it is and where the time went, and the log stays short when folded. The runner's
# log is no terminal: no live line, one line per phase.

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Final, TextIO

from sitemill.errors import SinkError
from sitemill.messages import register_secret, shown
from sitemill.progress import phase_text
from sitemill.report import ROUTINE_SKIPS, Report


def escape_data(text: str) -> str:
    """A workflow command's message: ``%``, CR and LF escaped, as @actions/core does."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value (a file name: from outside), shown as any message
    is, and also ``:`` and ``,`` escaped, which end a property."""
    # (CR and LF first, as the runner reads them, so that only other controls become escapes)
    return shown(escape_data(text)).replace(":", "%3A").replace(",", "%2C")


def workflow_command(name: str, message: str, **properties: str) -> str:
    """One ``::name key=value,…::message`` line."""
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
    return f"::{name}{' ' + props if props else ''}::{escape_data(shown(message))}"


def mask_secret(value: str) -> list[str]:
    """``::add-mask::`` lines that make the runner hide ``value`` (each of its lines) in the
    rest of the log; from now on no message of sitemill's shows it either."""
    lines = [line.strip() for line in value.splitlines() if line.strip()]
    for line in lines:
        register_secret(line)
    return [f"::add-mask::{escape_data(line)}\n" for line in lines]


def skip_annotations(report: Report, site_prefix: str) -> Iterator[str]:
    """A ``::warning file=…::`` per page left out for a reason a user may not expect
    (noindex, robots.txt, a file that is no page, a URL too long), paths relative to the
    workspace; routine skips (ROUTINE_SKIPS: a user's or a built-in exclude, a redirect stub,
    a canonical naming another listed page, a duplicate) are counted in the summary only."""
    annotated = 0
    for skip in report.skips:
        if skip.reason in ROUTINE_SKIPS:
            continue
        annotated += 1
        detail = f" ({skip.detail})" if skip.detail else ""
        yield workflow_command(
            "warning",
            f"not in the sitemap: {skip.reason.value}{detail}",
            file=site_prefix + skip.path,
            title="sitemill skipped this page",
        )
    unexpected = sum(n for reason, n in report.skipped.items() if reason not in ROUTINE_SKIPS)
    if unexpected > annotated:
        yield workflow_command(
            "warning", f"{unexpected - annotated} more skipped pages are not annotated"
        )


def write_outputs(path: str | None, outputs: Mapping[str, str]) -> None:
    """Append to $GITHUB_OUTPUT with the ``name<<DELIMITER`` syntax, safe for any value."""
    if not path:
        return
    lines = []
    for name, value in outputs.items():
        delimiter = f"ghadelimiter_{uuid.uuid4()}"  # random, so no value can end it early
        lines.append(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
    append_to(path, "".join(lines))


def append_to(path: str | None, text: str) -> None:
    """Append to one of the runner's files ($GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY), if named."""
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as exc:
        raise SinkError(f"cannot write {path}: {exc.strerror or exc}") from exc


class _OneLine(logging.Formatter):
    """Log lines that can never start a workflow command: data cannot inject ``::…::``,
    colour the log or show a secret."""

    def format(self, record: logging.LogRecord) -> str:
        message = shown(record.getMessage())
        return escape_data(f"sitemill: {record.levelname.lower()}: {message}")


class HeldWarnings(logging.Handler):
    """sitemill's warnings, held back from the log: a run's warnings become annotations
    (``::warning::``), and a log line besides would say each twice."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def unsaid(self, said: list[str]) -> list[str]:
        """The held warnings no annotation says: not among ``said`` (a warning a job logs in
        other words than its report's begins the same), nor a skipped page
        (``skip_annotations`` gives each its own, with its file)."""
        heads = {message[:_SAME_HEAD] for message in said}
        messages = (record.getMessage() for record in self.records if record.name != _TALLY)
        return [text for text in dict.fromkeys(messages) if text[:_SAME_HEAD] not in heads]

    def flush_to(self, stream: TextIO) -> None:
        """The held warnings as log lines (a run that failed shows no annotation for them)."""
        for record in self.records:
            stream.write(_OneLine().format(record) + "\n")
        self.records.clear()


_SAME_HEAD: Final = 48  # characters two wordings of one warning begin with alike
_TALLY: Final = "sitemill.report"  # the logger that warns of skipped pages (report.Tally)


@contextmanager
def log_lines(stream: TextIO) -> Iterator[HeldWarnings]:
    """Send sitemill's log (INFO and up) to ``stream``, one escaped line per record; its
    warnings are held (``HeldWarnings``) for the caller to annotate."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(_OneLine())
    handler.addFilter(lambda record: record.levelno < logging.WARNING)
    held = HeldWarnings()
    logger = logging.getLogger("sitemill")
    logger.addHandler(handler)
    logger.addHandler(held)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield held
    finally:
        logger.removeHandler(handler)
        logger.removeHandler(held)
        logger.setLevel(level)


class LogGroups:
    """The progress port as log groups on ``stream`` (the step's stdout). Groups do not nest:
    a phase that starts while another runs (git log beside the reads) ends the open group;
    each phase's count is written when it is over, in whichever group is open then."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.started: set[str] = set()
        self.ended: set[str] = set()
        self.open = False
        self.lock = threading.Lock()

    def __call__(self, phase: str, done: int, total: int | None) -> None:
        with self.lock:
            if phase not in self.started:
                self.started.add(phase)
                self._end()
                self.stream.write(f"::group::sitemill: {phase}\n")
                self.open = True
            if done == total and phase not in self.ended:  # (told once: an empty phase ends twice)
                self.ended.add(phase)
                self.stream.write(f"sitemill: {phase_text(phase, done, total)}\n")
            self.stream.flush()

    def _end(self) -> None:
        if self.open:
            self.stream.write("::endgroup::\n")
            self.open = False

    def close(self) -> None:
        with self.lock:
            self._end()
            self.stream.flush()


@contextmanager
def log_groups(stream: TextIO) -> Iterator[LogGroups]:
    """LogGroups on ``stream`` while the block runs; the open group is closed at its end."""
    groups = LogGroups(stream)
    try:
        yield groups
    finally:
        groups.close()
