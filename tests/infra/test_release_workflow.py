"""The release workflow (.github/workflows/release.yml) and the script it shares with `make
release-check` (infra/release_files.py): every action pinned by commit, the least permissions,
the index reached by trusted publishing, the release's files, notes and sums made one way."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from scriptmodule import load_script
from sitemill.version import __version__

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
PINNED = re.compile(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}")


release = load_script(ROOT / "infra" / "release_files.py", "release_files")


@pytest.fixture(scope="module")
def workflow() -> dict[Any, Any]:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def steps(workflow: dict[Any, Any]) -> list[dict[str, Any]]:
    return [step for job in workflow["jobs"].values() for step in job["steps"]]


def test_it_runs_on_a_version_tag_only(workflow: dict[Any, Any]) -> None:
    assert workflow[True] == {"push": {"tags": ["v*.*.*"]}}  # (YAML reads "on" as True)


def test_every_action_is_pinned_by_commit_with_its_release_named() -> None:
    lines = [line for line in WORKFLOW.read_text().splitlines() if "uses:" in line]
    assert lines
    for line in lines:
        target = line.split("uses:", 1)[1].split("#", 1)[0].strip()
        assert PINNED.fullmatch(target), line
        assert re.search(r"# v\d+(\.\d+)*$", line), line


def test_the_jobs_run_in_order_with_the_least_permissions(workflow: dict[Any, Any]) -> None:
    jobs = workflow["jobs"]
    assert workflow["permissions"] == {"contents": "read"}
    assert [jobs[name].get("needs") for name in jobs] == [
        None, "test", "files", "package-index",
    ]  # fmt: skip
    granted = {name: job.get("permissions") for name, job in jobs.items() if "permissions" in job}
    assert granted == {
        "package-index": {"id-token": "write"},  # trusted publishing: no stored token
        "github-release": {"contents": "write"},
    }
    assert "secrets." not in WORKFLOW.read_text()


def test_the_files_are_made_and_checked_as_make_release_check_makes_them(
    workflow: dict[Any, Any],
) -> None:
    runs = [step.get("run", "") for step in steps(workflow)]
    assert (
        'python infra/release_files.py dist/release --tag "$TAG" --repository "$REPOSITORY" --check'
        in runs
    )
    makefile = (ROOT / "Makefile").read_text()
    assert "infra/release_files.py dist/release --check" in makefile
    notes = next(run for run in runs if "--notes" in run)
    assert "gh release create" in notes and "--verify-tag" in notes
    assert any('git push --force origin "refs/tags/$major"' in run for run in runs)
    for step in steps(workflow):  # (the tag reaches a script through env only)
        assert "${{" not in step.get("run", ""), step


def test_the_release_notes_are_the_changelog_s_section() -> None:
    changelog = (
        "# Changelog\n\n## [Unreleased]\n\n- next\n\n"
        "## [1.2.0] - 2026-12-01\n\n- a\n- b\n\n## [1.1.0] - 2026-11-01\n\n- old\n"
    )
    assert release.release_notes(changelog, "v1.2.0") == "- a\n- b\n"
    assert release.release_notes(changelog, "v1.1.0") == "- old\n"
    with pytest.raises(release.ReleaseError, match="no section"):
        release.release_notes(changelog, "v9.0.0")
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "\n## [Unreleased]\n" in text  # (Keep a Changelog: the next release's section)


def test_the_tag_must_name_this_version() -> None:
    release.check_tag(f"v{__version__}")
    with pytest.raises(release.ReleaseError, match="not this version"):
        release.check_tag("v0.0.0-not")


def test_the_stack_template_of_a_release_names_the_zip_beside_it() -> None:
    template = (ROOT / "infra" / "template.yaml").read_text(encoding="utf-8")
    found = release.release_template(template)
    assert "../dist/" not in found
    assert found.count("CodeUri: sitemill-lambda.zip") == template.count(release.CODE_URI) >= 5
    with pytest.raises(release.ReleaseError):
        release.release_template("Resources: {}\n")


def test_the_sums_are_sha256sum_s_lines(tmp_path: Path) -> None:
    (tmp_path / "b.whl").write_bytes(b"wheel")
    (tmp_path / "a.tar.gz").write_bytes(b"sdist")
    (tmp_path / "SHA256SUMS").write_text("old")
    digest = {
        name: hashlib.sha256(data).hexdigest()
        for name, data in (("a.tar.gz", b"sdist"), ("b.whl", b"wheel"))
    }
    assert (
        release.checksums(tmp_path) == f"{digest['a.tar.gz']}  a.tar.gz\n{digest['b.whl']}  b.whl\n"
    )


def test_only_an_earlier_run_s_files_are_ever_removed(tmp_path: Path) -> None:
    files, out = tmp_path / "files", tmp_path / "release"
    files.mkdir()
    out.mkdir()
    for name in ("sitemill-0.1.0.tar.gz", "sitemill-lambda.zip", "SHA256SUMS"):
        (files / name).write_text("old")
    release.publish(files, out)  # (an earlier run's, with its record)
    release.emptied(out)
    assert list(out.iterdir()) == []
    release.publish(files, out)
    (out / "notes.txt").write_text("the user's")
    with pytest.raises(release.ReleaseError, match=r"notes\.txt"):
        release.emptied(out)
    assert sorted(path.name for path in out.iterdir()) == sorted(
        [release.RECORD_NAME, "notes.txt", "SHA256SUMS", "sitemill-0.1.0.tar.gz",
         "sitemill-lambda.zip"]
    )  # fmt: skip
