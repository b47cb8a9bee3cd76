"""The compiled engine: a ruleset turned into Python source that CPython runs directly.

`module.py` decides what is generated (with `flow.py`: which variables are certainly bound where),
`exprs.py` and `stmts.py` write it, `support.py` and `tables.py` hold what the generated code calls,
`cache.py` keeps modules by content hash and binds them to a ruleset, and `evaluator.py` is the
evaluator that serves the frame machine from them. docs/performance.md explains it.
"""
