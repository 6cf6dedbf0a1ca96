"""The YAML subset reader against PyYAML over real front matters and configs (yaml_corpus/)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from sitemill.lastmod.sourcefiles._yamlish import read_yaml

CORPUS = sorted((Path(__file__).parent / "yaml_corpus").glob("*.y*ml"))


class _TaggedLoader(yaml.SafeLoader):
    """PyYAML's safe loader that also takes MkDocs' ``!!python/name:`` tags (as text)."""


_TaggedLoader.add_multi_constructor(
    "tag:yaml.org,2002:python/", lambda loader, suffix, node: f"!!python/{suffix}"
)


def pyyaml(text: str) -> object:
    return yaml.load(text, Loader=_TaggedLoader)  # (a safe loader)


def agrees(ours: object, theirs: object, where: str) -> list[str]:
    """Where ``ours`` differs from PyYAML's ``theirs``: a mapping's every key must be one of
    PyYAML's, with its value; a string the reader leaves unresolved (a date, a number) must
    resolve to PyYAML's value."""
    if isinstance(ours, dict):
        if not isinstance(theirs, dict):
            return [f"{where}: a mapping, PyYAML reads {theirs!r}"]
        keys = {str(key): key for key in theirs}
        problems = []
        for key, value in ours.items():
            if key not in keys:
                problems.append(f"{where}.{key}: no such key for PyYAML")
            else:
                problems += agrees(value, theirs[keys[key]], f"{where}.{key}")
        return problems
    if isinstance(ours, list):
        if not isinstance(theirs, list) or len(ours) != len(theirs):
            return [f"{where}: {ours!r}, PyYAML reads {theirs!r}"]
        return [
            f"{where}[{n}]: {mine!r}, PyYAML reads {its!r}"
            for n, (mine, its) in enumerate(zip(ours, theirs, strict=True))
            if mine != str(its) and yaml.safe_load(mine) != its
        ]
    same = type(ours) is type(theirs) and ours == theirs
    resolved = isinstance(ours, str) and not isinstance(theirs, str)
    if same or (resolved and yaml.safe_load(str(ours)) == theirs):
        return []
    return [f"{where}: {ours!r}, PyYAML reads {theirs!r}"]


@pytest.mark.parametrize("path", CORPUS, ids=[path.name for path in CORPUS])
def test_every_key_read_has_the_value_pyyaml_gives(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    ours, theirs = read_yaml(text), pyyaml(text)
    assert agrees(ours, theirs, path.name) == []
    assert isinstance(theirs, dict)
    assert len(ours) >= 0.6 * len(theirs), sorted(set(map(str, theirs)) - set(ours))


def test_the_corpus_covers_the_shapes_that_leaked() -> None:
    texts = "\n".join(path.read_text(encoding="utf-8") for path in CORPUS)
    for shape in (": |\n", ": >\n", ": >-", ": |+", ": |-", ": |2", ": >+", '"\n', "!!python"):
        assert shape in texts, shape
    assert len(CORPUS) >= 10


@pytest.mark.parametrize(
    "text",
    [
        "excerpt: |\n  date: 2001-01-01\n  permalink: /x/\ntitle: T\n",
        "excerpt: >-\n  date: 2001-01-01\n\n  permalink: /x/\ntitle: T\n",
        "excerpt: |2-\n    date: 2001-01-01\n  permalink: /x/\ntitle: T\n",
        "excerpt: >+\n  date: 2001-01-01\n\n\ntitle: T\n",
        'excerpt: "a long\n  date: 2001-01-01\n  permalink: /x/"\ntitle: T\n',
        "excerpt: 'a long\n  date: 2001-01-01'\ntitle: T\n",
        "excerpt: [a,\n  b]\ntitle: T\n",
        "meta:\n  date: 2001-01-01\n  permalink: /x/\ntitle: T\n",
        "list:\n  - date: 2001-01-01\n    permalink: /x/\ntitle: T\n",
        "anchored: &a\n  date: 2001-01-01\ntitle: T\n",
        "excerpt: plain\n  date 2001-01-01\ntitle: T\n",
    ],
)
def test_no_line_inside_a_value_is_a_top_level_key(text: str) -> None:
    ours = read_yaml(text)
    assert "date" not in ours and "permalink" not in ours
    assert ours["title"] == "T"
    assert agrees(ours, pyyaml(text), "") == []


KEYS = ["a", "date", "b c", '"q"', "'s'"]
VALUES = ["x", "", "|", ">-", "|+", "|2", '"a', "'b", "[a, b", "]", "yes", "2020-01-01", "a # c"]
VALUES += ["#", "x:y", "'it''s'", '"e\\"s"', "&a v", "*a", "1.0", "~"]


def test_a_generated_sweep_agrees_with_pyyaml() -> None:
    """Documents of a few lines drawn from the shapes above, at random depths: wherever PyYAML
    reads a mapping, every key the reader returns has PyYAML's value."""
    rng = random.Random(78)

    def line() -> str:
        if rng.random() < 0.5:
            return f"{rng.choice(KEYS)}: {rng.choice(VALUES)}"
        indent = rng.choice(["", " ", "  ", "    "])
        shape = rng.choice(["key", "item", "value", "blank", "text"])
        body = {
            "key": f"{rng.choice(KEYS)}: {rng.choice(VALUES)}",
            "item": f"- {rng.choice(VALUES)}",
            "value": rng.choice(VALUES),
            "blank": "",
            "text": "more text",
        }[shape]
        return indent + body

    compared = 0
    for _ in range(10_000):
        text = "\n".join(line() for _ in range(rng.randint(1, 6))) + "\n"
        try:
            theirs = pyyaml(text)
        except yaml.YAMLError:
            continue
        if isinstance(theirs, dict):
            assert agrees(read_yaml(text), theirs, "") == [], text
            compared += 1
    assert compared > 1_000
