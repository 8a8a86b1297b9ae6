"""Imported once by the worker pool's forkserver (``JobPool(preload=(..., __name__))``): the job
functions and the tokenizers the pages use by default are loaded there, before any worker is
forked from it, so every new worker starts with them (shared copy-on-write) instead of spending
seconds importing and loading them itself. Frozen out of the garbage collector's reach so the
children's collections do not touch, and so copy, those pages."""

import gc

from .tasks import preload_builtins

preload_builtins()
gc.freeze()
