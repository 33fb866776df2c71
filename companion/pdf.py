"""A tiny, dependency-free writer of vector PDF pages.

Enough for printable sheets at true size (marker sheets, score sheets): pages
of any size in millimetres, filled and stroked rectangles, lines (solid or
dashed) and text in the standard Helvetica and Courier fonts. Coordinates are
millimetres from the page's top-left corner, y down, like the layout files;
the writer turns them into PDF points (1/72 in) from the bottom-left.

No compression and no images: the output is small, plain, and easy for a test
to parse (a rectangle is one ``x y w h re`` operator).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

PT_PER_MM = 72 / 25.4

#: Standard page sizes (width, height) in mm.
A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)

FONTS = {"Helvetica": "F1", "Helvetica-Bold": "F2", "Courier": "F3"}
Color = tuple[float, float, float]


def _n(v: float) -> str:
    """A number as PDF writes it: short, no exponent."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("", "-0") else s


def _escape(text: str) -> str:
    raw = text.encode("latin-1", errors="replace").decode("latin-1")
    return raw.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


@dataclass
class Page:
    """One page; draw on it with the methods below (all lengths in mm)."""

    width_mm: float
    height_mm: float
    ops: list[str] = field(default_factory=list)

    def _xy(self, x: float, y: float) -> str:
        return f"{_n(x * PT_PER_MM)} {_n((self.height_mm - y) * PT_PER_MM)}"

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: Color | None = (0, 0, 0),
        stroke: Color | None = None,
        line_width: float = 0.2,
        dash: float | None = None,
    ) -> None:
        """A rectangle with its top-left corner at (x, y)."""
        ops = ["q"]
        if fill is not None:
            ops.append(f"{_n(fill[0])} {_n(fill[1])} {_n(fill[2])} rg")
        if stroke is not None:
            ops.append(f"{_n(stroke[0])} {_n(stroke[1])} {_n(stroke[2])} RG {_n(line_width * PT_PER_MM)} w")
            if dash:
                ops.append(f"[{_n(dash * PT_PER_MM)}] 0 d")
        ops.append(f"{self._xy(x, y + h)} {_n(w * PT_PER_MM)} {_n(h * PT_PER_MM)} re")
        ops.append("B" if fill is not None and stroke is not None else ("f" if fill is not None else "S"))
        ops.append("Q")
        self.ops.append(" ".join(ops))

    def line(self, x1: float, y1: float, x2: float, y2: float, color: Color = (0, 0, 0), width: float = 0.2, dash: float | None = None) -> None:
        """A straight line from (x1, y1) to (x2, y2)."""
        d = f"[{_n(dash * PT_PER_MM)}] 0 d " if dash else ""
        self.ops.append(
            f"q {_n(color[0])} {_n(color[1])} {_n(color[2])} RG {_n(width * PT_PER_MM)} w {d}"
            f"{self._xy(x1, y1)} m {self._xy(x2, y2)} l S Q"
        )

    def text(self, x: float, y: float, text: str, size_pt: float = 10, font: str = "Helvetica", color: Color = (0, 0, 0)) -> None:
        """Text whose baseline starts at (x, y)."""
        if font not in FONTS:
            raise ValueError(f"unknown font {font!r}; use one of {', '.join(FONTS)}")
        self.ops.append(
            f"BT {_n(color[0])} {_n(color[1])} {_n(color[2])} rg /{FONTS[font]} {_n(size_pt)} Tf "
            f"{self._xy(x, y)} Td ({_escape(text)}) Tj ET"
        )


@dataclass
class Document:
    """A PDF document: add pages, draw, then :meth:`to_bytes` or :meth:`save`."""

    pages: list[Page] = field(default_factory=list)
    title: str = ""

    def page(self, width_mm: float, height_mm: float) -> Page:
        p = Page(width_mm, height_mm)
        self.pages.append(p)
        return p

    def to_bytes(self) -> bytes:
        objects: list[bytes] = []

        def add(body: str | bytes) -> int:
            objects.append(body.encode("latin-1") if isinstance(body, str) else body)
            return len(objects)

        catalog = add("")  # placeholders filled below
        pages_id = add("")
        font_ids = {name: add(f"<< /Type /Font /Subtype /Type1 /BaseFont /{name} /Encoding /WinAnsiEncoding >>") for name in FONTS}
        fonts = " ".join(f"/{FONTS[n]} {i} 0 R" for n, i in font_ids.items())
        kids = []
        for page in self.pages:
            stream = "\n".join(page.ops).encode("latin-1")
            content = add(b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream")
            box = f"[0 0 {_n(page.width_mm * PT_PER_MM)} {_n(page.height_mm * PT_PER_MM)}]"
            kids.append(add(f"<< /Type /Page /Parent {pages_id} 0 R /MediaBox {box} /Resources << /Font << {fonts} >> >> /Contents {content} 0 R >>"))
        objects[catalog - 1] = f"<< /Type /Catalog /Pages {pages_id} 0 R >>".encode()
        objects[pages_id - 1] = f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>".encode()
        info = add(f"<< /Title ({_escape(self.title)}) /Producer (companion) >>")
        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for i, body in enumerate(objects, start=1):
            offsets.append(len(out))
            out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
        for off in offsets:
            out += f"{off:010d} 00000 n \n".encode()
        out += f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
        return bytes(out)

    def save(self, path: str | Path) -> None:
        Path(path).write_bytes(self.to_bytes())
