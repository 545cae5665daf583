"""Generated contract files: every scenario field's type, default, range, unit and enumeration
is written once, in the Pydantic models of app.scenarios (and app.scenarios.limits), and
`python -m app.contracts.generate` (scripts/gen-contracts.sh) writes the copies the other
languages read: docs/scenario.schema.json, the editor's TypeScript table and simcore's C++ header.
"""
