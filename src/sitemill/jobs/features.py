"""The output features a run writes beside the sitemaps: the one list that names them."""
# Each is an output port (sitemill.outputs.OutputFeature); the front ends pass this list to the
# runs, and the core asks each feature of the list it is given, naming none.

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from sitemill.htmlmap.run import SITEMAP_HTML
from sitemill.indexnow.feature import INDEXNOW
from sitemill.llms.run import LLMS_FILES

if TYPE_CHECKING:  # (types only: a page's event loads no check, no validation)
    from typing import Protocol

    from sitemill.check.run import LiveCopies
    from sitemill.outputs import OutputFeature
    from sitemill.validate.files import FileFormats
    from sitemill.writing.ownbytes import OwnFiles

    class Feature(OutputFeature, LiveCopies, FileFormats, OwnFiles, Protocol):
        """An output feature with every hook."""


OUTPUTS: Final[tuple[Feature, ...]] = (LLMS_FILES, SITEMAP_HTML, INDEXNOW)
# A URL list reads no page and keeps no state: the outputs made of its URLs alone.
URL_LIST_OUTPUTS: Final[tuple[Feature, ...]] = (SITEMAP_HTML,)
