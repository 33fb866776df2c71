"""Installing optional speech models: an explicit command, never a side effect.

``companion models install vosk-en`` downloads the official small English
Vosk model from its publisher, checks it, and unpacks it into ``models/``
atomically: everything happens in a temporary folder beside the target and
the finished model folder is renamed into place in one step, so an
interrupted, truncated or corrupt download leaves nothing half-installed.

Checks, in order: the HTTP status; the number of bytes received against the
server's Content-Length (a truncated download); the official size when the
official URL is used; a SHA-256 when one is recorded; every member's CRC in
the zip (:meth:`zipfile.ZipFile.testzip`); no member escaping the target
folder; and the files a Vosk grammar recogniser needs being present.

The publisher does not print a checksum, and this machine cannot reach the
publisher, so no SHA-256 is recorded for vosk-en (``sha256=None``); the CRC
and file checks still catch corruption. The URL can be overridden with
``--url`` or ``$COMPANION_VOSK_URL`` (tests use a server on 127.0.0.1).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from companion import paths
from companion.errors import UserError


@dataclass(frozen=True)
class ModelSpec:
    """An installable model."""

    key: str
    folder: str
    url: str
    description: str
    required: tuple[str, ...]
    size: int | None = None  # bytes of the official zip, when known
    sha256: str | None = None


VOSK_EN = ModelSpec(
    key="vosk-en",
    folder="vosk-model-small-en-us-0.15",
    url="https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip",
    description="Vosk small US English model (about 40 MB), Apache 2.0, alphacephei.com",
    required=("am/final.mdl", "conf/model.conf", "graph/HCLr.fst", "graph/Gr.fst"),
)
MODELS: dict[str, ModelSpec] = {VOSK_EN.key: VOSK_EN}
URL_ENV = {"vosk-en": "COMPANION_VOSK_URL"}


def installed(spec: ModelSpec, models_dir: Path | None = None) -> Path | None:
    """The model's folder if it is installed and complete."""
    folder = (models_dir or paths.MODELS_DIR) / spec.folder
    if all((folder / f).is_file() for f in spec.required):
        return folder
    return None


def _progress(done: int, total: int | None, out: TextIO) -> None:
    if total:
        frac = min(1.0, done / total)
        bar = "#" * int(frac * 30)
        out.write(f"\r  [{bar:<30}] {frac:4.0%} {done / 1e6:6.1f}/{total / 1e6:.1f} MB")
    else:
        out.write(f"\r  {done / 1e6:6.1f} MB")
    out.flush()


def download(url: str, dest: Path, out: TextIO, timeout: float = 30.0) -> str:
    """Download *url* to *dest* with a progress bar; return the SHA-256.

    Raises UserError on an HTTP error, a network error or a truncated body.
    """
    digest = hashlib.sha256()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp, open(dest, "wb") as f:
            length = resp.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            done = 0
            while True:
                try:
                    chunk = resp.read(1 << 16)
                except Exception as exc:  # http.client.IncompleteRead and friends
                    raise UserError(f"download of {url} was cut off after {done} bytes "
                                    f"({type(exc).__name__})") from None
                if not chunk:
                    break
                f.write(chunk)
                digest.update(chunk)
                done += len(chunk)
                _progress(done, total, out)
            out.write("\n")
    except urllib.error.HTTPError as exc:
        raise UserError(f"the server refused {url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UserError(f"cannot download {url}: {reason}") from None
    except ValueError as exc:  # urllib's word for a malformed URL
        raise UserError(f"cannot download {url!r}: not a URL ({exc})") from None
    if total is not None and done != total:
        raise UserError(f"download of {url} is truncated: got {done} of {total} bytes")
    return digest.hexdigest()


def _check_zip(archive: Path, spec: ModelSpec) -> None:
    try:
        with zipfile.ZipFile(archive) as z:
            bad = z.testzip()
            if bad is not None:
                raise UserError(f"the downloaded model is corrupt: bad CRC in {bad}")
            for name in z.namelist():
                parts = Path(name).parts
                if name.startswith("/") or ".." in parts or not parts or parts[0] != spec.folder:
                    raise UserError(f"the downloaded model has an unexpected file {name!r} "
                                    f"(everything should be under {spec.folder}/)")
    except zipfile.BadZipFile as exc:
        raise UserError(f"the downloaded model is not a valid zip file ({exc})") from None
    except (OSError, EOFError) as exc:
        raise UserError(f"the downloaded model cannot be read ({exc})") from None


def install(key: str, url: str | None = None, models_dir: Path | None = None,
            force: bool = False, out: TextIO | None = None) -> Path:
    """Download, verify and unpack model *key*; return its folder."""
    spec = MODELS.get(key)
    if spec is None:
        raise UserError(f"unknown model {key!r}; known: {', '.join(sorted(MODELS))}")
    out = out or sys.stderr
    target_dir = models_dir or paths.MODELS_DIR
    target = target_dir / spec.folder
    if installed(spec, target_dir) and not force:
        print(f"{key} is already installed in {target}", file=out)
        return target
    official = url is None and not os.environ.get(URL_ENV.get(key, ""))
    source = url or os.environ.get(URL_ENV.get(key, "")) or spec.url
    target_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=target_dir))
    try:
        print(f"Downloading {spec.description}\n  from {source}", file=out)
        archive = work / "model.zip"
        sha = download(source, archive, out)
        if official and spec.size is not None and archive.stat().st_size != spec.size:
            raise UserError(f"the download has {archive.stat().st_size} bytes, "
                            f"expected {spec.size}")
        if official and spec.sha256 is not None and sha != spec.sha256:
            raise UserError(f"the download's SHA-256 is {sha}, expected {spec.sha256}")
        _check_zip(archive, spec)
        unpacked = work / "unpacked"
        with zipfile.ZipFile(archive) as z:
            z.extractall(unpacked)
        missing = [f for f in spec.required if not (unpacked / spec.folder / f).is_file()]
        if missing:
            raise UserError(f"the downloaded model lacks {', '.join(missing)}")
        if target.exists():
            old = work / "previous"
            os.replace(target, old)
        os.replace(unpacked / spec.folder, target)
        print(f"Installed {key} in {target} (sha256 {sha})", file=out)
        return target
    finally:
        shutil.rmtree(work, ignore_errors=True)
