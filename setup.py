"""Package discovery: every package under src/ is found (none can be forgotten), plus the
templates, whose canonical copy is the top-level templates/ folder (mapped in pyproject.toml)."""

from setuptools import find_packages, setup

setup(packages=[*find_packages("src"), "sitemill.templates"])
