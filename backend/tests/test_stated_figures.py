"""Every measured figure that docs/presets.md, docs/model.md and the labs state is what the
simulator gives now (validation/figures/): each declared run runs on the real `fabricsim`, and a
stated number more than 1 % (or half its last digit) off fails, as does a tag naming no declared
figure or a declared figure that no document states. `python -m validation.figures --write`
rewrites the numbers after a model change; the diff then shows every figure that moved."""

import re

import pytest

from app.core.config import get_settings
from validation.figures import core, documents


@pytest.fixture(scope="module")
def measured() -> dict[str, float]:
    fabricsim = get_settings().FABRICSIM_BIN
    if not fabricsim.is_file():
        pytest.fail(f"fabricsim not found at {fabricsim}", pytrace=False)
    return documents.measure(jobs=2)


def test_every_stated_figure_is_what_the_simulator_gives(measured):
    findings = documents.check(measured)
    assert not findings, "\n".join(map(str, findings))


def test_a_drifted_figure_is_caught(measured, tmp_path, monkeypatch):
    """The check itself: a stated number moved by 2 % is reported, by 0.5 % it is not."""
    fid = "incast.none.pauses"
    value = measured[fid]
    doc = tmp_path / "doc.md"
    monkeypatch.setattr(core, "DOCS", [doc])
    monkeypatch.setattr(core, "FIGURES", {fid: core.FIGURES[fid]})
    doc.write_text(f"pauses: {documents.fmt(value * 1.02, 0)}<!--fig {fid}-->\n")
    assert [f.fid for f in documents.check(measured)] == [fid]
    doc.write_text(f"pauses: {documents.fmt(value * 1.005, 0)}<!--fig {fid}-->\n")
    assert documents.check(measured) == []
    doc.write_text("pauses: 12<!--fig no.such.figure-->\n")
    assert [f.message for f in documents.check(measured)] == ["no such figure is declared",
                                                         "declared but stated in no document"]


def test_tags_are_never_shown():
    """A tag sits right after its number, inside an HTML comment: the app's markdown renderer
    skips HTML (frontend/src/components/Markdown.tsx) and the labs API strips the tags."""
    from app.labs.service import FIGURE_TAG, load_lab

    for doc, _, m in documents.tags():
        assert FIGURE_TAG.fullmatch(m.group(0)[len(m["num"]):]), (doc, m.group(0))
    for path in (core.ROOT / "docs" / "labs").glob("lab*.md"):
        lab = load_lab(path.stem)
        assert lab is not None and "<!--fig" not in lab.model_dump_json(), path.stem
    assert not re.search(r"\d<!--fig", core.ROOT.joinpath("README.md").read_text())


def test_validation_doc_check_compares_numbers_within_1_percent():
    """scripts/validate.sh --check (the test command) compares docs/validation.md with what this
    build renders: text must match, numbers within 1 % or half their last digit."""
    from validation.run import differences

    doc = "| N=2 | 21.4 KB | 17.8 KB (-17%) | PASS |\n"
    assert differences(doc, doc) == []
    assert differences(doc, "| N=2 | 21.4 KB | 17.85 KB (-17%) | PASS |\n") == []
    assert len(differences(doc, "| N=2 | 21.4 KB | 16.8 KB (-21%) | PASS |\n")) == 1
    assert len(differences(doc, "| N=2 | 21.4 KB | 17.8 KB (-17%) | FAIL |\n")) == 1
    assert len(differences(doc, doc + "| N=4 | 44.8 KB |\n")) == 1
