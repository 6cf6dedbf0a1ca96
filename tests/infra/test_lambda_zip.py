"""The Lambda zip: built reproducibly, complete, and working when run on its own against moto."""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path
from typing import Any

import pytest

from enginestand import KEY, Stand
from scriptmodule import load_script

pytestmark = pytest.mark.heavy  # (run first: tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
BUILD_SCRIPT = ROOT / "infra" / "build_lambda_zip.py"
MAX_ZIP_BYTES = 5 * 1024 * 1024
# What a build reads: copied once, so that the tests build from one consistent snapshot.
SOURCES = ("lambda/handler.py", "src/sitemill", "templates", "infra/lambda-requirements.txt")


build_lambda_zip = load_script(BUILD_SCRIPT, "build_lambda_zip")
infra = load_script(Path(__file__).with_name("test_infra.py"), "sitemill_test_infra")


def copy_sources(destination: Path) -> Path:
    for source in SOURCES:
        origin, target = ROOT / source, destination / source
        target.parent.mkdir(parents=True, exist_ok=True)
        if origin.is_dir():
            shutil.copytree(origin, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(origin, target)
    return destination


def run_build(root: Path, output: Path, wheel_cache: Path) -> Path:
    """Run the packaging script as `make lambda-zip` does; fail (never skip) when it fails.
    With the runtime's Python when this machine has one, else explicitly without bytecode."""
    command = [sys.executable, str(BUILD_SCRIPT), "--root", str(root), "--output", str(output)]
    python = build_lambda_zip.bytecode_python(None)
    command += ["--python", python] if python else ["--no-bytecode"]
    completed = subprocess.run(
        [*command, "--wheel-cache", str(wheel_cache)],
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        pytest.fail(
            "building the Lambda zip failed; it needs pip to reach the package index once per"
            f" test run for the aarch64 wheels:\n{completed.stdout}{completed.stderr}",
            pytrace=False,
        )
    return output


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="session")
def wheel_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One download of the pinned wheels per test run, shared by every build."""
    return tmp_path_factory.mktemp("lambda-wheels")


@pytest.fixture(scope="session")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_sources(tmp_path_factory.mktemp("sources"))


@pytest.fixture(scope="session")
def lambda_zip(tmp_path_factory: pytest.TempPathFactory, sources: Path, wheel_cache: Path) -> Path:
    output = tmp_path_factory.mktemp("dist") / "sitemill-lambda.zip"
    return run_build(sources, output, wheel_cache)


@pytest.fixture(scope="session")
def unpacked(tmp_path_factory: pytest.TempPathFactory, lambda_zip: Path) -> Path:
    folder = tmp_path_factory.mktemp("unpacked")
    with zipfile.ZipFile(lambda_zip) as archive:
        archive.extractall(folder)
    return folder


# --- the archive -------------------------------------------------------------------------


def test_same_sources_give_the_same_bytes(
    tmp_path: Path, sources: Path, lambda_zip: Path, wheel_cache: Path
) -> None:
    # A second checkout: other mtimes and modes, and a fresh pip install of the wheels.
    again = copy_sources(tmp_path / "again")
    for path in sorted(again.rglob("*")):
        if path.is_file():
            path.chmod(0o600)
            os.utime(path, (2_000_000_000, 2_000_000_000))
    rebuilt = run_build(again, tmp_path / "out" / "sitemill-lambda.zip", wheel_cache)
    assert sha256(rebuilt) == sha256(lambda_zip)


def test_zip_holds_handler_package_templates_and_dependencies(lambda_zip: Path) -> None:
    with zipfile.ZipFile(lambda_zip) as archive:
        names = archive.namelist()
    assert names == sorted(names)
    assert "handler.py" in names
    assert {
        "sitemill/__init__.py",
        "sitemill/aws/__init__.py",
        "sitemill/aws/handler.py",
        "sitemill/render/environment.py",
        "sitemill/sinks/s3.py",
        "sitemill/jobs/bucket.py",
        "sitemill/jobs/bucketpass.py",
        "sitemill/jobs/bucketsite.py",
    } <= set(names)
    # The front-ends the function never runs stay out.
    assert not [
        name
        for name in names
        if name.startswith(("sitemill/cli/", "sitemill/github/", "sitemill/validate/"))
    ]
    templates = {  # (and the bytecode of its __init__.py, when built with it)
        name
        for name in names
        if name.startswith("sitemill/templates/") and "__pycache__" not in name
    }
    expected = {f"sitemill/templates/{path.name}" for path in (ROOT / "templates").glob("*.j2")}
    assert expected and expected | {"sitemill/templates/__init__.py"} == templates
    assert "jinja2/__init__.py" in names and "markupsafe/__init__.py" in names
    # Built for the function (python3.12 on arm64), not for this machine.
    assert "markupsafe/_speedups.cpython-312-aarch64-linux-gnu.so" in names


def test_zip_leaves_out_what_lambda_does_not_need(lambda_zip: Path) -> None:
    with zipfile.ZipFile(lambda_zip) as archive:
        names = archive.namelist()
    tops = {name.split("/")[0] for name in names}
    assert not tops & {"boto3", "botocore", "s3transfer", "bin"}  # the runtime has boto3
    # Bytecode only for the runtime's Python, one per module, and none when this machine has
    # no such interpreter (the build says so): never a stray cache of the build machine's.
    tag = "cpython-" + build_lambda_zip.PYTHON_VERSION.replace(".", "")
    cached = [name for name in names if "__pycache__" in name or name.endswith((".pyc", ".pyo"))]
    modules = [name for name in names if name.endswith(".py")]
    if build_lambda_zip.bytecode_python(None) is None:
        assert not cached
    else:
        assert sorted(cached) == sorted(cached_name(name, tag) for name in modules)


def cached_name(module: str, tag: str) -> str:
    """Where the bytecode of ``module`` (an archive name) sits, for the interpreter ``tag``."""
    folder, _, file = module.rpartition("/")
    return f"{folder}/__pycache__/{file[:-3]}.{tag}.pyc".lstrip("/")


def test_the_readmes_zip_size_is_the_built_zips(lambda_zip: Path) -> None:
    """README's `make lambda-zip` line says the zip's size, with bytecode and without; the
    figure of the zip built here is within 10 % of its size (issue 82: the figure was stale)."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = readme[readme.index("make lambda-zip   #") :].split("\n\n", 1)[0]
    with_bytecode, without = (float(mb) for mb in re.findall(r"([0-9.]+) MB", line))
    with zipfile.ZipFile(lambda_zip) as archive:
        compiled = any(name.endswith(".pyc") for name in archive.namelist())
    said = (with_bytecode if compiled else without) * 1_000_000
    assert abs(lambda_zip.stat().st_size - said) <= said / 10, (lambda_zip.stat().st_size, line)


def test_zip_entries_have_fixed_times_and_modes(lambda_zip: Path) -> None:
    assert lambda_zip.stat().st_size < MAX_ZIP_BYTES
    with zipfile.ZipFile(lambda_zip) as archive:
        for info in archive.infolist():
            assert info.date_time == (1980, 1, 1, 0, 0, 0), info.filename
            assert info.external_attr >> 16 == 0o100644, info.filename
            assert info.compress_type == zipfile.ZIP_DEFLATED, info.filename


def test_oversized_zip_fails_loudly_and_leaves_nothing(tmp_path: Path) -> None:
    page = tmp_path / "big.bin"
    page.write_bytes(os.urandom(4096))  # random bytes do not compress
    output = tmp_path / "dist" / "sitemill-lambda.zip"
    with pytest.raises(build_lambda_zip.BuildError, match="over the 1,000-byte budget"):
        build_lambda_zip.write_zip({"big.bin": page}, output, max_bytes=1_000)
    assert list(output.parent.iterdir()) == []


def test_unreachable_index_fails_the_build_with_a_clear_message(
    tmp_path: Path, sources: Path
) -> None:
    offline = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    offline |= {
        "PIP_CONFIG_FILE": os.devnull,  # no site-wide find-links or extra indexes
        "PIP_INDEX_URL": "http://127.0.0.1:9/simple",  # the discard port: refused at once
        "PIP_RETRIES": "0",
        "PIP_TIMEOUT": "2",
    }
    command = [sys.executable, str(BUILD_SCRIPT), "--root", str(sources), "--no-bytecode"]
    command += ["--output", str(tmp_path / "out.zip"), "--wheel-cache", str(tmp_path / "wheels")]
    completed = subprocess.run(
        command, capture_output=True, text=True, check=False, env=offline, timeout=120
    )
    assert completed.returncode == 1
    assert "error: pip download (needs access to the package index) failed" in completed.stderr
    assert not (tmp_path / "out.zip").exists()


def test_missing_handler_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(build_lambda_zip.BuildError, match=r"lambda/handler\.py not found"):
        build_lambda_zip.collect_sources(tmp_path)


def test_default_build_reads_this_checkout() -> None:
    files = build_lambda_zip.collect_sources(build_lambda_zip.ROOT)
    assert files["handler.py"] == ROOT / "lambda" / "handler.py"
    assert files["sitemill/templates/urlset.xml.j2"] == ROOT / "templates" / "urlset.xml.j2"


# --- bytecode ----------------------------------------------------------------------------

# Counts the modules the importing interpreter had to compile from source: the handler's and a
# rebuild's (an entry imports its event's path when the event comes).
COMPILES = textwrap.dedent(
    """
    import importlib._bootstrap_external as external, json, sys
    compiled = []
    original = external.SourceLoader.source_to_code
    def counted(self, data, path, *, _optimize=-1):
        compiled.append(path)
        return original(self, data, path, _optimize=_optimize)
    external.SourceLoader.source_to_code = counted
    sys.path.insert(0, sys.argv[1])
    import handler, sitemill.aws.rebuild, sitemill.version
    print(json.dumps({"compiled": compiled, "marker": getattr(sitemill.version, "MARKER", None)}))
    """
)


def import_unpacked(folder: Path) -> dict[str, Any]:
    """Import the handler from ``folder`` in a fresh interpreter that writes no bytecode."""
    completed = subprocess.run(
        [sys.executable, "-I", "-B", "-c", COMPILES, str(folder)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    found: dict[str, Any] = json.loads(completed.stdout.splitlines()[-1])
    return found


def test_the_build_wants_the_runtimes_python_for_bytecode() -> None:
    # Bytecode loads only in the version that wrote it: another one, asked for, is an error.
    here = f"{sys.version_info[0]}.{sys.version_info[1]}"
    if here == build_lambda_zip.PYTHON_VERSION:
        assert build_lambda_zip.bytecode_python(sys.executable) == sys.executable
    else:
        with pytest.raises(build_lambda_zip.BuildError, match=r"is not Python 3\.12"):
            build_lambda_zip.bytecode_python(sys.executable)
    with pytest.raises(build_lambda_zip.BuildError, match="is not Python"):
        build_lambda_zip.bytecode_python(str(Path(sys.executable).parent / "no-such-python"))


def fake_python(folder: Path, version: str | None) -> Path:
    """An executable ``python3.12`` in ``folder`` that says it is ``version`` (None: fails)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"python{build_lambda_zip.PYTHON_VERSION}"
    path.write_text("#!/bin/sh\n" + (f"echo {version}\n" if version else "exit 1\n"))
    path.chmod(0o755)
    return path


@pytest.mark.parametrize("given", ["found on PATH", "LAMBDA_PYTHON", "--python"])
def test_a_build_without_the_runtimes_python_says_how_in_one_line_and_writes_no_zip(
    tmp_path: Path, sources: Path, given: str
) -> None:
    # Bytecode of another Python does not load in the runtime's: rather than ship a zip that
    # compiles every module at every cold start, the build stops before any download.
    here = "{}.{}".format(*sys.version_info[:2])
    if given == "found on PATH" and here == build_lambda_zip.PYTHON_VERSION:
        pytest.skip("this Python is the runtime's: the build uses it")
    fake = fake_python(tmp_path / "bin", None if given == "found on PATH" else "3.11")
    env = {key: value for key, value in os.environ.items() if key != "LAMBDA_PYTHON"}
    env["PATH"] = f"{fake.parent}{os.pathsep}{env.get('PATH', '')}"
    output, wheels = tmp_path / "out" / "sitemill-lambda.zip", tmp_path / "wheels"
    command = [sys.executable, str(BUILD_SCRIPT), "--root", str(sources), "--output", str(output)]
    command += ["--wheel-cache", str(wheels)]
    if given == "LAMBDA_PYTHON":
        env["LAMBDA_PYTHON"] = str(fake)
    elif given == "--python":
        command += ["--python", str(fake)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    if given == "found on PATH":
        assert line.startswith("build_lambda_zip: error: no Python 3.12 (the function's runtime)")
        assert "(python3.12 on PATH: does not run; this Python: " in line
        assert "make lambda-zip LAMBDA_PYTHON=/path/to/python3.12" in line
        assert "make lambda-zip NO_BYTECODE=1` (--no-bytecode)" in line
    else:
        assert line == f"build_lambda_zip: error: --python {fake} is not Python 3.12 (the runtime)"
    assert done.stdout == ""
    assert not output.parent.exists() and not wheels.exists()


def test_bytecode_is_loaded_instead_of_compiling_and_follows_edits(
    tmp_path: Path, unpacked: Path
) -> None:
    folder = tmp_path / "task"
    shutil.copytree(unpacked, folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    # Without bytecode (/var/task is read-only), every module is compiled at each cold start.
    assert len(import_unpacked(folder)["compiled"]) > 50
    sources = {path.relative_to(folder).as_posix(): path for path in folder.rglob("*.py")}
    made = build_lambda_zip.compile_bytecode(sources, sys.executable, folder)
    tag = sys.implementation.cache_tag
    assert f"sitemill/__pycache__/pipeline.{tag}.pyc" in made
    assert f"__pycache__/handler.{tag}.pyc" in made
    assert len(made) == len(sources)
    first = {name: path.read_bytes() for name, path in made.items()}
    again = build_lambda_zip.compile_bytecode(sources, sys.executable, tmp_path / "again")
    assert {name: path.read_bytes() for name, path in again.items()} == first  # reproducible
    pyc = first[f"sitemill/__pycache__/pipeline.{tag}.pyc"]
    assert int.from_bytes(pyc[4:8], "little") == 0b11  # hash-based, source checked
    assert marshal.loads(pyc[16:]).co_filename == "/var/task/sitemill/pipeline.py"
    assert import_unpacked(folder)["compiled"] == []
    # Someone edits a file in the console: the edit runs, not the stale bytecode.
    version = folder / "sitemill" / "version.py"
    version.write_text(version.read_text() + "\nMARKER = 'edited'\n")
    found = import_unpacked(folder)
    assert found["marker"] == "edited" and found["compiled"] == [str(version)]


def test_a_source_that_does_not_compile_fails_the_build(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def (:\n")
    with pytest.raises(build_lambda_zip.BuildError, match=r"compiling the bytecode .* failed"):
        build_lambda_zip.compile_bytecode({"broken.py": broken}, sys.executable, tmp_path / "out")


# --- the unpacked zip, run on its own ----------------------------------------------------

# Runs in a fresh interpreter (-I -S: no site-packages, no .pth files, so not the editable
# install either) whose path is the unpacked zip first, then this venv's site-packages for
# boto3 and moto, which the Lambda runtime would provide.
RUNNER = textwrap.dedent(
    """
    import json, os, sys

    spec = json.loads(sys.argv[1])
    sys.path.insert(0, spec["package"])
    sys.path.append(spec["site_packages"])
    os.environ.update(spec["env"])

    import boto3
    from moto import mock_aws
    from moto.core import set_initial_no_auth_action_count

    class Context:
        aws_request_id = "req-1"
        function_name = "sitemill"
        memory_limit_in_mb = 512
        invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:sitemill"

        def get_remaining_time_in_millis(self):
            return 300_000

    def denied(call, **kwargs):
        try:
            call(**kwargs)
        except Exception as exc:
            return "AccessDenied" in str(exc)
        return False

    with mock_aws():
        s3 = boto3.client("s3", region_name="us-east-1")
        bucket = spec["env"]["SITEMILL_BUCKET"]
        s3.create_bucket(Bucket=bucket)
        state_bucket = spec.get("state_bucket")
        if state_bucket:
            s3.create_bucket(Bucket=state_bucket)
        for key, body in spec["objects"].items():
            s3.put_object(Bucket=bucket, Key=key, Body=body.encode())
        if spec["policy"] is not None:
            # From here on every request is checked against the function's policy.
            iam = boto3.client("iam", region_name="us-east-1")
            iam.create_user(UserName="sitemill")
            document = json.dumps(spec["policy"])
            iam.put_user_policy(UserName="sitemill", PolicyName="fn", PolicyDocument=document)
            iam.create_user(UserName="deployer")  # uploads a site, as CI does
            everything = {"Effect": "Allow", "Action": "s3:*", "Resource": "*"}
            iam.put_user_policy(
                UserName="deployer", PolicyName="all",
                PolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": [everything]}),
            )
            deploys = iam.create_access_key(UserName="deployer")["AccessKey"]
            s3 = boto3.client(
                "s3", region_name="us-east-1", aws_access_key_id=deploys["AccessKeyId"],
                aws_secret_access_key=deploys["SecretAccessKey"],
            )
            key = iam.create_access_key(UserName="sitemill")["AccessKey"]
            os.environ["AWS_ACCESS_KEY_ID"] = key["AccessKeyId"]
            os.environ["AWS_SECRET_ACCESS_KEY"] = key["SecretAccessKey"]
            boto3.DEFAULT_SESSION = None  # it caches the credentials it found first

        import handler

        def run():
            report = {"runs": []}
            for overrides in spec["runs"]:
                overrides = dict(overrides)
                for key, body in json.loads(overrides.pop("_put", "{}")).items():
                    s3.put_object(Bucket=bucket, Key=key, Body=body.encode())  # (a deploy)
                changed = overrides.pop("_event", None)
                os.environ.update(overrides)
                event = {"action": "rebuild"}
                if changed is not None:  # the S3 notification of that deploy
                    event = {"Records": [{
                        "eventSource": "aws:s3", "eventName": "ObjectCreated:Put",
                        "s3": {"bucket": {"name": bucket}, "object": {"key": changed}},
                    }]}
                report["runs"].append(handler.handler(event, Context()))
            if spec["policy"] is not None:
                own = boto3.client("s3", region_name="us-east-1")
                prefix = spec["env"]["SITEMILL_PREFIX"]
                page = prefix + "index.html"
                state = prefix + "sitemill-state.json.gz"
                report["denied"] = {
                    "put page": denied(own.put_object, Bucket=bucket, Key=page, Body=b"x"),
                    "delete page": denied(own.delete_object, Bucket=bucket, Key=page),
                    "read page": denied(own.get_object, Bucket=bucket, Key=page),
                    "read pdf": denied(
                        own.get_object, Bucket=bucket, Key=prefix + "docs/guide.pdf"
                    ),
                    "read css": denied(own.get_object, Bucket=bucket, Key=prefix + "style.css"),
                    "read page elsewhere": denied(
                        own.get_object, Bucket=bucket, Key="other/index.html"
                    ),
                    "put elsewhere": denied(
                        own.put_object, Bucket=bucket, Key="other/sitemap.xml", Body=b"x"
                    ),
                    "put state beside": denied(own.put_object, Bucket=bucket, Key=state, Body=b"x"),
                }
                key_file = spec.get("key_file")
                if key_file:
                    report["denied"] |= {
                        "read key file": denied(own.get_object, Bucket=bucket, Key=key_file),
                        "put key file": denied(
                            own.put_object, Bucket=bucket, Key=key_file, Body=b"x"
                        ),
                        "delete key file": denied(
                            own.delete_object, Bucket=bucket, Key=key_file
                        ),
                        "put other txt": denied(
                            own.put_object, Bucket=bucket, Key=prefix + "other.txt", Body=b"x"
                        ),
                        "put key file elsewhere": denied(
                            own.put_object, Bucket=bucket, Key="other/" + key_file, Body=b"x"
                        ),
                    }
                if state_bucket:
                    kept = spec["state_key"]
                    other = "other-site/" + kept.split("/", 1)[1]
                    report["denied"] |= {
                        "read state": denied(own.get_object, Bucket=state_bucket, Key=kept),
                        "delete state": denied(
                            own.delete_object, Bucket=state_bucket, Key=kept
                        ),
                        "read other state": denied(
                            own.get_object, Bucket=state_bucket, Key=other
                        ),
                        "put other state": denied(
                            own.put_object, Bucket=state_bucket, Key=other, Body=b"x"
                        ),
                    }
            return report

        if spec["policy"] is not None:
            run = set_initial_no_auth_action_count(0)(run)
        report = run()
        listing = s3.list_objects_v2(Bucket=bucket).get("Contents", [])
        report["keys"] = sorted(obj["Key"] for obj in listing)
        report["bodies"] = {
            key: s3.get_object(Bucket=bucket, Key=key)["Body"].read().decode()
            for key in report["keys"]
            if key.endswith(("sitemap.xml", "robots.txt")) or "/sitemap-r" in "/" + key
        }
        if state_bucket:
            kept = s3.list_objects_v2(Bucket=state_bucket).get("Contents", [])
            report["state_keys"] = sorted(obj["Key"] for obj in kept)
    import jinja2, markupsafe  # (the built-in templates need neither: a templates_dir does)
    report["modules"] = {
        name: sys.modules[name].__file__ for name in ("handler", "sitemill", "jinja2", "markupsafe")
    }
    print(json.dumps(report))
    """
)

SITE = {
    "index.html": "<html><title>home</title></html>",
    "about/index.html": "<html><title>about</title></html>",
    "old/index.html": '<html><meta http-equiv="refresh" content="0; url=/about/"></html>',
    "docs/guide.pdf": "%PDF-1.4",
    "private/secret.html": "<html></html>",
    "style.css": "body {}",
    "robots.txt": "User-agent: *\nDisallow: /private/\n",
}


def run_unpacked(
    tmp_path: Path,
    package: Path,
    prefix: str,
    runs: list[dict[str, str]],
    policy: dict[str, Any] | None = None,
    state: str | None = None,
    extra_env: dict[str, str] | None = None,
    key_file: str | None = None,
) -> dict[str, Any]:
    """Seed a moto bucket with SITE, then invoke the unpacked handler once per item of
    ``runs`` (extra environment for that invocation) with a manual rebuild event. With
    ``state`` (s3://bucket/key, as the stack sets SITEMILL_STATE), that bucket exists too;
    ``extra_env`` holds for every run; with ``key_file`` (a key), its writes are tried too."""
    env = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "SITEMILL_BUCKET": infra.BUCKET,
        "SITEMILL_PREFIX": prefix,
        "SITEMILL_BASE_URL": "https://example.com/",
        "SITEMILL_ROBOTS_TXT": "true",
        "SITEMILL_LOG_LEVEL": "WARNING",
        **(extra_env or {}),
    }
    spec = {
        "package": str(package),
        "site_packages": sysconfig.get_paths()["purelib"],
        "env": env,
        "objects": {prefix + key: body for key, body in SITE.items()},
        "policy": policy,
        "runs": runs,
        "key_file": key_file,
    }
    if state is not None:
        env["SITEMILL_STATE"] = state
        spec["state_bucket"], spec["state_key"] = state.removeprefix("s3://").split("/", 1)
    clean = {key: value for key, value in os.environ.items() if not key.startswith("AWS_")}
    completed = subprocess.run(
        [sys.executable, "-I", "-S", "-c", RUNNER, json.dumps(spec)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env=clean,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr[-4000:]
    report: dict[str, Any] = json.loads(completed.stdout.splitlines()[-1])
    return report


def test_unpacked_zip_rebuilds_a_bucket_on_its_own(tmp_path: Path, unpacked: Path) -> None:
    report = run_unpacked(tmp_path, unpacked, "", runs=[{}, {}])
    for name, file in report["modules"].items():
        assert Path(file).is_relative_to(unpacked), (name, file)
    first, second = report["runs"]
    assert first["status"] == "ok", first
    assert first["bucket"] == infra.BUCKET
    # private/ is disallowed by robots.txt, old/ redirects, style.css is no page.
    assert first["urls"] == 3
    assert first["skipped"] == {"robots.txt": 1, "redirect": 1}
    assert first["written"] == 2  # sitemap.xml and robots.txt
    assert (first["pages_read"], first["pages_reused"], first["state"]) == (3, 0, "written")
    assert second["status"] == "ok" and second["written"] == 0, second  # no change, no PUT
    assert (second["pages_read"], second["pages_reused"], second["state"]) == (0, 3, "unchanged")
    assert "sitemap.xml" in report["keys"] and "sitemill-state.json.gz" in report["keys"]
    sitemap = report["bodies"]["sitemap.xml"]
    for path in ("", "about/", "docs/guide.pdf"):
        assert f"<loc>https://example.com/{path}</loc>" in sitemap, path
    assert "private" not in sitemap
    assert "Sitemap: https://example.com/sitemap.xml" in report["bodies"]["robots.txt"]


# What CloudFormation would name the stack's state bucket (a Ref of the test evaluator is
# "StateBucket-physical-id", which no S3 accepts).
STATE_BUCKET = "sitemill-statebucket-1x2y3z4w5v6u"


def function_stack(prefix: str, **parameters: str) -> Any:
    return infra.make_stack(
        infra.translate(infra.load_template()),
        {"SourcePrefix": prefix, "RobotsTxt": "true", **parameters},
    )


def function_state(prefix: str) -> str:
    """SITEMILL_STATE as the stack sets it, for this bucket and prefix."""
    variables = function_stack(prefix).resources()["SitemillFunction"]["Properties"]
    location: str = variables["Environment"]["Variables"]["SITEMILL_STATE"]
    return location.replace(infra.STATE_BUCKET, STATE_BUCKET)


def function_policy(prefix: str, **parameters: str) -> dict[str, Any]:
    """The function's S3 statements from the template, resolved for this bucket and prefix
    (and these parameters)."""
    stack = function_stack(prefix, **parameters)
    statements = []
    for statement in stack.role_statements():
        if any(action.startswith("s3:") for action in infra._listed(statement["Action"])):
            # moto does not evaluate S3 condition keys (it would deny every request that has
            # one); test_infra checks the s3:prefix condition itself.
            statements.append(
                {key: value for key, value in statement.items() if key != "Condition"}
            )
    text = json.dumps({"Version": "2012-10-17", "Statement": statements})
    policy: dict[str, Any] = json.loads(text.replace(infra.STATE_BUCKET, STATE_BUCKET))
    return policy


def test_template_policy_is_enough_for_sharded_runs_and_their_partitioned_state(
    tmp_path: Path, unpacked: Path
) -> None:
    prefix = "site/"
    deploy = json.dumps({prefix + "docs/new.pdf": "%PDF-1.4 new"})
    runs = [  # a full rebuild, a deploy of a PDF (looked up by a LIST of its key), again
        {"SITEMILL_MAX_URLS": "2", "SITEMILL_SHARD_FILL": "2"},
        {"_put": deploy, "_event": prefix + "docs/new.pdf"},
        {"_event": prefix + "docs/new.pdf"},
    ]
    policy, state = function_policy(prefix), function_state(prefix)
    report = run_unpacked(tmp_path, unpacked, prefix, runs, policy=policy, state=state)
    first, second, third = report["runs"]
    assert first["status"] == "ok", first
    assert first["shards"] == 2 and first["state"] == "written", first
    assert second["status"] == "ok", second
    assert second["urls"] == 4 and second["requests"].get("LIST") == 1, second
    assert third["status"] == "ok" and third["written"] == 0, third
    parts = f"{infra.BUCKET}/{prefix}sitemill-state/"
    assert [key for key in report["state_keys"] if not key.startswith(parts + "shards/")] == [
        parts + "index-state.json",
    ]
    assert "<loc>https://example.com/docs/new.pdf</loc>" in "".join(report["bodies"].values())
    assert report["denied"]["read pdf"] is True  # still: a LIST tells a PDF's facts


def test_template_policy_is_enough_for_the_handler_and_no_more(
    tmp_path: Path, unpacked: Path
) -> None:
    prefix = "site/"
    # Three gzipped children, then two: writes every kind of output and deletes a stale one.
    runs = [  # (split by count: the second run regroups the children)
        {"SITEMILL_MAX_URLS": "1", "SITEMILL_GZIP": "true", "SITEMILL_SHARDS": "off"},
        {"SITEMILL_MAX_URLS": "2", "SITEMILL_GZIP": "true", "SITEMILL_SHARDS": "off"},
    ]
    policy, state = function_policy(prefix), function_state(prefix)
    report = run_unpacked(tmp_path, unpacked, prefix, runs, policy=policy, state=state)
    first, second = report["runs"]
    assert first["status"] == "ok", first
    assert (first["urls"], first["sitemaps"], first["deleted"]) == (3, 4, 0), first
    # The heads of the three HTML pages robots.txt allows (a GET each), then the state.
    assert (first["pages_read"], first["pages_reused"], first["state"]) == (3, 0, "written")
    assert second["status"] == "ok", second
    assert (second["sitemaps"], second["deleted"]) == (3, 1), second
    # No page read again; the state is written again, for its list of sitemill's own files.
    assert (second["pages_read"], second["pages_reused"], second["state"]) == (0, 3, "written")
    outputs = [key for key in report["keys"] if key.startswith(f"{prefix}sitem")]
    assert outputs == [
        f"{prefix}sitemap-1.xml.gz",
        f"{prefix}sitemap-2.xml.gz",
        f"{prefix}sitemap.xml",
    ]
    # The state is in the stack's own bucket, under the site bucket's name and the prefix.
    assert report["state_keys"] == [f"{infra.BUCKET}/{prefix}sitemill-state.json.gz"]
    assert "Sitemap: https://example.com/sitemap.xml" in report["bodies"][f"{prefix}robots.txt"]
    # Enough: every request above was allowed. No more: the function may read HTML pages
    # under its prefix, and no other object; it writes no page, never deletes the state, and
    # touches no other key of the state bucket.
    assert report["denied"] == {
        "put page": True,
        "delete page": True,
        "read page": False,
        "read pdf": True,
        "read css": True,
        "read page elsewhere": True,
        "put elsewhere": True,
        "put state beside": True,
        "read state": False,
        "delete state": True,
        "read other state": True,
        "put other state": True,
    }


def test_template_policy_is_enough_for_indexnow_and_its_key_file_only(
    tmp_path: Path, unpacked: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefix = "site/"
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)  # (the function's run inherits the rest)
    stand = Stand()  # the engine and the live site, on 127.0.0.1
    stand.thread.start()
    indexnow = {
        "SITEMILL_BASE_URL": stand.origin + "/",
        "SITEMILL_INDEXNOW": "send",
        "SITEMILL_INDEXNOW_KEY": KEY,
        "SITEMILL_INDEXNOW_ENDPOINT": stand.origin + "/indexnow",
        "SITEMILL_INDEXNOW_WRITE_KEY_FILE": "true",
    }
    deploy = json.dumps({prefix + "about/index.html": "<html><title>about us</title></html>"})
    runs = [{}, {"_put": deploy, "_event": prefix + "about/index.html"}]
    policy = function_policy(prefix, IndexNow="send", IndexNowKey=KEY, IndexNowWriteKeyFile="true")
    try:
        report = run_unpacked(
            tmp_path,
            unpacked,
            prefix,
            runs,
            policy=policy,
            state=function_state(prefix),
            extra_env=indexnow,
            key_file=f"{prefix}{KEY}.txt",
        )
    finally:
        stand.httpd.shutdown()
        stand.httpd.server_close()
    first, second = report["runs"]
    assert first["status"] == "ok" and second["status"] == "ok", report["runs"]
    nothing = {"mode": "send", "found": {}, "from_earlier_runs": 0, "sent": 0, "pending": 0}
    assert first["indexnow"] == {**nothing, "refused": 0}, first  # (a first run)
    assert second["indexnow"] == {**nothing, "found": {"changed": 1}, "sent": 1, "refused": 0}
    assert [body["urlList"] for body in stand.posts] == [[stand.origin + "/about/"]]
    assert f"{prefix}{KEY}.txt" in report["keys"]
    # The URLs not sent yet beside the partitioned state, in the stack's state bucket.
    parts = f"{infra.BUCKET}/{prefix}sitemill-state/"
    assert parts + "indexnow.json.gz" in report["state_keys"]
    # Enough: the key file read and written. No more: not deleted, no other .txt written.
    key_file = {
        "read key file": False,
        "put key file": False,
        "delete key file": True,
        "put other txt": True,
        "put key file elsewhere": True,
    }
    assert {name: report["denied"][name] for name in key_file} == key_file
    assert report["denied"]["put page"] is True
