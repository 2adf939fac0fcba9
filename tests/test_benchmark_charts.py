"""The benchmark charts (benchmarks/charts.py) drawn from small hand-written JSON files in
tests/data/ (made-up numbers in the formats of benchmarks/report.py and benchmarks/accuracy.py
--json). Plotting only: nothing is timed or measured here."""
import html
import json
import pathlib
import sys

import pytest

pytest.importorskip("matplotlib")

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = pathlib.Path(__file__).resolve().parent / "data"
sys.path.insert(0, str(ROOT / "benchmarks"))

import charts  # noqa: E402


def load(name):
    return json.loads((DATA / name).read_text())


def in_svg(text, svg):
    return text in svg or html.escape(text, quote=False) in svg


def check_files(paths, expected):
    assert sorted(p.name for p in paths) == sorted(expected)
    for p in paths:
        assert p.is_file() and p.stat().st_size > 1000, f"{p} missing or nearly empty"
    for p in paths:
        if p.suffix == ".png":
            assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        else:
            assert p.read_text().lstrip().startswith("<?xml")


def test_report_charts_against_numpy_and_pytorch(tmp_path):
    report = load("report.json")
    paths = charts.plot_report(report, tmp_path)
    check_files(paths, ["report-numpy.svg", "report-numpy.png", "report-pytorch.svg", "report-pytorch.png"])
    for peer, label in (("numpy", "NumPy"), ("pytorch", "PyTorch")):
        svg = (tmp_path / f"report-{peer}.svg").read_text()
        key = "ratio_numpy" if peer == "numpy" else "ratio_torch"
        for case in report["cases"]:
            shown = case[key] is not None
            assert in_svg(case["name"], svg) == shown, (peer, case["name"])
        assert 'id="ratio-1.0-line"' in svg  # the vertical line at 1.0
        assert f"faster than {label}" in svg and f"slower than {label}" in svg
        assert report["date"] in svg and report["machine"]["cpu"] in svg  # the title


def test_faster_and_slower_bars_differ_in_colour(tmp_path):
    charts.plot_report(load("report.json"), tmp_path)
    svg = (tmp_path / "report-numpy.svg").read_text().lower()
    # The fixture has cases on both sides of 1.0 against NumPy.
    assert charts.FASTER.lower() in svg and charts.SLOWER.lower() in svg


def test_no_pytorch_chart_without_pytorch_figures(tmp_path):
    report = load("report.json")
    (tmp_path / "run-pytorch.svg").write_text("<svg/>")  # an earlier run's: not this run's chart
    report["machine"]["torch"] = None
    for case in report["cases"]:
        case["times"]["torch"] = None
        case["ratio_torch"] = None
    paths = charts.plot_report(report, tmp_path, stem="run")
    check_files(paths, ["run-numpy.svg", "run-numpy.png"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run-numpy.png", "run-numpy.svg"]


def test_accuracy_chart(tmp_path):
    accuracy = load("accuracy.json")
    paths = charts.plot_accuracy(accuracy, tmp_path)
    check_files(paths, ["accuracy.svg", "accuracy.png"])
    svg = (tmp_path / "accuracy.svg").read_text()
    for name in {r["function"] for r in accuracy["results"]} | {r["dtype"] for r in accuracy["results"]}:
        assert in_svg(name, svg), name
    assert 'id="ulp-1.0-line' in svg  # the 1 ulp line, in each panel
    assert "dlarray" in svg and "NumPy" in svg
    assert ">inf<" in svg  # the fixture's wrong special value, shown as such
    assert accuracy["date"] in svg


def test_plot_file_redraws_next_to_the_json(tmp_path):
    for name in ("report.json", "accuracy.json"):
        (tmp_path / name).write_text((DATA / name).read_text())
    written = charts.plot_file(tmp_path / "report.json") + charts.plot_file(tmp_path / "accuracy.json")
    assert {p.name for p in written} == {"report-numpy.svg", "report-numpy.png", "report-pytorch.svg",
                                         "report-pytorch.png", "accuracy.svg", "accuracy.png"}
