"""What keeps git from doing what a repository asks: environment, settings, discovery."""
# sitemill runs every git command with them.
#
# A checked-out repository is untrusted input: no git command sitemill runs may execute a program
# that the repository's content names. git runs from the work tree's top, found here (``find_top``),
# so that a folder of committed files made to look like a bare repository is never taken for one;
# every command carries settings that switch off whatever could run a program (fsmonitor, hooks,
# pagers, editors, signature programs, ``ext::`` transports, submodule recursion, automatic
# maintenance); and the commands that touch the work tree run with every configured filter and merge
# driver switched off by name.

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

# These would point git at another repository, index or object store than the one holding the
# directory (git sets several of them while it runs hooks), or clash with --literal-pathspecs.
_REDIRECTING_ENV: Final = frozenset(
    {
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_COMMON_DIR",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_PREFIX",
        "GIT_GLOB_PATHSPECS",
        "GIT_NOGLOB_PATHSPECS",
        "GIT_ICASE_PATHSPECS",
    }
)
# A commit's identity comes from the ``user.*`` settings the caller passes, never from these.
_IDENTITY_ENV: Final = frozenset(
    {"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"}
)
# Programs git would run that the environment names: an external diff; and the editors and
# pager are set to ones that do nothing, below.
_PROGRAM_ENV: Final = frozenset({"GIT_EXTERNAL_DIFF"})
# Never wait for a password prompt that nobody can answer (a runner, a pipe); never page, and
# never start an editor (":" does nothing and succeeds).
_UNATTENDED: Final = {
    "GIT_TERMINAL_PROMPT": "0",
    "GCM_INTERACTIVE": "never",
    "GIT_PAGER": "cat",
    "GIT_EDITOR": ":",
    "GIT_SEQUENCE_EDITOR": ":",
}
# For a reader whose output is parsed: untranslated messages, and no index refresh written
# behind the user's back (`git status` otherwise takes the index lock to save one).
_READING: Final = {"LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0"}
# Settings for every command. Given with -c, they outrank every configuration file (the
# repository's own .git/config, where a hook manager such as husky sets core.hooksPath to a
# committed folder) and reach the git processes a command starts (submodules, receive-pack).
SETTINGS: Final = (
    "core.quotepath=false",  # paths are printed as they are, never C-quoted
    # Discovery never takes a directory that looks like a bare repository for one: committed
    # HEAD, objects/, refs/ and config files would make a site folder one, with its config.
    "safe.bareRepository=explicit",
    "core.fsmonitor=false",  # a hook program that `git status` would run
    "core.hooksPath=/dev/null",  # no hook of any kind: pre-commit, post-checkout, ...
    "core.pager=cat",
    "core.editor=:",
    "sequence.editor=:",
    "commit.gpgSign=false",  # no signature program, to sign or to verify
    "tag.gpgSign=false",
    "push.gpgSign=false",
    "log.showSignature=false",
    "merge.verifySignatures=false",
    "protocol.ext.allow=never",  # an ext:: remote URL runs a command
    "submodule.recurse=false",
    "fetch.recurseSubmodules=false",
    "push.recurseSubmodules=no",
    "gc.auto=0",  # no `git gc --auto` or maintenance after a commit or a fetch
    "maintenance.auto=false",
)
# Configured filter and merge drivers, which .gitattributes (repository content) selects:
# each is switched off by name (an empty command runs nothing; a merge that would need the
# driver is a conflict instead).
_DRIVER: Final = re.compile(r"(filter|merge)\.(.+)\.(clean|smudge|process|driver)")
_GIT_ENTRY: Final = ".git"


def git_env(base: Mapping[str, str] | None = None, *, reading: bool = False) -> dict[str, str]:
    """The environment for git: ``base`` (default: this process's) made safe to run unattended.

    Configuration files are still read (a system-wide ``safe.directory``, the credentials that
    actions/checkout sets up); callers fix what they parse with options and ``-c`` settings.
    """
    source = os.environ if base is None else base
    dropped = _REDIRECTING_ENV | _IDENTITY_ENV | _PROGRAM_ENV
    env = {name: value for name, value in source.items() if name not in dropped}
    env.update(_UNATTENDED)
    if reading:
        env.update(_READING)
    return env


def find_top(directory: Path, env: Mapping[str, str] | None = None) -> Path | None:
    """The top of the work tree holding ``directory``: the nearest directory at or above it
    that holds a ``.git`` entry (a directory, or a file naming one: a linked worktree, a
    submodule); None when there is none.

    git itself checks the same at each level, but before moving up it would also take the
    directory itself for a bare repository if it holds HEAD, objects/, refs/ and config: any
    site folder can be made one with committed files, and that config runs programs. From
    the top found here git meets the real ``.git`` first. (Whatever git then refuses, such as
    a repository owned by another user, it still refuses: safe.directory is kept.) Like
    git, it never moves up into a directory that ``GIT_CEILING_DIRECTORIES`` in ``env``
    (default: this process's) names.
    """
    current = Path(os.path.realpath(directory))
    if _GIT_ENTRY in current.parts:
        return None  # inside a repository's own files: no work tree
    ceilings = _ceilings(os.environ if env is None else env)
    for folder in (current, *current.parents):
        if folder != current and folder in ceilings:
            break  # GIT_CEILING_DIRECTORIES: git never moves up into these
        if os.path.lexists(folder / _GIT_ENTRY):
            return folder
    return None


def _ceilings(env: Mapping[str, str]) -> set[Path]:
    text = env.get("GIT_CEILING_DIRECTORIES", "")
    return {Path(os.path.realpath(part)) for part in text.split(os.pathsep) if os.path.isabs(part)}


def driver_settings(lines: bytes) -> list[tuple[str, str]]:
    """(key, value) settings that switch off each filter and merge driver named in ``lines``,
    the output of ``git config --name-only --get-regexp ^(filter|merge)\\.``."""
    settings: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for line in lines.decode("utf-8", "surrogateescape").splitlines():
        found = _DRIVER.fullmatch(line)
        if found is None or (found[1], found[2]) in seen:
            continue
        kind, name = found[1], found[2]
        seen.add((kind, name))
        if kind == "filter":
            settings += [(f"filter.{name}.{key}", "") for key in ("clean", "smudge", "process")]
            settings.append((f"filter.{name}.required", "false"))
        else:
            settings.append((f"merge.{name}.driver", "false"))
    return settings


def with_settings(env: Mapping[str, str], settings: Sequence[tuple[str, str]]) -> dict[str, str]:
    """``env`` with ``settings`` added as GIT_CONFIG_KEY_<n>/VALUE_<n> pairs after any it holds:
    command-line settings that a key holding "=" cannot break (``-c`` splits at the first)."""
    result = dict(env)
    try:
        count = int(result.get("GIT_CONFIG_COUNT", "0"))
    except ValueError:
        count = 0
    for key, value in settings:
        result[f"GIT_CONFIG_KEY_{count}"] = key
        result[f"GIT_CONFIG_VALUE_{count}"] = value
        count += 1
    if settings:
        result["GIT_CONFIG_COUNT"] = str(count)
    return result
