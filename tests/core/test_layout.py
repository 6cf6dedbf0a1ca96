"""The folder tree is the architecture: the core never imports a front-end, modules stay small."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "sitemill"
FRONT_ENDS = ("cli", "github", "aws")
MAX_MODULE_LINES = 260  # "~250" in style.md
MAX_FUNCTION_LINES = 60


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def core_modules() -> list[Path]:
    return [
        path
        for path in PACKAGE.rglob("*.py")
        if path.relative_to(PACKAGE).parts[0] not in FRONT_ENDS and "__pycache__" not in path.parts
    ]


def test_the_core_never_imports_a_front_end() -> None:
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(
            name
            for name in imported_modules(path)
            if name.startswith(tuple(f"sitemill.{front}" for front in FRONT_ENDS))
        )
        for path in core_modules()
    }
    assert {name: found for name, found in offenders.items() if found} == {}


# The one shared piece: the boto3 client factory, which `sitemill s3` uses as the Lambda does.
SHARED = {"sitemill.aws.clients"}


def test_front_ends_do_not_import_each_other() -> None:
    for front in FRONT_ENDS:
        for path in (PACKAGE / front).rglob("*.py"):
            others = [f"sitemill.{other}" for other in FRONT_ENDS if other != front]
            found = [
                name for name in imported_modules(path) - SHARED if name.startswith(tuple(others))
            ]
            assert found == [], f"{path.relative_to(PACKAGE)} imports {found}"


def test_modules_and_functions_stay_small() -> None:
    too_big = []
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(PACKAGE))
        if text.count("\n") > MAX_MODULE_LINES:
            too_big.append(f"{where}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_big.append(f"{where}:{node.lineno} {node.name}() is {length} lines")
    assert too_big == []
