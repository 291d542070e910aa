"""Views may read the models for what they display (a query to display is a view's own
business, as in Django's generic views), but every write goes through one service call: a
page, an API endpoint or a staff screen that writes rows itself skips the use case's checks,
its transaction and its audit record.

The check reads the source (ast), so it needs no page to be rendered: every call in a module
of `*/views/`, `*/api/` or `backoffice/ui/` is refused when it

- calls a write of the ORM that nothing else is named after: `.save()`, `.delete()`,
  `.create()`, `.get_or_create()`, `.update_or_create()`, `.bulk_create()`,
  `.bulk_update()` (a ModelForm's or formset's `save()` is a write too; its
  `save(commit=False)` only builds the rows, for a service to write), or
- calls `.update()` on a query: a chain through `.objects` or a queryset method, or a name
  bound from one (`dict.update` is not a write).

A call that is none of these writes but reads like one is allowed below, with its reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("sms", "topup", "storage", "media", "delivery")
WRITES = frozenset({"save", "delete", "create", "get_or_create", "update_or_create",
                    "bulk_create", "bulk_update"})
QUERYSET_METHODS = frozenset({"objects", "filter", "exclude", "all", "select_for_update",
                              "select_related", "prefetch_related", "order_by", "annotate"})
# (path, the call as written) -> why it writes no row.
ALLOWED: dict[tuple[str, str], str] = {}


def page_modules() -> list[Path]:
    found = [path for app in APPS for room in ("views", "api")
             for path in sorted((ROOT / app / room).glob("**/*.py"))]
    return found + sorted((ROOT / "backoffice" / "ui").glob("**/*.py"))


def chain(node: ast.expr) -> list[str]:
    """The names along `a.b(...).c`: ["a", "b", "c"] (calls and subscripts looked through)."""
    names: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Name):
            names.append(node.id)
            return names[::-1]
        else:
            return names[::-1]


def query_names(tree: ast.AST) -> set[str]:
    """Names bound (anywhere in the module) to a query: `rows = Model.objects.filter(...)`."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and QUERYSET_METHODS & set(chain(node.value)):
            bound |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return bound


def builds_only(call: ast.Call) -> bool:
    """`form.save(commit=False)`: the instances, unsaved."""
    return any(keyword.arg == "commit" and isinstance(keyword.value, ast.Constant)
               and keyword.value.value is False for keyword in call.keywords)


def writes(path: Path, root: Path = ROOT) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(), str(path))
    queries = query_names(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method = node.func.attr
        receiver = chain(node.func.value)
        on_a_query = bool(QUERYSET_METHODS & set(receiver)) or (
            len(receiver) == 1 and receiver[0] in queries)
        if (method in WRITES and not builds_only(node)) or (method == "update" and on_a_query):
            written = ".".join([*receiver, method]) + "()"
            if (str(path.relative_to(root)), written) not in ALLOWED:
                yield node.lineno, written


def test_no_view_writes_a_row_itself() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: {written}"
             for path in page_modules() for line, written in writes(path)]
    assert found == [], "\n".join(["writes to move into a service:", *found])


def test_the_check_finds_the_writes_it_is_meant_to_find(tmp_path: Path) -> None:
    page = tmp_path / "page.py"
    page.write_text(
        "def view(request, form, row, data):\n"
        "    form.save()\n"
        "    form.save(commit=False)\n"
        "    Order.objects.filter(pk=1).update(state='x')\n"
        "    rows = Order.objects.filter(pk=1)\n"
        "    rows.update(state='y')\n"
        "    row.delete()\n"
        "    data.update({'a': 1})\n"
    )
    assert [line for line, _ in writes(page, root=tmp_path)] == [2, 4, 6, 7]


def test_every_allowed_call_is_still_there() -> None:
    """An allowance whose call was moved or removed must go too, or it hides the next one."""
    present = {(str(path.relative_to(ROOT)), written) for path in page_modules()
               for written in _all_calls(path)}
    assert set(ALLOWED) - present == set()


def _all_calls(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            yield ".".join([*chain(node.func.value), node.func.attr]) + "()"
