#!/usr/bin/env bash
# The one test command of the project: installs what the tests need, then fmt, clippy, tests.
# Works from a fresh clone (no target/) and on a fresh machine (no aiosmtpd, no chromium).
# DUSTMAIL_BROWSER_TESTS=0 skips installing chromium (the report screenshot tests need it).
set -euo pipefail
cd "$(dirname "$0")/.."

# Root needs no sudo; anyone else needs it (and a fresh CI machine runs as root).
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        echo "scripts/test.sh: need root or sudo to run: $*" >&2
        return 1
    fi
}

APT_UPDATED=0
apt_install() {
    export DEBIAN_FRONTEND=noninteractive
    if [ "$APT_UPDATED" -eq 0 ]; then
        as_root apt-get update -qq
        APT_UPDATED=1
    fi
    as_root apt-get install -y -qq "$@"
}

# The SMTP tests run a real server: python3 -m aiosmtpd (tests/it/support/smtp.rs).
ensure_aiosmtpd() {
    if python3 -c 'import aiosmtpd' >/dev/null 2>&1; then
        return 0
    fi
    echo "scripts/test.sh: installing aiosmtpd" >&2
    python3 -m pip install --quiet aiosmtpd \
        || python3 -m pip install --quiet --break-system-packages aiosmtpd \
        || apt_install python3-aiosmtpd
    python3 -c 'import aiosmtpd' || {
        echo "scripts/test.sh: aiosmtpd still not importable by python3" >&2
        exit 1
    }
}

# Report screenshots are taken with Debian's headless chromium.
# chromedriver (Debian's chromium-driver, the same version as chromium) lets the replay page
# tests click and type (tests/it/support/webdriver.rs).
ensure_chromium() {
    if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
        return 0
    fi
    echo "scripts/test.sh: installing chromium and chromium-driver" >&2
    apt_install chromium chromium-driver
}

# Orders signed with OpenSSH (tests/it/openssh.rs) are made by the real ssh-keygen.
ensure_ssh_keygen() {
    if command -v ssh-keygen >/dev/null 2>&1; then
        return 0
    fi
    echo "scripts/test.sh: installing openssh-client (ssh-keygen)" >&2
    apt_install openssh-client
    command -v ssh-keygen >/dev/null 2>&1 || {
        echo "scripts/test.sh: ssh-keygen still not found after installing openssh-client" >&2
        exit 1
    }
}

# The IMAP tests (run --imap) start their own dovecot on a loopback port
# (tests/it/support/dovecot.rs); the package also creates the dovecot users a root run needs.
ensure_dovecot() {
    if [ -x /usr/sbin/dovecot ] && id dovecot >/dev/null 2>&1; then
        return 0
    fi
    echo "scripts/test.sh: installing dovecot-imapd" >&2
    apt_install dovecot-imapd
}

ensure_aiosmtpd
ensure_ssh_keygen
ensure_dovecot
if [ "${DUSTMAIL_BROWSER_TESTS:-1}" != "0" ]; then
    ensure_chromium
fi

# No incremental cache: CI builds once, and the cache is gigabytes on a disk that may be small.
export CARGO_INCREMENTAL=0

cargo fmt --all -- --check
cargo clippy --all-targets -- -D warnings
# Every test binary runs even when one fails (--no-fail-fast), so one failure never hides
# another; the script still exits non-zero when any failed.
failed=0
# Doc tests first: the run's closing line should be a test binary that has tests.
cargo test --no-fail-fast --doc || failed=1
# Test targets only: the benches (harness = false) are programs for `cargo bench`;
# clippy above has compiled them.
cargo test --no-fail-fast --lib --bins --tests || failed=1
# The man pages, the shell completions and the Debian package, from the debug binary the tests
# built (installs cargo-deb the first time: about 2 minutes; then about 20 seconds). A release
# package: `bash packaging/build-deb.sh`.
bash packaging/build-deb.sh --profile dev || failed=1
if [ "$failed" -ne 0 ]; then
    echo "scripts/test.sh: some tests failed (see above)" >&2
    exit 1
fi
