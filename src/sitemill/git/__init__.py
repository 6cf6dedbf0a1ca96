"""Running git on a repository nobody vetted: one way to start it (run), and the settings
that keep its content from running a program (trust).
"""
