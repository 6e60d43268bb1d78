"""``tubedeck preview GAME``: the built pages of a game in a browser, reloaded after each rebuild.

A designer runs ``tubedeck build GAME --watch`` in one terminal and ``tubedeck preview GAME`` in
another: the page lists the game's PDFs (each opened in the browser's viewer) and shows its
contact sheets and PNGs; it asks the server every second for the folder's state (a digest of
every file's name, size and modification time) and reloads when it changes.

Safety, since it is a server: it listens on 127.0.0.1 only; it answers GET and HEAD and nothing
else (405); it serves only regular files whose real path (links resolved) lies inside the build
folder: ``..``, encoded dots and slashes, absolute paths, NUL bytes and links that leave the
folder are 404; it writes nothing. A port in use is a :class:`~tubedeck.errors.UsageError`.
"""

from __future__ import annotations

import hashlib
import html
import mimetypes
import posixpath
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .errors import UsageError

HOST = "127.0.0.1"
SHOWN = (".png", ".svg")  # drawn on the page; PDFs are linked (the browser's viewer opens them)


def state(folder: Path) -> str:
    """A digest of the folder's files (names, sizes, modification times): changes with a rebuild."""
    h = hashlib.sha256()
    if folder.is_dir():
        for p in sorted(folder.rglob("*")):
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts):
                st = p.stat()
                h.update(f"{p.relative_to(folder).as_posix()}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def inside(folder: Path, url_path: str) -> Path | None:
    """The regular file ``url_path`` names inside ``folder``, or None (outside, hidden, missing)."""
    path = unquote(urlsplit(url_path).path)
    if "\0" in path or "\\" in path:
        return None
    parts = [p for p in posixpath.normpath("/" + path).split("/") if p]
    if any(p in ("..", ".") or p.startswith(".") for p in parts):
        return None
    root = folder.resolve()
    target = root.joinpath(*parts) if parts else root
    try:
        real = target.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not real.is_relative_to(root) or not real.is_file():
        return None
    return real


def index_page(folder: Path, title: str) -> bytes:
    files = sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")) \
        if folder.is_dir() else []
    pdfs = [p for p in files if p.suffix == ".pdf"]
    images = [p for p in files if p.suffix in SHOWN and ("contact" in p.name or p.parent == folder)]
    rel = [p.relative_to(folder).as_posix() for p in pdfs]
    shown = [p.relative_to(folder).as_posix() for p in images]
    links = "".join(f'<li><a href="/{html.escape(r)}">{html.escape(r)}</a></li>' for r in rel) or "<li>none yet</li>"
    pics = "".join(f'<figure><img src="/{html.escape(r)}" alt="{html.escape(r)}">'
                   f"<figcaption>{html.escape(r)}</figcaption></figure>" for r in shown)
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font:15px/1.4 sans-serif;margin:2em;color:#1c1c1c}}img{{max-width:100%;border:1px solid #ccc}}
figure{{margin:1em 0}}figcaption{{color:#595959}}</style></head>
<body><h1>{html.escape(title)}</h1><p id="state" data-state="{state(folder)}">Reloads after each rebuild.</p>
<h2>PDFs</h2><ul>{links}</ul><h2>Contact sheets</h2>{pics or "<p>none yet</p>"}
<script>
const seen = document.getElementById("state").dataset.state;
setInterval(async () => {{
  try {{ const r = await fetch("/.state", {{cache: "no-store"}}); if ((await r.text()) !== seen) location.reload(); }}
  catch (e) {{}}
}}, 1000);
</script></body></html>"""
    return page.encode("utf-8")


def handler(folder: Path, title: str) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "tubedeck-preview"

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
            pass  # quiet: the terminal belongs to the user

        def _send(self, status: int, body: bytes, kind: str, head: bool) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            if not head:
                self.wfile.write(body)

        def _get(self, head: bool) -> None:
            path = urlsplit(self.path).path
            if path in ("/", "/index.html"):
                return self._send(200, index_page(folder, title), "text/html; charset=utf-8", head)
            if path == "/.state":
                return self._send(200, state(folder).encode(), "text/plain", head)
            real = inside(folder, self.path)
            if real is None:
                return self._send(404, b"not found", "text/plain", head)
            kind = mimetypes.guess_type(real.name)[0] or "application/octet-stream"
            return self._send(200, real.read_bytes(), kind, head)

        def do_GET(self) -> None:  # noqa: N802 - http.server's names
            self._get(head=False)

        def do_HEAD(self) -> None:  # noqa: N802
            self._get(head=True)

        def _refuse(self) -> None:
            self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
            self.send_header("Allow", "GET, HEAD")
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse  # noqa: N815

    return Handler


def server(folder: Path, title: str, port: int = 8000) -> ThreadingHTTPServer:
    """A server of ``folder`` on 127.0.0.1:``port`` (0: any free port), not yet serving."""
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port}: give 0-65535 (0: any free port)")
    try:
        srv = ThreadingHTTPServer((HOST, port), handler(folder, title))
    except OSError as exc:
        raise UsageError(f"--port {port}: cannot listen on {HOST}:{port} ({exc.strerror or exc}); "
                         "another preview may be running: give another --port, or 0 for any free one") from None
    srv.daemon_threads = True
    return srv


def serve_in_thread(srv: ThreadingHTTPServer) -> threading.Thread:
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    return thread


__all__ = ["HOST", "index_page", "inside", "serve_in_thread", "server", "state"]
