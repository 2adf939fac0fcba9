"""Looks at the built documentation as a person would: Chromium (headless) renders pages of
docs/_build/html to PNG and to its final DOM, and each must be a readable page, not an empty or
broken one. Run by scripts/build-docs after the build (pytest docs/test_rendering.py).

A page passes when its DOM holds the headings and names it should, no Sphinx error markers, every
<img> on it loads in the browser (naturalWidth above 0; pages with charts must have them), and its
screenshot is not blank: many grey levels (anti-aliased text), no single level covering the page,
and a share of dark (text) pixels in the content column typical of text on a light background.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
from html import unescape

import pytest
from PIL import Image

SITE = pathlib.Path(os.environ.get("DOCS_HTML", pathlib.Path(__file__).parent / "_build" / "html"))
SHOTS = pathlib.Path(os.environ.get("DOCS_SHOTS", SITE.parent / "screenshots"))
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")

PAGES = {
    "index.html": ["dlarray", "Getting started", "User guide", "Exchange with other libraries",
                   "API reference", "Contributors"],
    "getting-started.html": ["Getting started", "From a wheel", "The demo", "A first example", "Run the tests"],
    "api/functions.html": ["Functions", "dlarray.sum", "dlarray.from_dlpack", "dlarray.asarray"],
    "exchange.html": ["Exchange with other libraries", "DLPack", "__array_interface__",
                      "Known peer bugs and their workarounds"],
    "gpus.html": ["What runs on which device", "What has run on real hardware", "H100", "Streams"],
    "performance.html": ["Performance and conformance", "Charts", "faster", "array-api-tests", "1379"],
    "troubleshooting.html": ["Troubleshooting", "No GPU is found", "assignment destination is read-only"],
    "beyond-standard.html": ["Beyond the standard", "einsum", "Random numbers", "Philox-4x32-10"],
}

# Pages that show pictures: the images they must have (by file name), besides loading all they have.
IMAGES = {
    "performance.html": ["report-numpy.svg", "report-pytorch.svg", "accuracy.svg"],
}

pytestmark = pytest.mark.skipif(BROWSER is None, reason="no Chromium: apt-get install chromium")


def chromium(*args):
    cmd = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_page_renders_readably(page):
    path = SITE / page
    assert path.is_file(), f"{path} was not built (run scripts/build-docs)"
    dom = chromium("--dump-dom", path.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    html = dom.stdout
    for text in PAGES[page]:
        assert text in html, f"{page}: {text!r} is not on the rendered page"
    for marker in ('class="problematic"', "System Message", "Traceback (most recent call last)"):
        assert marker not in html, f"{page}: Sphinx error marker {marker!r} on the page"

    images = loaded_images(path, SHOTS / "probes")
    broken = [src for src, width in images if width == 0]
    assert not broken, f"{page}: images that do not load: {broken}"
    names = [src.rsplit("/", 1)[-1] for src, _ in images]
    for name in IMAGES.get(page, []):
        assert name in names, f"{page}: no <img> of {name} (images: {names})"

    SHOTS.mkdir(parents=True, exist_ok=True)
    png = SHOTS / (page.replace("/", "_").replace(".html", ".png"))
    assert_readable_screenshot(path.as_uri(), png)


# Put at the top of a copy of the page: once everything has loaded, writes (src, naturalWidth) of each
# <img> into the DOM, which --dump-dom prints. An image that failed to load has naturalWidth 0.
PROBE = """<base href="{base}"><script>
window.addEventListener("load", () => {{
  const pre = document.createElement("pre");
  pre.id = "image-probe";
  pre.textContent = JSON.stringify(Array.from(document.images,
      (img) => [img.getAttribute("src"), img.complete ? img.naturalWidth : 0]));
  document.body.appendChild(pre);
}});
</script>"""


def loaded_images(path, workdir):
    """[(src, naturalWidth)] of every <img> of the HTML file `path` as Chromium loads it. The page
    is copied into `workdir` with a probe script and a <base> of its own folder, so that its
    relative links resolve as on the site and the site itself is not touched."""
    workdir.mkdir(parents=True, exist_ok=True)
    text = path.read_text()
    probe = PROBE.format(base=path.parent.as_uri() + "/")
    head = re.search(r"<head[^>]*>", text)
    assert head, f"{path}: no <head>"
    copy = workdir / path.name
    copy.write_text(text[:head.end()] + probe + text[head.end():])
    # The virtual-time budget lets the load event (and the probe) run before the DOM is dumped.
    dom = chromium("--virtual-time-budget=10000", "--dump-dom", copy.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r'<pre id="image-probe">(.*?)</pre>', dom.stdout, re.S)
    assert found, f"{path}: the image probe did not run"
    return [(src, width) for src, width in json.loads(unescape(found.group(1)))]


def assert_readable_screenshot(uri, png):
    shot = chromium(f"--screenshot={png}", "--window-size=1280,1600", uri)
    assert shot.returncode == 0 and png.is_file(), shot.stderr[-2000:]
    image = Image.open(png).convert("L")
    width, height = image.size
    assert (width, height) == (1280, 1600)
    # The content column (alabaster centres a 1100-pixel page; the body is its left part).
    content = image.crop((width // 8, 0, width * 3 // 4, height))
    histogram = content.histogram()
    total = sum(histogram)
    dark = sum(histogram[:100]) / total
    light = sum(histogram[200:]) / total
    # Anti-aliased text spreads over many grey levels; a blank or one-colour page has a few.
    levels = sum(1 for count in histogram if count > 0)
    assert levels >= 32, f"{uri}: the screenshot is nearly one colour ({levels} grey levels)"
    assert max(histogram) / total < 0.97, f"{uri}: {max(histogram) / total:.1%} of the page is one grey level"
    assert light > 0.5, f"{uri}: not a light page ({light:.0%} light pixels)"
    assert 0.005 < dark < 0.35, f"{uri}: {dark:.1%} dark pixels, not a page of text"


@pytest.mark.parametrize("body", ["", "<h1>x</h1>", '<body style="background:#000">'])
def test_an_empty_or_broken_page_fails_the_check(tmp_path, body):
    page = tmp_path / "broken.html"
    page.write_text(f"<!DOCTYPE html><html><head></head><body>{body}</body></html>")
    with pytest.raises(AssertionError):
        assert_readable_screenshot(page.as_uri(), tmp_path / "broken.png")


def test_a_missing_image_fails_the_check(tmp_path):
    (tmp_path / "chart.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
                                        '<rect width="40" height="20" fill="#0072B2"/></svg>')
    page = tmp_path / "page.html"
    page.write_text('<!DOCTYPE html><html><head></head><body><img src="chart.svg" alt="a">'
                    '<img src="_images/missing.svg" alt="b"></body></html>')
    images = loaded_images(page, tmp_path / "probes")
    assert images == [("chart.svg", 40), ("_images/missing.svg", 0)]
