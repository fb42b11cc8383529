//! Timing machinery: a counting allocator, variants, interleaved rounds, the table.

#[cfg(not(feature = "mimalloc"))]
use std::alloc::System;
use std::alloc::{GlobalAlloc, Layout};
use std::fmt::Debug;
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The global allocator underneath [`Counting`]: `System` (glibc's malloc on
/// Linux), or mimalloc when built with `--features mimalloc`.
#[cfg(not(feature = "mimalloc"))]
static INNER: System = System;
#[cfg(feature = "mimalloc")]
static INNER: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The allocator's name, for the report's header.
pub const ALLOCATOR: &str = if cfg!(feature = "mimalloc") {
    "mimalloc"
} else {
    "system (glibc malloc)"
};

/// The global allocator ([`INNER`]), counting every allocation (and
/// reallocation) on every thread.
pub struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every method forwards to `INNER` with the caller's arguments; the
// counter is a relaxed atomic with no effect on the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { INNER.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { INNER.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { INNER.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { INNER.dealloc(ptr, layout) }
    }
}

/// Allocations (including reallocations) so far, all threads.
pub fn allocs() -> u64 {
    ALLOCS.load(Ordering::Relaxed)
}

/// What a variant produces, for the "fastest" comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Pages read and decompressed, nothing decoded.
    Floor,
    /// parquet-rows, borrowed rows (load + rows).
    RowsBorrowed,
    /// parquet-rows, owned rows (`String` / `Arc<str>` ...).
    RowsOwned,
    /// parquet-rows, for information (parallel, decode-only): not in the "fastest" race.
    RowsInfo,
    /// Another way to get the same `Vec` of borrowed rows.
    OtherBorrowed,
    /// Another way to get the same `Vec` of owned rows.
    OtherOwned,
    /// Does not produce the rows (record-api-rows, arrow-batches).
    NoVec,
    /// Another library, timed by `peers/peers.py` (a DataFrame or Arrow table, not rows).
    Peer,
}

impl Kind {
    pub fn is_rows(self) -> bool {
        matches!(self, Kind::RowsBorrowed | Kind::RowsOwned)
    }
    pub fn is_other(self) -> bool {
        matches!(self, Kind::OtherBorrowed | Kind::OtherOwned)
    }
}

/// The result of one run: rows produced and, when checking, the rows in
/// their canonical (owned) form.
pub type Output<C> = (usize, Option<Vec<C>>);

/// One way to decode a fixture.
pub struct Variant<'a, C> {
    pub name: String,
    pub kind: Kind,
    /// `run(check)`: decode once; with `check`, also return the canonical rows.
    pub run: Box<dyn FnMut(bool) -> Output<C> + 'a>,
}

pub fn variant<'a, C>(
    name: &str,
    kind: Kind,
    run: impl FnMut(bool) -> Output<C> + 'a,
) -> Variant<'a, C> {
    Variant {
        name: name.to_owned(),
        kind,
        run: Box::new(run),
    }
}

/// Builds the [`Output`] of a variant: hides `rows` from the optimiser and, when
/// checking, converts them to the canonical form.
pub fn output<T, C>(rows: &[T], check: bool, canon: impl Fn(&T) -> C) -> Output<C> {
    black_box(rows);
    (rows.len(), check.then(|| rows.iter().map(canon).collect()))
}

/// One line of the table.
#[derive(Debug, Clone)]
pub struct Measured {
    pub fixture: String,
    pub variant: String,
    pub kind: Kind,
    pub rows: usize,
    pub median_ns: f64,
    pub min_ns: f64,
    pub allocs_per_row: f64,
    pub ratio_to_floor: f64,
}

/// How to run a fixture.
#[derive(Debug, Clone)]
pub enum Mode {
    /// Check, then time in interleaved rounds (the first one discarded).
    Report { rounds: usize },
    /// Run one variant in a loop (for `perf record`), no check.
    Run { variant: String, seconds: f64 },
}

/// Each sample runs a variant this long at least (repeating it if it is fast).
const SAMPLE: Duration = Duration::from_millis(15);

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Checks every variant against `expected`, then times them; prints and
/// returns one [`Measured`] per variant.
pub fn execute<C: PartialEq + Debug>(
    fixture: &str,
    expected: &[C],
    mut variants: Vec<Variant<'_, C>>,
    mode: &Mode,
) -> Vec<Measured> {
    let rows = expected.len();
    let rounds = match mode {
        Mode::Run { variant, seconds } => {
            let v = variants
                .iter_mut()
                .find(|v| v.name == *variant)
                .unwrap_or_else(|| panic!("{fixture} has no variant {variant}"));
            let start = Instant::now();
            let mut n = 0u64;
            while start.elapsed().as_secs_f64() < *seconds {
                black_box((v.run)(false));
                n += 1;
            }
            let ns = start.elapsed().as_nanos() as f64 / (n as f64 * rows as f64);
            println!("{fixture} {variant}: {n} runs, {ns:.2} ns/row");
            return Vec::new();
        }
        Mode::Report { rounds } => *rounds,
    };

    // Equal work: every variant's rows equal the generated data (so each other).
    for v in &mut variants {
        let (n, out) = (v.run)(true);
        assert_eq!(n, rows, "{fixture} {}: row count", v.name);
        if let Some(out) = out {
            if let Some(i) = (0..rows).find(|&i| out[i] != expected[i]) {
                panic!(
                    "{fixture} {}: row {i} differs:\n  got      {:?}\n  expected {:?}",
                    v.name, out[i], expected[i]
                );
            }
        }
    }

    let n = variants.len();
    let mut reps = vec![1u32; n];
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut alloc_samples: Vec<Vec<f64>> = vec![Vec::new(); n];
    for round in 0..rounds {
        for k in 0..n {
            let i = (k + round) % n; // rotate who goes first
            let v = &mut variants[i];
            // One untimed call first: every variant meets the allocator in its
            // own steady state, not in the state the previous variant left
            // (the parallel ones allocate from rayon workers' arenas, which
            // the others' frees trim: page faults in the first call).
            black_box((v.run)(false));
            let a0 = allocs();
            let t0 = Instant::now();
            for _ in 0..reps[i] {
                black_box((v.run)(false));
            }
            let dt = t0.elapsed();
            let a = allocs() - a0;
            if round == 0 {
                // Discarded; calibrates the repetitions per sample.
                let per = dt.as_secs_f64().max(1e-9);
                reps[i] = (SAMPLE.as_secs_f64() / per).ceil().clamp(1.0, 64.0) as u32;
                continue;
            }
            let runs = f64::from(reps[i]) * rows as f64;
            samples[i].push(dt.as_nanos() as f64 / runs);
            alloc_samples[i].push(a as f64 / runs);
        }
    }

    let mut out: Vec<Measured> = variants
        .iter()
        .zip(samples)
        .zip(alloc_samples)
        .map(|((v, s), a)| Measured {
            fixture: fixture.to_owned(),
            variant: v.name.clone(),
            kind: v.kind,
            rows,
            min_ns: s.iter().copied().fold(f64::INFINITY, f64::min),
            median_ns: median(s),
            allocs_per_row: median(a),
            ratio_to_floor: f64::NAN,
        })
        .collect();
    let floor = out
        .iter()
        .find(|m| m.kind == Kind::Floor)
        .map_or(f64::NAN, |m| m.median_ns);
    for m in &mut out {
        m.ratio_to_floor = m.median_ns / floor;
        print_line(m);
    }
    out
}

pub fn print_header() {
    println!(
        "{:<16} {:<24} {:>7} {:>17} {:>14} {:>14} {:>14}",
        "fixture",
        "variant",
        "rows",
        "median_ns_per_row",
        "min_ns_per_row",
        "allocs_per_row",
        "ratio_to_floor"
    );
}

/// A line for a variant that could not run, `what` in place of the figures.
pub fn print_na(fixture: &str, variant: &str, rows: usize, what: &str) {
    println!("{fixture:<16} {variant:<24} {rows:>7} {what:>17}");
}

pub fn print_line(m: &Measured) {
    println!(
        "{:<16} {:<24} {:>7} {:>17.2} {:>14.2} {:>14.4} {:>14.2}",
        m.fixture, m.variant, m.rows, m.median_ns, m.min_ns, m.allocs_per_row, m.ratio_to_floor
    );
}
