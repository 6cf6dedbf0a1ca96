"""Every step of action.yml, in order, as a runner plays them (tests/actionsteps.py): the probe,
the input check, the cache's key, its restore, the install, its save and the run, wired by
their outputs. Offline: a warm job (the cache service holds what a cold job saved) installs
nothing; with no index and no cache, the job stops at the install with one error line."""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2
import markupsafe
import pytest

from actionsteps import ROOT, Runner, play
from scriptmodule import load_script

install = load_script(ROOT / "action" / "install.py", "action_install")
OFFLINE = {"PIP_NO_INDEX": "1"}  # a step that tried to download would fail


def stocked(service: Path) -> Path:
    """The cache service holding what a cold job saved: the lock's packages (here this
    environment's own jinja2 and markupsafe) and the marker, under the key a runner asks for."""
    saved: Path = service / install.cache_key()
    for module in (jinja2, markupsafe):
        shutil.copytree(Path(str(module.__file__)).parent, saved / module.__name__)
    (saved / install.MARKER).write_text(install.lock_digest() + "\n", encoding="ascii")
    return saved


def failed(service: Path, **inputs: str) -> tuple[str, Runner]:
    with pytest.raises(RuntimeError) as caught:
        play(service, OFFLINE, inputs={"base-url": "https://www.example.com/", **inputs})
    message, runner = caught.value.args
    shutil.rmtree(runner.scratch)
    return message, runner


def test_a_warm_job_restores_installs_nothing_and_builds(tmp_path: Path) -> None:
    stocked(tmp_path)
    runner = play(tmp_path, OFFLINE)
    try:
        assert runner.outputs["deps"]["key"] == install.cache_key()
        assert runner.outputs["deps-cache"] == {"cache-hit": "true"}
        assert "deps-save" not in runner.outputs  # (saved on a miss only)
        assert any("sitemill: dependencies from the cache" in text for text in runner.log)
        run = runner.outputs["run"]
        assert run["sitemap"] == "site/sitemap.xml" and run["changed"] == "true"
        sitemap = (runner.scratch / "workspace" / "site" / "sitemap.xml").read_text()
        assert sitemap.count("<loc>") == int(run["url-count"]) > 0
    finally:
        shutil.rmtree(runner.scratch)


def test_a_cold_job_without_an_index_stops_at_the_install_in_one_line(tmp_path: Path) -> None:
    message, runner = failed(tmp_path, path="site", commit="false")
    assert message.startswith("step install failed")
    assert runner.outputs["deps-cache"] == {"cache-hit": "false"}
    (line,) = [text for text in runner.log[-1].splitlines() if text.startswith("::error")]
    assert "could not install the action's dependencies" in line
    assert "Traceback" not in runner.log[-1]
    assert list(tmp_path.iterdir()) == []  # nothing saved for a later job


def test_a_mistaken_input_stops_the_job_before_the_cache_and_the_install(tmp_path: Path) -> None:
    stocked(tmp_path)
    message, runner = failed(tmp_path, path="site", format="html")
    assert message.startswith("step inputs failed") and "format" in message
    assert set(runner.outputs) == {"probe"}  # (setup-python skipped; nothing after the check)
