"""Imported by a worker as its preload in tests/test_jobs_killed.py: a worker that never gets ready."""

import time

time.sleep(600)
