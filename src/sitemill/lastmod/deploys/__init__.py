"""A bucket's deploys: the edit one deploy made on most of the pages it changed moves no date."""
