"""The GitHub Action's entry: ``python -P -m action`` with the action's folder on PYTHONPATH.

``-P`` keeps the workspace (the current directory) off ``sys.path``, so a folder named
``action`` or ``sitemill`` in the user's repository cannot shadow this code. All logic is in
the ``sitemill.github`` package; action.yml installs the package into a private venv first.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sitemill.github.action import run_github_action

if __name__ == "__main__":
    sys.exit(run_github_action(os.environ, Path.cwd(), sys.stdout, sys.stderr))
