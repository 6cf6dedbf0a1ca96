"""The GitHub Action's entry: ``python -P -m action`` with the action's folder on PYTHONPATH.

``-P`` keeps the workspace (the current directory) off ``sys.path``, so a folder named
``action`` or ``sitemill`` in the user's repository cannot shadow this code. All logic is in
the ``sitemill.github`` package; action.yml installs the package into a private venv first.
A cancelled job (the runner sends SIGINT, then SIGTERM) ends as the CLI does: one line, no
traceback, no git, worker, fork server or resource tracker left behind.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sitemill.cli.main import exit_interrupted, terminated_as_interrupt
from sitemill.github.action import run_github_action


def main() -> int:
    try:
        with terminated_as_interrupt():
            return run_github_action(os.environ, Path.cwd(), sys.stdout, sys.stderr)
    except KeyboardInterrupt as interruption:
        return exit_interrupted(interruption)


if __name__ == "__main__":
    sys.exit(main())
