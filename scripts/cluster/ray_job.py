#!/usr/bin/env python3
"""Runs a dataset's splits as Ray tasks and checks the result.

1. `driver splits` cuts the dataset into splits (JSON in the store) and
   says how many;
2. one Ray task per split runs `worker KEY INDEX OUT` as a subprocess (the
   Rust binary does the reading; Ray only schedules and retries), and
   returns the worker's summary of its split's rows;
3. the summaries are combined and compared with `driver summary`, the same
   summary computed by one process reading the whole dataset with
   `Dataset::read`. Any difference exits 1.

The store is S3 as the `AWS_*` variables say; they are passed to the tasks
in Ray's runtime environment. Run by scripts/ray-test.sh, which starts
moto_server and a Ray head node; see docs/cluster.md.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import ray


def run(cmd):
    """Runs a driver command; its stdout is one JSON object."""
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


# Splits are idempotent (a worker only reads, and overwrites its own
# output), so a failed task is simply run again: up to 3 times, whether the
# Ray worker died (`max_retries`) or the task raised (`retry_exceptions`).
@ray.remote(num_cpus=1, max_retries=3, retry_exceptions=True)
def run_split(worker, key, index, out):
    started = time.monotonic()
    done = subprocess.run([worker, key, str(index), out], capture_output=True, text=True)
    if done.returncode != 0:
        # Forwarded to the driver's console by Ray.
        print(f"split {index}: worker exited {done.returncode}: {done.stderr.strip()}", file=sys.stderr)
        raise RuntimeError(f"split {index}: worker exited {done.returncode}")
    result = json.loads(done.stdout)
    result["seconds"] = time.monotonic() - started
    result["pid"] = os.getpid()
    return result


def combine(a, b):
    """The summary of the rows of summaries `a` and `b` (as Summary::combine)."""

    def pick(x, y, f):
        return x if y is None else y if x is None else f(x, y)

    def add(x, y):
        return {k: x.get(k, 0) + y.get(k, 0) for k in x.keys() | y.keys()}

    return {
        "rows": a["rows"] + b["rows"],
        "size_sum": a["size_sum"] + b["size_sum"],
        "ts_min": pick(a["ts_min"], b["ts_min"], min),
        "ts_max": pick(a["ts_max"], b["ts_max"], max),
        "bid_min": pick(a["bid_min"], b["bid_min"], min),
        "bid_max": pick(a["bid_max"], b["bid_max"], max),
        "rows_by_date": add(a["rows_by_date"], b["rows_by_date"]),
        "rows_by_symbol": add(a["rows_by_symbol"], b["rows_by_symbol"]),
    }


EMPTY = {
    "rows": 0,
    "size_sum": 0,
    "ts_min": None,
    "ts_max": None,
    "bid_min": None,
    "bid_max": None,
    "rows_by_date": {},
    "rows_by_symbol": {},
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True, help="the Ray cluster's GCS address")
    parser.add_argument("--bin", required=True, help="the directory of `driver` and `worker`")
    parser.add_argument("--prefix", default="ticks", help="the dataset's prefix in the bucket")
    parser.add_argument("--target-bytes", type=int, required=True, help="Dataset::splits' target_bytes")
    parser.add_argument("--job", required=True, help="where the job's splits and outputs go in the bucket")
    parser.add_argument("--fail-split", type=int, help="the split whose worker dies on its first attempt")
    args = parser.parse_args()
    driver, worker = (os.path.join(args.bin, name) for name in ("driver", "worker"))
    key, out = f"{args.job}/splits.json", f"{args.job}/out"

    started = time.monotonic()
    made = run([driver, "splits", args.prefix, str(args.target_bytes), key])
    n = made["splits"]
    print(f"splits: {n} from {made['files']} files ({made['row_groups']} row groups, "
          f"{made['bytes_to_fetch']} bytes to fetch, {made['json_bytes']} bytes of JSON) in {made['seconds']:.2f} s")

    env = {k: v for k, v in os.environ.items() if k.startswith("AWS_")}
    if args.fail_split is not None:
        env["PARQUET_ROWS_FAIL_SPLIT"] = str(args.fail_split)
    ray.init(address=args.address, runtime_env={"env_vars": env}, logging_level="WARNING")
    nodes = [node for node in ray.nodes() if node["Alive"]]
    print(f"ray {ray.__version__}: {len(nodes)} node(s), {ray.cluster_resources().get('CPU', 0):g} CPUs")

    tasks_started = time.monotonic()
    results = ray.get([run_split.remote(worker, key, i, out) for i in range(n)])
    tasks_seconds = time.monotonic() - tasks_started
    ray.shutdown()
    combined = EMPTY
    for result in results:
        combined = combine(combined, result["summary"])
    recovered = [r["split"] for r in results if r["recovered"]]
    pids = {r["pid"] for r in results}
    seconds = sorted(r["seconds"] for r in results)
    print(f"tasks: {n} done in {tasks_seconds:.2f} s by {len(pids)} Ray worker processes "
          f"(worker binary per task: median {seconds[n // 2]:.2f} s, slowest {seconds[-1]:.2f} s, "
          f"total {sum(seconds):.2f} s); retried after a failure: {recovered or 'none'}")

    single = run([driver, "summary", args.prefix])
    print(f"one process (Dataset::read): {single['summary']['rows']} rows in {single['seconds']:.2f} s")
    print(f"wall time, splits to check: {time.monotonic() - started:.2f} s")

    failed = []
    if combined != single["summary"]:
        failed.append("the splits' summaries combined differ from the one process's:\n"
                      f"  splits:      {json.dumps(combined, sort_keys=True)}\n"
                      f"  one process: {json.dumps(single['summary'], sort_keys=True)}")
    expected_recovered = [] if args.fail_split is None else [args.fail_split]
    if recovered != expected_recovered:
        failed.append(f"splits retried after a failure: {recovered}, expected {expected_recovered}")
    if failed:
        print("CHECK FAILED: " + "\n".join(failed), file=sys.stderr)
        return 1
    print(f"check: OK, the {n} splits' summaries combine to the one process's "
          f"({combined['rows']} rows, size sum {combined['size_sum']}, "
          f"{len(combined['rows_by_date'])} dates, {len(combined['rows_by_symbol'])} symbols)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
