"""What a release publishes: an sdist and a wheel made by `python -m build` (the wheel built
from the sdist, as the build frontend does), the version written once, metadata a package
index shows, and a wheel that works installed where no source tree is."""

from __future__ import annotations

import email
import hashlib
import os
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

from sitemill.version import __version__

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The source tree as a clean checkout has it: builds write beside their sources (a
    build/ folder left in a working tree would add the modules of an older build to a wheel;
    a release builds from a clean checkout), and other tests build from the repository."""
    copy = tmp_path_factory.mktemp("tree")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True, capture_output=True, cwd=ROOT,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            (copy / name).write_bytes((ROOT / name).read_bytes())
    return copy


@pytest.fixture(scope="module")
def dist(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel, built offline (no isolation: the dev extra has setuptools)."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(tree)],
        check=True,
        capture_output=True,
        cwd=out,
    )
    return out


def wheel_of(dist: Path) -> Path:
    (wheel,) = dist.glob("sitemill-*.whl")
    return wheel


def metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        name = f"sitemill-{__version__}.dist-info/METADATA"
        return email.message_from_bytes(archive.read(name))


def test_the_version_is_written_once_and_read_by_the_build(dist: Path) -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject and '\nversion = "' not in pyproject
    assert 'version = { attr = "sitemill.version.__version__" }' in pyproject
    assert {path.name for path in dist.iterdir()} == {
        f"sitemill-{__version__}.tar.gz",
        f"sitemill-{__version__}-py3-none-any.whl",
    }
    assert metadata(wheel_of(dist))["Version"] == __version__


def test_the_metadata_is_what_a_package_index_shows(dist: Path) -> None:
    found = metadata(wheel_of(dist))
    assert found["Requires-Python"] == ">=3.11"
    assert found["License-Expression"] == "MIT"
    assert set(found.get_all("Provides-Extra") or []) >= {"s3", "validate"}
    assert found["Description-Content-Type"] == "text/markdown"
    assert found.get_payload().startswith("# sitemill")  # (the README, rendered by the index)
    classifiers = found.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers
    assert "Programming Language :: Python :: 3.13" in classifiers
    assert len(found["Summary"]) <= 200


def test_the_sdist_holds_what_the_wheel_is_built_from(dist: Path) -> None:
    (sdist,) = dist.glob("sitemill-*.tar.gz")
    top = f"sitemill-{__version__}/"
    with tarfile.open(sdist) as archive:
        names = {name.removeprefix(top) for name in archive.getnames()}
    templates = {f"templates/{path.name}" for path in (ROOT / "templates").glob("*.j2")}
    assert {"pyproject.toml", "setup.py", "README.md", "src/sitemill/py.typed"} <= names
    assert templates <= names
    assert {
        f"src/sitemill/schemas/{p.name}" for p in (ROOT / "src/sitemill/schemas").glob("*.xsd")
    } <= names


def test_the_wheel_from_the_sdist_is_the_wheel_from_the_tree(
    dist: Path, tree: Path, tmp_path: Path
) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(tree)],
        check=True, capture_output=True, cwd=tmp_path,
    )  # fmt: skip
    assert contents(wheel_of(tmp_path)) == contents(wheel_of(dist))


def contents(wheel: Path) -> dict[str, str]:
    """Each file's SHA-256 but the record of them (which names the build's own hashes)."""
    with zipfile.ZipFile(wheel) as archive:
        return {
            name: hashlib.sha256(archive.read(name)).hexdigest()
            for name in archive.namelist()
            if not name.endswith("/RECORD")
        }


def test_the_wheel_works_installed_where_no_source_tree_is(dist: Path, tmp_path: Path) -> None:
    """A fresh venv with the wheel alone; its one dependency (Jinja2) comes from this
    environment's site-packages, read as a plain folder: the editable install of the source
    tree there is a .pth file of its own, which a plain folder on sys.path does not run."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    fresh = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
    )  # fmt: skip
    with zipfile.ZipFile(wheel_of(dist)) as archive:
        archive.extractall(fresh)
    (fresh / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    out, cwd = tmp_path / "out", tmp_path / "elsewhere"
    cwd.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    code = "import sitemill, sys; print(sitemill.__file__); sys.exit(sitemill.cli.main())"
    done = subprocess.run(
        [str(python), "-I", "-c", "import sitemill.cli; " + code, "build",
         str(ROOT / "examples" / "site"), "--config", str(ROOT / "examples" / "sitemill.toml"),
         "--out", str(out), "-q"],
        capture_output=True, text=True, cwd=cwd, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith(str(fresh))  # (the wheel's, not the tree's)
    assert (out / "sitemap.xml").read_text(encoding="utf-8").startswith("<?xml")
