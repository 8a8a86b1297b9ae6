"""Imported by a worker as its preload in tests/jobs/test_pool_killed.py: the first worker to
import it creates the file named by TW_TEST_HELD_START, writes its pid there and stays in its start
(never ready) until it is killed; every later worker finds the file and starts at once."""

import os
import time

_marker = os.environ.get("TW_TEST_HELD_START")
if _marker:
    try:
        _fd = os.open(_marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        pass
    else:
        os.write(_fd, str(os.getpid()).encode())
        os.close(_fd)
        time.sleep(120)  # the test kills it long before (and the pool after its start_timeout)
