"""The backend's layers point one way (docs/architecture.md, "The layers"): app/core imports no
domain package, nothing under app imports the workers, and the Celery application is defined in
app/core/queue.py, which the workers import. Reads every import statement (ast), so an import
inside a function counts too."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "backend" / "app"


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
    return out


def _where(path: Path, line: int, module: str) -> str:
    return f"{path.relative_to(ROOT)}:{line} imports {module}"


def test_core_imports_no_domain():
    bad = [_where(p, line, m) for p in sorted((APP / "core").rglob("*.py"))
           for line, m in _imports(p)
           if m.startswith("app.") and not m.startswith("app.core")]
    assert bad == [], "app/core is the bottom layer:\n" + "\n".join(bad)


def test_nothing_under_app_imports_workers():
    bad = [_where(p, line, m) for p in sorted(APP.rglob("*.py")) for line, m in _imports(p)
           if m == "workers" or m.startswith("workers.")]
    assert bad == [], "the workers depend on the app, not the other way:\n" + "\n".join(bad)


def test_the_celery_app_is_defined_once_in_core_queue():
    from app.core.queue import celery_app
    from workers.celery_app import celery_app as worker_entry

    assert worker_entry is celery_app
    defining = [p.relative_to(ROOT) for base in (APP, ROOT / "workers") for p in base.rglob("*.py")
                if "Celery(" in p.read_text()]
    assert defining == [Path("backend/app/core/queue.py")], defining


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from workers.tasks import runs\n    import app.runs.models\n")
    assert [m for _, m in _imports(sample)] == ["workers.tasks", "app.runs.models"]


def test_the_runs_know_nothing_of_sweeps():
    """Sweeps are made of runs, not the other way: the reconciler, which knows both, lives with
    the sweeps (app/sweeps/reconciler.py), and the v1 router is assembled in app/main.py, the top,
    not in app/api, which every domain imports."""
    bad = [_where(p, line, m) for p in sorted((APP / "runs").rglob("*.py"))
           for line, m in _imports(p) if m == "app.sweeps" or m.startswith("app.sweeps.")]
    assert bad == [], "app/runs imports app/sweeps:\n" + "\n".join(bad)
    assert not (APP / "api" / "main.py").exists()
    domains = {p.name for p in APP.iterdir() if p.is_dir() and (p / "router.py").exists()}
    bad = [_where(p, line, m) for p in sorted((APP / "api").rglob("*.py")) for line, m in _imports(p)
           if m.split(".")[1:2] and m.split(".")[1] in domains and m.endswith(".router")]
    assert bad == [], "app/api includes a domain's router:\n" + "\n".join(bad)


# Bottom to top: every package of app/ imports only packages of layers below its own (issue 39).
# The features in one layer import none of each other. A new package must be placed here.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core",),
    ("api",),  # the base the domains share: session, settings, owner checks, errors, streams
    ("auth",),  # who is asking (CallerDep)
    ("scenarios",),
    ("runs",),
    ("sweeps",),
    ("tunings",),
    ("configcheck", "contracts", "estimate", "fabricsettings", "imports", "labs", "measurements",
     "presets", "share", "topologies"),
    ("main", "models"),  # the composition root; every table for Alembic
)


def _package_imports() -> dict[str, set[tuple[str, str]]]:
    """app package (or top module) -> {(imported package, where)}."""
    out: dict[str, set[tuple[str, str]]] = {}
    for path in sorted(APP.rglob("*.py")):
        rel = path.relative_to(APP).parts
        if rel == ("__init__.py",):
            continue
        package = rel[0].removesuffix(".py")
        for line, module in _imports(path):
            parts = module.split(".")
            if parts[0] == "app" and len(parts) > 1 and parts[1] != package:
                out.setdefault(package, set()).add((parts[1], _where(path, line, module)))
    return out


def _upward(imports: dict[str, set[tuple[str, str]]]) -> list[str]:
    level = {name: i for i, layer in enumerate(LAYERS) for name in layer}
    return sorted(where for package, targets in imports.items() for target, where in targets
                  if level[target] >= level[package])


def test_every_package_has_a_layer():
    packages = {p.relative_to(APP).parts[0].removesuffix(".py") for p in APP.rglob("*.py")}
    packages.discard("__init__")
    placed = {name for layer in LAYERS for name in layer}
    assert packages - placed == set(), "place the new package in LAYERS"


def test_no_import_points_back_up():
    bad = _upward(_package_imports())
    assert bad == [], "an import points up (or across a layer):\n" + "\n".join(bad)


def test_the_order_check_sees_an_upward_import():
    planted = {"api": {("runs", "app/api/deps.py:1 imports app.runs.models")},
               "share": {("presets", "app/share/x.py:1 imports app.presets.service")},
               "runs": {("scenarios", "fine")}}
    assert _upward(planted) == ["app/api/deps.py:1 imports app.runs.models",
                                "app/share/x.py:1 imports app.presets.service"]
