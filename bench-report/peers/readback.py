"""Reads the files of `bench-report writer-check DIR` with pyarrow, duckdb
and polars, and compares every value with DIR/expected.json.

    python readback.py DIR

Prints one line per (file, reader) that differs (the column, the first row
and both values), then the pass/fail counts per reader; exits 1 if any
file failed with any reader. A reader that refuses a file counts as a
failure, with its message.

Values are compared in one form per column kind of expected.json:
  int    integers (booleans as 0/1)
  f32    the bits of the value as a 32-bit float (NaN equals any NaN)
  f64    the bits as a 64-bit float (NaN equals any NaN)
  str    text
  bytes  lowercase hex
  date   days since 1970-01-01
  micros a timestamp's microseconds since 1970-01-01 (UTC or local)
  time_micros  a time of day's microseconds since midnight
  decimal  the exact decimal, with as many fraction digits as the scale
  uuid   the 16 bytes as lowercase hex
and, for the nested files (DIR/nested/expected.json), a kind may be a tree:
  {"list": kind}                    a list of values of `kind`
  {"struct": [[name, kind], ...]}   the fields in order (a JSON array)
  {"map": [key, value]}             [key, value] pairs, compared sorted by
                                    key (readers hand maps back as dicts,
                                    lists of pairs or lists of key/value
                                    structs)
"""
import datetime
import json
import math
import os
import struct
import sys

EPOCH = datetime.date(1970, 1, 1)


def map_pairs(value):
    """A map as a reader hands it back, as a list of (key, value)."""
    if isinstance(value, dict):
        return list(value.items())
    pairs = []
    for item in value:
        if isinstance(item, dict):
            pairs.append((item["key"], item["value"]))
        else:
            pairs.append((item[0], item[1]))
    return pairs


def by_key(pairs):
    return sorted(pairs, key=lambda p: repr(p[0]))


def normalize(kind, value):
    if value is None:
        return None
    if isinstance(kind, dict):
        if "list" in kind:
            return [normalize(kind["list"], v) for v in value]
        if "struct" in kind:
            return [normalize(k, value[name]) for name, k in kind["struct"]]
        if "map" in kind:
            key, val = kind["map"]
            return by_key([[normalize(key, k), normalize(val, v)] for k, v in map_pairs(value)])
        raise ValueError(f"unknown kind {kind}")
    if kind == "int":
        return int(value)
    if kind == "f32":
        return ("nan",) if math.isnan(value) else struct.unpack("<I", struct.pack("<f", value))[0]
    if kind == "f64":
        return ("nan",) if math.isnan(value) else struct.unpack("<Q", struct.pack("<d", value))[0]
    if kind == "str":
        return str(value)
    if kind == "bytes":
        return bytes(value).hex()
    if kind == "date":
        return (value - EPOCH).days
    if kind == "micros":
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        delta = value - datetime.datetime(1970, 1, 1)
        return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
    if kind == "time_micros":
        return ((value.hour * 60 + value.minute) * 60 + value.second) * 1_000_000 + value.microsecond
    if kind == "decimal":
        return format(value, "f")
    if kind == "uuid":
        return value.bytes.hex() if hasattr(value, "bytes") and not isinstance(value, bytes) else bytes(value).hex()
    raise ValueError(f"unknown kind {kind}")


def expected_value(kind, v):
    if v is None:
        return None
    if isinstance(kind, dict):
        if "list" in kind:
            return [expected_value(kind["list"], e) for e in v]
        if "struct" in kind:
            return [expected_value(k, e) for (_, k), e in zip(kind["struct"], v)]
        if "map" in kind:
            key, val = kind["map"]
            return by_key([[expected_value(key, k), expected_value(val, e)] for k, e in v])
        raise ValueError(f"unknown kind {kind}")
    if kind == "f32":
        return ("nan",) if math.isnan(struct.unpack("<f", struct.pack("<I", v))[0]) else v
    if kind == "f64":
        return ("nan",) if math.isnan(struct.unpack("<d", struct.pack("<Q", v))[0]) else v
    return v


def expected_values(column):
    return [expected_value(column["kind"], v) for v in column["values"]]


def read_pyarrow(path, names):
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    return {name: table.column(name).to_pylist() for name in names}


def read_duckdb(path, names):
    import duckdb

    con = duckdb.connect()
    cursor = con.execute("SELECT * FROM read_parquet(?)", [path])
    found = [d[0] for d in cursor.description]
    rows = cursor.fetchall()
    con.close()
    return {name: [row[found.index(name)] for row in rows] for name in names}


def read_polars(path, names):
    import polars as pl

    frame = pl.read_parquet(path)
    return {name: frame[name].to_list() for name in names}


READERS = [("pyarrow", read_pyarrow), ("duckdb", read_duckdb), ("polars", read_polars)]


def check(directory, spec_path, counts):
    """Reads every file of one expected.json with every reader; counts
    passes and failures per reader."""
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    columns = spec["columns"]
    names = [c["name"] for c in columns]
    expected = {c["name"]: expected_values(c) for c in columns}
    kinds = {c["name"]: c["kind"] for c in columns}
    for file in spec["files"]:
        path = os.path.join(directory, file)
        for reader, read in READERS:
            problem = None
            try:
                found = read(path, names)
                for name in names:
                    got = [normalize(kinds[name], v) for v in found[name]]
                    want = expected[name]
                    if len(got) != len(want):
                        problem = f"column {name}: {len(got)} rows, expected {len(want)}"
                        break
                    for row, (g, w) in enumerate(zip(got, want)):
                        if g != w:
                            problem = f"column {name} row {row}: read {g!r}, expected {w!r}"
                            break
                    if problem:
                        break
            except Exception as e:  # a reader refusing the file is a failure
                problem = f"refused: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            if problem:
                counts[reader][1] += 1
                print(f"FAIL {file} {reader}: {problem}")
            else:
                counts[reader][0] += 1




def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    counts = {name: [0, 0] for name, _ in READERS}
    # The flat files, then the nested ones (if written).
    for directory in (sys.argv[1], os.path.join(sys.argv[1], "nested")):
        spec_path = os.path.join(directory, "expected.json")
        if directory != sys.argv[1] and not os.path.exists(spec_path):
            continue
        check(directory, spec_path, counts)
    versions = []
    for module in ("pyarrow", "duckdb", "polars"):
        try:
            versions.append(f"{module} {__import__(module).__version__}")
        except ImportError:
            versions.append(f"{module} missing")
    print("# " + ", ".join(versions))
    total_fail = 0
    for reader, (passed, failed) in counts.items():
        print(f"{reader}: {passed} files pass, {failed} fail")
        total_fail += failed
    sys.exit(1 if total_fail else 0)


if __name__ == "__main__":
    main()
