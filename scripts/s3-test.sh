#!/usr/bin/env bash
# The S3 test (scripts/s3-test/, a package outside the workspace, built
# into target/s3-test): parquet-rows reading a dataset from a real
# S3-compatible server, moto's `moto_server`, started here on a free port on
# 127.0.0.1 and stopped on exit.
#
# Usage:  scripts/s3-test.sh            use `moto_server` from PATH, or the
#                                       venv below; skip (exit 0) if neither
#         scripts/s3-test.sh --install  first create the venv
#                                       target/s3-test-venv with pip's
#                                       `moto[server]` (needs PyPI)
#
# .ci/run calls it without --install: it installs nothing.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
venv=target/s3-test-venv

if [ "${1:-}" = "--install" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'moto[server]'
fi

if [ -x "$venv/bin/moto_server" ]; then
    moto="$venv/bin/moto_server"
elif command -v moto_server >/dev/null 2>&1; then
    moto=$(command -v moto_server)
else
    echo "SKIPPED: the S3 test: \`moto_server\` not found (pip's \`moto[server]\`)."
    echo "  Run \`scripts/s3-test.sh --install\` to install it in $venv."
    exit 0
fi

# Built before the server starts. The package has its own lock file
# (scripts/s3-test/Cargo.lock: the workspace's has no S3 client) and its own
# target directory (its dependencies' features differ from the workspace's,
# so nothing would be shared).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/s3-test"
test=(cargo test --manifest-path scripts/s3-test/Cargo.toml)
"${test[@]}" --no-run

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=target/s3-test-moto.log
mkdir -p target
"$moto" -H 127.0.0.1 -p "$port" >"$log" 2>&1 &
moto_pid=$!
trap 'kill "$moto_pid" 2>/dev/null || true; wait "$moto_pid" 2>/dev/null || true' EXIT

# Wait for the server (at most 30 s).
for _ in $(seq 1 300); do
    if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/moto-api/')" 2>/dev/null; then
        break
    fi
    if ! kill -0 "$moto_pid" 2>/dev/null; then
        echo "moto_server exited; its log ($log):" >&2
        cat "$log" >&2
        exit 1
    fi
    sleep 0.1
done

echo "moto_server ($moto) on 127.0.0.1:$port"
PARQUET_ROWS_S3_ENDPOINT="http://127.0.0.1:$port" "${test[@]}" -- --nocapture
