"""Times pyarrow's `write_table` and polars' `write_parquet` on the ticks of
`bench-report writes` (issue 26), with the same settings: one row group,
dictionary on, statistics, the same codec and level.

    target/peers-venv/bin/python bench-report/peers/writes.py --root . [--runs N]

`bench-report writes` writes our files first (target/fixtures/bench-writes-
<codec>.parquet); each is read here into an Arrow table and a DataFrame,
untimed, then written into memory. polars runs on one thread
(POLARS_MAX_THREADS=1) and on every core. Output: `codec writer median_ms
min_ms bytes`, and the size of our file beside pyarrow's.
"""

import argparse
import io
import os
import sys
import time


def timed(run, runs):
    run()  # warm-up, untimed
    samples = []
    size = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        size = run()
        samples.append((time.perf_counter() - t0) * 1e3)
    samples.sort()
    return samples[len(samples) // 2], samples[0], size


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", required=True)
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--threads", type=int, default=1, help="polars threads (set before import)")
    args = p.parse_args()
    os.environ["POLARS_MAX_THREADS"] = str(args.threads)
    import pyarrow as pa
    import pyarrow.parquet as pq
    import polars as pl

    fixtures = os.path.join(args.root, "target", "fixtures")
    print(f"# pyarrow {pa.__version__}, polars {pl.__version__} ({pl.thread_pool_size()} threads), median of {args.runs} runs")
    for codec in ["zstd", "snappy"]:
        path = os.path.join(fixtures, f"bench-writes-{codec}.parquet")
        if not os.path.exists(path):
            sys.exit(f"{path} is missing: run `bench-report writes` first")
        table = pq.read_table(path)
        frame = pl.read_parquet(path)
        level = 1 if codec == "zstd" else None

        def pyarrow_write():
            buf = io.BytesIO()
            pq.write_table(
                table,
                buf,
                compression=codec,
                compression_level=level,
                use_dictionary=True,
                write_statistics=True,
                row_group_size=len(table),
                write_page_index=True,
            )
            return buf.tell()

        def polars_write():
            buf = io.BytesIO()
            frame.write_parquet(
                buf,
                compression=codec,
                compression_level=level,
                statistics=True,
                row_group_size=frame.height,
            )
            return buf.tell()

        ours = os.path.getsize(path)
        for name, run in [("pyarrow", pyarrow_write), (f"polars-{args.threads}t", polars_write)]:
            median, low, size = timed(run, args.runs)
            print(f"{codec.upper():<8} {name:<16} {median:>10.1f} {low:>10.1f} {size:>12}   ours {ours} bytes = {100.0 * (ours - size) / size:+.1f}% of it")


if __name__ == "__main__":
    main()
