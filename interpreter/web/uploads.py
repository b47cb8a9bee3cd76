"""A ruleset file sent from the browser: the name it is kept under, and its file in the upload folder.

An upload keeps the name it was sent with, suffix included: `mine.yaml` and `mine.yml` are two files
(`upload/mine.yaml`, `upload/mine.yml`), and only a file sent again under the very same name replaces
the one before. A name is the file's own name: one that names a folder (`sub/mine.yaml`,
`../mine.yaml`), a hidden one, one longer than MAX_NAME characters, or one of a file that is not YAML is
refused before anything is written, and so is anything the file system will not take under that name.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from meeple.errors import Problem, UsageError

MAX_NAME = 100  # characters of an uploaded file's name
MAX_NAME_BYTES = 200  # and its bytes: file systems take 255, and the copy kept while a new one is checked adds 6
SUFFIXES = (".yaml", ".yml")


def _refused(message: str, hint: str | None = "send a ruleset file by its own name") -> UsageError:
    return UsageError(Problem("B001", message, hint=hint))


def quoted(text: str) -> str:
    """`text` as a refusal quotes what was sent: in quotes, a backslash doubled as repr() doubles it, and a
    character that is not printable as its code point (`<U+0009>`), not as repr()'s escape: found by QA,
    Lobby.shown took the backslash of `'a\\tb.yaml'` for a Windows folder and cut the name to `'tb.yaml'`."""
    return "'" + "".join(c.replace("\\", "\\\\") if c.isprintable() else f"<U+{ord(c):04X}>" for c in text) + "'"


def upload_name(filename: Any) -> str:
    """The name an uploaded file is kept under: the name it was sent with, if it is a file's own name."""
    if not isinstance(filename, str) or not filename.strip():
        raise _refused("the file has no name")
    shown = quoted(filename) if len(filename) <= 40 else quoted(filename[:37]) + "..."
    if len(filename) > MAX_NAME:
        raise _refused(f"the file name is longer than {MAX_NAME} characters", "rename the file, shorter")
    if "/" in filename or "\\" in filename:
        raise _refused(f"{shown} names a folder: an upload is named by the file's own name alone")
    if filename.startswith(".") or not filename.isprintable():
        raise _refused(f"{shown} is not a name the lobby keeps a file under (hidden, or with control characters)")
    try:
        size = len(filename.encode("utf-8"))
    except UnicodeEncodeError:
        raise _refused(f"{shown} is not a name the lobby keeps a file under (not UTF-8)") from None
    if size > MAX_NAME_BYTES:  # found in review: 253 bytes uploaded once, then its kept copy's name was too long
        raise _refused(f"the file name is longer than {MAX_NAME_BYTES} bytes", "rename the file, shorter")
    if Path(filename).suffix.lower() not in SUFFIXES:
        raise _refused(f"{shown} is not a YAML file: a ruleset file ends in .yaml or .yml")
    return filename


def replace_file(path: Path, text: str, check: Any) -> Any:
    """Writes `text` to `path` and returns `check()` of it. A file there before waits beside it (so what it
    extends and an unnamed variant's name, its file name, stay as they are) and comes back if the check
    raises; what the file system will not do under that name is a refusal (B001), not a crash."""
    kept = path.with_name(f".{path.name}.kept")
    try:
        had = path.exists()
        if had:
            os.replace(path, kept)
    except OSError as e:
        raise _refused(f"the server cannot keep a file named {path.name!r}: {e.strerror or e}",
                       "rename the file") from None
    try:
        path.write_text(text, encoding="utf-8")
        out = check()
    except BaseException as e:
        os.replace(kept, path) if had else path.unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise _refused(f"the server cannot keep a file named {path.name!r}: {e.strerror or e}",
                           "rename the file") from None
        if isinstance(e, UnicodeEncodeError):
            raise _refused("the file's text is not UTF-8", "save the file as UTF-8 text") from None
        raise
    if had:
        kept.unlink()
    return out
