"""The bank generator (see README.md): `python -m tools.bankgen.build`, `python -m
tools.bankgen.sandbox_check`, run from the repository root."""
