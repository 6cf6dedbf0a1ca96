"""The folder tree is the architecture (docs/architecture.md), held by a test per rule."""

# The core never imports a front-end, html/ reads bytes only, lastmod/ decides dates on the
# basic modules alone, sources/ holds where pages come from, no module or folder imports itself
# through others, the scale-out wing stands on the jobs and under the front ends, the top level
# holds the pipeline and its basic data only, no module but the one list imports an output
# feature's folder, modules stay small, tests mirror the package, and nothing cites a file that
# a clone of the repository does not have.

from __future__ import annotations

import ast
import functools
import re
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "sitemill"
FRONT_ENDS = ("cli", "github", "aws")
FRONT_ENDS_AT = frozenset(f"sitemill.{front}" for front in FRONT_ENDS)
WING = "scaleout"  # the router's shard worker and publisher, the full rebuild, the Step Functions
MAX_FLAT_MODULES = 16
# style.md: ~250 lines is a guide, not a cap to split one concern at; past 400 a module holds two.
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def imported_modules(path: Path) -> frozenset[str]:
    """Every module ``path`` imports, wherever the import stands (in a function, under
    TYPE_CHECKING: a circle of type-only imports is a circle of meaning all the same);
    ``from package import name`` imports ``package.name`` when that is a module (the
    package's ``__init__`` runs first for any of its modules: that is no edge)."""
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                stem = package[: len(package) - node.level + 1]
                base = ".".join([*stem, base] if base else stem)
            modules = {f"{base}.{alias.name}" for alias in node.names} & MODULES
            names.update(modules)
            if len(modules) < len(node.names):  # a name the package itself defines
                names.add(base)
    return frozenset(names)


def package_modules() -> Iterator[Path]:
    return (path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts)


MODULES = frozenset(module_name(path) for path in package_modules())


def core_modules() -> list[Path]:
    # (__main__.py is `python -m sitemill`: the cli's, a front end's door)
    fronts = (*FRONT_ENDS, "__main__.py")
    return [path for path in package_modules() if path.relative_to(PACKAGE).parts[0] not in fronts]


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


# The output features (sitemill.outputs): each is one folder, and the one list names them.
FEATURES = ("llms", "htmlmap")
FEATURE_LIST = "sitemill.jobs.features"
# The public API's runs (sitemill.build_from_tree and friends): the front end of a program that
# calls sitemill as a library, passing the list as the CLI does.
LIBRARY_FRONT_DOOR = "sitemill.library"


def feature_imports(module: str, imported: frozenset[str]) -> list[str]:
    """The feature folders' modules ``module`` imports from outside their folder."""
    own = folder_of(module)
    return sorted(
        name
        for name in imported
        if folder_of(name) in {f"sitemill.{feature}" for feature in FEATURES}
        and folder_of(name) != own
    )


def test_no_module_but_the_list_imports_a_feature() -> None:
    """The core asks the list of features it is given, never a feature by name: a feature's
    modules are imported from its own folder and jobs/features.py alone."""
    assert all((PACKAGE / feature / "run.py").is_file() for feature in FEATURES)
    found = {
        module_name(path): feature_imports(module_name(path), imported_modules(path))
        for path in package_modules()
        if module_name(path) != FEATURE_LIST
    }
    assert {module: names for module, names in found.items() if names} == {}


def test_the_feature_check_finds_an_import() -> None:
    imported = frozenset({"sitemill.llms._ownership", "sitemill.htmlmap._page", "sitemill.urls"})
    assert feature_imports("sitemill.writing.ownbytes", imported) == [
        "sitemill.htmlmap._page",
        "sitemill.llms._ownership",
    ]
    assert feature_imports("sitemill.llms.run", imported) == ["sitemill.htmlmap._page"]


def test_only_the_front_ends_name_the_list_of_features() -> None:
    """The run takes its outputs from its front end (issue 80): no module of the core imports
    the list (jobs/features.py), not even for a default; the front ends pass it down, and of
    the tests only outputlist.py names it (the front ends' runs, for the tests)."""
    core = {
        module_name(path)
        for path in core_modules()
        if FEATURE_LIST in imported_modules(path)
        and module_name(path) not in {FEATURE_LIST, LIBRARY_FRONT_DOOR}
    }
    assert core == set()
    tests = PACKAGE.parents[1] / "tests"
    named = {
        str(path.relative_to(tests))
        for path in tests.rglob("*.py")
        if FEATURE_LIST in path.read_text(encoding="utf-8") and path.name != "test_layout.py"
    }
    assert named == {"outputlist.py"}


def private_imports(module: str, imported: frozenset[str]) -> list[str]:
    """The ``_private`` modules of another folder that ``module`` imports (issue 80: a module
    that is no door is private; only its own folder, and the folders under it, may import it)."""
    return sorted(
        name
        for name in imported
        if name.rpartition(".")[2].startswith("_")
        and not name.rpartition(".")[2].startswith("__")
        and not stands_in_folder_of(module, name)
    )


def stands_in_folder_of(module: str, name: str) -> bool:
    """Whether ``module`` stands in the folder that holds ``name``, or in a folder under it:
    lastmod/history/ is a folder of its own beside lastmod/fingerprint/."""
    return (module + ".").startswith(name.rpartition(".")[0] + ".")


def test_no_module_imports_the_private_modules_of_another_folder() -> None:
    found = {
        module_name(path): private_imports(module_name(path), imported_modules(path))
        for path in package_modules()
    }
    assert {module: names for module, names in found.items() if names} == {}


def test_the_private_check_finds_an_import() -> None:
    imported = frozenset({"sitemill.llms._ownership", "sitemill.llms.run", "sitemill._x"})
    assert private_imports("sitemill.writing.ownbytes", imported) == ["sitemill.llms._ownership"]
    assert private_imports("sitemill.llms.run", imported) == []
    assert private_imports("sitemill.llms", imported) == []


def test_the_list_check_finds_an_import() -> None:
    here = PACKAGE / "jobs" / "tree.py"
    imported = imported_modules(here)
    assert FEATURE_LIST not in imported and "sitemill.outputs" in imported
    assert FEATURE_LIST in imported_modules(PACKAGE / "cli" / "main.py")


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


# html/ is bytes in, facts out: it may use these and itself, never the pipeline's data, the
# configuration, a source, a sink or the state.
HTML_MAY_IMPORT = ("sitemill.errors", "sitemill.protocol", "sitemill.urls", "sitemill.html")


def test_html_reads_bytes_and_nothing_else() -> None:
    found = {
        str(path.relative_to(PACKAGE)): sorted(
            name
            for name in imported_modules(path)
            if name.split(".")[0] not in sys.stdlib_module_names
            and not name.startswith(HTML_MAY_IMPORT)
            and name != "__future__"
        )
        for path in (PACKAGE / "html").rglob("*.py")
    }
    assert {name: names for name, names in found.items() if names} == {}


def own_imports(node_of: dict[str, str]) -> dict[str, set[str]]:
    """Who imports whom inside the package, one node per module or per folder."""
    graph: dict[str, set[str]] = {}
    for path in package_modules():
        source = node_of[module_name(path)]
        targets = graph.setdefault(source, set())
        for name in imported_modules(path):
            if name in node_of and node_of[name] != source:
                targets.add(node_of[name])
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = stack[stack.index(node) :]
            del stack[stack.index(node) :]
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def folder_of(module: str) -> str:
    """sitemill.html.facts -> sitemill.html; a top-level module is its own node."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else module


def test_no_module_imports_itself_through_others() -> None:
    assert circles(own_imports({module: module for module in MODULES})) == []


def test_no_folder_imports_itself_through_others() -> None:
    graph = own_imports({module: folder_of(module) for module in MODULES})
    graph.pop("sitemill", None)  # the package's face names every public name (lazily)
    assert circles(graph) == []


def test_the_circle_check_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_top_level_tells_the_flow() -> None:
    # The pipeline and its basic data (entries, protocol, urls, errors, messages, report,
    # rules, version ...); writing, git, robots.txt, the memory and core savers are folders.
    doors = ("__init__.py", "__main__.py")  # (the package's face; `python -m sitemill`)
    flat = sorted(path.stem for path in PACKAGE.glob("*.py") if path.name not in doors)
    assert len(flat) <= MAX_FLAT_MODULES, flat
    assert {"pipeline", "entries", "protocol", "urls", "errors", "report", "rules"} <= set(flat)


def test_the_wing_stands_on_the_jobs_under_the_front_ends() -> None:
    wing = f"sitemill.{WING}"
    # No front end is imported by the wing ...
    for path in (PACKAGE / WING).rglob("*.py"):
        fronts = [name for name in imported_modules(path) if folder_of(name) in FRONT_ENDS_AT]
        assert fronts == [], f"{path.relative_to(PACKAGE)} imports {fronts}"
    # ... and only the front ends and the wing itself import it: not a job, not the pipeline.
    for path in core_modules():
        if path.relative_to(PACKAGE).parts[0] == WING:
            continue
        found = [name for name in imported_modules(path) if folder_of(name) == wing]
        assert found == [], f"{path.relative_to(PACKAGE)} imports {found}"
    # So jobs/ and the wing make no circle (the wing uses jobs.bucketpass, jobs.bucketsite).
    graph = own_imports({module: folder_of(module) for module in MODULES})
    pair = {"sitemill.jobs", wing}
    assert circles({node: graph.get(node, set()) & pair for node in pair}) == []
    assert "sitemill.jobs" in graph[wing]


# What deciding a page's date stands on: the basic modules, git, page facts, the helpers.
LASTMOD_MAY_IMPORT = tuple(
    f"sitemill.{name}"
    for name in (
        "lastmod", "errors", "protocol", "urls", "html", "git", "safefs", "progress",
        "workers", "bounded", "messages", "config",
    )
)  # fmt: skip


def test_lastmod_decides_on_the_basic_modules_alone() -> None:
    found = {
        str(path.relative_to(PACKAGE)): sorted(
            name
            for name in imported_modules(path)
            if name.startswith("sitemill") and not name.startswith(LASTMOD_MAY_IMPORT)
        )
        for path in (PACKAGE / "lastmod").rglob("*.py")
    }
    assert {name: names for name, names in found.items() if names} == {}


def test_sources_hold_where_pages_come_from_and_no_history() -> None:
    for path in (PACKAGE / "sources").rglob("*.py"):
        history = [name for name in imported_modules(path) if name.startswith("sitemill.git")]
        assert history == [], f"{path.relative_to(PACKAGE)} reads git: {history}"
        assert not path.stem.startswith("git"), path


# Test folders that are no package folder: package-wide checks, the docs, shared inputs.
TESTS_OF_NO_FOLDER = {"core", "docs", "events", "infra", "schema_fixtures"}


def test_tests_mirror_the_package() -> None:
    tests = PACKAGE.parents[1] / "tests"
    for folder in sorted({path.parent for path in tests.rglob("test_*.py")}):
        relative = folder.relative_to(tests)
        if folder == tests or relative.parts[0] in TESTS_OF_NO_FOLDER:
            continue
        assert (PACKAGE / relative).is_dir(), f"tests/{relative} mirrors no package folder"


# A clone holds the repository alone: the project's design notes beside it are not part of it.
OUTSIDE = ("design" + ".md", "scale-out" + ".md", "../" + "shared/")
IGNORED_PARTS = frozenset({"node_modules", "out", "__pycache__"})
RECORDS = ("CHANGELOG.md",)  # (and benchmarks/realsites/results-*.md: what a past run found)


def test_nothing_cites_a_file_outside_the_repository() -> None:
    root = PACKAGE.parents[1]
    places = [root / "README.md", root / "action.yml", root / "Makefile"]
    for folder in ("src", "docs", "tests", "benchmarks", "infra", "tools", "examples"):
        places.extend(path for path in (root / folder).rglob("*") if path.is_file())
    # What the repository holds, not what a run left beside it (benchmarks/out/, npm's
    # node_modules: git-ignored, 2 GB after `make bench`).
    places = [path for path in places if not IGNORED_PARTS.intersection(path.parts)]
    found = []
    for path in places:
        if path.name in RECORDS or path.name.startswith("results-"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        found.extend(f"{path.relative_to(root)}: {name}" for name in OUTSIDE if name in text)
    assert found == []


def test_the_configuration_stands_below_the_stages() -> None:
    """config/ reads values; it imports no stage for a constant (config/model.py imported
    shards/plan.py for the shard fill, lifting the configuration above shards/ and its
    imports)."""
    stages = ("sitemill.shards", "sitemill.writing", "sitemill.jobs", "sitemill.scaleout")
    for path in (PACKAGE / "config").glob("*.py"):
        for name in imported_modules(path):
            assert not name.startswith(stages), f"config/{path.name} imports {name}"


# What decides a page's date (docs/lastmod.md, "No date without evidence"): a call of one of
# these outside lastmod/ would be a date rule of its own beside the ladder's. The dated page,
# a rung's evidence, the ladder and its rungs; the decisions; a time as a page's date; git's
# dates or the pages' file times (the mode's choice, and its fallback from a shallow clone).
DECIDES_A_DATE = frozenset(
    {
        "Dated", "Evidence", "Ladder", "DeclaredRung", "SourceRung",
        "content_date", "history_date", "first_run_ladder", "judge_times",
        "evidence_lastmod", "read_git_history", "read_file_versions",
    }
)  # fmt: skip


def date_decisions(tree: ast.AST) -> Iterator[str]:
    """The calls in ``tree`` that decide a date: ``name(...)`` or ``Name.method(...)``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            func = func.value if func.value.id in DECIDES_A_DATE else func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name in DECIDES_A_DATE:
            yield f"{name}():{node.lineno}"


def test_no_module_outside_lastmod_decides_a_date() -> None:
    """The jobs read pages, run git and pools; lastmod/ decides every date (its page date
    module for one page, decide.py for the decision, a sub-package per rung)."""
    found = {
        str(path.relative_to(PACKAGE)): list(
            date_decisions(ast.parse(path.read_text(encoding="utf-8")))
        )
        for path in package_modules()
        if path.relative_to(PACKAGE).parts[0] != "lastmod"
    }
    assert {name: calls for name, calls in found.items() if calls} == {}


def test_the_date_check_finds_a_decision() -> None:
    tree = ast.parse("Ladder()\nSourceRung.started(a)\nx.content_date(r)\nhistory(y)")
    assert list(date_decisions(tree)) == ["Ladder():1", "SourceRung():2", "content_date():3"]


REPOSITORY = PACKAGE.parents[1]
# Outside the package, what may import or name a module: the scripts and entry points.
OUTSIDE_CODE = ("benchmarks", "lambda", "action", "examples", "tools")
OUTSIDE_TEXT = ("action.yml", "pyproject.toml", "infra", "docs")


def outside_names() -> frozenset[str]:
    """Every sitemill module the repository's scripts import or its files name (a handler
    string, an entry point, a doc that cites a path); tests do not count."""
    names: set[str] = set()
    for place in OUTSIDE_CODE + OUTSIDE_TEXT:
        root = REPOSITORY / place
        paths = [root] if root.is_file() else [p for p in root.rglob("*") if p.is_file()]
        for path in paths:
            if IGNORED_PARTS & set(path.parts):
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            for dotted in re.findall(r"sitemill(?:\.\w+)+", text):
                names.update(
                    ".".join(dotted.split(".")[:n]) for n in range(2, dotted.count(".") + 2)
                )
            for cited in re.findall(r"(?<![\w/.])([a-z_]+(?:/[a-z_]+)*)\.py\b", text):
                names.add("sitemill." + cited.replace("/", "."))
            if path.suffix == ".py":
                for node in ast.walk(ast.parse(text)):
                    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                        names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(names)


def undeclared_private(modules: dict[str, frozenset[str]], outside: frozenset[str]) -> list[str]:
    """The public modules of a folder that no module of another folder imports and nothing
    outside the package names: private by default, they are to be named ``_name.py``. A
    module a sibling folder imports (lastmod/history/ from lastmod/deploys/) is a door: were
    it private, that import would break the rule of private modules above."""
    imported_from_outside = set(outside)
    for module, imported in modules.items():
        imported_from_outside.update(
            name for name in imported if not stands_in_folder_of(module, name)
        )
    return sorted(
        module
        for module in modules
        if module.count(".") >= 2
        and not module.rpartition(".")[2].startswith("_")
        and module not in imported_from_outside
    )


# Not yet renamed: none (lastmod/ and sinks/ were the last); a folder's modules made private
# later leave here.
NOT_YET: tuple[str, ...] = ()


def test_a_module_no_other_folder_imports_is_private() -> None:
    modules = {
        module_name(path): imported_modules(path)
        for path in package_modules()
        if path.name != "__init__.py"
    }
    found = undeclared_private(modules, outside_names())
    assert [module for module in found if not module.startswith(NOT_YET)] == []


def test_the_door_check_finds_a_module_no_other_folder_imports() -> None:
    modules = {
        "sitemill.redirects.model": frozenset(),
        "sitemill.redirects.rules": frozenset({"sitemill.redirects.model"}),
        "sitemill.redirects._paths": frozenset(),
        "sitemill.diff.suggested": frozenset({"sitemill.redirects.model"}),
        "sitemill.pipeline": frozenset(),
    }
    found = undeclared_private(modules, frozenset({"sitemill.diff.suggested"}))
    assert found == ["sitemill.redirects.rules"]
    outside = frozenset({"sitemill.diff.suggested", "sitemill.redirects.rules"})
    assert undeclared_private(modules, outside) == []


def test_a_module_a_sibling_folder_imports_is_a_door() -> None:
    # A folder with sub-folders as lastmod/ has (names made up: a rename script rewrites real ones).
    modules = {
        "sitemill.dating.history.shared": frozenset(),
        "sitemill.dating.history.inner": frozenset({"sitemill.dating.history.shared"}),
        "sitemill.dating.deploys.door": frozenset({"sitemill.dating.history.shared"}),
        "sitemill.dating.sources.helper": frozenset(),
        "sitemill.dating.sources.rules.common": frozenset(),
        "sitemill.dating.sources.rules.one": frozenset({"sitemill.dating.sources.helper"}),
        "sitemill.dating.sources.door": frozenset({"sitemill.dating.sources.rules.common"}),
    }
    outside = frozenset({"sitemill.dating.deploys.door", "sitemill.dating.sources.door"})
    assert undeclared_private(modules, outside) == [
        "sitemill.dating.history.inner",
        "sitemill.dating.sources.helper",
        "sitemill.dating.sources.rules.one",
    ]
