"""The last rung of the evidence ladder: a first run's file times (mtimes, LastModified)."""
