"""The generators rung 2 knows are one table (sourcefiles/_generators.py): each row has its
convention, and the table's order decides only which config file is tried first."""

from __future__ import annotations

import itertools

from sitemill.lastmod.sourcefiles._generators import BY_FAMILY, GENERATORS
from sitemill.lastmod.sourcefiles.conventions import CONVENTIONS
from sitemill.lastmod.sourcefiles.project import CONFIG_FILES


def test_every_generator_has_one_row_and_one_convention() -> None:
    assert len(BY_FAMILY) == len(GENERATORS)
    assert set(BY_FAMILY) == set(CONVENTIONS)
    assert [family for family, _ in CONFIG_FILES] == [g.family for g in GENERATORS]


def test_a_generator_meta_names_one_generator_whatever_the_order() -> None:
    metas = [meta for generator in GENERATORS for meta in generator.metas]
    assert len(set(metas)) == len(metas)
    assert not any(a.startswith(b) for a, b in itertools.permutations(metas, 2))


def test_hexo_s_config_is_tried_before_jekyll_s() -> None:
    families = [generator.family for generator in GENERATORS]
    assert families.index("hexo") < families.index("jekyll")  # both read _config.yml
