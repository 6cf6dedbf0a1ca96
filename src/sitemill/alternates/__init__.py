"""hreflang alternates: the ones each page declares (or its language folder gives), joined into
reciprocal clusters of confirmed links."""
