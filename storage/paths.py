"""Bucket paths as the back-office handles them: canonical `/a/b`, split and joined safely."""

from __future__ import annotations

from storage import rules

ROOT = "/"


def canonical(path: str, *, allow_root: bool = True) -> str:
    """`/a/b` for any accepted spelling (`a/b`, `/a/b/`); raises rules.RuleViolation."""
    return rules.normalise_path(path, allow_root=allow_root)


def parent_of(path: str) -> str:
    """Folder holding `path` (`/` for top-level entries and for the root itself)."""
    head = path.rstrip("/").rsplit("/", 1)[0]
    return head or ROOT


def name_of(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def join(folder: str, name: str, *, field: str = "name") -> str:
    """`folder` + a new `name` as a canonical path; a name must be one segment (no `/`) and
    hold no invisible character (`field` names it in the problem: `folder_name`,
    `file_name`)."""
    rules.require(rules.check_name(name, field))
    if "/" in name:
        raise rules.RuleViolation(
            [rules.Problem("path", "slash_in_name", f"name {name!r} must not contain '/'")]
        )
    base = folder.rstrip("/")
    return canonical(f"{base}/{name}", allow_root=False)


def is_within(path: str, root: str) -> bool:
    """True when `path` is `root` or below it."""
    if root == ROOT:
        return True
    return path == root or path.startswith(root.rstrip("/") + "/")


def breadcrumbs(path: str) -> list[tuple[str, str]]:
    """(name, path) of every folder from the root down to `path`; the root's name is ''."""
    crumbs = [("", ROOT)]
    current = ""
    for segment in [part for part in path.split("/") if part]:
        current = f"{current}/{segment}"
        crumbs.append((segment, current))
    return crumbs
