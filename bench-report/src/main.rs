//! The speed comparison of issue #6: parquet-rows side by side with every
//! other way the `parquet` crate offers to get typed rows.
//!
//! ```text
//! CARGO_TARGET_DIR=target/bench-report \
//!     cargo run --release --manifest-path bench-report/Cargo.toml -- report
//! ```
//!
//! Fixtures are written under the main workspace's `target/fixtures/` when
//! missing. Every fixture is read into memory and each API's footer parsed
//! outside the timers; each variant's rows are checked against the generated
//! data before timing (so every variant does the same work); then the variants
//! run in interleaved rounds (round-robin, starting one later each round), the
//! first round discarded. One line per (fixture, variant):
//! `fixture variant rows median_ns_per_row min_ns_per_row allocs_per_row ratio_to_floor`.
//!
//! `run FIXTURE VARIANT [SECONDS]` runs one variant in a loop, for `perf record`.
//!
//! The other libraries (polars, pyarrow, duckdb) are timed on the same fixture
//! files by `bench-report/peers/run.sh`, which writes lines in the same format
//! to `target/peers.txt`; `report` merges that file (or `--peers FILE`) into
//! its table when it exists, `--no-peers` leaves it out.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

mod common;
mod delta;
mod filters;
mod harness;
mod mixed;
mod nested;
mod nullable;
mod peers;
mod remote;
mod tick50;
mod ticks;
mod writer_check;
mod writes;

use harness::{Kind, Measured, Mode};

#[global_allocator]
static GLOBAL: harness::Counting = harness::Counting;

const USAGE: &str =
    "usage: bench-report report [--rounds N] [--only FIXTURE,...] [--peers FILE | --no-peers]
       bench-report run FIXTURE VARIANT [SECONDS]
       bench-report filters [--rounds N]   (issue 17's filtered reads)
       bench-report remote [--rounds N]    (issue 18: async object-store reads against sync)
       bench-report writer-check DIR       (issue 26: files for peers/readback.sh to read back)
       bench-report writes [--rounds N]    (issue 26: writing 1M ticks, against arrow-rs and parquet_derive)
       bench-report write-memory [ROWS]    (issue 26: peak RSS writing ROWS ticks, default 20M)
       bench-report write-once WRITER CODEC [OUT] (issue 26: one write of 1M ticks, for callgrind;
                                           WRITER ours|ours2t|cols|arrow|derive, CODEC zstd|snappy;
                                           the file written to OUT if given, to compare bytes;
                                           WRITE_ONCE_REPEAT=N writes N times, for perf)
       bench-report write-filters [--rounds N] (issue 26: a 1% ts range of our own 10M-row file)
fixtures: tick-370k-zstd tick-65k-zstd tick-370k-plain tick50-4rg-zstd mixed20-snappy delta-plain
          opt-1m-snappy opt-1m-duckdb opt-1m-zstd8
peers: the lines of bench-report/peers/run.sh (default target/peers.txt, read when it exists)";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 11;
    let mut only: Option<Vec<String>> = None;
    let mut peers_file = Some(peers::default_path());
    let mut peers_asked = false;
    let subcommand = args.first().map(String::as_str);
    if subcommand == Some("writer-check") {
        match &args[1..] {
            [dir] => writer_check::run(std::path::Path::new(dir)),
            _ => exit_usage(),
        }
        return;
    }
    if subcommand == Some("write-memory") {
        let rows = match &args[1..] {
            [] => 20_000_000,
            [n] => n.parse().unwrap_or_else(|_| exit_usage()),
            _ => exit_usage(),
        };
        writes::memory(rows);
        return;
    }
    if subcommand == Some("write-once") {
        match &args[1..] {
            [writer, codec] => writes::once(writer, codec, None).unwrap_or_else(|| exit_usage()),
            [writer, codec, out] => {
                writes::once(writer, codec, Some(out)).unwrap_or_else(|| exit_usage());
            }
            _ => exit_usage(),
        }
        return;
    }
    if matches!(subcommand, Some("writes" | "write-filters")) {
        let rounds = rounds_flag(&args[1..]);
        println!("# {}", machine());
        println!("# load average before: {}", loadavg());
        if subcommand == Some("writes") {
            writes::run(rounds);
        } else {
            writes::filters(rounds);
        }
        println!("# load average after: {}", loadavg());
        return;
    }
    if subcommand == Some("filters") || subcommand == Some("remote") {
        let rounds = rounds_flag(&args[1..]);
        println!("# {}", machine());
        println!("# load average before: {}", loadavg());
        if subcommand == Some("filters") {
            filters::run(rounds);
        } else {
            remote::run(rounds);
        }
        println!("# load average after: {}", loadavg());
        return;
    }
    let mode = match args.first().map(String::as_str) {
        Some("report") => {
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--rounds" => {
                        rounds = it
                            .next()
                            .and_then(|n| n.parse().ok())
                            .filter(|&n| n >= 2)
                            .expect("--rounds N (N >= 2)");
                    }
                    "--only" => {
                        only = Some(
                            it.next()
                                .expect("--only FIXTURE,...")
                                .split(',')
                                .map(str::to_owned)
                                .collect(),
                        );
                    }
                    "--peers" => {
                        peers_file = Some(it.next().expect("--peers FILE").into());
                        peers_asked = true;
                    }
                    "--no-peers" => peers_file = None,
                    _ => exit_usage(),
                }
            }
            Mode::Report { rounds }
        }
        Some("run") if args.len() >= 3 => {
            only = Some(vec![args[1].clone()]);
            Mode::Run {
                variant: args[2].clone(),
                seconds: args.get(3).map_or(10.0, |s| s.parse().expect("SECONDS")),
            }
        }
        _ => exit_usage(),
    };
    let selected = |name: &str| only.as_ref().is_none_or(|o| o.iter().any(|f| f == name));

    let report = matches!(mode, Mode::Report { .. });
    if report {
        println!("# {}", machine());
        println!("# load average before: {}", loadavg());
        println!(
            "# {rounds} interleaved rounds, the first discarded; ns per row; \
             each sample repeats a variant for >= 15 ms"
        );
        harness::print_header();
    }
    let start = std::time::Instant::now();
    let mut all = Vec::new();
    all.extend(ticks::run(&mode, &selected));
    all.extend(tick50::run(&mode, &selected));
    all.extend(mixed::run(&mode, &selected));
    all.extend(delta::run(&mode, &selected));
    all.extend(nested::run(&mode, &selected));
    all.extend(nullable::run(&mode, &selected));
    if report {
        println!("# load average after: {}", loadavg());
        println!("# measured in {:.0} s", start.elapsed().as_secs_f64());
        // The peers' file is read when it exists, or must exist when named.
        match peers_file {
            Some(p) if peers_asked || p.exists() => match peers::read(&p) {
                Ok(lines) => peers::merge(&mut all, &p, lines),
                Err(e) => {
                    eprintln!("bench-report: peers: {e}");
                    std::process::exit(1)
                }
            },
            _ => {}
        }
        summary(&all);
        nullable::summary(&all);
        notes(only.is_none());
    }
}

fn exit_usage() -> ! {
    eprintln!("{USAGE}");
    std::process::exit(2)
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let threads = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    format!(
        "{cpu}, {threads} hardware threads, allocator: {}",
        harness::ALLOCATOR
    )
}

/// The rounds of a subcommand that takes only `[--rounds N]` (default 7).
fn rounds_flag(args: &[String]) -> usize {
    match args {
        [] => 7,
        [flag, n] if flag == "--rounds" => n
            .parse()
            .ok()
            .filter(|&n| n >= 2)
            .unwrap_or_else(|| exit_usage()),
        _ => exit_usage(),
    }
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn find<'a>(all: &'a [Measured], fixture: &str, variant: &str) -> Option<&'a Measured> {
    all.iter()
        .find(|m| m.fixture == fixture && m.variant == variant)
}

fn verdict(pass: bool) -> &'static str {
    if pass {
        "PASS"
    } else {
        "MISS"
    }
}

/// A target "`a` / `b` compared with `limit`", from the medians.
fn ratio_target(
    all: &[Measured],
    fixture: &str,
    what: &str,
    num: &str,
    den: &str,
    at_least: bool,
    limit: f64,
) {
    let (Some(n), Some(d)) = (find(all, fixture, num), find(all, fixture, den)) else {
        println!("n/a  {what}: not measured");
        return;
    };
    let r = n.median_ns / d.median_ns;
    let pass = if at_least { r >= limit } else { r <= limit };
    println!(
        "{}  {what}: {r:.2}x ({num} {:.2} / {den} {:.2} ns/row; target {} {limit}x)",
        verdict(pass),
        n.median_ns,
        d.median_ns,
        if at_least { ">=" } else { "<=" },
    );
}

fn summary(all: &[Measured]) {
    const T: &str = "tick-370k-zstd";
    println!();
    println!("# targets of issue #6 (medians from this run)");
    ratio_target(
        all,
        T,
        "tick 370k ZSTD: rows-borrowed <= 1.3x floor",
        "rows-borrowed",
        "floor",
        false,
        1.3,
    );
    ratio_target(
        all,
        T,
        "tick 370k ZSTD: rows-borrowed >= 20x faster than record-api",
        "record-api",
        "rows-borrowed",
        true,
        20.0,
    );
    ratio_target(
        all,
        T,
        "tick 370k ZSTD: rows-borrowed >= 3x faster than column-api (owned)",
        "column-api",
        "rows-borrowed",
        true,
        3.0,
    );
    ratio_target(
        all,
        T,
        "tick 370k ZSTD: rows-borrowed >= 1.4x faster than arrow-batches",
        "arrow-batches",
        "rows-borrowed",
        true,
        1.4,
    );
    match find(all, T, "rows-borrowed") {
        Some(m) => println!(
            "{}  tick 370k ZSTD: rows-borrowed allocs_per_row < 0.001: {:.6}",
            verdict(m.allocs_per_row < 0.001),
            m.allocs_per_row
        ),
        None => println!("n/a  tick 370k ZSTD: allocs_per_row: not measured"),
    }
    ratio_target(
        all,
        T,
        "tick 370k ZSTD: rows-owned >= 5x faster than record-api",
        "record-api",
        "rows-owned",
        true,
        5.0,
    );
    match find(all, "tick-370k-plain", "rows-borrowed") {
        Some(m) => {
            let per_value = m.median_ns / 4.0;
            println!(
                "{}  tick 370k uncompressed: rows-borrowed <= 3 ns per value: {per_value:.2} ns \
                 ({:.2} ns/row, 4 columns; decode-only {:.2} ns/value)",
                verdict(per_value <= 3.0),
                m.median_ns,
                find(all, "tick-370k-plain", "rows-decode-only")
                    .map_or(f64::NAN, |d| d.median_ns / 4.0),
            );
        }
        None => println!("n/a  tick 370k uncompressed: not measured"),
    }

    // Fastest on every fixture: parquet-rows (rows-borrowed / rows-owned /
    // rows-arc) against every other variant producing the same rows.
    // Each fixture once, in report order (the peers' lines come last).
    let mut fixtures: Vec<&str> = Vec::new();
    for m in all {
        if !fixtures.contains(&m.fixture.as_str()) {
            fixtures.push(&m.fixture);
        }
    }
    for f in fixtures {
        let ms: Vec<&Measured> = all.iter().filter(|m| m.fixture == f).collect();
        let best = |pred: &dyn Fn(&Measured) -> bool| {
            ms.iter()
                .copied()
                .filter(|m| pred(m))
                .min_by(|a, b| a.median_ns.total_cmp(&b.median_ns))
        };
        let ours = best(&|m| m.kind.is_rows());
        let theirs = best(&|m| m.kind.is_other());
        let ours_b = best(&|m| m.kind == Kind::RowsBorrowed);
        let theirs_b = best(&|m| m.kind == Kind::OtherBorrowed);
        let ours_o = best(&|m| m.kind == Kind::RowsOwned);
        let theirs_o = best(&|m| m.kind == Kind::OtherOwned);
        if let (Some(o), Some(t)) = (ours, theirs) {
            let mut detail = String::new();
            if let (Some(ob), Some(tb)) = (ours_b, theirs_b) {
                detail.push_str(&format!(
                    "; borrowed: {} {:.2} vs {} {:.2}",
                    ob.variant, ob.median_ns, tb.variant, tb.median_ns
                ));
            }
            if let (Some(oo), Some(to)) = (ours_o, theirs_o) {
                detail.push_str(&format!(
                    "; owned: {} {:.2} vs {} {:.2} ({})",
                    oo.variant,
                    oo.median_ns,
                    to.variant,
                    to.median_ns,
                    if oo.median_ns < to.median_ns {
                        "ours faster"
                    } else {
                        "OURS SLOWER"
                    }
                ));
            }
            println!(
                "{}  {f}: parquet-rows fastest: {} {:.2} ns/row vs best other {} {:.2} ({:.2}x){detail}",
                verdict(o.median_ns < t.median_ns),
                o.variant,
                o.median_ns,
                t.variant,
                t.median_ns,
                t.median_ns / o.median_ns,
            );
        }
    }

    let f = tick50::NAME;
    // The 2-thread medians move with the host's load on the second vCPU; the
    // minimums say what the code reaches when it gets the core.
    if let (Some(a), Some(b)) = (find(all, f, "rows-par-1t"), find(all, f, "rows-par-2t")) {
        println!(
            "info  4 row groups: par_load + par_rows minimums: {:.2}x with 2 threads",
            a.min_ns / b.min_ns
        );
    }
    ratio_target(
        all,
        f,
        "4 row groups: 2 threads >= 1.7x single-thread (par_load + par_rows)",
        "rows-par-1t",
        "rows-par-2t",
        true,
        1.7,
    );
    // The stricter comparison: the parallel path on 2 threads against the
    // sequential one (`load` + `rows`), so overheads of the parallel path on
    // one thread cannot flatter the ratio.
    ratio_target(
        all,
        f,
        "4 row groups: 2 threads >= 1.7x the sequential load + rows",
        "rows-borrowed",
        "rows-par-2t",
        true,
        1.7,
    );
    if let (Some(a), Some(b)) = (
        find(all, f, "rows-par-decode-1t"),
        find(all, f, "rows-par-decode-2t"),
    ) {
        println!(
            "info  4 row groups: par_rows alone (pages preloaded): {:.2}x with 2 threads (minimums: {:.2}x)",
            a.median_ns / b.median_ns,
            a.min_ns / b.min_ns
        );
    }
    if let (Some(a), Some(b)) = (
        find(all, f, "rows-par-owned-1t"),
        find(all, f, "rows-par-owned-2t"),
    ) {
        println!(
            "info  4 row groups: par_read (owned rows): {:.2}x with 2 threads (minimums: {:.2}x)",
            a.median_ns / b.median_ns,
            a.min_ns / b.min_ns
        );
    }
}

fn notes(probe: bool) {
    println!();
    println!("# notes");
    println!(
        "- each sample starts with one untimed call of its variant, so every variant is timed in \
         its own allocator steady state (without it the parallel variants, which allocate in rayon \
         workers' malloc arenas, took page faults left by the variant before them: 2-thread medians \
         of 24-28 ns/row instead of 15.6 on tick50-4rg-zstd)."
    );
    println!(
        "- floor: every page of the bound column chunks read + decompressed by `parquet`'s \
         page reader (SerializedFileReader::get_row_group -> get_column_page_reader), nothing decoded. \
         For UNCOMPRESSED files held in memory the pages are slices of the file (no copy), so the \
         floor is only page-header parsing and ratio_to_floor is not meaningful there."
    );
    println!(
        "- rows-par-*: pool.install on rayon pools of 1 and 2 threads. rows-par = file.par_load \
         + pages.par_rows (borrowed rows, read, decompressed and decoded in parallel); rows-par-decode = par_rows on preloaded pages; rows-par-owned = file.par_read. \
         2-thread figures need an idle second core: see the load average above."
    );
    println!(
        "- rows-borrowed includes `file.load` (the same page reading as the floor) and `pages.rows()`; \
         rows-decode-only is `pages.rows()` on pages loaded outside the timer (for information)."
    );
    println!(
        "- parquet_derive (#[derive(ParquetRecordReader)]) cannot read: Option<T> fields \
         (the derive panics at compile time, and a null in a column panics at run time), \
         borrowed &str / &[u8] fields, Arc<str> / Box<str>, nested groups, lists, maps; it binds \
         columns by leaf name only. So it is n/a on tick50-4rg-zstd and mixed20-snappy."
    );
    if probe {
        if let Some(note) = delta::derive_probe() {
            println!("- {note}");
        }
    }
    println!(
        "- arrow: ParquetRecordBatchReaderBuilder with default options (batches of 1024 rows); \
         `arrow` converts each batch into owned rows by hand, `arrow-borrowed` keeps all batches \
         and builds rows whose &str point into them, `arrow-batches` produces the batches only."
    );
    println!(
        "- record-api and record-api-rows read ts with get_timestamp_micros: ts is \
         TIMESTAMP_MICROS, and get_long is an error on it."
    );
    println!(
        "- opt-1m-*: every column OPTIONAL without nulls (as pyarrow, pandas and duckdb write); \
         rows-plain (plain fields) is n/a where the binder rejects plain fields on OPTIONAL columns. \
         polars-*, pyarrow-*, duckdb-*: bench-report/peers/run.sh, one process per tool and \
         thread count, a DataFrame or Arrow table (not rows), polars and pyarrow from bytes in \
         memory, duckdb from the file (page cache); allocs_per_row is not measured for them."
    );
}
