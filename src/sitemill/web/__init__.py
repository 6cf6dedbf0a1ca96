"""Requests sitemill makes over HTTP(S): one client, on asyncio's streams, for every request."""
# A site's own origins only, a few requests at a time, never following a redirect, from one event
# loop in the caller's thread, on connections kept alive, each wait bounded.
