"""Readers and shortcuts that only tests (and benchmarks) need, kept out of the product."""
