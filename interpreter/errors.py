"""Typed errors that carry a source location.

Every problem the tool reports is a `Problem`: where (a `Span` in a YAML file), what (a stable
code and a plain-words message), and optionally a hint. Exceptions carry one or more problems so
that a whole validation run can be reported at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file. Lines and columns are 1-based; end is inclusive of the last char."""

    file: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class Problem:
    code: str
    message: str
    span: Span | None = None
    severity: str = "error"  # "error" or "warning"
    hint: str | None = None

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span else ""
        return f"{where}{self.severity}[{self.code}]: {self.message}"


class MeepleError(Exception):
    """Base of all errors the tool reports to users. `exit_code` follows the CLI contract."""

    exit_code = 1

    def __init__(self, problems: list[Problem] | Problem | str, code: str = "E000") -> None:
        if isinstance(problems, str):
            problems = [Problem(code, problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class RulesetError(MeepleError):
    """The ruleset (or a variant, or a scenario) is invalid: exit code 1."""


class UsageError(MeepleError):
    """Wrong arguments, a missing or unreadable file, a file that is not a ruleset: exit code 2."""

    exit_code = 2


class SaveError(MeepleError):
    """A saved game that cannot be loaded (corrupt, or from another ruleset): exit code 1."""


class IllegalAction(MeepleError):
    """An action that is not legal now. The game state is unchanged."""


class RuntimeRuleError(MeepleError):
    """A ruleset did something impossible while running (a script bug), with its location."""


@dataclass(slots=True)
class Problems:
    """Collects problems during a validation pass, so that one run reports them all."""

    items: list[Problem] = field(default_factory=list)

    def add(self, code: str, message: str, span: Span | None = None, *, hint: str | None = None,
            severity: str = "error") -> None:
        self.items.append(Problem(code, message, span, severity, hint))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]
