"""The documentation site: a strict build that loads nothing from elsewhere and shows its formulas offline.

The formulas are MathML written at build time (docs/hooks/mathml.py). The browser test opens a
built page in Debian's chromium through Playwright, with every request that leaves the site refused.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from conftest import ROOT, need
from docs_examples import FENCE

LOADED = {"script": "src", "link": "href", "img": "src", "iframe": "src", "source": "src", "embed": "src"}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python", "latex2mathml"):
        need(module)
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return out


def test_mkdocs_build_strict(site: Path) -> None:
    assert (site / "api" / "index.html").is_file()
    assert not (site / "hooks").exists()  # the build hook is not published


class Resources(HTMLParser):
    """The URLs a page loads by itself (scripts, style sheets, images, frames), not the links it shows."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        wanted = LOADED.get(tag)
        for name, value in attrs:
            if name == wanted and value is not None:
                self.urls.append(value)


def test_the_site_loads_nothing_from_another_host(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 30
    for page in pages:
        text = page.read_text(encoding="utf-8")
        parser = Resources()
        parser.feed(text)
        remote = [u for u in parser.urls if re.match(r"(https?:)?//", u)]
        assert remote == [], f"{page.relative_to(site)} loads {remote}"
        local = [u for u in parser.urls if "mathjax" in u.lower()]  # nor a copy of it (prose may name it)
        assert local == [], f"{page.relative_to(site)} loads {local}"


def formulas_in(markdown: str) -> int:
    """How many TeX formulas a page's Markdown has, outside fenced blocks and inline code."""
    prose = re.sub(r"`[^`\n]*`", "", FENCE.sub("", markdown))
    return prose.count("\\(") + prose.count("\\[")


def test_every_formula_is_mathml(site: Path) -> None:
    sources = {p: formulas_in(p.read_text(encoding="utf-8")) for p in (ROOT / "docs").rglob("*.md")}
    assert sum(sources.values()) >= 40
    for source, expected in sources.items():
        built = site / source.relative_to(ROOT / "docs").with_suffix("") / "index.html"
        if source.name == "index.md":
            built = site / source.relative_to(ROOT / "docs").with_suffix(".html")
        text = built.read_text(encoding="utf-8")
        assert text.count("<math ") == expected, source
        prose = re.sub(r"<(pre|code)\b.*?</\1>", "", text, flags=re.S)
        for tex in ("\\(", "\\)", "\\[", "\\]", "$$", 'class="arithmatex"'):
            assert tex not in prose, f"{built.relative_to(site)} shows raw TeX {tex!r}"


def hook() -> Any:
    need("latex2mathml")
    need("mkdocs")
    spec = importlib.util.spec_from_file_location("mathml_hook", ROOT / "docs" / "hooks" / "mathml.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_hook_writes_mathml_and_refuses_what_it_cannot_convert() -> None:
    mathml = hook()
    page = SimpleNamespace(file=SimpleNamespace(src_uri="metrics/x.md"))
    html = '<p>a <span class="arithmatex">\\(\\text{boundary\\_type} &lt; \\tfrac12\\)</span></p>'
    out = mathml.on_page_content(html, page)
    assert out.startswith('<p>a <math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">')
    assert "<mtext>boundary_type</mtext>" in out
    assert "<mo>&#x0003C;</mo>" in out
    assert "<mfrac>" in out
    block = mathml.on_page_content('<div class="arithmatex">\\[x\\]</div>', page)
    assert block.startswith('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">')
    for tex in ("\\(\\nosuchcommand{x}\\)", "\\(\\begin{array}x\\)"):
        with pytest.raises(mathml.PluginError, match=r"^metrics/x\.md: cannot write .* as MathML"):
            mathml.on_page_content(f'<span class="arithmatex">{tex}</span>', page)


def test_a_formula_is_laid_out_offline(site: Path, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    elsewhere: list[str] = []

    def only_files(route: Any) -> None:
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_files)
    page.goto((site / "metrics" / "exact" / "index.html").as_uri())
    page.wait_for_load_state("load")
    boxes = page.evaluate(
        """() => {
            const box = (e) => {
                const r = e.getBoundingClientRect();
                return [r.top, r.bottom, r.width, r.height];
            };
            const block = document.querySelector('math[display="block"]');
            const frac = block.querySelector('mfrac');
            return {
                block: box(block),
                inline: box(document.querySelector('math[display="inline"]')),
                numerator: box(frac.children[0]),
                denominator: box(frac.children[1]),
            };
        }"""
    )
    page.close()
    assert elsewhere == []
    for name in ("block", "inline"):
        assert boxes[name][2] > 0, (name, boxes[name])
        assert boxes[name][3] > 0, (name, boxes[name])
    # Laid out as MathML: the fraction's numerator stands above its denominator, not beside it.
    assert boxes["numerator"][1] <= boxes["denominator"][0] + 1, boxes
    assert boxes["block"][3] > boxes["inline"][3], boxes
