"""`companion models install` against a local server: good, truncated,
corrupt and refused downloads; nothing is ever half-installed."""

from __future__ import annotations

import http.server
import io
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.errors import UserError
from companion.voice import models

FOLDER = models.VOSK_EN.folder


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()


GOOD = _zip({f"{FOLDER}/{f}": b"x" * 1000 for f in models.VOSK_EN.required}
            | {f"{FOLDER}/README": b"fake model for tests"})


def _corrupt(data: bytes) -> bytes:
    """Flip bytes inside the first member's compressed data: the CRC fails."""
    b = bytearray(data)
    for i in range(60, 80):
        b[i] ^= 0xFF
    return bytes(b)


ROUTES: dict[str, tuple[int, bytes, int | None]] = {
    "/good.zip": (200, GOOD, None),
    "/truncated.zip": (200, GOOD[: len(GOOD) // 2], len(GOOD)),
    "/corrupt.zip": (200, _corrupt(GOOD), None),
    "/notzip.zip": (200, b"<html>not found</html>", None),
    "/missing.zip": (200, _zip({f"{FOLDER}/am/final.mdl": b"x"}), None),
    "/escape.zip": (200, _zip({f"{FOLDER}/../evil": b"x"}), None),
    "/error.zip": (500, b"oops", None),
}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        status, body, claimed = ROUTES.get(self.path, (404, b"", None))
        self.send_response(status)
        self.send_header("Content-Length", str(claimed or len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        self.close_connection = True

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_installs_a_good_model_atomically(server: str, tmp_path: Path) -> None:
    log = io.StringIO()
    target = models.install("vosk-en", url=f"{server}/good.zip", models_dir=tmp_path, out=log)
    assert target == tmp_path / FOLDER
    assert models.installed(models.VOSK_EN, tmp_path) == target
    assert (target / "README").read_bytes() == b"fake model for tests"
    assert sorted(p.name for p in tmp_path.iterdir()) == [FOLDER]  # no leftovers
    assert "100%" in log.getvalue() and "sha256" in log.getvalue()
    again = io.StringIO()
    models.install("vosk-en", url=f"{server}/good.zip", models_dir=tmp_path, out=again)
    assert "already installed" in again.getvalue()


@pytest.mark.parametrize(("route", "message"), [
    ("truncated.zip", "truncated|cut off"),
    ("corrupt.zip", "corrupt|not a valid zip"),
    ("notzip.zip", "not a valid zip"),
    ("missing.zip", "lacks"),
    ("escape.zip", "unexpected file"),
    ("error.zip", "HTTP 500"),
])
def test_bad_downloads_fail_clearly_and_leave_nothing(server: str, tmp_path: Path,
                                                      route: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        models.install("vosk-en", url=f"{server}/{route}", models_dir=tmp_path,
                       out=io.StringIO())
    assert list(tmp_path.iterdir()) == []


def test_a_failed_reinstall_keeps_the_working_model(server: str, tmp_path: Path) -> None:
    models.install("vosk-en", url=f"{server}/good.zip", models_dir=tmp_path, out=io.StringIO())
    with pytest.raises(UserError):
        models.install("vosk-en", url=f"{server}/corrupt.zip", models_dir=tmp_path,
                       force=True, out=io.StringIO())
    assert models.installed(models.VOSK_EN, tmp_path) is not None


def test_unreachable_server_and_unknown_model(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="cannot download"):
        models.install("vosk-en", url="http://127.0.0.1:9/x.zip", models_dir=tmp_path,
                       out=io.StringIO())
    with pytest.raises(UserError, match="unknown model"):
        models.install("whisper", models_dir=tmp_path)
    with pytest.raises(UserError, match="cannot download 'notaurl': not a URL"):  # was a traceback
        models.install("vosk-en", url="notaurl", models_dir=tmp_path, out=io.StringIO())
    assert list(tmp_path.iterdir()) == []  # nothing left behind


def test_models_command_installs_from_the_environment_url_and_lists(
        server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from companion import paths
    from companion.cli import main

    monkeypatch.setattr(paths, "MODELS_DIR", tmp_path)
    monkeypatch.setenv("COMPANION_VOSK_URL", f"{server}/error.zip")
    assert main(["models", "install", "vosk-en"]) == 2
    assert "HTTP 500" in capsys.readouterr().err
    monkeypatch.setenv("COMPANION_VOSK_URL", f"{server}/good.zip")
    assert main(["models", "install", "vosk-en"]) == 0
    assert main(["models", "list"]) == 0
    listed = capsys.readouterr().out
    assert f"installed in {tmp_path / FOLDER}" in listed
    assert "tidigits         built in" in listed  # the digit model ships in the package
