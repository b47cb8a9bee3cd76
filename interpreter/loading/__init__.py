"""Stage 1, loading: YAML with positions, the JSON Schema, bundled files, variants and imports merged."""
