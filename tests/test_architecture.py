"""The rules core stays pure: standard library only, no adapters. And no
module sets one of its constants twice."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import companion

PACKAGE = Path(companion.__file__).parent
CORE = PACKAGE / "rules"
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
    """No file, console or process I/O calls in the core (docstrings may show them)."""
    forbidden_calls = {"open", "print", "input", "exec", "eval"}
    forbidden_attrs = {"stdout", "stdin", "stderr", "system", "popen"}
    for path in sorted(CORE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in forbidden_calls, f"{path.name} calls {node.func.id}()"
            if isinstance(node, ast.Attribute):
                assert node.attr not in forbidden_attrs, f"{path.name} uses .{node.attr}"


def _constants_set_twice(source: str) -> list[str]:
    """Module-level UPPER_CASE names assigned more than once in *source*."""
    seen: set[str] = set()
    twice: list[str] = []
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else [])
        for target in targets:
            if isinstance(target, ast.Name) and target.id.isupper():
                if target.id in seen:
                    twice.append(target.id)
                seen.add(target.id)
    return twice


def test_no_module_sets_a_constant_twice() -> None:
    """A second ``NAME = ...`` silently replaces the first for every use of
    it in the module (session 51 gave ``live/loop.py`` a second
    ``MOVE_AFTER_POP_S``, 1 s, which turned the 2 s of another check into
    1 s unnoticed; found in session 52)."""
    assert _constants_set_twice("A = 1\nB = 2\nA = 3\n") == ["A"]
    for path in sorted(PACKAGE.rglob("*.py")):
        assert not _constants_set_twice(path.read_text(encoding="utf-8")), f"{path.relative_to(PACKAGE)}"
