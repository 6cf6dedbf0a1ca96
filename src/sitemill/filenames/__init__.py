"""The names of sitemill's own files (outputs) and of their staged copies (staging)."""
# Imported by sinks, sources and the state, so they stand low, below writing/.
