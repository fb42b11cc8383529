//! Hand-written pages: lists across page boundaries; corrupt pages and
//! invalid levels give `Err`, never a panic or a hang.

use super::lists::{gen_trades, trade_dyn, trade_from_record, Trade, TradeRef, TRADES_SCHEMA};
use super::nullable::{
    gen_matrices, matrices_dyn, matrices_from_record, Matrices, MatricesRef, MATRICES_SCHEMA,
};
use super::*;

// ---------------------------------------------------------------------------
// Lists across page boundaries (hand-written v1 pages)
// ---------------------------------------------------------------------------

/// Pages of `cut` levels each, so that records start and end in the middle
/// of pages, and one record's lists run over several pages.
#[test]
fn lists_across_v1_page_boundaries() {
    let trades = gen_trades(11, 400);
    let matrices = gen_matrices(12, 400);
    let trades_shredded: Vec<Vec<Dyn>> = trades.iter().map(trade_dyn).collect();
    let matrices_shredded: Vec<Vec<Dyn>> = matrices.iter().map(matrices_dyn).collect();
    for cut in [1, 2, 7, 50] {
        fn groups(rows: &[Vec<Dyn>]) -> [&[Vec<Dyn>]; 2] {
            [&rows[..150], &rows[150..]]
        }
        let what = format!("trades, pages of {cut} levels");
        let file = write_hand_paged(TRADES_SCHEMA, &groups(&trades_shredded), cut, |_, _| {});
        // The pages really do start inside records.
        let pages = all_pages(&file);
        assert!(pages[0].iter().any(|chunk| chunk.len() > 3), "{what}");
        check_record_api_and_owned(&what, &file, &trades, trade_from_record);
        check_borrowed!(&what, &file, TradeRef, Trade, &trades);

        let what = format!("matrices, pages of {cut} levels");
        let file = write_hand_paged(MATRICES_SCHEMA, &groups(&matrices_shredded), cut, |_, _| {});
        check_record_api_and_owned(&what, &file, &matrices, matrices_from_record);
        check_borrowed!(&what, &file, MatricesRef, Matrices, &matrices);
    }
}

// ---------------------------------------------------------------------------
// Corrupt files: Err, never a panic or a hang
// ---------------------------------------------------------------------------

/// What decoding a file gave: `Ok(rows)` / `Err(text)`, or the panic message.
type Outcome = std::result::Result<std::result::Result<usize, String>, String>;

/// Runs `decode` on every case on a thread named `quiet-<name>` (panics
/// caught, and kept out of the test output), failing if the batch hangs.
fn run_cases(
    name: &str,
    cases: Vec<(String, Bytes)>,
    decode: fn(Bytes) -> std::result::Result<usize, String>,
) -> Vec<(String, Outcome)> {
    quiet_panics_in_quiet_threads();
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(format!("quiet-{name}"))
        .spawn(move || {
            let outcomes: Vec<(String, Outcome)> = cases
                .into_iter()
                .map(|(label, bytes)| {
                    let outcome = catch_unwind(AssertUnwindSafe(|| decode(bytes)))
                        .map_err(|p| panic_message(p.as_ref()));
                    (label, outcome)
                })
                .collect();
            tx.send(outcomes).expect("send outcomes");
        })
        .expect("spawn");
    // Not a performance assertion: only a decoder stuck in a loop gets near it.
    #[allow(clippy::duration_suboptimal_units)]
    // `Duration::from_mins` needs Rust 1.91; the workspace supports 1.85
    let limit = Duration::from_secs(5 * 60);
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("{name}: no result after 5 minutes: decoding hangs or died"))
}

/// Decodes trades owned (`from_bytes`) and borrowed (`load` + `rows`).
fn decode_trades(bytes: Bytes) -> std::result::Result<usize, String> {
    let owned: Vec<Trade> = parquet_rows::from_bytes(bytes.clone()).map_err(|e| e.to_string())?;
    let file = ParquetFile::from_bytes(bytes).map_err(|e| e.to_string())?;
    let pages = file.load::<TradeRef>().map_err(|e| e.to_string())?;
    let borrowed: Vec<TradeRef<'_>> = pages.rows().map_err(|e| e.to_string())?;
    Ok(owned.len() + borrowed.len())
}

/// Decodes matrices owned (`from_bytes`) and borrowed (`load` + `rows`).
fn decode_matrices(bytes: Bytes) -> std::result::Result<usize, String> {
    let owned: Vec<Matrices> =
        parquet_rows::from_bytes(bytes.clone()).map_err(|e| e.to_string())?;
    let file = ParquetFile::from_bytes(bytes).map_err(|e| e.to_string())?;
    let pages = file.load::<MatricesRef>().map_err(|e| e.to_string())?;
    let borrowed: Vec<MatricesRef<'_>> = pages.rows().map_err(|e| e.to_string())?;
    Ok(owned.len() + borrowed.len())
}

/// The byte range of the pages: after the magic, before the footer.
fn page_region(file: &Bytes) -> Range<usize> {
    let n = file.len();
    let footer = u32::from_le_bytes(file[n - 8..n - 4].try_into().expect("4 bytes")) as usize;
    4..n - 8 - footer
}

/// Each of about `per_file` offsets of the page region of every file set to
/// 0x00, to 0xff and xor-ed with 0x55, in turn.
fn corruptions(files: &[(String, Bytes)], per_file: usize) -> Vec<(String, Bytes)> {
    let mut cases = Vec::new();
    for (what, file) in files {
        let region = page_region(file);
        let step = (region.len() / per_file).max(1);
        for offset in region.step_by(step) {
            for how in 0..3 {
                let mut bytes = file.to_vec();
                let before = bytes[offset];
                bytes[offset] = match how {
                    0 => 0x00,
                    1 => 0xff,
                    _ => before ^ 0x55,
                };
                let label = format!(
                    "{what}: byte {offset} {before:#04x} -> {:#04x}",
                    bytes[offset]
                );
                cases.push((label, Bytes::from(bytes)));
            }
        }
    }
    cases
}

#[test]
fn corrupt_nested_pages_never_panic() {
    let trades: Vec<Vec<Dyn>> = gen_trades(14, 300).iter().map(trade_dyn).collect();
    let matrices: Vec<Vec<Dyn>> = gen_matrices(15, 300).iter().map(matrices_dyn).collect();
    // Variants 0 (v1, dictionary), 1 (v1, snappy), 3 (v2, plain), 4 (v2, delta).
    let pick = |files: Vec<(String, Bytes)>, which: [usize; 2]| -> Vec<(String, Bytes)> {
        files
            .into_iter()
            .enumerate()
            .filter(|(i, _)| which.contains(i))
            .map(|(_, f)| f)
            .collect()
    };
    let mut trade_files = pick(files(TRADES_SCHEMA, &trades), [0, 4]);
    trade_files.push((
        "hand-written pages".into(),
        write_hand_paged(TRADES_SCHEMA, &[&trades], 7, |_, _| {}),
    ));
    let matrix_files = pick(files(MATRICES_SCHEMA, &matrices), [1, 3]);
    let trade_cases = corruptions(&trade_files, 150);
    let matrix_cases = corruptions(&matrix_files, 150);
    assert!(trade_cases.len() > 1200 && matrix_cases.len() > 800);
    let mut outcomes = run_cases("nested-trades", trade_cases, decode_trades);
    outcomes.extend(run_cases("nested-matrices", matrix_cases, decode_matrices));
    let panics: Vec<String> = outcomes
        .iter()
        .filter_map(|(label, o)| o.as_ref().err().map(|p| format!("{label}: {p}")))
        .collect();
    let errors = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Ok(Err(_))))
        .count();
    assert!(
        panics.is_empty(),
        "{} of {} corrupt files panicked (first 10):\n{}",
        panics.len(),
        outcomes.len(),
        panics[..panics.len().min(10)].join("\n")
    );
    // Most flips land in values (any value is valid); enough must hit
    // headers and levels to show the corruption was noticed at all.
    assert!(errors > 0, "no corrupt file gave an error");
}

/// A change to one leaf column (its index) before it is encoded.
type Tamper = Box<dyn Fn(usize, &mut Shredded)>;

/// Levels no valid file holds, written into hand-encoded pages: each must
/// give `Err` (not rows, not a panic).
#[test]
fn invalid_levels_are_errors() {
    let rows: Vec<Vec<Dyn>> = gen_trades(16, 200).iter().map(trade_dyn).collect();
    // Leaf columns of TRADES_SCHEMA: 0 id, 1 px, 2 qty, 3 venue, 4 marks,
    // 5 fee.amount, 6 fee.currency, 7 legs.n, 8 legs.side.
    let descr = SchemaDescriptor::new(Arc::new(parse_message_type(TRADES_SCHEMA).expect("schema")));
    let levels = |c: usize| {
        let c = descr.column(c);
        (c.max_def_level(), c.max_rep_level())
    };
    assert_eq!(levels(1), (2, 1), "px");
    assert_eq!(levels(2), (2, 1), "qty");
    assert_eq!(levels(4), (4, 2), "marks");
    let first_with = |col: &Shredded, def: i16| {
        col.def
            .iter()
            .position(|&d| d == def)
            .expect("a level with that definition")
    };
    let cases: Vec<(&str, Tamper)> = vec![
        (
            "repetition level above the maximum",
            Box::new(|c, col: &mut Shredded| {
                if c == 1 {
                    let i = col.rep.iter().position(|&r| r == 1).expect("a list");
                    col.rep[i] = 3;
                }
            }),
        ),
        (
            "definition level above the maximum",
            Box::new(move |c, col: &mut Shredded| {
                if c == 4 {
                    let i = first_with(col, 4);
                    col.def[i] = 7;
                }
            }),
        ),
        (
            "column chunk starting inside a list",
            Box::new(|c, col: &mut Shredded| {
                if c == 1 {
                    col.rep[0] = 1;
                }
            }),
        ),
        (
            "fewer values than the definition levels say",
            Box::new(|c, col: &mut Shredded| {
                if c == 3 {
                    col.values.pop();
                }
            }),
        ),
        (
            "sibling columns of one struct disagree on a list's length",
            Box::new(move |c, col: &mut Shredded| {
                if c == 2 {
                    // One more `qty` than `px` in the first non-empty list of fills.
                    let i = first_with(col, 2);
                    col.def.insert(i + 1, 2);
                    col.rep.insert(i + 1, 1);
                    col.values.insert(0, Dyn::I64(42));
                }
            }),
        ),
    ];
    let mut files = Vec::new();
    for (what, tamper) in &cases {
        for cut in [3, 1000] {
            let file = write_hand_paged(TRADES_SCHEMA, &[&rows], cut, |c, col| tamper(c, col));
            files.push((format!("{what}, pages of {cut} levels"), file));
        }
    }
    assert_eq!(files.len(), 10);
    let outcomes = run_cases("nested-levels", files, decode_trades);
    let wrong: Vec<String> = outcomes
        .iter()
        .filter_map(|(label, o)| match o {
            Ok(Err(_)) => None,
            Ok(Ok(n)) => Some(format!("{label}: Ok ({n} rows)")),
            Err(p) => Some(format!("{label}: panic: {p}")),
        })
        .collect();
    assert!(wrong.is_empty(), "expected Err:\n{}", wrong.join("\n"));
}

/// `qty`, a sibling of `px` in the struct of the `fills` list, with a column
/// chunk that starts inside a list: its repetition levels repeat those of
/// `px`, so a reader that takes the list's shape from `px` may ignore them,
/// but then the rows must be exact.
#[test]
fn sibling_column_starting_inside_a_list_is_err_or_exact() {
    let trades = gen_trades(16, 200);
    let rows: Vec<Vec<Dyn>> = trades.iter().map(trade_dyn).collect();
    let file = write_hand_paged(TRADES_SCHEMA, &[&rows], 3, |c, col| {
        if c == 2 {
            col.rep[0] = 1;
        }
    });
    quiet_panics_in_quiet_threads();
    let outcome = std::thread::Builder::new()
        .name("quiet-nested-sibling".into())
        .spawn(move || parquet_rows::from_bytes::<Trade>(file))
        .expect("spawn")
        .join();
    match outcome {
        Err(p) => panic!(
            "sibling starting inside a list: panic: {}",
            panic_message(p.as_ref())
        ),
        Ok(Err(_)) => {}
        Ok(Ok(got)) => same_rows("sibling starting inside a list", &got, &trades),
    }
}
