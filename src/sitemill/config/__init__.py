"""One configuration: the model and its defaults, the sitemill.toml reader, shared parsers."""
# The value parsers are the ones every front-end shares.

from typing import Final

# The file a run reads its settings from, found beside the site or named by --config: here,
# where the command line names it without loading the configuration's model.
CONFIG_FILE_NAME: Final = "sitemill.toml"
