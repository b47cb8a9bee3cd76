"""Whether a document passes a JSON Schema, yes or no, without importing jsonschema.

`meeple validate` of a file seen for the first time spent a fifth of its time importing jsonschema
(about 50 ms: referencing, attrs, the metaschemas, the format checkers), only to learn, nearly always,
that the file passes. This module answers that question by itself: the schema is compiled once into
nested checks that follow jsonschema's own keyword functions (`jsonschema/_keywords.py`, Draft 2020-12,
no format assertions), including its idea of equality (`true` is not `1`, `1.0` is an integer) and its
test for unique items. Only a pass is taken from here: a document that fails is checked again by
jsonschema, which finds and explains every problem (`schema.validate_document`). A schema using a
keyword this module does not know is not compiled at all (`compile_schema` raises `Unsupported`), and
jsonschema checks every document. tests/test_schemacheck.py holds the two to the same verdict on the
bundled files, the broken examples and thousands of mutated rulesets.
"""

from __future__ import annotations

import itertools
import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Check = Callable[[Any], bool]


class Unsupported(Exception):
    """The schema uses something this module does not implement: leave the document to jsonschema."""


# keywords that only describe (jsonschema ignores them when validating)
_NOTES = {"$schema", "$comment", "$defs", "title", "description", "default", "examples", "deprecated",
          "readOnly", "writeOnly", "then", "else"}  # then/else act through `if`

_TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "number": lambda x: isinstance(x, numbers.Number) and not isinstance(x, bool),
    "integer": lambda x: (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer()),
}
_TRUE, _FALSE = object(), object()


def _unbool(x: Any) -> Any:
    return _TRUE if x is True else _FALSE if x is False else x


def equal(one: Any, two: Any) -> bool:
    """jsonschema's equality (`_utils.equal`): booleans are not numbers, lists and mappings compare deeply."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(equal(i, j) for i, j in zip(one, two))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(k in two and equal(v, two[k]) for k, v in one.items())
    return bool(_unbool(one) == _unbool(two))


def unique(items: list) -> bool:
    """jsonschema's `_utils.uniq`, step for step (its sorted pass can miss duplicates around a NaN, and
    the verdict must be the same)."""
    try:
        ordered = sorted(_unbool(i) for i in items)
        for i, j in zip(ordered, itertools.islice(ordered, 1, None)):
            if equal(i, j):
                return False
    except (NotImplementedError, TypeError):
        seen: list = []
        for e in items:
            e = _unbool(e)
            if any(equal(i, e) for i in seen):
                return False
            seen.append(e)
    return True


def compile_schema(root: Any) -> Check:
    """A function of a document that is True exactly when jsonschema finds no error in it."""
    refs: dict[str, Check | None] = {}

    def ref(target: str) -> Check:
        if target not in refs:
            refs[target] = None  # a definition that refers to itself finds its own entry when it runs
            refs[target] = build(_resolve(root, target))
        return lambda x: refs[target](x)  # type: ignore[misc]

    def build(s: Any) -> Check:
        if s is True or s is False:
            return (lambda x: True) if s else (lambda x: False)
        if not isinstance(s, dict):
            raise Unsupported(f"a schema that is {type(s).__name__}")
        checks = [_keyword(key, value, s, build, ref) for key, value in s.items() if key not in _NOTES]
        if len(checks) == 1:
            return checks[0]
        return lambda x: all(c(x) for c in checks)

    return build(root)


def _resolve(root: Any, target: str) -> Any:
    if target == "#":
        return root
    if not target.startswith("#/") or "%" in target:
        raise Unsupported(f"the reference {target}")
    node = root
    for part in target[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            raise Unsupported(f"the reference {target}")
        node = node[part]
    return node


def _keyword(key: str, v: Any, s: dict, build: Callable[[Any], Check], ref: Callable[[str], Check]) -> Check:
    """One keyword's check, as jsonschema's function of the same name decides it."""
    is_obj, is_arr, is_str, is_num = _TYPES["object"], _TYPES["array"], _TYPES["string"], _TYPES["number"]
    if key == "type":
        names = [v] if isinstance(v, str) else list(v)
        if not all(n in _TYPES for n in names):
            raise Unsupported(f"the type {v}")
        tests = [_TYPES[n] for n in names]
        return lambda x: any(t(x) for t in tests)
    if key == "$ref":
        return ref(v)
    if key == "enum":
        return lambda x: any(equal(e, x) for e in v)
    if key == "const":
        return lambda x: equal(x, v)
    if key == "properties":
        props = [(name, build(sub)) for name, sub in v.items()]
        return lambda x: not is_obj(x) or all(c(x[k]) for k, c in props if k in x)
    if key == "patternProperties":
        pats = [(re.compile(p), build(sub)) for p, sub in v.items()]
        return lambda x: not is_obj(x) or all(c(val) for rx, c in pats for k, val in x.items() if rx.search(k))
    if key == "additionalProperties":
        known = s.get("properties", {})
        joined = "|".join(s.get("patternProperties", {}))
        rx = re.compile(joined) if joined else None

        def extras(x: dict) -> list:
            return [k for k in x if k not in known and not (rx is not None and rx.search(k))]
        if isinstance(v, dict):
            c = build(v)
            return lambda x: not is_obj(x) or all(c(x[k]) for k in extras(x))
        if isinstance(v, bool):
            return lambda x: v or not is_obj(x) or not extras(x)
        raise Unsupported("additionalProperties")
    if key == "propertyNames":
        c = build(v)
        return lambda x: not is_obj(x) or all(c(k) for k in x)
    if key == "required":
        return lambda x: not is_obj(x) or all(k in x for k in v)
    if key == "dependentRequired":
        return lambda x: not is_obj(x) or all(d in x for k, deps in v.items() if k in x for d in deps)
    if key == "dependentSchemas":
        subs = [(k, build(sub)) for k, sub in v.items()]
        return lambda x: not is_obj(x) or all(c(x) for k, c in subs if k in x)
    if key == "items":
        if "prefixItems" in s:
            raise Unsupported("prefixItems")
        c = build(v)
        return lambda x: not is_arr(x) or all(c(i) for i in x)
    bounds: dict[str, tuple[Check, Callable[[Any], Any], Callable[[Any, Any], bool]]] = {
        "minProperties": (is_obj, len, lambda n, b: n >= b), "maxProperties": (is_obj, len, lambda n, b: n <= b),
        "minItems": (is_arr, len, lambda n, b: n >= b), "maxItems": (is_arr, len, lambda n, b: n <= b),
        "minLength": (is_str, len, lambda n, b: n >= b), "maxLength": (is_str, len, lambda n, b: n <= b),
        "minimum": (is_num, _same, lambda n, b: not n < b), "maximum": (is_num, _same, lambda n, b: not n > b),
        "exclusiveMinimum": (is_num, _same, lambda n, b: not n <= b),
        "exclusiveMaximum": (is_num, _same, lambda n, b: not n >= b)}
    if key in bounds:
        applies, measure, ok = bounds[key]
        return lambda x: not applies(x) or ok(measure(x), v)
    if key == "uniqueItems":
        return lambda x: not v or not is_arr(x) or unique(x)
    if key == "pattern":
        rx = re.compile(v)
        return lambda x: not is_str(x) or rx.search(x) is not None
    if key in ("anyOf", "allOf", "oneOf"):
        branches = [build(sub) for sub in v]
        if key == "anyOf":
            return lambda x: any(c(x) for c in branches)
        if key == "allOf":
            return lambda x: all(c(x) for c in branches)
        return lambda x: sum(1 for c in branches if c(x)) == 1
    if key == "not":
        c = build(v)
        return lambda x: not c(x)
    if key == "if":
        test = build(v)
        then = build(s["then"]) if "then" in s else None
        other = build(s["else"]) if "else" in s else None
        return lambda x: (then is None or then(x)) if test(x) else (other is None or other(x))
    raise Unsupported(f"the keyword {key}")


def _same(x: Any) -> Any:
    return x
