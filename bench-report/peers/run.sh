#!/bin/sh
# Times polars, pyarrow and duckdb on bench-report's nullable fixtures and
# writes their lines, in the report's format, to target/peers.txt (which
# `bench-report report` merges into its table).
#
#   bench-report/peers/run.sh --install   # once: venv + pip install (network)
#   bench-report/peers/run.sh [--runs N] [--out FILE] [FIXTURE ...]
#
# The virtual environment lives in target/peers-venv and is created only with
# --install: nothing here runs from .ci/run. The fixtures are the ones
# `bench-report report` writes under target/fixtures/ (run it first).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="$root/target/peers-venv"
if [ "${1:-}" = "--install" ]; then
    shift
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip
    "$venv/bin/pip" install --quiet polars pyarrow duckdb
    "$venv/bin/python" -c 'import polars, pyarrow, duckdb; print("polars", polars.__version__, "pyarrow", pyarrow.__version__, "duckdb", duckdb.__version__)'
    [ $# -eq 0 ] && exit 0
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "no $venv: run $0 --install first (pip install polars pyarrow duckdb)" >&2
    exit 2
fi
exec "$venv/bin/python" "$root/bench-report/peers/peers.py" --root "$root" "$@"
