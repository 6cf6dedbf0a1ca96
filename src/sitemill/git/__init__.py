"""Running git on a repository nobody vetted: how to start it (run), the settings (trust)."""
# The settings of trust keep its content from running a program.
