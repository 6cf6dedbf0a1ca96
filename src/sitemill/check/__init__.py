"""`sitemill check`: what is live is what sitemill published, and only that is announced."""
