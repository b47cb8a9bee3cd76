"""Interpreter frames: the kinds, and how a stack of them is copied and saved.

A frame is a small list `[kind, node, scope, ...]`. Scopes (dicts of locals) are shared between the
frames of one procedure call, so copies and saves keep that sharing: each scope is copied or written
once and referred to by index.
"""

from __future__ import annotations

from meeple.runtime.data import decode, encode

BLOCK, FOR, WHILE, REPEAT, CALL, CHOOSE, SIMUL, TRIGGER = range(8)
LOOPS = (FOR, WHILE, REPEAT)


def copy_frames(stack: list) -> list:
    # The frames of one block, its loops and branches, lie next to each other and share a scope: the
    # scope of the frame before is reused without a look-up. A scope is copied as copy_values does.
    # (One pass, and no table of scopes until a second one is met: every copy of a game comes here.)
    out = []
    last = new = None
    scopes: dict[int, dict] | None = None
    for f in stack:
        g = f[:]
        sc = g[2]
        if sc is last:
            g[2] = new
        elif sc is not None:
            if scopes is None:
                scopes, new = {}, None
            else:
                new = scopes.get(id(sc))
            if new is None:
                new = scopes[id(sc)] = sc.copy()
            g[2] = new
            last = sc
        out.append(g)
    return out


def frames_to_json(stack: list, node_ids: dict[int, int]) -> dict:
    scopes: dict[int, int] = {}
    scope_list: list = []
    frames = []
    for f in stack:
        sc = f[2]
        ref = None
        if sc is not None:
            ref = scopes.get(id(sc))
            if ref is None:
                ref = scopes[id(sc)] = len(scope_list)
                scope_list.append({k: encode(v) for k, v in sc.items()})
        node = None if f[1] is None else node_ids[id(f[1])]
        frames.append([f[0], node, ref] + [encode(x) for x in f[3:]])
    return {"frames": frames, "scopes": scope_list}


def frames_from_json(data: dict, nodes: list) -> list:
    scopes = [{k: decode(v) for k, v in sc.items()} for sc in data["scopes"]]
    stack = []
    for fr in data["frames"]:
        kind, node, ref = fr[0], fr[1], fr[2]
        if kind not in range(8):
            raise ValueError(f"unknown frame kind {kind}")
        stack.append([kind, None if node is None else nodes[node], None if ref is None else scopes[ref]]
                     + [decode(x) for x in fr[3:]])
    return stack
