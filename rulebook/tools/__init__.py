"""Developers' tools: the benchmark of ``make bench`` and the load test of the app server."""
