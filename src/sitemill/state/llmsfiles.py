"""The llms files a run wrote (llms.txt and its kin), by name with their MD5, in the state."""
# What tells a later run that a file at one of these names is sitemill's (its bytes are the ones
# it wrote: replaced without a word, deleted once no run writes it) and what `sitemill check`
# compares the live copies with. A state is input from outside: a name that is no llms file's
# (llms.txt, a folder's llms.txt, llms-full.txt, a page's Markdown twin) or that climbs out of
# the site, or a digest that is no MD5, drops the whole table (a wrong one only costs a word).

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Final

from sitemill.filenames.outputs import MARKDOWN_SUFFIX, is_llms_name

# The twins of every page a state may name (state.model.MAX_OUTPUTS), and the llms.txt files.
MAX_LLMS_FILES: Final = 200_000
_HEX32: Final = re.compile(r"[0-9a-f]{32}")


@dataclass
class LlmsRecord:
    """What a run leaves of its llms files: each one sitemill's (name -> MD5), the digest of
    what its Markdown was made from (llms.run: equal, nothing is converted again),
    and the line on the site's languages (for the report, not the state)."""

    files: dict[str, str] = field(default_factory=dict)
    source: str = ""
    decision: str = ""


def llms_to_json(document: dict[str, Any], files: dict[str, str], source: str) -> None:
    if files:
        document["llms"] = dict(sorted(files.items()))
    if source:
        document["llms_source"] = source


def llms_source_from_json(value: object) -> str:
    return value if isinstance(value, str) and _HEX32.fullmatch(value) else ""


def llms_from_json(value: object) -> dict[str, str]:
    if not isinstance(value, dict) or len(value) > MAX_LLMS_FILES:
        return {}
    if not all(
        isinstance(name, str)
        and is_llms_file(name)
        and isinstance(digest, str)
        and _HEX32.fullmatch(digest)
        for name, digest in value.items()
    ):
        return {}
    return dict(value)


def is_llms_file(name: str) -> bool:
    """A relative name under the site root of an llms file or a Markdown twin."""
    path = PurePosixPath(name)
    if not name or name.startswith("/") or "\\" in name or path.as_posix() != name:
        return False
    if any(part in ("", ".", "..") or part.startswith(".") for part in path.parts):
        return False
    return is_llms_name(name) or name.endswith(MARKDOWN_SUFFIX)
