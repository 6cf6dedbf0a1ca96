"""The form of a page's deploy-edit parts as a state keeps them (lastmod.deploys.templateedits)."""
# Apart from deploys.templateedits so a state is read without the reduction and the edits' names.

import re
from typing import Final

PARTS_FORM: Final = re.compile(r"[0-9a-f]{12}(?:\.[0-9a-f]{12})?")  # (what a record keeps)
