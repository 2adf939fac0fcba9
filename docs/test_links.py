"""Every link a reader can follow inside the project leads somewhere: in the built site each relative
href names a page that was built and, with a #fragment, an id on that page; in README.md (read on
the forge, not in the site) each relative link names a file of the repository. Run by
scripts/build-docs after the build (pytest docs/test_links.py); external links are not fetched
(the build machines have no network)."""
import os
import pathlib
import re
from html.parser import HTMLParser
from urllib.parse import unquote, urldefrag

import pytest

SITE = pathlib.Path(os.environ.get("DOCS_HTML", pathlib.Path(__file__).parent / "_build" / "html"))
ROOT = pathlib.Path(__file__).resolve().parent.parent


class _Links(HTMLParser):
    """The hrefs and ids of one HTML page."""

    def __init__(self):
        super().__init__()
        self.hrefs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.hrefs.append(attrs["href"])


def _parse(path):
    p = _Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def _internal(href):
    return not re.match(r"^[a-z][a-z0-9+.-]*:", href)  # http:, https:, mailto:, ...


def broken_links(site):
    """(page, href, why) for every relative link of the site that leads nowhere."""
    pages = {p: _parse(p) for p in site.rglob("*.html")}
    broken = []
    for page, parsed in pages.items():
        for href in parsed.hrefs:
            if not _internal(href):
                continue
            target, fragment = urldefrag(href)
            path = (page.parent / unquote(target)).resolve() if target else page.resolve()
            if not path.exists():
                broken.append((page.relative_to(site), href, "no such file"))
            elif fragment and path.suffix == ".html":
                ids = pages[path].ids if path in pages else _parse(path).ids
                if unquote(fragment) not in ids:
                    broken.append((page.relative_to(site), href, "no such anchor"))
    return broken


def test_the_site_has_no_broken_internal_links():
    if not SITE.is_dir():
        pytest.skip(f"{SITE} was not built (run scripts/build-docs)")
    assert len(list(SITE.rglob("*.html"))) > 10
    assert broken_links(SITE) == []


def test_readme_links_name_files_of_the_repository():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [t for t in re.findall(r"\]\(([^)\s]+)\)", text) if _internal(t)]
    assert targets, "README.md links into the docs"
    missing = [t for t in targets if not (ROOT / urldefrag(t)[0]).exists()]
    assert missing == []


def test_a_broken_link_is_found(tmp_path):
    (tmp_path / "a.html").write_text('<a href="b.html#here">b</a> <a href="c.html">c</a> '
                                     '<a href="b.html#nowhere">x</a> <a href="https://example.org">e</a>')
    (tmp_path / "b.html").write_text('<h1 id="here">B</h1>')
    assert sorted(why for _, _, why in broken_links(tmp_path)) == ["no such anchor", "no such file"]
