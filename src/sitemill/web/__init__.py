"""Requests sitemill makes over HTTP(S): one transport, and the one client of a site's pages."""
# ``transport`` opens one request under one deadline and never follows a redirect; ``livesite``
# asks a site's own origins only, a few requests at a time (the check, the IndexNow key file, the
# previous state's download goes through the transport alone); ``connection`` makes the sockets
# whose waits end by the request's deadline, and keeps them alive for the check's next request.
