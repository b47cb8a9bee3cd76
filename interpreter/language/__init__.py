"""Stage 2, the language: grammar, AST, parser, syntax errors, built-in signatures, the Ruleset model."""
