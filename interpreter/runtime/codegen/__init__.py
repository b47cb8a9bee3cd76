"""The compiled engine: a ruleset turned into Python source that CPython runs directly.

`module.py` decides what is generated, `exprs.py` and `stmts.py` write it, `support.py` holds what the
generated code calls, `cache.py` keeps modules by content hash and binds them to a ruleset, and
`evaluator.py` is the evaluator that serves the frame machine from them. docs/performance.md explains it.
"""
