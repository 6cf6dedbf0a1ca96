"""``python -m sitemill``: the `sitemill` command, for an environment without its script."""

import sys

from sitemill.cli import main

sys.exit(main())
