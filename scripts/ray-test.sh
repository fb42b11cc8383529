#!/usr/bin/env bash
# Splits on a Ray cluster (scripts/cluster/, a package outside the
# workspace, built into target/cluster): a tick dataset written to moto's
# S3 server, cut into splits by the `driver` binary, each split read by a
# `worker` binary run in a Ray task (scripts/cluster/ray_job.py), and the
# workers' summaries checked against one process reading the whole dataset.
# Then the same again with one split's worker killed on its first attempt,
# to show Ray running that split again. moto_server and a Ray head node
# (2 CPUs) are started here on 127.0.0.1 and stopped on exit.
#
# Usage:  scripts/ray-test.sh            use the venv below; skip (exit 0)
#                                        if it has no Ray, or if
#                                        `moto_server` is not found (as
#                                        scripts/s3-test.sh finds it)
#         scripts/ray-test.sh --install  first create the venv
#                                        target/ray-venv with pip's `ray`
#                                        (needs PyPI)
#
# Not part of .ci/run, which installs nothing: see docs/cluster.md.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
venv=target/ray-venv
# The version docs/cluster.md's run used.
ray_version=2.60.0
files=30
target_bytes=600000
fail_split=7

if [ "${1:-}" = "--install" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "ray==$ray_version"
fi

if [ ! -x "$venv/bin/ray" ]; then
    echo "SKIPPED: the Ray test: no Ray in $venv."
    echo "  Run \`scripts/ray-test.sh --install\` to install it there."
    exit 0
fi
if [ -x target/s3-test-venv/bin/moto_server ]; then
    moto=target/s3-test-venv/bin/moto_server
elif command -v moto_server >/dev/null 2>&1; then
    moto=$(command -v moto_server)
else
    echo "SKIPPED: the Ray test: \`moto_server\` not found (pip's \`moto[server]\`)."
    echo "  Run \`scripts/s3-test.sh --install\` to install it in target/s3-test-venv."
    exit 0
fi

# Built before anything starts. Its own lock file and target directory, as
# scripts/s3-test/ (see there).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}/cluster"
manifest=scripts/cluster/Cargo.toml
cargo test --manifest-path "$manifest"
cargo build --manifest-path "$manifest" --bins
bin="$CARGO_TARGET_DIR/debug"

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

mkdir -p target
pids=()
cleanup() {
    # Ray's head (`ray start --block`) stops the processes it started when
    # it gets SIGTERM.
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT

# waits (at most $2 tenths of a second) until command $3... succeeds, while
# process $1 lives.
wait_for() {
    local pid=$1 tries=$2
    shift 2
    for _ in $(seq 1 "$tries"); do
        if "$@" 2>/dev/null; then
            return 0
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            return 1
        fi
        sleep 0.1
    done
    return 1
}

port=$(free_port)
moto_log=target/ray-test-moto.log
"$moto" -H 127.0.0.1 -p "$port" >"$moto_log" 2>&1 &
pids+=($!)
if ! wait_for "${pids[0]}" 300 python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/moto-api/')"; then
    echo "moto_server did not start; its log ($moto_log):" >&2
    cat "$moto_log" >&2
    exit 1
fi
moto_version=$("$(dirname "$moto")/python" -c 'import importlib.metadata as m; print(m.version("moto"))' 2>/dev/null || echo '?')
echo "moto_server ($moto, moto $moto_version) on 127.0.0.1:$port"

# The store, for the driver, the workers (ray_job.py passes the `AWS_*`
# variables to the tasks) and the bucket's creation (moto creates a bucket
# on a plain PUT of its name).
export AWS_ENDPOINT="http://127.0.0.1:$port" AWS_ALLOW_HTTP=true AWS_REGION=us-east-1 \
    AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_BUCKET=ticks
python3 -c "import sys, urllib.request as u; u.urlopen(u.Request(sys.argv[1], method='PUT'))" "$AWS_ENDPOINT/$AWS_BUCKET"

# A Ray head node on this machine only, with 2 CPUs, no dashboard and no
# usage statistics sent anywhere. Ray replaces a loopback
# `--node-ip-address` with the machine's own address (for other nodes to
# join) unless told that this is a single-node install, which keeps every
# Ray connection on 127.0.0.1.
ray_port=$(free_port)
ray_log=target/ray-test-head.log
export RAY_USAGE_STATS_ENABLED=0 RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0
"$venv/bin/ray" start --head --block --num-cpus 2 --node-ip-address 127.0.0.1 \
    --port "$ray_port" --include-dashboard false --disable-usage-stats >"$ray_log" 2>&1 &
pids+=($!)
if ! wait_for "${pids[1]}" 1200 grep -q "Ray runtime started" "$ray_log"; then
    echo "the Ray head did not start; its log ($ray_log):" >&2
    cat "$ray_log" >&2
    exit 1
fi
echo "Ray head (ray $ray_version) on 127.0.0.1:$ray_port"

echo
echo "== the dataset"
"$bin/driver" write ticks "$files"

job=("$venv/bin/python" scripts/cluster/ray_job.py --address "127.0.0.1:$ray_port" --bin "$bin"
    --prefix ticks --target-bytes "$target_bytes")
echo
echo "== the splits on Ray"
"${job[@]}" --job jobs/run
echo
echo "== the same, split $fail_split's worker killed on its first attempt"
"${job[@]}" --job jobs/run-killed --fail-split "$fail_split"
