"""The marker sheet PDF: Letter and A4 pages, markers at the layout's true size."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from companion.layout import load_layout
from companion.pdf import PT_PER_MM, Document
from companion.sim.aruco import marker_cells


def _pages(pdf: bytes) -> list[tuple[list[float], str]]:
    """(MediaBox, content stream) of each page, in order."""
    text = pdf.decode("latin-1")
    streams = {int(m.group(1)): m.group(2) for m in re.finditer(r"(\d+) 0 obj\n<< /Length \d+ >>\nstream\n(.*?)\nendstream", text, re.S)}
    out = []
    for m in re.finditer(r"/MediaBox \[([^\]]+)\] .*?/Contents (\d+) 0 R", text):
        out.append(([float(v) for v in m.group(1).split()], streams[int(m.group(2))]))
    return out


def test_marker_sheet_pages_and_true_size(tmp_path: Path) -> None:
    out = tmp_path / "markers.pdf"
    assert main(["markers", "--out", str(out)]) == 0
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    pages = _pages(pdf)
    assert [box for box, _ in pages] == [[0, 0, 612, 792], [0, 0, pytest.approx(595.276, abs=0.01), pytest.approx(841.89, abs=0.01)]]
    layout = load_layout()
    want = layout.markers[0].size_mm * PT_PER_MM
    for (_, content), paper in zip(pages, ("US Letter", "A4"), strict=True):
        assert f"This is the {paper} page" in content
        assert "classic" in content
        black = [tuple(float(v) for v in m.groups()) for m in re.finditer(r"0 0 0 rg ([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re f", content)]
        squares = [b for b in black if abs(b[2] - want) < 0.01 and abs(b[3] - want) < 0.01]
        assert len(squares) == 4
        for marker_id in range(4):
            assert f"marker {marker_id}:" in content
        # Each marker's white cells reproduce OpenCV's bit pattern.
        x, y, w, _ = squares[0]
        cells = marker_cells("DICT_4X4_50", 0)
        step = w / cells.shape[0]
        whites = np.zeros_like(cells)
        for m in re.finditer(r"1 1 1 rg ([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re f", content):
            wx, wy = float(m.group(1)), float(m.group(2))
            j, i_from_bottom = (wx - x) / step, (wy - y) / step
            if 0 <= j < cells.shape[0] and 0 <= i_from_bottom < cells.shape[0]:
                whites[cells.shape[0] - 1 - int(round(i_from_bottom)), int(round(j))] = True
        assert np.array_equal(whites, ~cells)


def test_marker_command_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["markers", "--out", str(tmp_path / "m.png")]) == 2
    assert "is a PDF" in capsys.readouterr().err
    assert main(["markers", "--out", str(tmp_path / "m.pdf"), "--layout", str(tmp_path / "none.json")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["markers", "--out", str(tmp_path / "no" / "dir" / "m.pdf")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_pdf_writer_text_escaping_and_fonts() -> None:
    doc = Document(title="t")
    page = doc.page(100, 50)
    page.text(10, 10, "a (b) \\ c", 12, "Courier")
    page.line(0, 0, 100, 50, dash=2)
    page.rect(1, 2, 3, 4, fill=None, stroke=(1, 0, 0))
    pdf = doc.to_bytes().decode("latin-1")
    assert "(a \\(b\\) \\\\ c) Tj" in pdf
    assert "/BaseFont /Courier" in pdf
    with pytest.raises(ValueError, match="unknown font"):
        page.text(0, 0, "x", font="Comic")


def test_marker_sheet_follows_the_layout_file(tmp_path: Path) -> None:
    import json

    from companion.layout import DEFAULT_LAYOUT

    data = json.loads(DEFAULT_LAYOUT.read_text())
    data["name"] = "travel"
    for item in data["markers"]["items"]:
        (x0, y0), _, _, _ = item["corners"]
        x0, y0 = (x0 - 10, y0 - 10) if x0 < 0 else (x0, y0)
        item["corners"] = [[x0, y0], [x0 + 35, y0], [x0 + 35, y0 + 35], [x0, y0 + 35]]
    layout_file = tmp_path / "travel.json"
    layout_file.write_text(json.dumps(data))
    out = tmp_path / "m.pdf"
    assert main(["markers", "--out", str(out), "--layout", str(layout_file)]) == 0
    want = 35 * PT_PER_MM
    for _, content in _pages(out.read_bytes()):
        assert "'travel'" in content
        squares = [m for m in re.finditer(r"0 0 0 rg [\d.]+ [\d.]+ ([\d.]+) ([\d.]+) re f", content) if abs(float(m.group(1)) - want) < 0.01]
        assert len(squares) == 4
