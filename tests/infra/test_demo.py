"""`make demo` keeps working: the README's first command runs the bundled example end to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_runs_and_shows_every_output() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "demo.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=1200,  # only a hang reaches it: a loaded machine took over 120 s
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "--- examples/out/sitemap.xml" in done.stdout
    assert "--- examples/out/sitemill-state.json.gz" in done.stdout
    # The state in a few lines, not a dump of it (issue 41: 60 lines of JSON).
    state = done.stdout.split("--- examples/out/sitemill-state.json.gz\n", 1)[1]
    state = state.split("\n\n", 1)[0].splitlines()
    assert state[0].startswith("the state, ") and "bytes gzipped (sitemill-state 1)" in state[0]
    assert state[1] == "  pages: 8, each with the fingerprint of its content and its lastmod"
    assert len(state) <= 6 and '"fingerprint": ' in state[2]
    # A change to a copy of the site: what it removes, and the redirect to add (issue 66).
    assert "  renamed     /docs/guide.html -> /docs/guides/guide.html" in done.stdout
    assert "  gone        /about.html  (no redirect, no page with its content)" in done.stdout
    assert "/docs/guide.html  /docs/guides/guide.html  301" in done.stdout
    assert not (ROOT / "examples" / "out" / "changed-site").exists()


def test_the_venv_that_make_demo_sets_up_hides_setuptools_editable_banner() -> None:
    """`make demo` on a fresh clone installs the project editable first; setuptools' banner of
    stars ("Editable installation. ... Please be careful with folders ...") is hidden by the
    filter the Makefile's install runs under (issue 82), and only that warning."""
    makefile = (ROOT / "Makefile").read_text()
    (setting,) = [line for line in makefile.splitlines() if line.startswith("EDITABLE_QUIET :=")]
    name, _, value = setting.removeprefix("EDITABLE_QUIET :=").strip().partition("=")
    assert "$(EDITABLE_QUIET) $(BIN)/pip install --quiet -e '.[dev]'" in makefile
    # setuptools.command.editable_wheel's message, emitted as setuptools emits it.
    emit = (
        "import warnings\n"
        "class InformationOnly(UserWarning): pass\n"
        "warnings.warn('Editable installation.\\n!!\\n  Please be careful with folders', "
        "InformationOnly)\n"
        "warnings.warn('another warning', InformationOnly)\n"
    )
    env = {"PATH": "/usr/bin:/bin", name: value.strip('"')}
    done = subprocess.run(
        [sys.executable, "-c", emit], capture_output=True, text=True, env=env, check=True
    )
    assert "Editable installation" not in done.stderr
    assert "another warning" in done.stderr
