"""A name means one thing, a function asks for few things (docs/architecture.md)."""

# A newcomer who meets ``settled`` or ``Precision`` should not have to ask which one: every
# public top-level name of the package (a function, a class, a constant) is defined in one
# module only, and a function takes at most MAX_PARAMETERS (more travel together as a value).

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "sitemill"
MAX_PARAMETERS = 8
# Names every module may define for itself: its logger.
EVERY_MODULE_MAY_DEFINE = frozenset({"log", "logger"})


def public_names(tree: ast.Module) -> list[str]:
    """The public names a module defines at its top level."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names.extend(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return [
        name for name in names if not name.startswith("_") and name not in EVERY_MODULE_MAY_DEFINE
    ]


def parameter_count(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    arguments = node.args
    count = len(arguments.posonlyargs) + len(arguments.args) + len(arguments.kwonlyargs)
    count += (arguments.vararg is not None) + (arguments.kwarg is not None)
    every = [*arguments.posonlyargs, *arguments.args]
    return count - (bool(every) and every[0].arg in ("self", "cls"))


@functools.cache
def parsed_modules() -> dict[str, ast.Module]:
    modules = {
        str(path.relative_to(PACKAGE)): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "__pycache__" not in path.parts
    }
    assert len(modules) > 100, PACKAGE  # the package, not an empty folder
    return modules


def test_no_public_name_is_defined_twice() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for module, tree in parsed_modules().items():
        for name in public_names(tree):
            where[name].append(module)
    assert {name: modules for name, modules in where.items() if len(modules) > 1} == {}


def test_no_function_takes_more_than_eight_parameters() -> None:
    wide = [
        f"{module}:{node.lineno} {node.name}() takes {parameter_count(node)}"
        for module, tree in parsed_modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and parameter_count(node) > MAX_PARAMETERS
    ]
    assert wide == []


def test_the_checks_find_a_second_definition_and_a_wide_function() -> None:
    tree = ast.parse("T = 1\ndef f(a, b, c, d, e, f, g, h, i): pass\nclass _P: pass\n")
    assert public_names(tree) == ["T", "f"]
    function = tree.body[1]
    assert isinstance(function, ast.FunctionDef) and parameter_count(function) == 9
