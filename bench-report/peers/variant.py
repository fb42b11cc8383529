#!/usr/bin/env python3
"""Cross-check of VARIANT reading against duckdb.

duckdb (>= 1.4; 2.0.1 when this was written) writes VARIANT columns to
Parquet files. This script writes such files
under bench-report/target/variant/ (shredded as duckdb chooses, unshredded,
and shredded to a forced type with the COPY option `SHREDDING`), reads
them back with duckdb (its Python
values), reads them with parquet-rows (`cargo run --bin variant-json`:
`OwnedVariant` + `Variant::to_json`), and compares value by value.

    python3 -m venv bench-report/target/venv
    bench-report/target/venv/bin/pip install duckdb pyarrow
    bench-report/target/venv/bin/python bench-report/peers/variant.py

duckdb's values are turned into the JSON `Variant::to_json` writes: dates,
times and timestamps as ISO 8601 strings (UTC-adjusted ones with `Z`),
UUIDs hyphenated, binary as base64, decimals exactly. FLOAT values are
compared to 7 significant digits (duckdb hands them to Python as doubles).
"""

import argparse
import base64
import datetime as dt
import decimal
import json
import math
import os
import subprocess
import sys
import uuid

import duckdb

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "bench-report", "target", "variant")

# Scalars and containers of every variant type duckdb writes, one per row.
MIXED = """
SELECT * FROM (VALUES
 (1, '{"price": 1.5, "name": "abc", "tags": [1,2,3], "n": null}'::JSON::VARIANT),
 (2, 42::VARIANT),
 (3, 'hello'::VARIANT),
 (4, NULL::VARIANT),
 (5, 3.25::DECIMAL(10,2)::VARIANT),
 (6, DATE '2024-01-02'::VARIANT),
 (7, TIMESTAMP '2024-01-02 03:04:05.123456'::VARIANT),
 (8, TIMESTAMPTZ '2024-01-02 03:04:05.1234+00'::VARIANT),
 (9, 'ab\\x00'::BLOB::VARIANT),
 (10, true::VARIANT),
 (11, '550e8400-e29b-41d4-a716-446655440000'::UUID::VARIANT),
 (12, TIME '01:02:03.5'::VARIANT),
 (13, 1.5::FLOAT::VARIANT),
 (14, [1, NULL, 3]::VARIANT),
 (15, {'a': 1, 'b': 'x'}::VARIANT),
 (16, 12345678901234567890123::DECIMAL(30,2)::VARIANT),
 (17, -7::TINYINT::VARIANT),
 (18, 300::SMALLINT::VARIANT),
 (19, 9007199254740993::BIGINT::VARIANT),
 (20, 'null'::JSON::VARIANT),
 (21, '[]'::JSON::VARIANT),
 (22, '{}'::JSON::VARIANT),
 (23, 'a string longer than sixty-four bytes, so not a short string in the encoding'::VARIANT),
 (24, '{"deep": {"er": {"est": [{"x": 1}, {"y": [true, false]}]}}}'::JSON::VARIANT),
 (25, 0.1::DOUBLE::VARIANT),
 (26, DATE '1900-03-01'::VARIANT),
 (27, TIMESTAMP '1969-12-31 23:59:59.5'::VARIANT)
) t(id, v)
"""

# Objects of one shape with exceptions: what shredding is for.
EVENTS = """
SELECT i AS id,
  CASE
    WHEN i % 97 = 0 THEN json_object('price', 'n/a', 'sym', 'ERR')::VARIANT
    WHEN i % 89 = 0 THEN (i * 2)::VARIANT
    WHEN i % 83 = 0 THEN NULL
    WHEN i % 79 = 0 THEN json_object('sym', 'S' || (i % 7), 'extra', json_object('k', i))::VARIANT
    ELSE json_object(
      'price', (i * 0.25)::DOUBLE,
      'qty', i % 1000,
      'sym', 'S' || (i % 7),
      'tags', CASE WHEN i % 5 = 0 THEN json_array() ELSE json_array('t' || (i % 3), 'u') END,
      'at', strftime(TIMESTAMP '2024-01-01' + to_seconds(i), '%Y-%m-%dT%H:%M:%S')
    )::VARIANT
  END AS v
FROM range(0, 5000) r(i)
"""

# Typed values of one type per row, to shred as primitives.
TYPED = """
SELECT i AS id,
  CASE WHEN i % 11 = 0 THEN ('x' || i)::VARIANT ELSE (i * 1000003)::BIGINT::VARIANT END AS v
FROM range(0, 3000) r(i)
"""


def fraction(micros):
    return ("." + ("%06d" % micros).rstrip("0")) if micros else ""


def canon(x):
    """duckdb's Python value of a variant as `Variant::to_json` writes it."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, int):
        return decimal.Decimal(x)
    if isinstance(x, float):
        return x
    if isinstance(x, decimal.Decimal):
        return x
    if isinstance(x, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(x)).decode()
    if isinstance(x, uuid.UUID):
        return str(x)
    if isinstance(x, dt.datetime):
        if x.tzinfo is not None:
            x = x.astimezone(dt.timezone.utc).replace(tzinfo=None)
            zone = "Z"
        else:
            zone = ""
        return x.strftime("%Y-%m-%dT%H:%M:%S") + fraction(x.microsecond) + zone
    if isinstance(x, dt.date):
        return x.isoformat()
    if isinstance(x, dt.time):
        return x.strftime("%H:%M:%S") + fraction(x.microsecond)
    if isinstance(x, dict):
        return {k: canon(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [canon(v) for v in x]
    raise TypeError(f"no canonical form for {type(x)}: {x!r}")


def same(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
            return False
        return math.isclose(float(a), float(b), rel_tol=1e-7)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b


def write(con, name, query, shredding):
    """`shredding`: None for duckdb's choice, else the COPY option's type
    (`VARIANT`: unshredded)."""
    path = os.path.join(OUT, name)
    option = "" if shredding is None else f", SHREDDING {{v: '{shredding}'}}"
    con.sql(f"COPY ({query}) TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 2048{option})")
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", help="a built variant-json (default: cargo run)")
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    con = duckdb.connect()
    print("duckdb", duckdb.__version__)
    files = []
    for name, query in [("mixed", MIXED), ("events", EVENTS), ("typed", TYPED)]:
        files.append(write(con, f"{name}-shredded.parquet", query, None))
        files.append(write(con, f"{name}-plain.parquet", query, "VARIANT"))
    # Shredding forced to a type the values only partly have.
    files.append(write(con, "events-forced.parquet", EVENTS,
                       "STRUCT(price DOUBLE, qty BIGINT, sym VARCHAR, tags VARCHAR[], extra STRUCT(k INTEGER))"))
    files.append(write(con, "mixed-forced.parquet", MIXED, "STRUCT(a BIGINT, tags BIGINT[])"))
    total_rows = total_bad = 0
    for path in files:
        schema = con.sql(f"SELECT name, type FROM parquet_schema('{path}') WHERE name = 'typed_value'").fetchall()
        rows = con.sql(f"SELECT id, v FROM '{path}' ORDER BY id").fetchall()
        want = {int(i): canon(v) for i, v in rows}
        cmd = [args.bin] if args.bin else ["cargo", "run", "-q", "-p", "parquet-rows-suite", "--bin", "variant-json", "--"]
        out = subprocess.run(cmd + [path], cwd=ROOT, check=True, capture_output=True, text=True).stdout
        got = {}
        for line in out.splitlines():
            i, text = line.split("\t", 1)
            got[int(i)] = json.loads(text, parse_float=decimal.Decimal, parse_int=decimal.Decimal)
        bad = [i for i in want if i not in got or not same(want[i], got[i])]
        total_rows += len(want)
        total_bad += len(bad)
        print(f"{os.path.basename(path)}: {len(want)} rows, {len(bad)} differ, "
              f"{'shredded' if schema else 'unshredded'} ({len(schema)} typed_value nodes), "
              f"{os.path.getsize(path)} bytes")
        for i in bad[:5]:
            print(f"  id {i}: duckdb {want[i]!r}\n        parquet-rows {got.get(i)!r}")
    print(f"total: {total_rows} rows, {total_bad} differ")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
