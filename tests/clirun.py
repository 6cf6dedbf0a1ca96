"""Run the installed `sitemill` command as a user would, without the caller's SITEMILL_* env."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SITEMILL = str(Path(sys.executable).parent / "sitemill")


def run_sitemill(
    *args: str,
    cwd: Path | None = None,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 60,  # a FIFO or an endless file must fail the test, not hang it
) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("SITEMILL_")}
    full_env.update(env or {})
    return subprocess.run(
        [SITEMILL, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
        check=False,
    )
