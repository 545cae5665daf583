"""The built frontend: the app's routes answer 200, any other path the app's page with 404
(issue 22 §4: /no/such/page was a soft 404)."""

from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.core.frontend import mount_frontend


def test_unknown_paths_are_a_real_404(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><title>FabricTwin</title>")
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "app.js").write_text("console.log(1)")
    app = FastAPI()
    mount_frontend(app, tmp_path)
    client = TestClient(app)
    for path in ("/", "/editor", "/runs/abc_DEF-1", "/compare", "/sweeps/new", "/tunings/x1",
                 "/labs", "/guide/tuning", "/seeds", "/measurements/m1", "/assets/app.js"):
        assert client.get(path).status_code == 200, path
    for path in ("/no/such/page", "/runs", "/runs/a/b", "/editorx", "/assets/none.js"):
        page = client.get(path)
        assert page.status_code == 404, path
        assert "FabricTwin" in page.text  # the app still renders its "Page not found"
