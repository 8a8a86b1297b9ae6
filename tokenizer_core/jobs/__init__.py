"""Heavy work in a bounded pool of worker processes: progress, cancel, and worker death handled.

Pure-Python work (BPE training, lexing a huge file) holds the interpreter lock that every
session of a Streamlit server shares. `JobPool` runs such work in a few worker processes of
its own (forkserver or spawn start, never fork from a threaded server)::

    pool = JobPool(workers=1)
    job = pool.submit(train_task, text, options)   # returns at once
    job.progress                                   # Progress(fraction=0.4, text="Merge 400 of 1,000")
    job.cancel()                                   # the job raises JobCancelled at its next report()
    job.result(timeout=60)                         # the value, or JobCancelled / WorkerDied / its error

A job function reports progress with `report(fraction, text)`; that call is also where a
cancelled job stops (it raises JobCancelled). Outside a worker, `report` goes to the callback
given to `reporting_to`, so the same function runs in-process for small inputs.

A worker that dies (killed by the kernel for memory, a crash in native code, `kill -9`) ends
only its own job, with WorkerDied (a clear message: the user can simply run it again), and is
replaced; see `pool` for how every other state a job can be in ends in bounded time.

This package never imports streamlit: the progress bar and Cancel button are the app's.
"""

from .errors import JobCancelled, JobError, Progress, WorkerDied
from .job import Job
from .pool import JobPool
from .worker import report, reporting_to

__all__ = ["Job", "JobCancelled", "JobError", "JobPool", "Progress", "report", "reporting_to", "WorkerDied"]
