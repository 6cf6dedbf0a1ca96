"""The state: what the last run saw and remembers (facts, dates, removed URLs), where it lives."""
