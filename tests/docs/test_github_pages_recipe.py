"""docs/github-pages.md: the workflow users copy parses, builds then runs sitemill then uploads
and deploys, and its sitemill step uses only the Action's inputs, as the recipe needs them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "github-pages.md"
_YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def workflow() -> dict[Any, Any]:
    (block,) = _YAML_BLOCK.findall(PAGE.read_text(encoding="utf-8"))
    data = yaml.safe_load(block)
    assert isinstance(data, dict)
    return data


def action_inputs() -> dict[str, Any]:
    inputs = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["inputs"]
    assert isinstance(inputs, dict)
    return inputs


def uses(item: dict[str, Any]) -> str:
    return str(item.get("uses", ""))


def is_sitemill(item: dict[str, Any]) -> bool:
    """A step that uses the action (the docs' OWNER/sitemill, until the repository is named)."""
    return re.fullmatch(r"[\w.-]+/sitemill@v\d+", uses(item)) is not None


def test_the_build_job_checks_out_builds_runs_sitemill_then_uploads() -> None:
    build = workflow()["jobs"]["build"]["steps"]
    checkout, *_ = build
    assert uses(checkout).startswith("actions/checkout@")
    assert "with" not in checkout  # shallow, as the starter workflows leave it: deepened
    (generator,) = [item for item in build if "mkdocs build" in item.get("run", "")]
    (sitemill,) = [item for item in build if is_sitemill(item)]
    (upload,) = [item for item in build if uses(item).startswith("actions/upload-pages-artifact@")]
    assert build.index(checkout) < build.index(generator) < build.index(sitemill)
    assert build.index(sitemill) < build.index(upload)
    assert upload["with"]["path"] == sitemill["with"]["path"] == "site"  # MkDocs' site_dir


def test_the_sitemill_step_uses_only_the_actions_inputs_and_publishes_its_state() -> None:
    build = workflow()["jobs"]["build"]["steps"]
    (sitemill,) = [item for item in build if is_sitemill(item)]
    inputs = action_inputs()
    assert set(sitemill["with"]) <= set(inputs)
    assert sitemill["with"]["commit"] is False
    assert sitemill["with"]["base-url"] == "${{ steps.pages.outputs.base_url }}/"
    # The state stays beside the sitemaps (deployed with the site) and the next run reads it
    # back from the live site: both inputs are left at those defaults, and deepening is on.
    for name in ("state", "previous-state", "deepen", "content-dates", "lastmod"):
        assert name in inputs
        assert name not in sitemill["with"]
    assert "<base-url>sitemill-state.json.gz" in inputs["previous-state"]["description"]


def test_the_deploy_job_deploys_the_artifact_with_the_pages_permissions() -> None:
    data = workflow()
    assert data["permissions"] == {"contents": "read"}
    deploy = data["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    (step,) = deploy["steps"]
    assert uses(step).startswith("actions/deploy-pages@")


def test_the_readme_and_the_docs_index_link_the_recipe() -> None:
    assert "](docs/github-pages.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](github-pages.md)" in (ROOT / "docs" / "README.md").read_text(encoding="utf-8")


def test_the_check_job_checks_the_deployed_artifact_after_the_deploy() -> None:
    data = workflow()
    check = data["jobs"]["check"]
    assert set(check["needs"]) == {"build", "deploy"}
    download, unpack, sitemill = check["steps"]
    assert uses(download).startswith("actions/download-artifact@")
    assert download["with"]["name"] == "github-pages"  # (what upload-pages-artifact names it)
    assert "tar -xf artifact.tar -C site" in unpack["run"]
    assert is_sitemill(sitemill)
    assert sitemill["with"]["command"] == "check" and sitemill["with"]["path"] == "site"
    assert sitemill["with"]["commit"] is False
    assert set(sitemill["with"]) <= set(action_inputs())
    outputs = data["jobs"]["build"]["outputs"]
    assert outputs["base_url"] == "${{ steps.pages.outputs.base_url }}"
    assert sitemill["with"]["base-url"] == "${{ needs.build.outputs.base_url }}/"
