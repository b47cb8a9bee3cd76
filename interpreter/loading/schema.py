"""Validate a loaded ruleset (or scenario file) against its JSON Schema, reporting every problem.

The schema files in `schema/` are the single source of truth for the file formats: editors read
them too, so this module only turns jsonschema's errors into located, plain-words problems.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import os
import pathlib
import re
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from meeple.errors import Problem, Span, UsageError
from meeple.loading import numbers
from meeple.loading.cache import cache_dir, prune, write_atomic
from meeple.loading.resources import data_dir
from meeple.loading.schemacheck import Check, Unsupported, compile_schema
from meeple.loading.yamlsrc import Document

if TYPE_CHECKING:  # jsonschema is imported only for a document that schemacheck does not pass
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

_TYPE_WORDS = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
               "number": "a number", "boolean": "true or false", "null": "empty"}
_NAME_HINT = "names use letters, digits and `_`, and do not start with a digit"


def schema_path() -> pathlib.Path:
    """The folder of schema files (see resources.py for where bundled data lives)."""
    folder = data_dir("schema")
    if folder is None or not (folder / "meeple.schema.json").is_file():
        raise UsageError(Problem("IO01", "cannot find the schema files (is meeple installed correctly?)"))
    return folder


@functools.cache
def load_schema(name: str = "meeple") -> dict:
    if not re.fullmatch(r"[a-z_]+", name):
        raise UsageError(Problem("IO01", f"no schema called `{name}`"))
    file = schema_path() / f"{name}.schema.json"
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(Problem("IO01", f"no schema called `{name}`")) from None


@functools.cache
def _quick(name: str) -> Check | None:
    """The schema `name` compiled by schemacheck, or None if it uses a keyword schemacheck does not know."""
    try:
        return compile_schema(load_schema(name))
    except Unsupported:
        return None


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(name))


# ------------------------------------------------------------------ documents known to pass
# Importing jsonschema and checking a ruleset cost about 60 ms, a quarter of `meeple validate`. A
# document's text that passed once (same schema file, same jsonschema) passes again: its hash is kept
# as an empty file under `schema/` in the cache folder. Only passes are kept, so problems are always
# found and reported by the schema itself.
KEEP_VALID = 1000


@functools.cache
def _checker_version(name: str) -> bytes:
    h = hashlib.sha256((schema_path() / f"{name}.schema.json").read_bytes())
    h.update(pathlib.Path(numbers.__file__).read_bytes())  # its check of `3.0` is part of the verdict
    spec = find_spec("jsonschema")
    if spec is not None and spec.origin:  # the installed version, from its metadata folder's name
        site = pathlib.Path(spec.origin).parent.parent
        h.update(" ".join(sorted(p.name for p in site.glob("jsonschema-*.dist-info"))).encode())
    return h.digest()


def _verdict(doc: Document, name: str) -> pathlib.Path:
    h = hashlib.sha256(_checker_version(name) + doc.text.encode("utf-8", "surrogatepass"))
    return cache_dir() / "schema" / f"{h.hexdigest()[:32]}.ok"


def known_valid(doc: Document, name: str = "meeple") -> bool:
    """Whether this text passed the schema `name` before, without a single problem."""
    path = _verdict(doc, name)
    try:
        os.utime(path)  # exists: and recently used, so that pruning keeps it
    except OSError:
        return False
    return True


def remember_valid(doc: Document, name: str = "meeple") -> None:
    """Record that the document passed (silently not, if the cache folder cannot be written)."""
    path = _verdict(doc, name)
    if write_atomic(path, b""):
        prune(path.parent, ".ok", KEEP_VALID)


def validate_document(doc: Document, name: str = "meeple") -> list[Problem]:
    # `3.0` and `1e3`, which the schema counts as integers: see numbers.py
    decimals = numbers.decimal_problems(doc.data, doc.span, getattr(doc, "line_text", None), _where)
    quick = _quick(name)
    if quick is not None and quick(doc.data):  # jsonschema would find nothing: see schemacheck.py
        return decimals
    problems: list[Problem] = []
    for error in _validator(name).iter_errors(doc.data):
        problems.extend(_explain(_leaf(error), doc))
    refused = {p.span for p in problems}  # `count: 20000.0` is out of bounds first
    unique = list(dict.fromkeys(problems + [p for p in decimals if p.span not in refused]))
    # A mistake inside a YAML anchor that several items merge is one place in the file: report it once
    # (the messages differ only in the item's index).
    seen: set[tuple] = set()
    once = []
    for p in unique:
        key = (p.code, re.sub(r"\[\d+\]", "[]", p.message), (p.span.file, p.span.line, p.span.col) if p.span else None)
        if key not in seen:
            seen.add(key)
            once.append(p)
    unique = once
    far = (1 << 30, 0)
    return sorted(unique, key=lambda p: (p.span.line, p.span.col) if p.span else far)


def _leaf(error: ValidationError) -> ValidationError:
    """Descend anyOf/oneOf to the most relevant branch error, unless the branches only differ
    in which key is required (a "one of these keys" rule, reported as such)."""
    from jsonschema.exceptions import best_match

    while error.validator in ("anyOf", "oneOf") and error.context and not _key_choice(error):
        error = best_match(error.context)
    return error


def _key_choice(error: ValidationError) -> list[str]:
    branches: Any = error.validator_value
    if all(isinstance(b, dict) and list(b) == ["required"] and len(b["required"]) == 1 for b in branches):
        return [b["required"][0] for b in branches]
    return []


def _where(path: tuple) -> str:
    if not path:
        return "the top level"
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    return f"`{text}`"


def kind_of(value: Any) -> str:
    """A YAML value's kind in a message's words: `a mapping`, `a string`, `an integer`..."""
    if isinstance(value, bool):
        return "true/false"
    for pytype, word in ((dict, "a mapping"), (list, "a list"), (str, "a string"), (int, "an integer"),
                         (float, "a number")):
        if isinstance(value, pytype):
            return word
    return "empty"


def _words(items: list[str], last: str = "or") -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return f"`{text if len(text) <= 40 else text[:37] + '...'}`"


def _explain(error: ValidationError, doc: Document) -> list[Problem]:
    path = tuple(error.absolute_path)
    # jsonschema types these as possibly unset; on errors from iter_errors they are always set
    value: Any = error.validator_value
    inst: Any = error.instance
    where, rule = _where(path), error.validator

    def at(code: str, message: str, where_: tuple = path, key: bool = False,
           hint: str | None = None) -> Problem:
        span = doc.span(where_, key=key) or Span(doc.path, 1, 1, 1, 1)
        return Problem(code, message, span, hint=hint)

    number = numbers.explain(rule, value, inst, where, doc.span(path) or Span(doc.path, 1, 1, 1, 1),
                             getattr(doc, "line_text", None))  # (a merged Source has no lines of its own)
    if number is not None:
        return [number]
    if rule == "type":
        types = [value] if isinstance(value, str) else list(value)
        if "number" in types and "integer" in types:
            types.remove("integer")
        # YAML reads `score: 0` as a number: a script that is one number or `true` needs quotes.
        quote = None
        if types == ["string"] and isinstance(inst, (int, float, bool)) and path:
            text = f'"{json.dumps(inst)}"'
            if not isinstance(path[-1], int):  # an item of a list is quoted alone: its index is no key
                text = f"{path[-1]}: {text}"
            quote = f"quote it so that YAML reads text: `{text}`"
        return [at("S001", f"{where} must be {_words([_TYPE_WORDS[t] for t in types])}, not {kind_of(inst)}",
                   hint=quote or _items_hint(path, types, inst))]
    if rule == "required":
        lead = f"{where} is missing" if path else "missing"
        return [at("S002", f"{lead} the required key `{k}`", key=True) for k in value if k not in inst]
    if rule == "dependentRequired":
        return [at("S002", f"`{k}` needs `{d}` next to it", path + (k,), key=True)
                for k, deps in value.items() if k in inst for d in deps if d not in inst]
    if rule == "additionalProperties":
        return [_unknown_key(k, error, path, at) for k in _extra_keys(error)]
    if rule in ("enum", "const"):
        options = value if rule == "enum" else [value]
        shown = ", ".join(_show(o).strip("`") for o in options)
        close = difflib.get_close_matches(str(inst), [str(o) for o in options], n=1)
        hint = f"expected one of: {shown}"
        if close:
            hint = f"did you mean `{close[0]}`? ({hint})"
        if rule == "const":
            return [at("S004", f"{where} must be {_show(value)}, not {_show(inst)}")]
        return [at("S004", f"{where} has an unknown value {_show(inst)}", hint=hint)]
    if rule == "pattern":
        return [at("S006", f"{where}: {_show(inst)} is not a valid name", hint=_NAME_HINT)]
    if rule in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        words = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
                 "exclusiveMaximum": "less than"}[rule]
        return [at("S005", f"{where} must be {words} {value}, not {_show(inst)}")]
    if rule in ("minItems", "minProperties", "minLength"):
        thing = {"minItems": "item", "minProperties": "entry", "minLength": "character"}[rule]
        return [at("S005", f"{where} must have at least {value} {thing}{'s' if value != 1 else ''}")]
    if rule == "uniqueItems":
        seen: list[Any] = []
        for i, item in enumerate(inst):
            if item in seen:
                return [at("S005", f"{_show(item)} appears more than once in {where}", path + (i,))]
            seen.append(item)
    if rule in ("oneOf", "anyOf") and _key_choice(error):
        keys = _key_choice(error)
        present = [k for k in keys if k in inst]
        listed = _words([f"`{k}`" for k in keys])
        if not present:
            return [at("S002", f"{where} needs one of {listed}", key=True)]
        both = _words([f"`{k}`" for k in present], "and")
        return [at("S005", f"{where} can have only one of {listed}, not {both}",
                   path + (present[1],), key=True)]
    if rule is None:  # a `false` schema: the key may not appear here at all
        return [at("S003", f"{where} is not allowed here", key=True)]
    return [at("S005", f"{where}: {error.message}")]


def _items_hint(path: tuple, types: list[str], inst: Any) -> str | None:
    """A variant's `items` written as a game writes them (a list): the first thing a designer copies
    from the base, so the hint shows the same item written the variant's way."""
    if not (len(path) == 3 and path[0] == "components" and path[2] == "items" and types == ["object"]
            and isinstance(inst, list)):
        return None
    first = next((i for i in inst if isinstance(i, dict) and isinstance(i.get("id"), str)), None)
    if first is None:
        example = "`ITEM_ID: {FIELD: VALUE}`"
    else:
        fields = ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in first.items() if k != "id")
        example = f"`{first['id']}: {{{fields}}}`"
    return (f"in a variant, `items` maps each item's id to the fields it changes, for instance {example} "
            "(only the changed fields are needed; see docs/variants.md)")


def _extra_keys(error: ValidationError) -> list[str]:
    schema: Any = error.schema
    instance: Any = error.instance
    known, patterns = schema.get("properties", {}), schema.get("patternProperties", {})
    return [k for k in instance if k not in known and not any(re.search(p, k) for p in patterns)]


# Words authors reach for where the schema has another: a variant's base ruleset is `extends` (not
# `phases`, the nearest spelling of `base`).
_SYNONYMS = {"base": "extends", "parent": "extends", "inherits": "extends", "based_on": "extends",
             "imports": "import", "include": "import", "includes": "import"}


def _unknown_key(key: str, error: ValidationError, path: tuple, at: Any) -> Problem:
    schema: Any = error.schema
    known = list(schema.get("properties", {}))
    if schema.get("patternProperties") and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return at("S006", f"`{key}` is not a valid name", path + (key,), key=True, hint=_NAME_HINT)
    inside = f" in {_where(path)}" if path else ""
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    if _SYNONYMS.get(key) in known:  # what authors call it elsewhere, which spelling alone would not find
        close = [_SYNONYMS[key]]
    if close:
        hint = f"did you mean `{close[0]}`?"
    elif known:
        hint = f"allowed keys here: {', '.join(known)}"
    else:
        hint = None
    return at("S003", f"unknown key `{key}`{inside}", path + (key,), key=True, hint=hint)
