"""The documentation: the site under docs/ builds strictly (a link to a missing page or anchor
fails it), and the README stays a short map whose links lead somewhere."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README_LIMIT = 250

# A Markdown link or image: [text](target) or [text](target "title").
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def build_site(config: Path, site_dir: Path) -> subprocess.CompletedProcess[str]:
    # Not --quiet: it hides the warnings that --strict counts, and the build then passes.
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict",
         "--config-file", str(config), "--site-dir", str(site_dir)],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def test_the_documentation_site_builds_without_a_broken_link_or_anchor(tmp_path: Path) -> None:
    result = build_site(ROOT / "mkdocs.yml", tmp_path / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "site" / "index.html").is_file()


def test_a_broken_anchor_fails_the_build(tmp_path: Path) -> None:
    """The strict build is what catches broken links, so prove it does on a copy of the docs."""
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    with (tmp_path / "docs" / "index.md").open("a", encoding="utf-8") as index:
        index.write("\n[nowhere](deployment.md#no-such-section)\n")
    result = build_site(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert result.returncode != 0
    assert "no-such-section" in result.stdout + result.stderr


def test_the_readme_is_a_map_under_250_lines() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < README_LIMIT, f"README.md has {len(lines)} lines"


def test_every_relative_link_of_the_readme_leads_to_a_file() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [match.group(1) for match in LINK.finditer(text)]
    relative = [t for t in targets if not re.match(r"^([a-z][a-z0-9+.-]*:|#)", t)]
    assert relative, "the README links to the docs pages"
    missing = [t for t in relative if not (ROOT / t.split("#", 1)[0]).exists()]
    assert not missing, f"README.md links to missing files: {missing}"
