"""The GitHub Action's adapter: env -> Config -> build -> commit/push -> outputs and summary."""
