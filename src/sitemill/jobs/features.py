"""The output features a run writes beside the sitemaps: the one list that names them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from sitemill.htmlmap.run import SITEMAP_HTML
from sitemill.llms.run import LLMS_FILES

if TYPE_CHECKING:
    from sitemill.outputs import OutputFeature

OUTPUTS: Final[tuple[OutputFeature, ...]] = (LLMS_FILES, SITEMAP_HTML)
# A URL list reads no page and keeps no state: the outputs made of its URLs alone.
URL_LIST_OUTPUTS: Final[tuple[OutputFeature, ...]] = (SITEMAP_HTML,)
