"""README.md keeps one table of the edge's refusal codes; every code the edge can answer is in
it, with the status the edge answers it with."""

from __future__ import annotations

import re
from pathlib import Path

from sandbox.delivery import errors

README = Path(__file__).resolve().parents[2] / "README.md"


def edge_codes() -> set[str]:
    return {value for name, value in vars(errors).items()
            if name.isupper() and isinstance(value, str) and re.fullmatch(r"\d{8}", value)}


def readme_rows() -> dict[str, str]:
    section = README.read_text().split("## The edge's refusals", 1)[1].split("\n## ", 1)[0]
    return {code: status for status, code in re.findall(r"^\| (\d{3}) \| (\d{8}) \|", section,
                                                         re.MULTILINE)}


def test_every_edge_code_is_in_the_readme_table_with_its_status() -> None:
    rows = readme_rows()
    assert sorted(edge_codes() - set(rows)) == []
    # The code's first three digits are its HTTP status (the family the edge keeps).
    assert {code: status for code, status in rows.items() if code[:3] != status} == {}


def test_the_table_lists_no_code_the_edge_does_not_have() -> None:
    assert sorted(set(readme_rows()) - edge_codes()) == []
