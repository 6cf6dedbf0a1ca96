"""Which pages a crawler should be sent to: the checks, their warnings, the canonical gate."""
