"""llms.txt (llmstxt.org) from the pages the sitemap lists; llms-full.txt, Markdown twins."""
