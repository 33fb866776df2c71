"""The rules core stays pure: standard library only, no adapters."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import companion

CORE = Path(companion.__file__).parent / "rules"
STDLIB = set(sys.stdlib_module_names)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_rules_core_imports_only_stdlib_and_itself() -> None:
    files = sorted(CORE.rglob("*.py"))
    assert files, "companion/rules has no modules"
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            if name.startswith("companion.rules") or top in STDLIB:
                continue
            raise AssertionError(f"{path.name} imports {name}: the rules core must stay pure")


def test_core_does_no_io() -> None:
    forbidden = {"open(", "print(", "input(", "sys.stdout", "sys.stdin"}
    for path in sorted(CORE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for word in forbidden:
            # doctest examples may print; look only outside docstrings
            code = ast.unparse(ast.parse(text))
            assert word not in code, f"{path.name} does I/O ({word})"
