"""The output features a run writes beside the sitemaps: the one list that names them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from sitemill.llms.run import LLMS_FILES

if TYPE_CHECKING:
    from sitemill.outputs import OutputFeature

OUTPUTS: Final[tuple[OutputFeature, ...]] = (LLMS_FILES,)
