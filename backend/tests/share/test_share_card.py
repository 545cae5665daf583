"""The share link's preview card: the server renders Open Graph tags for /s/<id> (chat tools do
not run JavaScript) and the PNG thumbnail they point at is a real picture of the topology."""

import io
import re
from html.parser import HTMLParser

import httpx
from PIL import Image

SCENARIO = {
    "schema_version": 1, "name": "Incast <script>alert(1)</script> & co",
    "description": "Two senders into one receiver under leaf0. " + "More words. " * 40,
    "duration_us": 200,
    "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2},
    "traffic": [{"kind": "pairs", "pairs": [["h0", "h2"]]}],
}


class Meta(HTMLParser):
    """<meta property|name=... content=...> and the <title> of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, str] = {}
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "meta" and "content" in a:
            self.tags[a.get("property") or a.get("name") or ""] = a["content"]
        self._in_title = tag == "title"

    def handle_data(self, data):
        if self._in_title:
            self.title += data

    def handle_endtag(self, tag):
        self._in_title = False if tag == "title" else self._in_title


def site(api: httpx.Client) -> str:
    return str(api.base_url).rstrip("/").removesuffix("/api/v1")


def test_share_page_html_carries_the_card(api):
    created = api.post("/scenarios", json={"scenario": SCENARIO})
    assert created.status_code == 201, created.text
    sid = created.json()["id"]
    for path in (f"/s/{sid}", f"/share/{sid}"):
        page = httpx.get(site(api) + path, timeout=30)
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        # the name is user text: escaped, never markup
        assert "<script>alert(1)</script>" not in page.text
        meta = Meta()
        meta.feed(page.text)
        assert meta.title == "Incast <script>alert(1)</script> & co · FabricTwin"
        assert meta.tags["og:title"] == SCENARIO["name"]
        assert meta.tags["og:url"] == site(api) + path
        assert meta.tags["og:type"] == "website"
        description = meta.tags["og:description"]
        assert description.startswith("4 hosts · 4 switches · 8 links — Two senders into one receiver")
        assert len(description) < 260 and description.endswith("…")
        assert meta.tags["twitter:card"] == "summary_large_image"
        image = meta.tags["og:image"]
        assert image == f"{site(api)}/api/v1/scenarios/{sid}/thumbnail.png"
        assert meta.tags["og:image:width"] == "1200" and meta.tags["og:image:height"] == "630"


def test_thumbnail_is_a_png_of_the_topology(api):
    sid = api.post("/scenarios", json={"scenario": SCENARIO}).json()["id"]
    got = httpx.get(f"{site(api)}/api/v1/scenarios/{sid}/thumbnail.png", timeout=30)
    assert got.status_code == 200 and got.headers["content-type"] == "image/png"
    img = Image.open(io.BytesIO(got.content)).convert("RGB")
    assert img.size == (1200, 630)
    colours = img.getcolors(maxcolors=1 << 16)
    counts = {c: n for n, c in colours}
    # 4 hosts drawn in the host blue, 4 switches in green (anti-aliasing adds shades, not these)
    host = counts.get((0x4C, 0x78, 0xA8), 0)
    switch = counts.get((0x54, 0xA2, 0x4B), 0)
    assert host > 4 * 100 and switch > 4 * 200
    svg = httpx.get(f"{site(api)}/api/v1/scenarios/{sid}/thumbnail.svg", timeout=30)
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert len(re.findall(r"<circle ", svg.text)) == 4 and len(re.findall(r"<line ", svg.text)) == 8
    assert "&lt;script&gt;" in svg.text and "<script>" not in svg.text


def test_unknown_share_link_is_404_without_a_card(api):
    page = httpx.get(site(api) + "/s/doesnotexist", timeout=30)
    assert page.status_code == 404
    meta = Meta()
    meta.feed(page.text)
    assert "og:title" not in meta.tags
    assert api.get("/scenarios/doesnotexist/thumbnail.png").status_code == 404
