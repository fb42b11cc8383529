"""Times polars `scan_parquet(...).filter(...).collect()` (and, on the
spread-symbol file, duckdb's `SELECT * ... WHERE` into arrow) on the filter
queries of `bench-report filters` (issues 17 and 25), on the same fixture
files.

    target/peers-venv/bin/python bench-report/peers/filters.py --root . [--runs N] [--threads 1]
        [--spread ours|pyarrow] [--write-pyarrow-spread]

`--write-pyarrow-spread` writes the spread-symbol file again as pyarrow
writes it with its defaults (SNAPPY, row groups of 1Mi rows, dictionary on
every column), the file issue 25 measured on, and exits;
`--spread pyarrow` then times the spread queries on it (bench-report reads
it with `FILTERS_SPREAD=pyarrow`).

The fixtures are written by `bench-report filters` (run it first). polars
reads the file through the OS page cache (warmed by an untimed first run).
Output: `query variant rows median_ms min_ms`, as bench-report prints them.
"""

import argparse
import os
import time


def symbols():
    ccy = ["EUR", "USD", "GBP", "JPY", "CHF", "AUD", "CAD", "NZD"]
    out = [a + b for a in ccy for b in ccy if a != b][:50]
    return sorted(out)


def ts_of(i):
    return 1_774_000_000_000_000 + i * 137


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", required=True)
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--only", default="", help="only the queries whose name starts with this")
    p.add_argument("--spread", choices=["ours", "pyarrow"], default="ours")
    p.add_argument("--write-pyarrow-spread", action="store_true")
    args = p.parse_args()
    os.environ["POLARS_MAX_THREADS"] = str(args.threads)
    import polars as pl

    fixtures = os.path.join(args.root, "target", "fixtures")
    lo, hi = ts_of(4_950_000), ts_of(5_050_000)
    want = symbols()[7]
    ticks = os.path.join(fixtures, "bench-filter-ticks-10m-v1.parquet")
    syms = os.path.join(fixtures, "bench-filter-sym50-v1.parquet")
    spread = os.path.join(fixtures, "bench-filter-spread50-10m-v1.parquet")
    pyarrow_spread = os.path.join(fixtures, "bench-filter-spread50-10m-pyarrow.parquet")
    if args.write_pyarrow_spread:
        import pyarrow.parquet as pq

        # pyarrow's defaults, as a user's `pq.write_table(table, path)`.
        pq.write_table(pq.read_table(spread), pyarrow_spread)
        meta = pq.ParquetFile(pyarrow_spread).metadata
        print(f"wrote {pyarrow_spread}: {meta.num_rows} rows, {meta.num_row_groups} row groups")
        return
    if args.spread == "pyarrow":
        spread = pyarrow_spread
    three = [symbols()[7], symbols()[19], symbols()[33]]
    bid1 = 1.0 + 10 * 1e-5 - 1e-7
    bid50 = 1.0 + 500 * 1e-5 - 1e-7
    import duckdb

    con = duckdb.connect()
    con.execute(f"SET threads = {args.threads}")

    class Rows:
        def __init__(self, n):
            self.height = n

    def duck(where):
        sql = f"SELECT * FROM read_parquet('{spread}')" + (f" WHERE {where}" if where else "")
        return Rows(con.execute(sql).to_arrow_table().num_rows)

    in3 = ", ".join(f"'{s}'" for s in three)
    queries = [
        ("ts-1pct", "polars-full", lambda: pl.scan_parquet(ticks).collect()),
        (
            "ts-1pct",
            "polars-filter",
            lambda: pl.scan_parquet(ticks).filter((pl.col("ts") >= lo) & (pl.col("ts") < hi)).collect(),
        ),
        ("tail-1000", "polars-tail", lambda: pl.scan_parquet(ticks).tail(1000).collect()),
        ("tail-1000", "polars-slice", lambda: pl.scan_parquet(ticks).slice(10_000_000 - 1000).collect()),
        ("symbol-1of50", "polars-full", lambda: pl.scan_parquet(syms).collect()),
        (
            "symbol-1of50",
            "polars-filter",
            lambda: pl.scan_parquet(syms).filter(pl.col("symbol") == want).collect(),
        ),
        ("spread-sym-eq", "polars-full", lambda: pl.scan_parquet(spread).collect()),
        ("spread-sym-eq", "duckdb-full", lambda: duck(None)),
        ("spread-sym-eq", "polars-filter", lambda: pl.scan_parquet(spread).filter(pl.col("symbol") == want).collect()),
        ("spread-sym-eq", "duckdb-filter", lambda: duck(f"symbol = '{want}'")),
        ("spread-sym-in3", "polars-filter", lambda: pl.scan_parquet(spread).filter(pl.col("symbol").is_in(three)).collect()),
        ("spread-sym-in3", "duckdb-filter", lambda: duck(f"symbol IN ({in3})")),
        ("spread-bid-1pct", "polars-filter", lambda: pl.scan_parquet(spread).filter(pl.col("bid") < bid1).collect()),
        ("spread-bid-1pct", "duckdb-filter", lambda: duck(f"bid < {bid1!r}")),
        ("spread-bid-50pct", "polars-filter", lambda: pl.scan_parquet(spread).filter(pl.col("bid") < bid50).collect()),
        ("spread-bid-50pct", "duckdb-filter", lambda: duck(f"bid < {bid50!r}")),
    ]
    print(f"# polars {pl.__version__}, {pl.thread_pool_size()} threads, median of {args.runs} runs")
    for query, variant, run in queries:
        if not query.startswith(args.only):
            continue
        rows = run().height
        samples = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            n = run().height
            samples.append((time.perf_counter() - t0) * 1e3)
            assert n == rows
        samples.sort()
        print(f"{query:<14} {variant + '-' + str(args.threads) + 't':<24} {rows:>9} {samples[len(samples) // 2]:>10.2f} {samples[0]:>10.2f}")


if __name__ == "__main__":
    main()
