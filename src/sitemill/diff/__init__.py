"""What a change does to the site's URLs: added, changed, removed (redirected, renamed, gone)."""
