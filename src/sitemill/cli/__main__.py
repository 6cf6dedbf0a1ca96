"""``python -m sitemill.cli``: the same command as the ``sitemill`` script."""

import sys

from sitemill.cli.main import main

sys.exit(main())
