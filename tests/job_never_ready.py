"""Imported by a worker as its preload in tests/jobs/test_pool_killed.py: a worker that never gets ready."""

import time

time.sleep(600)
