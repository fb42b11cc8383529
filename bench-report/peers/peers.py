"""Times polars, pyarrow and duckdb on bench-report's fixture files.

Run through run.sh (it picks the virtual environment). Each (tool, threads)
runs in a child process of its own, so that a thread count fixed at import
(POLARS_MAX_THREADS) holds and no tool's pools or caches help another.

Reads, per tool, what it produces for a user (the issue's figures):
  polars   pl.read_parquet(io.BytesIO(bytes))     -> DataFrame
  pyarrow  pq.read_table(pa.BufferReader(bytes))  -> Table
  duckdb   con.sql(SELECT * FROM read_parquet(file)).to_arrow_table() -> Table
polars and pyarrow read the file's bytes from memory; duckdb cannot read
Python bytes without an fsspec filesystem, so it reads the file through the
OS page cache (warmed by the untimed first run).

Output: one line per (fixture, tool-threads) in bench-report's format,
`fixture variant rows median_ns_per_row min_ns_per_row allocs_per_row
ratio_to_floor` (the last two `nan`: bench-report fills the ratio in from its
own floor), with `#` comment lines saying when, where and with what.
"""

import argparse
import datetime
import gc
import io
import os
import platform
import subprocess
import sys
import time

FIXTURES = ["opt-1m-snappy", "opt-1m-duckdb", "opt-1m-zstd8"]
TOOLS = ["polars", "pyarrow", "duckdb"]
COLUMNS = ["ts", "symbol", "bid", "ask", "size"]


def fixture_path(root, name):
    """The file bench-report writes for fixture `name`."""
    return os.path.join(root, "target", "fixtures", f"bench-{name}-v1.parquet")


def reader(tool, threads, path):
    """A function reading `path` once with `tool` on `threads` threads,
    returning (rows, column names)."""
    if tool == "polars":
        import polars as pl

        assert pl.thread_pool_size() == threads, pl.thread_pool_size()
        data = open(path, "rb").read()

        def run():
            df = pl.read_parquet(io.BytesIO(data))
            return df.height, df.columns

        return run
    if tool == "pyarrow":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pa.set_cpu_count(threads)
        pa.set_io_thread_count(threads)
        buf = pa.py_buffer(open(path, "rb").read())

        def run():
            t = pq.read_table(pa.BufferReader(buf), use_threads=threads > 1)
            return t.num_rows, t.column_names

        return run
    if tool == "duckdb":
        import duckdb

        con = duckdb.connect()
        con.execute(f"SET threads = {threads}")
        quoted = path.replace("'", "''")
        query = f"SELECT * FROM read_parquet('{quoted}')"
        # A relation's Arrow output, not a DB-API result's (which copies the
        # rows once more); `to_arrow_table` is duckdb 1.4's name for `arrow`.
        name = "to_arrow_table" if hasattr(con.sql("SELECT 1"), "to_arrow_table") else "arrow"

        def run():
            t = getattr(con.sql(query), name)()
            return t.num_rows, t.column_names

        return run
    raise SystemExit(f"unknown tool {tool}")


def version(tool):
    return __import__(tool).__version__


def worker(args):
    """Times one tool on one thread count; prints the lines."""
    for name in args.fixtures:
        path = fixture_path(args.root, name)
        run = reader(args.tool, args.threads, path)
        rows, cols = run()  # untimed: warms caches, allocator and page cache
        if cols != COLUMNS:
            raise SystemExit(f"{name}: {args.tool} read columns {cols}, expected {COLUMNS}")
        samples = []
        gc.disable()
        for _ in range(args.runs):
            t0 = time.perf_counter_ns()
            n, _ = run()
            samples.append((time.perf_counter_ns() - t0) / n)
            if n != rows:
                raise SystemExit(f"{name}: {args.tool} read {n} rows, then {rows}")
        gc.enable()
        samples.sort()
        k = len(samples)
        median = samples[k // 2] if k % 2 else (samples[k // 2 - 1] + samples[k // 2]) / 2
        variant = f"{args.tool}-{args.threads}t"
        print(
            f"{name:<16} {variant:<24} {rows:>7} {median:>17.2f} {samples[0]:>14.2f} "
            f"{'nan':>14} {'nan':>14}",
            flush=True,
        )


def cpu():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "unknown"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", required=True, help="the parquet-rows workspace")
    p.add_argument("--runs", type=int, default=11, help="timed runs per line (median)")
    p.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    p.add_argument("--tools", default=",".join(TOOLS), help="tools, comma-separated")
    p.add_argument("--out", help="output file (default ROOT/target/peers.txt)")
    p.add_argument("--worker", nargs=2, metavar=("TOOL", "THREADS"), help=argparse.SUPPRESS)
    p.add_argument("fixtures", nargs="*", default=FIXTURES)
    args = p.parse_args()
    if args.runs < 1:
        raise SystemExit("--runs N (N >= 1)")

    if args.worker:
        args.tool, args.threads = args.worker[0], int(args.worker[1])
        worker(args)
        return

    for name in args.fixtures:
        if not os.path.exists(fixture_path(args.root, name)):
            raise SystemExit(
                f"{fixture_path(args.root, name)} missing: run "
                f"`bench-report report --only {name}` first (it writes the fixtures)"
            )
    out = args.out or os.path.join(args.root, "target", "peers.txt")
    tools = args.tools.split(",")
    threads = [int(t) for t in args.threads.split(",")]
    head = [
        f"# peers.py {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
        f"{cpu()}, {os.cpu_count()} hardware threads",
        "# " + ", ".join(f"{t} {version(t)}" for t in tools) + f", python {platform.python_version()}",
        f"# median and min of {args.runs} runs after one untimed; polars and pyarrow "
        "from bytes in memory, duckdb from the file (page cache)",
        f"# load average before: {loadavg()}",
    ]
    for h in head:
        print(h, flush=True)
    lines = []
    for tool in tools:
        for n in threads:
            env = dict(os.environ)
            env.update(
                POLARS_MAX_THREADS=str(n),
                OMP_NUM_THREADS=str(n),
                RAYON_NUM_THREADS=str(n),
            )
            cmd = [
                sys.executable, __file__, "--root", args.root, "--runs", str(args.runs),
                "--worker", tool, str(n), *args.fixtures,
            ]
            res = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE, text=True)
            for line in res.stdout.splitlines():
                print(line, flush=True)
                lines.append(line)
    tail = f"# load average after: {loadavg()}"
    print(tail)
    # Sorted by fixture, so the file reads like the report.
    lines.sort(key=lambda line: args.fixtures.index(line.split()[0]))
    with open(out, "w") as f:
        f.write("\n".join(head + lines + [tail]) + "\n")
    print(f"# written to {out}")


if __name__ == "__main__":
    main()
