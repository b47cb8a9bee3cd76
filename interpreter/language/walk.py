"""Generic walks over the AST (language/ast.py): a node's direct children and every node below one,
for the checker, coverage, suspension analysis and the code generator.
"""

from __future__ import annotations


def children(n: object) -> list[object]:
    """Direct child nodes, for generic walks (checker, coverage, suspension analysis)."""
    out: list[object] = []
    for f in n.__slots__:  # type: ignore[attr-defined]
        if f == "span":
            continue
        v = getattr(n, f)
        if isinstance(v, tuple):
            for x in v:
                if isinstance(x, tuple):
                    out.extend(y for y in x if hasattr(y, "span"))
                elif hasattr(x, "span"):
                    out.append(x)
        elif hasattr(v, "span"):
            out.append(v)
    return out


def walk(n: object):
    """All nodes below and including n, depth first."""
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(children(x)))


def clone(n: object) -> object:
    """A copy of the tree under `n` made of new nodes (the same spans): nodes compare by identity and
    later stages keep side tables keyed by node, so a tree used in two places needs a copy of its own."""
    if isinstance(n, tuple):
        return tuple(clone(x) for x in n)
    if not hasattr(n, "span") or not hasattr(n, "__slots__"):
        return n  # a value (a number, a name, a span): shared as it is
    return type(n)(*(getattr(n, f) if f == "span" else clone(getattr(n, f)) for f in n.__slots__))
