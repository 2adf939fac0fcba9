"""Charts of the benchmark results, drawn with matplotlib (Agg backend) from their JSON files.

- `plot_report(report, out_dir)`: from the JSON of benchmarks/report.py, one horizontal bar chart
  per peer (`report-numpy.svg/.png`, and `report-pytorch.svg/.png` when the run had PyTorch) of
  dlarray's time over the peer's per case, on a log scale around a line at 1.0; bars left of the
  line (dlarray faster) and right of it (slower) in two colours.
- `plot_accuracy(accuracy, out_dir)`: from the JSON of benchmarks/accuracy.py --json, the largest
  error in ulps per function, dlarray's and NumPy's side by side, one panel per dtype
  (`accuracy.svg/.png`).

Both take the loaded JSON dict (so tests can feed them a small recorded one) and return the paths
they wrote. `machine_info` gives the machine description both JSON files record. This module
imports neither dlarray nor NumPy.

usage: python3 benchmarks/charts.py JSON [JSON ...]   (redraws the charts next to each file)
"""
import datetime
import json
import math
import os
import pathlib
import platform
import sys

FASTER = "#0072B2"  # blue and vermillion: told apart with any colour vision (Okabe-Ito palette)
SLOWER = "#D55E00"
OURS = "#0072B2"
NUMPY = "#999999"
PEER_LABEL = {"numpy": "NumPy", "torch": "PyTorch"}
PEER_FILE = {"numpy": "numpy", "torch": "pytorch"}


def cpu_model():
    """The CPU's model name from /proc/cpuinfo, else platform.processor(), else None."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("model name", "Model", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def cpu_simd():
    """The widest x86 vector extension /proc/cpuinfo lists ("AVX-512", "AVX2"), else None."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    except OSError:
        return None
    return "AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else None


def machine_info(**versions):
    """Platform, CPU model, vector extension and count, Python's version, and the library
    versions given (name=version, None where a library is absent)."""
    info = {"platform": platform.platform(), "cpu": cpu_model(), "simd": cpu_simd(),
            "cpu_count": os.cpu_count(), "python": platform.python_version()}
    info.update(versions)
    return info


def now():
    """(date, UTC timestamp) of this run, as ISO strings."""
    t = datetime.datetime.now(datetime.timezone.utc)
    return t.date().isoformat(), t.isoformat(timespec="seconds")


RC = {
    "svg.fonttype": "none",  # text stays text in the SVG (searchable, selectable, small), not outlines
    "svg.hashsalt": "dlarray",  # the same JSON gives the same SVG ids
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica"],  # the SVG names these to the browser
}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def machine_line(doc):
    """"<date>, <CPU> with <extension> (<n> CPUs)" of a report or accuracy JSON dict."""
    m = doc.get("machine", {})
    cpu = m.get("cpu") or m.get("platform") or "unknown CPU"
    cpu += f" with {m['simd']}" if m.get("simd") else ""
    count = m.get("cpu_count")
    return f"{doc.get('date', 'undated')}, {cpu}" + (f" ({count} CPUs)" if count else "")


def _save(fig, out_dir, stem):
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for ext in ("svg", "png"):
        path = out_dir / f"{stem}.{ext}"
        # No creation date in the SVG/PNG metadata: a redraw of the same JSON gives the same file.
        fig.savefig(path, format=ext, dpi=110, bbox_inches="tight",
                    metadata={"Date": None} if ext == "svg" else {"Software": None})
        paths.append(path)
    return paths


def _ratio_ticks(ax, lo, hi):
    from matplotlib.ticker import FixedLocator, NullFormatter, NullLocator

    ticks = [m * 10.0 ** e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)
             for m in (1, 2, 5)]
    ticks = [t for t in ticks if lo <= t <= hi]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:g}")
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_minor_formatter(NullFormatter())


def plot_ratio_chart(report, peer, out_dir, stem="report"):
    """One chart of dlarray's time / `peer`'s ("numpy" or "torch") per case; returns the paths
    written, or [] when no case has a ratio to that peer."""
    with _pyplot().rc_context(RC):
        return _ratio_chart(report, peer, out_dir, stem)


def _ratio_chart(report, peer, out_dir, stem):
    key = f"ratio_{peer}"
    cases = [c for c in report["cases"] if c.get(key) is not None and c[key] > 0 and math.isfinite(c[key])]
    if not cases:
        return []
    plt = _pyplot()
    from matplotlib.patches import Patch

    name = PEER_LABEL[peer]
    ratios = [c[key] for c in cases]
    lo = min(min(ratios), 1.0) / 1.8
    hi = max(max(ratios), 1.0) * 2.5  # room for the figures and the family names on the right
    height = 1.2 + 0.28 * len(cases)
    fig, ax = plt.subplots(figsize=(6.4, height))
    y = list(range(len(cases)))[::-1]  # the first case at the top
    colours = [FASTER if r < 1.0 else SLOWER for r in ratios]
    # Bars grow from the 1.0 line: leftwards when dlarray is faster, rightwards when slower.
    ax.barh(y, [r - 1.0 for r in ratios], left=1.0, height=0.7, color=colours)
    ax.set_xscale("log")
    ax.set_xlim(lo, hi)
    _ratio_ticks(ax, lo, hi)
    ax.axvline(1.0, color="black", linewidth=1.2, gid="ratio-1.0-line")
    ax.set_yticks(y)
    ax.set_yticklabels([c["name"] for c in cases])
    ax.set_ylim(-0.7, len(cases) - 0.3)
    for yi, r in zip(y, ratios):
        ax.annotate(f"{r:.2f}", (r, yi), xytext=(-3 if r < 1.0 else 3, 0), textcoords="offset points",
                    ha="right" if r < 1.0 else "left", va="center", fontsize=8)
    # A thin rule between families, and the family's name at the right edge.
    previous = None
    for yi, c in zip(y, cases):
        family = c.get("family", "")
        if family != previous:
            if previous is not None:
                ax.axhline(yi + 0.5, color="#cccccc", linewidth=0.8)
            ax.text(0.995, yi, family, transform=ax.get_yaxis_transform(), ha="right", va="center",
                    fontsize=8, color="#555555", style="italic")
            previous = family
    ax.grid(axis="x", color="#eeeeee", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.set_xlabel(f"dlarray's time / {name}'s time (log scale; 1.0: the same time)")
    ax.legend(handles=[Patch(color=FASTER, label=f"faster than {name} (below 1.0)"),
                       Patch(color=SLOWER, label=f"slower than {name} (above 1.0)")],
              loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=9, frameon=False)
    threads = report.get("threads")
    version = report.get("machine", {}).get(peer) or ""
    ax.set_title(f"dlarray against {name} {version}".rstrip()
                 + (f", {threads} thread{'s' if threads != 1 else ''}" if threads else "")
                 + (" (--quick run: noisy)" if report.get("quick") else "")
                 + f"\n{machine_line(report)}", fontsize=10, pad=24)
    paths = _save(fig, out_dir, f"{stem}-{PEER_FILE[peer]}")
    plt.close(fig)
    return paths


def plot_report(report, out_dir, stem="report"):
    """The ratio charts of a benchmarks/report.py JSON dict: against NumPy, and against PyTorch
    when the run had it. A chart of an earlier run against a peer this run lacks is removed, so
    that none stays next to the JSON as if it were this run's. Returns the paths written."""
    paths = []
    for peer in ("numpy", "torch"):
        drawn = plot_ratio_chart(report, peer, out_dir, stem)
        if not drawn:
            for ext in ("svg", "png"):
                (pathlib.Path(out_dir) / f"{stem}-{PEER_FILE[peer]}.{ext}").unlink(missing_ok=True)
        paths += drawn
    return paths


def _ulp(v):
    """A JSON figure as a float: numbers as they are, "inf" (a special value got wrong) as inf."""
    return float(v) if v is not None else float("nan")


def plot_accuracy(accuracy, out_dir, stem="accuracy"):
    """The largest error in ulps per function of a benchmarks/accuracy.py --json dict, dlarray's
    and NumPy's side by side, one panel per dtype. Returns the paths written."""
    with _pyplot().rc_context(RC):
        return _accuracy_chart(accuracy, out_dir, stem)


def _accuracy_chart(accuracy, out_dir, stem):
    plt = _pyplot()
    rows = accuracy["results"]
    dtypes = list(dict.fromkeys(r["dtype"] for r in rows))
    functions = list(dict.fromkeys(r["function"] for r in rows))
    finite = [v for r in rows for v in (_ulp(r["dlarray_max_ulp"]), _ulp(r["numpy_max_ulp"])) if math.isfinite(v)]
    top = max(finite + [1.0]) * 1.18
    height = 1.4 + 0.34 * len(functions)
    fig, axes = plt.subplots(1, len(dtypes), figsize=(3.7 * len(dtypes) + 0.5, height), sharey=True, squeeze=False)
    y = list(range(len(functions)))[::-1]
    bar = 0.38
    for ax, dtype in zip(axes[0], dtypes):
        by_name = {r["function"]: r for r in rows if r["dtype"] == dtype}
        for offset, field, colour, label in ((bar / 2, "dlarray_max_ulp", OURS, "dlarray"),
                                             (-bar / 2, "numpy_max_ulp", NUMPY, "NumPy")):
            for yi, f in zip(y, functions):
                if f not in by_name:
                    continue
                v = _ulp(by_name[f][field])
                shown = v if math.isfinite(v) else top
                ax.barh(yi + offset, shown, height=bar, color=colour, hatch=None if math.isfinite(v) else "//",
                        label=label if yi == y[0] or f == functions[0] else None)
                ax.annotate(f"{v:.2f}" if math.isfinite(v) else "inf", (shown, yi + offset), xytext=(2, 0),
                            textcoords="offset points", va="center", fontsize=7)
        ax.axvline(0.5, color="#777777", linewidth=0.8, linestyle=":", gid=f"ulp-0.5-line-{dtype}")
        ax.axvline(1.0, color="black", linewidth=1.0, linestyle="--", gid=f"ulp-1.0-line-{dtype}")
        ax.set_xlim(0, top * 1.08)
        ax.set_title(dtype, fontsize=10)
        ax.set_xlabel("largest error (ulp)")
        ax.grid(axis="x", color="#eeeeee", linewidth=0.8)
        ax.set_axisbelow(True)
    axes[0][0].set_yticks(y)
    axes[0][0].set_yticklabels(functions)
    axes[0][0].set_ylim(-0.7, len(functions) - 0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    from matplotlib.lines import Line2D

    handles += [Line2D([], [], color="black", linestyle="--", linewidth=1.0),
                Line2D([], [], color="#777777", linestyle=":", linewidth=0.8)]
    labels += ["1.0 ulp", "0.5 ulp (correctly rounded)"]
    n = accuracy.get("n")
    fig.suptitle(f"Largest error per function over {n:,} inputs, dlarray and NumPy "
                 f"{accuracy.get('machine', {}).get('numpy', '')}\n{machine_line(accuracy)}; reference: "
                 f"{accuracy.get('reference', 'x87 long double')}", fontsize=10)
    fig.tight_layout()
    # Below the panels: outside the figure's box, which savefig(bbox_inches="tight") grows to hold it.
    fig.legend(handles, labels, loc="upper center", ncol=4, fontsize=8, frameon=False, bbox_to_anchor=(0.5, 0.0))
    paths = _save(fig, out_dir, stem)
    plt.close(fig)
    return paths


def plot_file(path):
    """Redraws the charts next to a JSON file of either kind; returns the paths written."""
    path = pathlib.Path(path)
    doc = json.loads(path.read_text())
    if doc.get("kind") == "accuracy":
        return plot_accuracy(doc, path.parent, path.stem)
    return plot_report(doc, path.parent, path.stem)


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        for written in plot_file(arg):
            print(written)
