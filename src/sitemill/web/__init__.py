"""Requests sitemill makes over HTTP(S): one client, on asyncio's streams, for every request."""
# ``livesite`` asks a site's own origins only, a few requests at a time (the check, the IndexNow
# key file), and makes the one-off requests (``exchange``: the IndexNow POST, the previous state's
# download), never following a redirect, from one event loop in the caller's thread
# (``inflight``): its requests (``streams``) on connections kept alive for the next request
# (``dialing`` makes them along ``connection``'s routes, through a proxy's tunnel and TLS), each
# answer read as http.client reads it (``answers``), each wait bounded by the request's deadline
# or its silence (``waits``).
