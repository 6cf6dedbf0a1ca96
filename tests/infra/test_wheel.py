"""The wheel that action.yml installs holds every module of src/sitemill, the templates and
the schemas: a package forgotten in the build configuration fails here, not in a user's run."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from scriptmodule import load_script

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "sitemill"
# Without build isolation: the dev extra brings setuptools, so no download is needed.
PIP_WHEEL = (sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q")


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    out = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("build")
    subprocess.run(
        [*PIP_WHEEL, "-w", str(out), str(ROOT)],
        check=True,
        cwd=build,
        capture_output=True,
    )
    (wheel,) = out.glob("sitemill-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def test_every_module_of_the_package_is_in_the_wheel(wheel_names: set[str]) -> None:
    modules = {
        "sitemill/" + path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert len(modules) > 50
    assert sorted(modules - wheel_names) == []


def test_templates_schemas_and_type_marker_are_in_the_wheel(wheel_names: set[str]) -> None:
    templates = {f"sitemill/templates/{path.name}" for path in (ROOT / "templates").glob("*.j2")}
    schemas = {
        f"sitemill/schemas/{path.name}"
        for path in (PACKAGE / "schemas").iterdir()
        if path.suffix in (".xsd", ".xml") or path.name == "SOURCES.md"
    }
    assert templates and schemas
    assert sorted((templates | schemas | {"sitemill/py.typed"}) - wheel_names) == []


def test_the_wheel_holds_nothing_but_the_package(wheel_names: set[str]) -> None:
    tops = {name.split("/")[0] for name in wheel_names}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"sitemill"}


def test_the_action_s_copy_of_the_sources_is_the_wheel_s_package(
    wheel_names: set[str], tmp_path: Path
) -> None:
    """action/install.py lays the sources out as the build does, without building: the same
    files, the templates folder inside the package."""
    install = load_script(ROOT / "action" / "install.py", "action_install")
    install.copy_package(tmp_path)
    files = [path for path in tmp_path.rglob("*") if path.is_file()]
    copied = {path.relative_to(tmp_path).as_posix() for path in files}
    packaged = {name for name in wheel_names if not name.split("/")[0].endswith(".dist-info")}
    assert sorted(copied ^ packaged) == []
