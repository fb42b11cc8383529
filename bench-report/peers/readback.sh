#!/bin/sh
# Writes the writer's check files and reads them back with pyarrow, duckdb and
# polars (issue 26: other readers read our files value-identical).
#
#   bench-report/peers/readback.sh --install   # once: venv + pip install (network)
#   bench-report/peers/readback.sh [DIR]       # default bench-report/target/writer-check
#
# The virtual environment lives in bench-report/target/readback-venv (or
# $READBACK_VENV, e.g. an existing peers venv) and is made only with
# --install: nothing here runs from CI. CARGO_BUILD_FLAGS=--release reuses
# a release build of bench-report. The files are written
# by `bench-report writer-check DIR` (a debug build is enough: it checks
# values, it does not time anything).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
venv="${READBACK_VENV:-$here/target/readback-venv}"
if [ "${1:-}" = "--install" ]; then
    shift
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip
    "$venv/bin/pip" install --quiet pyarrow duckdb polars
    "$venv/bin/python" -c 'import polars, pyarrow, duckdb; print("polars", polars.__version__, "pyarrow", pyarrow.__version__, "duckdb", duckdb.__version__)'
    [ $# -eq 0 ] && exit 0
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "no $venv: run $0 --install first (pip install pyarrow duckdb polars)" >&2
    exit 2
fi
dir=${1:-"$here/target/writer-check"}
cargo run --quiet ${CARGO_BUILD_FLAGS:-} --manifest-path "$here/Cargo.toml" -- writer-check "$dir"
exec "$venv/bin/python" "$here/peers/readback.py" "$dir"
