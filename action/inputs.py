"""The Action's first step: every input checked before anything is installed.

``python -P -m action.inputs`` with the action's folder on PYTHONPATH, run by the runner's own
Python (or setup-python's) before the venv and pip: the inputs are read as the run reads them
(sitemill.github.settings needs nothing but the standard library and sitemill's own sources),
so a mistake is one ``::error::`` line and a failed step within a second, not after the install.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from sitemill.config.model import env_name
from sitemill.errors import SitemillError
from sitemill.github.commands import append_to, mask_secret, workflow_command
from sitemill.github.settings import read_inputs
from sitemill.github.summary import render_failure


def main() -> int:
    env = os.environ
    sys.stdout.writelines(mask_secret(env.get(env_name("indexnow_key"), "")))
    try:
        settings = read_inputs(env, Path.cwd())
    except SitemillError as exc:
        print(workflow_command("error", str(exc), title="sitemill"))
        append_to(env.get("GITHUB_STEP_SUMMARY"), render_failure(str(exc)))
        return 1
    sys.stdout.writelines(mask_secret(settings.config.indexnow_key))  # (a sitemill.toml's)
    return 0


if __name__ == "__main__":
    sys.exit(main())
