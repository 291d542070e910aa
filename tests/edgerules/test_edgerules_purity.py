"""edgerules stays pure Python: only the standard library and ``regex``, never Django."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import edgerules

PACKAGE = Path(edgerules.__file__).resolve().parent
ALLOWED = set(sys.stdlib_module_names) | {"regex", "edgerules"}


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_it_imports_only_the_standard_library_and_regex() -> None:
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(imported_roots(path) - ALLOWED)
        for path in PACKAGE.rglob("*.py")
        if imported_roots(path) - ALLOWED
    }
    assert offenders == {}


def test_the_check_sees_every_module() -> None:
    assert len(list(PACKAGE.rglob("*.py"))) >= 20
