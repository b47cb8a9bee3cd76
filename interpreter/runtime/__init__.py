"""Stage 4, the runtime: state, values, evaluators, the frame machine, built-ins, the Game API, views."""
