"""The configuration check: one implementation, `fabricsim check` (simcore/scenario/config-check.cc),
which the API (POST /scenarios/check), the CLI and the editor's panel all use."""
