"""Which pages a crawler should be sent to: the checks, their warnings, the canonical gate."""
# The checks a page's facts lead to, with their warnings, and the canonical gate that keeps entry
# order while a canonical waits for its target.
