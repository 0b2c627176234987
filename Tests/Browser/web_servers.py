"""nginx and Caddy serving a built site with the configurations in Deploy/, as a user's server
would: each a process of its own on 127.0.0.1, on a free port, with its files (pid, logs,
temporary folders) in a folder of the test's, and the site published below a subpath with
Deploy/publish.sh.

Used by test_hosting.py and by Benchmarks/search/revisit.py.
"""

import os
import socket
import subprocess
import time
from pathlib import Path

import browser_support as support

NGINX = "/usr/sbin/nginx"
CADDY = "/usr/bin/caddy"

DEPLOY = support.REPO / "Deploy"

# A server's own configuration around the one in Deploy/: its port, its root (the folder that
# holds the subpath) and the site's path.
NGINX_CONF = """\
daemon off;
master_process off;
pid {work}/nginx.pid;
error_log {work}/error.log;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    server {{
        listen 127.0.0.1:{port};
        root {root};
        set $fruitsite_base {base};
        include {deploy}/nginx.conf;
    }}
}}
"""

CADDYFILE = """\
{{
    admin off
    auto_https off
    storage file_system {work}/data
}}
http://127.0.0.1:{port} {{
    root * {root}
    vars fruitsite_base {base}
    import {deploy}/Caddyfile
}}
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class WebServer:
    """Serves the build `site` at http://127.0.0.1:<port>/<subpath> with nginx or Caddy (`kind`)
    and Deploy/'s configuration for it, until closed."""

    def __init__(self, kind: str, site: Path, work: Path, subpath: str = support.SUBPATH):
        self.kind = kind
        self.work = work / kind
        self.work.mkdir(parents=True, exist_ok=True)
        subpath = subpath.strip("/") + "/" if subpath.strip("/") else ""
        self.root = work / "www"
        self.site_copy = self.root / subpath
        support.publish(site, self.site_copy)
        self.base = "/" + subpath
        self.process = None
        self.port = 0

    def __enter__(self):
        # A port free a moment ago may be taken by the time the server binds it: try again.
        for _ in range(3):
            self.port = free_port()
            self.process = self._start()
            if self._wait_until_listening():
                self.base_url = f"http://127.0.0.1:{self.port}{self.base}"
                return self
            self.process.kill()
            self.process.wait()
        raise AssertionError(f"{self.kind} did not start:\n{self._log()}")

    def __exit__(self, *exc):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def url(self, relative: str = "") -> str:
        """Absolute URL of a path relative to the site root."""
        return self.base_url + relative

    def deploy(self, site: Path) -> None:
        """Publishes a new build of the site over the one served (see support.publish)."""
        support.publish(site, self.site_copy)

    # MARK: - The process

    def _start(self) -> subprocess.Popen:
        values = {"work": self.work, "port": self.port, "root": self.root, "base": self.base,
                  "deploy": DEPLOY}
        log = open(self.work / "output.log", "w")
        if self.kind == "nginx":
            config = self.work / "nginx.conf"
            config.write_text(NGINX_CONF.format(**values), encoding="utf-8")
            command = [NGINX, "-p", str(self.work), "-c", str(config),
                       "-e", str(self.work / "error.log")]
            environment = None
        else:
            config = self.work / "Caddyfile"
            config.write_text(CADDYFILE.format(**values), encoding="utf-8")
            command = [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"]
            # Caddy keeps its state under HOME and the XDG folders: here, the test's.
            environment = dict(os.environ, HOME=str(self.work),
                               XDG_CONFIG_HOME=str(self.work), XDG_DATA_HOME=str(self.work))
        with log:
            return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, env=environment)

    def _wait_until_listening(self, timeout: float = 20) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            except OSError:
                time.sleep(0.05)
                continue
            return self.process.poll() is None  # not another process on the port
        return False

    def _log(self) -> str:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace")
                         for path in (self.work / "output.log", self.work / "error.log")
                         if path.is_file())
