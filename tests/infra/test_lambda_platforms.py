"""The Lambda zip's wheels: any manylinux tag the runtime's glibc runs (Amazon Linux 2023,
glibc 2.34, under python3.12 and 3.13), from manylinux2014 to manylinux_2_34, is installed;
a newer one is refused. Real pip, offline: hand-made wheels in a local folder."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_lambda_zip_platforms", ROOT / "infra" / "build_lambda_zip.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


build = _load()


def make_wheel(folder: Path, platform: str) -> Path:
    """A minimal wheel of ``nativedemo`` 1.0 for CPython 3.12 on ``platform``."""
    name = f"nativedemo-1.0-cp312-cp312-{platform}.whl"
    files = {
        "nativedemo/__init__.py": b"VALUE = 1\n",
        "nativedemo-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: nativedemo\n"
        b"Version: 1.0\n",
        "nativedemo-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\n"
        b"Root-Is-Purelib: false\nTag: cp312-cp312-" + platform.encode() + b"\n",
    }
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append("nativedemo-1.0.dist-info/RECORD,,")
    files["nativedemo-1.0.dist-info/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = folder / name
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)
    return wheel


def pinned(folder: Path, wheel: Path) -> Path:
    requirements = folder / "requirements.txt"
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    requirements.write_text(f"nativedemo==1.0 --hash=sha256:{digest}\n")
    return requirements


def test_the_platforms_run_from_manylinux2014_to_the_runtimes_glibc() -> None:
    assert build.GLIBC == (2, 34)
    assert build.PLATFORMS[0] == "manylinux_2_34_aarch64"
    assert "manylinux_2_28_aarch64" in build.PLATFORMS
    assert build.PLATFORMS[-1] == "manylinux2014_aarch64"
    assert not any("2_35" in platform or "x86_64" in platform for platform in build.PLATFORMS)


@pytest.mark.parametrize(
    "platform", ["manylinux_2_28_aarch64", "manylinux_2_34_aarch64", "manylinux2014_aarch64"]
)
def test_a_wheel_the_runtime_runs_is_installed(tmp_path: Path, platform: str) -> None:
    cache, target = tmp_path / "cache", tmp_path / "target"
    cache.mkdir()
    wheel = make_wheel(cache, platform)
    build.install_wheels(pinned(tmp_path, wheel), cache, target)
    assert (target / "nativedemo" / "__init__.py").read_bytes() == b"VALUE = 1\n"


@pytest.mark.parametrize("platform", ["manylinux_2_35_aarch64", "manylinux_2_28_x86_64"])
def test_a_wheel_the_runtime_cannot_run_is_refused(tmp_path: Path, platform: str) -> None:
    cache, target = tmp_path / "cache", tmp_path / "target"
    cache.mkdir()
    wheel = make_wheel(cache, platform)
    with pytest.raises(build.BuildError, match="pip install failed"):
        build.install_wheels(pinned(tmp_path, wheel), cache, target)
    assert not (target / "nativedemo").exists()
