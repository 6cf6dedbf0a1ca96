"""The names of sitemill's own files (outputs), their staged copies (staging), and pages'."""
# Imported by sinks, sources and the state, so they stand low, below writing/.
