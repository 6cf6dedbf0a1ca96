"""Requests sitemill makes over HTTP(S): one transport, and the one client of a site's pages."""
# ``transport`` opens one request under one deadline and never follows a redirect (the IndexNow
# POST, the previous state's download), on ``connection``'s sockets, whose waits end by the
# request's deadline. ``livesite`` asks a site's own origins only, a few requests at a time (the
# check, the IndexNow key file), from one event loop in the caller's thread (``inflight``): its
# GETs (``streams``) on connections kept alive for the next request (``dialing`` makes them,
# through a proxy's tunnel and TLS), each answer read as http.client reads it (``answers``), each
# wait bounded by the request's deadline or its silence (``waits``).
