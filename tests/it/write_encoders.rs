//! The writer's own encoders (`writer/encode.rs`) against the `parquet`
//! crate's column writers (`WriteOptions::own_encoders(false)`): the same
//! random rows of every flat column type the encoders cover, written both
//! ways under every codec they compress with, dictionary on and off, pages
//! small enough that dictionaries fall back mid-row-group; read back equal
//! (parquet-rows and the `parquet` crate's record API); chunk statistics
//! equal to the column writers'; the column index of every page as the spec
//! says it (min/max of the page's rows, null counts, null pages, NaN left
//! out, -0.0 / +0.0 bounds, truncated byte-array bounds that still bound).

use bytes::Bytes;
use parquet::basic::{Encoding, PageType};
use parquet::file::metadata::ParquetMetaData;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::{ReadOptionsBuilder, SerializedFileReader};
use parquet_rows::writer::{Compression, Statistics};
use parquet_rows::{ParquetRow, WriteOptions, Writer};
use parquet_rows_suite::rng::{generate, Rng};

#[derive(ParquetRow, Debug, Clone)]
struct Flat {
    id: i64, // ascending: the column index says so
    int: i32,
    uint: u32,
    ulong: u64,
    float: f32,
    double: f64,
    sym: String,
    text: String,
    raw: Vec<u8>,
    o_long: Option<i64>,
    o_double: Option<f64>,
    o_text: Option<String>,
    nothing: Option<i32>,
    nan: f64,
}

const SYMBOLS: [&str; 8] = [
    "EURUSD", "USDJPY", "GBPUSD", "", "é€", "AUDUSD", "x", "NZDUSD",
];

fn flat(rng: &mut Rng, i: usize) -> Flat {
    let double = |rng: &mut Rng| match rng.below(25) {
        0 => f64::NAN,
        1 => 0.0,
        2 => -0.0,
        _ => rng.f64(),
    };
    let text = |rng: &mut Rng| match rng.below(12) {
        0 => String::new(),
        // Longer than the 64 bytes statistics keep: truncated bounds.
        1 => format!("{}{}", "ü".repeat(40), rng.word()),
        2 => format!("{}\u{10FFFF}", "\u{10FFFF}".repeat(20)),
        _ => rng.word(),
    };
    Flat {
        id: i as i64 * 3 - 1000,
        int: rng.i32(),
        uint: if rng.chance(5) {
            u32::MAX
        } else {
            rng.below(1000) as u32
        },
        ulong: if rng.chance(5) {
            u64::MAX
        } else {
            rng.next_u64() >> 1
        },
        float: if rng.chance(5) { f32::NAN } else { rng.f32() },
        double: double(rng),
        sym: SYMBOLS[rng.below(8)].to_owned(),
        text: text(rng),
        raw: (0..rng.below(12)).map(|_| rng.below(256) as u8).collect(),
        o_long: rng.maybe(70, Rng::i64),
        // Runs of nulls long enough for null pages in small pages.
        o_double: if (i / 700).is_multiple_of(3) {
            None
        } else {
            rng.maybe(60, double)
        },
        o_text: rng.maybe(50, text),
        nothing: None,
        nan: f64::NAN,
    }
}

fn write(rows: &[Flat], options: WriteOptions) -> Bytes {
    let mut writer = Writer::<Flat, _>::new(Vec::new(), options).unwrap();
    let (head, rest) = rows.split_at(rows.len() / 3);
    writer.write(head).unwrap();
    writer.write(rest).unwrap();
    Bytes::from(writer.finish().unwrap().1)
}

fn metadata(file: &Bytes) -> ParquetMetaData {
    SerializedFileReader::new_with_options(
        file.clone(),
        ReadOptionsBuilder::new().with_page_index().build(),
    )
    .unwrap()
    .metadata()
    .clone()
}

fn same(found: &[Flat], expected: &[Flat], what: &str) {
    assert_eq!(found.len(), expected.len(), "{what}: rows");
    for (i, (f, e)) in found.iter().zip(expected).enumerate() {
        assert_eq!(format!("{f:?}"), format!("{e:?}"), "{what}: row {i}");
    }
}

/// A value of a column, for the column index check.
#[derive(Debug, Clone, PartialEq, PartialOrd)]
enum Val {
    Int(i128),
    Float(f64),
    Bytes(Vec<u8>),
}

/// The value of column `name` in `row` (`None` for a null; NaN as a float).
fn value(row: &Flat, name: &str) -> Option<Val> {
    Some(match name {
        "id" => Val::Int(row.id.into()),
        "int" => Val::Int(row.int.into()),
        "uint" => Val::Int(row.uint.into()),
        "ulong" => Val::Int(row.ulong.into()),
        "float" => Val::Float(row.float.into()),
        "double" => Val::Float(row.double),
        "sym" => Val::Bytes(row.sym.clone().into_bytes()),
        "text" => Val::Bytes(row.text.clone().into_bytes()),
        "raw" => Val::Bytes(row.raw.clone()),
        "o_long" => Val::Int(row.o_long?.into()),
        "o_double" => Val::Float(row.o_double?),
        "o_text" => Val::Bytes(row.o_text.clone()?.into_bytes()),
        "nothing" => Val::Int(row.nothing?.into()),
        "nan" => Val::Float(row.nan),
        other => panic!("no column {other}"),
    })
}

/// Page `p`'s bounds in the column index, as values of the column (unsigned
/// columns read as unsigned).
fn bounds(index: &ColumnIndexMetaData, p: usize, name: &str) -> (Val, Val) {
    let unsigned = name == "uint" || name == "ulong";
    match index {
        ColumnIndexMetaData::INT32(ix) => {
            let f = |v: &i32| {
                Val::Int(if unsigned {
                    (*v as u32).into()
                } else {
                    (*v).into()
                })
            };
            (f(ix.min_value(p).unwrap()), f(ix.max_value(p).unwrap()))
        }
        ColumnIndexMetaData::INT64(ix) => {
            let f = |v: &i64| {
                Val::Int(if unsigned {
                    (*v as u64).into()
                } else {
                    (*v).into()
                })
            };
            (f(ix.min_value(p).unwrap()), f(ix.max_value(p).unwrap()))
        }
        ColumnIndexMetaData::FLOAT(ix) => (
            Val::Float((*ix.min_value(p).unwrap()).into()),
            Val::Float((*ix.max_value(p).unwrap()).into()),
        ),
        ColumnIndexMetaData::DOUBLE(ix) => (
            Val::Float(*ix.min_value(p).unwrap()),
            Val::Float(*ix.max_value(p).unwrap()),
        ),
        ColumnIndexMetaData::BYTE_ARRAY(ix) => (
            Val::Bytes(ix.min_value(p).unwrap().to_vec()),
            Val::Bytes(ix.max_value(p).unwrap().to_vec()),
        ),
        other => panic!("unexpected column index {other:?}"),
    }
}

/// Checks every page of every chunk's column index against the rows
/// (`value` gives a row's value of a column): null counts, NaN counts (for
/// float columns only), null pages, and bounds that are the page's min and
/// max (NaN left out, a zero min -0.0 and a zero max +0.0; byte arrays over
/// 64 bytes truncated to a bound no longer than 64 bytes). A chunk without a
/// column index must have a page of values that are all NaN.
fn check_column_index<R>(
    meta: &ParquetMetaData,
    rows: &[R],
    value: impl Fn(&R, &str) -> Option<Val>,
    what: &str,
) -> usize {
    let mut pages_checked = 0;
    let mut first_row = 0usize;
    for g in 0..meta.num_row_groups() {
        let group = meta.row_group(g);
        let index = meta.page_index_for_row_group(g);
        for (c, chunk) in group.columns().iter().enumerate() {
            let name = chunk.column_path().string();
            let at = format!("{what}: row group {g}, column {name}");
            let offsets = index.offset_index(c).expect("offset index");
            let locations = offsets.page_locations();
            let page_rows = |p: usize| {
                let start = first_row + locations[p].first_row_index as usize;
                let end = locations
                    .get(p + 1)
                    .map_or(first_row + group.num_rows() as usize, |l| {
                        first_row + l.first_row_index as usize
                    });
                start..end
            };
            let Some(column_index) = index.column_index(c) else {
                // Only a chunk with a page of NaN alone has none (that page
                // has no bounds to give).
                assert!(
                    (0..locations.len()).any(|p| {
                        let values: Vec<Val> = rows[page_rows(p)]
                            .iter()
                            .filter_map(|r| value(r, &name))
                            .collect();
                        !values.is_empty() && ordered_bounds(&values).is_none()
                    }),
                    "{at}: no column index"
                );
                continue;
            };
            assert_eq!(column_index.num_pages() as usize, locations.len(), "{at}");
            let float = matches!(
                column_index,
                ColumnIndexMetaData::FLOAT(_) | ColumnIndexMetaData::DOUBLE(_)
            );
            for p in 0..locations.len() {
                let range = page_rows(p);
                let (start, end) = (range.start, range.end);
                let values: Vec<Val> = rows[range].iter().filter_map(|r| value(r, &name)).collect();
                let nulls = (end - start - values.len()) as i64;
                let at = format!("{at}, page {p} (rows {start}..{end})");
                assert_eq!(column_index.null_count(p), Some(nulls), "{at}: nulls");
                let nans = values
                    .iter()
                    .filter(|v| matches!(v, Val::Float(f) if f.is_nan()))
                    .count() as i64;
                assert_eq!(
                    column_index.nan_count(p),
                    float.then_some(nans),
                    "{at}: NaN count"
                );
                assert_eq!(column_index.is_null_page(p), values.is_empty(), "{at}");
                pages_checked += 1;
                if values.is_empty() {
                    continue;
                }
                let (min, max) = ordered_bounds(&values).expect("a value not NaN");
                let (lo, hi) = bounds(column_index, p, &name);
                check_bounds((min, max), (&lo, &hi), &name, &at);
            }
        }
        first_row += group.num_rows() as usize;
    }
    pages_checked
}

/// Checks a page's bounds `lo`, `hi` in the column index against the
/// smallest and largest of its values.
fn check_bounds((min, max): (&Val, &Val), (lo, hi): (&Val, &Val), name: &str, at: &str) {
    match (min, max) {
        (Val::Float(min), Val::Float(max)) => {
            let (Val::Float(lo), Val::Float(hi)) = (lo, hi) else {
                unreachable!()
            };
            let min = if *min == 0.0 { -0.0 } else { *min };
            let max = if *max == 0.0 { 0.0 } else { *max };
            assert_eq!(lo.to_bits(), min.to_bits(), "{at}: min {lo} vs {min}");
            assert_eq!(hi.to_bits(), max.to_bits(), "{at}: max {hi} vs {max}");
        }
        (Val::Bytes(min), Val::Bytes(max)) => {
            let (Val::Bytes(lo), Val::Bytes(hi)) = (lo, hi) else {
                unreachable!()
            };
            if min.len() <= 64 {
                assert_eq!(lo, min, "{at}: min");
            } else {
                assert!(
                    lo.len() <= 64 && lo <= min && min.starts_with(lo),
                    "{at}: min"
                );
            }
            if max.len() <= 64 {
                assert_eq!(hi, max, "{at}: max");
            } else {
                // A truncated bound, or the exact value when none is shorter.
                assert!(hi >= max, "{at}: max {hi:?} below {max:?}");
                assert!(hi.len() <= 64 || hi == max, "{at}: max length");
            }
            if name != "raw" {
                assert!(
                    std::str::from_utf8(lo).is_ok() && std::str::from_utf8(hi).is_ok(),
                    "{at}: UTF-8 bounds"
                );
            }
        }
        _ => {
            assert_eq!(lo, min, "{at}: min");
            assert_eq!(hi, max, "{at}: max");
        }
    }
}

/// The smallest and largest of `values`, NaN left out (`None` when there is
/// no other value).
fn ordered_bounds(values: &[Val]) -> Option<(&Val, &Val)> {
    let ordered = || {
        values
            .iter()
            .filter(|v| !matches!(v, Val::Float(f) if f.is_nan()))
    };
    let min = ordered().min_by(|a, b| a.partial_cmp(b).unwrap())?;
    let max = ordered().max_by(|a, b| a.partial_cmp(b).unwrap())?;
    Some((min, max))
}

/// The chunk statistics of our encoders and of the column writers are the
/// same, but for an all-NaN column: the column writers give NaN as its min
/// and max, ours none, as parquet-format says ("NaNs should not be written
/// to min or max statistics fields").
fn same_statistics(
    ours: &parquet::file::metadata::ColumnChunkMetaData,
    theirs: &parquet::file::metadata::ColumnChunkMetaData,
    at: &str,
) {
    if ours.column_path().string() == "nan" {
        let (a, b) = (ours.statistics().unwrap(), theirs.statistics().unwrap());
        assert_eq!(a.min_bytes_opt(), None, "{at}");
        assert_eq!(a.max_bytes_opt(), None, "{at}");
        assert_eq!(a.null_count_opt(), Some(0), "{at}");
        assert_eq!(b.min_bytes_opt(), Some(&f64::NAN.to_le_bytes()[..]), "{at}");
    } else {
        assert_eq!(ours.statistics(), theirs.statistics(), "{at}: statistics");
    }
}

/// The high-cardinality `text` falls back to PLAIN mid-row-group (the
/// dictionary page first, dictionary-encoded data pages, then PLAIN ones);
/// `sym` (8 values) stays dictionary encoded.
/// Column `name` of the first row group: the entries of its dictionary
/// page (which comes first) and the encodings of its data pages (v1), each
/// run of pages of one encoding once; `what` names the case in failures.
fn dictionary_and_runs(file: &Bytes, name: &str, what: &str) -> (u32, Vec<Encoding>) {
    let reader = SerializedFileReader::new(file.clone()).unwrap();
    let group = reader.get_row_group(0).unwrap();
    let column = (0..group.num_columns())
        .find(|&c| group.metadata().column(c).column_path().string() == name)
        .unwrap_or_else(|| panic!("{what}: no column {name}"));
    let pages: Vec<_> = group
        .get_column_page_reader(column)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        pages[0].page_type(),
        PageType::DICTIONARY_PAGE,
        "{what}: {name}"
    );
    let mut runs: Vec<Encoding> = Vec::new();
    for page in &pages[1..] {
        assert_eq!(page.page_type(), PageType::DATA_PAGE, "{what}: {name}");
        if runs.last() != Some(&page.encoding()) {
            runs.push(page.encoding());
        }
    }
    (pages[0].num_values(), runs)
}

fn check_fallback(ours: &Bytes, what: &str) {
    assert_eq!(
        dictionary_and_runs(ours, "text", what).1,
        [Encoding::RLE_DICTIONARY, Encoding::PLAIN],
        "{what}"
    );
    assert_eq!(
        dictionary_and_runs(ours, "sym", what).1,
        [Encoding::RLE_DICTIONARY],
        "{what}"
    );
}

#[test]
fn own_encoders_write_what_the_column_writers_write() {
    let rows = generate(11, 9_000, flat);
    let codecs = [
        Compression::Uncompressed,
        Compression::Snappy,
        Compression::Gzip(6),
        Compression::Lz4Raw,
        Compression::Zstd(3),
    ];
    let mut checked = 0;
    for codec in codecs {
        for dictionary in [true, false] {
            let options = || {
                WriteOptions::default()
                    .compression(codec)
                    .dictionary(dictionary)
                    .row_group_rows(4_000)
                    .page_bytes(4096)
                    .statistics(Statistics::Page)
            };
            let what = format!("{codec:?}, dictionary {dictionary}");
            let ours = write(&rows, options());
            let theirs = write(&rows, options().own_encoders(false));
            // Read back equal, by parquet-rows and by the record API.
            let back: Vec<Flat> = parquet_rows::from_bytes(ours.clone()).unwrap();
            same(&back, &rows, &what);
            let reader = SerializedFileReader::new(ours.clone()).unwrap();
            let records: Vec<_> = reader
                .get_row_iter(None)
                .unwrap()
                .map(Result::unwrap)
                .collect();
            assert_eq!(records.len(), rows.len());
            for (i, (record, row)) in records.iter().zip(&rows).enumerate().step_by(97) {
                let text = record.to_string();
                assert!(
                    text.contains(&format!("id: {}", row.id)),
                    "{what}: record {i}: {text}"
                );
                assert!(
                    text.contains(&format!("uint: {}", row.uint)),
                    "{what}: record {i}: {text}"
                );
            }
            let (ours_meta, theirs_meta) = (metadata(&ours), metadata(&theirs));
            assert_eq!(ours_meta.num_row_groups(), 3, "{what}");
            for g in 0..3 {
                let (a, b) = (ours_meta.row_group(g), theirs_meta.row_group(g));
                assert_eq!(a.num_rows(), b.num_rows());
                for (x, y) in a.columns().iter().zip(b.columns()) {
                    let at = format!("{what}: row group {g}, column {}", x.column_path());
                    same_statistics(x, y, &at);
                    let set = |c: &parquet::file::metadata::ColumnChunkMetaData| {
                        let mut e: Vec<Encoding> = c.encodings().collect();
                        e.sort_by_key(|e| format!("{e:?}"));
                        e
                    };
                    assert_eq!(set(x), set(y), "{at}: encodings");
                    assert_eq!(x.compression(), y.compression(), "{at}");
                    assert_eq!(x.num_values(), y.num_values(), "{at}");
                    assert_eq!(
                        x.unencoded_byte_array_data_bytes(),
                        y.unencoded_byte_array_data_bytes(),
                        "{at}"
                    );
                }
            }
            if dictionary {
                check_fallback(&ours, &what);
            }
            checked += check_column_index(&ours_meta, &rows, value, &what);
        }
    }
    // Several pages per chunk (4 KiB pages), null pages among them.
    assert!(checked > 10 * 3 * 13 * 2, "{checked} pages checked");
}

#[test]
fn own_encoders_cut_pages_at_the_row_limit_and_keep_chunk_statistics() {
    // 50,000 rows of one row group: pages of at most 20,000 rows (the
    // column writers' default row limit), the boundary order ascending for
    // the ascending `id`. The unique ids end their dictionary after its
    // trial of 8,192 values, and with it the first page.
    let rows = generate(5, 50_000, flat);
    let ours = write(&rows, WriteOptions::default());
    let meta = metadata(&ours);
    let index = meta.page_index_for_row_group(0);
    let id = index.offset_index(0).unwrap();
    let firsts: Vec<i64> = id
        .page_locations()
        .iter()
        .map(|l| l.first_row_index)
        .collect();
    assert_eq!(firsts, [0, 8_192, 28_192, 48_192]);
    assert!(index.column_index(0).unwrap().is_sorted());
    check_column_index(&meta, &rows, value, "defaults");
    // Chunk statistics only: no column index, the same chunk statistics.
    let chunk_only = write(&rows, WriteOptions::default().statistics(Statistics::Chunk));
    let theirs = write(
        &rows,
        WriteOptions::default()
            .statistics(Statistics::Chunk)
            .own_encoders(false),
    );
    let (a, b) = (metadata(&chunk_only), metadata(&theirs));
    assert!(a.page_index_for_row_group(0).column_index(0).is_none());
    for (x, y) in a
        .row_group(0)
        .columns()
        .iter()
        .zip(b.row_group(0).columns())
    {
        same_statistics(x, y, &x.column_path().string());
    }
    // No statistics at all.
    let none = metadata(&write(
        &rows,
        WriteOptions::default().statistics(Statistics::None),
    ));
    assert!(none
        .row_group(0)
        .columns()
        .iter()
        .all(|c| c.statistics().is_none()));
    let back: Vec<Flat> = parquet_rows::from_bytes(chunk_only).unwrap();
    same(&back, &rows, "chunk statistics");
}

#[derive(ParquetRow, Debug, Clone)]
struct Fallback {
    x: f64,
    ox: Option<f64>,
    short: String,
    long: String,
    os: Option<String>,
}

/// Short strings (at most 16 bytes, compared inline) and long ones (over 16,
/// sharing an 18-byte prefix so that their order is decided past byte 16).
const SHORT: [&str; 8] = [
    "EURUSD",
    "",
    "x",
    "AUDUSD",
    "é€",
    "sixteen-bytes-16",
    "GBP",
    "ZAR",
];
const PREFIX: &str = "instrument/ladder/";
const FEW_X: [f64; 8] = [
    1.5,
    -2.25,
    0.0,
    -0.0,
    f64::NAN,
    1e300,
    f64::NEG_INFINITY,
    7.0,
];

/// Row `i` of 6,000 in row groups of 3,000: in each row group, dictionary
/// friendly values first (a few per column, the set changing every 500 rows
/// so that dictionary pages differ in bounds), then unique values that fill
/// the dictionary (fallback to PLAIN mid-chunk); rows 5,000..5,600 have a
/// NaN `x` (PLAIN pages of NaN alone), and NaN, zeros and infinities occur
/// throughout.
fn fallback_row(rng: &mut Rng, i: usize) -> Fallback {
    let in_group = i % 3_000;
    let few = in_group < 1_800;
    let set = i / 500 % 3;
    let x = if (5_000..5_600).contains(&i) {
        f64::NAN
    } else if few {
        FEW_X[set * 2 + rng.below(4)]
    } else {
        match rng.below(30) {
            0 => f64::NAN,
            1 => -0.0,
            _ => rng.f64() * (f64::from(in_group as u16) - 2_000.0),
        }
    };
    let short = if few {
        SHORT[set * 2 + rng.below(3)].to_owned()
    } else {
        format!("s{:x}", rng.next_u64() >> 8) // at most 15 bytes, unique
    };
    let long = if few {
        format!("{PREFIX}{}", SHORT[set * 2 + rng.below(3)])
    } else {
        format!("{PREFIX}{i:06}/{}", rng.word())
    };
    Fallback {
        ox: if i.is_multiple_of(5) || (i / 250) % 7 == 3 {
            None
        } else {
            Some(if x.is_nan() && rng.chance(50) { 3.0 } else { x })
        },
        os: rng.maybe(60, |rng| {
            if rng.chance(50) {
                short.clone()
            } else {
                long.clone()
            }
        }),
        x,
        short,
        long,
    }
}

fn fallback_value(row: &Fallback, name: &str) -> Option<Val> {
    Some(match name {
        "x" => Val::Float(row.x),
        "ox" => Val::Float(row.ox?),
        "short" => Val::Bytes(row.short.clone().into_bytes()),
        "long" => Val::Bytes(row.long.clone().into_bytes()),
        "os" => Val::Bytes(row.os.clone()?.into_bytes()),
        other => panic!("no column {other}"),
    })
}

#[test]
fn statistics_hold_across_a_dictionary_fallback() {
    let rows = generate(17, 6_000, fallback_row);
    let options = || {
        WriteOptions::default()
            .compression(Compression::Snappy)
            .row_group_rows(3_000)
            .page_bytes(512)
            .statistics(Statistics::Page)
    };
    let write = |options: WriteOptions| {
        let mut writer = Writer::<Fallback, _>::new(Vec::new(), options).unwrap();
        writer.write(&rows).unwrap();
        Bytes::from(writer.finish().unwrap().1)
    };
    let (ours, theirs) = (write(options()), write(options().own_encoders(false)));
    let back: Vec<Fallback> = parquet_rows::from_bytes(ours.clone()).unwrap();
    assert_eq!(format!("{back:?}"), format!("{rows:?}"));
    let (meta, theirs_meta) = (metadata(&ours), metadata(&theirs));
    assert_eq!(meta.num_row_groups(), 2);
    let reader = SerializedFileReader::new(ours.clone()).unwrap();
    for g in 0..2 {
        let group = &rows[g * 3_000..(g + 1) * 3_000];
        for (c, chunk) in meta.row_group(g).columns().iter().enumerate() {
            let name = chunk.column_path().string();
            let at = format!("row group {g}, column {name}");
            // Dictionary pages, then PLAIN ones: the fallback happened.
            let encodings: Vec<Encoding> = reader
                .get_row_group(g)
                .unwrap()
                .get_column_page_reader(c)
                .unwrap()
                .map(Result::unwrap)
                .filter(|p| p.page_type() == PageType::DATA_PAGE)
                .map(|p| p.encoding())
                .collect();
            let switch = encodings
                .iter()
                .position(|e| *e == Encoding::PLAIN)
                .unwrap_or_else(|| panic!("{at}: no fallback"));
            assert!(switch > 0, "{at}: {encodings:?}");
            assert!(encodings[..switch]
                .iter()
                .all(|e| *e == Encoding::RLE_DICTIONARY));
            assert!(encodings[switch..].iter().all(|e| *e == Encoding::PLAIN));
            // The chunk statistics, from the rows.
            let values: Vec<Val> = group
                .iter()
                .filter_map(|r| fallback_value(r, &name))
                .collect();
            let stats = chunk.statistics().expect("statistics");
            assert_eq!(
                stats.null_count_opt(),
                Some((group.len() - values.len()) as u64),
                "{at}"
            );
            let nans = values
                .iter()
                .filter(|v| matches!(v, Val::Float(f) if f.is_nan()))
                .count();
            match ordered_bounds(&values).expect("values not NaN") {
                (Val::Float(min), Val::Float(max)) => {
                    assert!(nans > 0, "{at}: NaN among the values");
                    let min = if *min == 0.0 { -0.0 } else { *min };
                    let max = if *max == 0.0 { 0.0 } else { *max };
                    assert_eq!(stats.min_bytes_opt(), Some(&min.to_le_bytes()[..]), "{at}");
                    assert_eq!(stats.max_bytes_opt(), Some(&max.to_le_bytes()[..]), "{at}");
                    assert_eq!(stats.nan_count_opt(), Some(nans as u64), "{at}");
                }
                (Val::Bytes(min), Val::Bytes(max)) => {
                    assert_eq!(stats.min_bytes_opt(), Some(&min[..]), "{at}");
                    assert_eq!(stats.max_bytes_opt(), Some(&max[..]), "{at}");
                }
                other => panic!("{at}: {other:?}"),
            }
            // The column writers' chunk statistics are the same.
            same_statistics(chunk, theirs_meta.row_group(g).column(c), &at);
        }
    }
    // Every page's column index entry; `x` of the second row group has PLAIN
    // pages of NaN alone, so no column index.
    let pages = check_column_index(&meta, &rows, fallback_value, "fallback");
    assert!(pages > 100, "{pages} pages checked");
    assert!(meta.page_index_for_row_group(1).column_index(0).is_none());
    assert!(meta.page_index_for_row_group(0).column_index(0).is_some());
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Keys {
    id: i64,      // ascending, unique
    name: String, // unique
    key: i64,     // drawn from 20,000 values
    tag: String,  // one of 8
}

fn keys_row(rng: &mut Rng, i: usize) -> Keys {
    Keys {
        id: 1_000_000 + i as i64 * 3,
        name: format!("user-{i:06}"),
        key: (rng.below(20_000) as i64) * 7919,
        tag: SYMBOLS[rng.below(SYMBOLS.len())].to_owned(),
    }
}

#[test]
fn dictionaries_of_unique_values_stop_after_their_trial() {
    let mut rng = Rng::new(26);
    let rows: Vec<Keys> = (0..40_000).map(|i| keys_row(&mut rng, i)).collect();
    let write = |options: WriteOptions| {
        let mut writer = Writer::<Keys, _>::new(Vec::new(), options).unwrap();
        writer.write(&rows).unwrap();
        Bytes::from(writer.finish().unwrap().1)
    };
    let ours = write(WriteOptions::default());
    let back: Vec<Keys> = parquet_rows::from_bytes(ours.clone()).unwrap();
    assert!(back == rows, "the rows read back differ");

    let dict = [Encoding::RLE_DICTIONARY];
    let stopped = [Encoding::RLE_DICTIONARY, Encoding::PLAIN];
    // Unique values: PLAIN after the trial's 8,192 values and the rest of
    // the step (1,024 levels) that reached it.
    for name in ["id", "name"] {
        let (entries, runs) = dictionary_and_runs(&ours, name, "ours");
        assert_eq!(runs, stopped, "{name}");
        assert!(entries <= 8_192 + 1_024, "{name}: {entries} entries");
    }
    // Repeats (8,192 draws of 20,000 values repeat about 1,300 times): the
    // dictionary holds to the end of the chunk.
    for name in ["key", "tag"] {
        assert_eq!(dictionary_and_runs(&ours, name, "ours").1, dict, "{name}");
    }

    // The column writers keep the unique ids in their dictionary (their
    // page of 1 MiB takes 131,072 of them): the stopped dictionary writes
    // the smaller chunk.
    let theirs = write(WriteOptions::default().own_encoders(false));
    let size =
        |file: &Bytes, column: usize| metadata(file).row_group(0).column(column).compressed_size();
    assert_eq!(dictionary_and_runs(&theirs, "id", "theirs").1, dict);
    assert!(
        size(&ours, 0) < size(&theirs, 0),
        "{} >= {}",
        size(&ours, 0),
        size(&theirs, 0)
    );
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Mixed {
    id: i64,
    sym: String,
    flag: bool, // the column writers' (BOOLEAN)
    price: Option<f64>,
    legs: Vec<i32>, // the column writers' (a list)
    qty: u32,
}

#[test]
fn columns_encoded_on_threads_write_the_same_file() {
    let mut rng = Rng::new(7);
    let rows: Vec<Mixed> = (0..30_000)
        .map(|i| Mixed {
            id: i as i64,
            sym: SYMBOLS[rng.below(SYMBOLS.len())].to_owned(),
            flag: rng.below(2) == 0,
            price: (rng.below(10) > 0).then(|| f64::from(rng.below(1_000) as u32) / 8.0),
            legs: (0..rng.below(4)).map(|_| rng.below(100) as i32).collect(),
            qty: rng.below(5_000) as u32,
        })
        .collect();
    for codec in [
        Compression::Snappy,
        Compression::Zstd(1),
        Compression::Uncompressed,
    ] {
        let write = |threads: usize| {
            let options = WriteOptions::default()
                .compression(codec)
                .row_group_rows(7_000)
                .page_bytes(16 << 10)
                .threads(threads);
            let mut writer = Writer::<Mixed, _>::new(Vec::new(), options).unwrap();
            for part in rows.chunks(5_000) {
                writer.write(part).unwrap();
            }
            let (summary, bytes) = writer.finish().unwrap();
            assert_eq!(summary.row_groups, 5);
            Bytes::from(bytes)
        };
        let one = write(1);
        for threads in [2, 3] {
            assert!(
                write(threads) == one,
                "{codec:?}: {threads} threads wrote another file"
            );
        }
        let back: Vec<Mixed> = parquet_rows::from_bytes(one).unwrap();
        assert!(back == rows, "{codec:?}: the rows read back differ");
    }
}

/// One `write` of many rows: the fields are pushed on the threads in slices
/// of up to 65,536 rows, and row groups closed by their byte limit close at
/// the same rows as on one thread (the slices do not depend on the threads).
#[test]
fn rows_pushed_on_threads_close_row_groups_where_one_thread_does() {
    let mut rng = Rng::new(11);
    let rows: Vec<Mixed> = (0..150_000)
        .map(|i| Mixed {
            id: i as i64,
            // Lengths that vary: the bytes per row are an estimate.
            sym: "s".repeat(1 + rng.below(if i < 100_000 { 4 } else { 40 })),
            flag: rng.below(2) == 0,
            price: (rng.below(10) > 0).then(|| f64::from(rng.below(1_000) as u32)),
            legs: (0..rng.below(3)).map(|_| rng.below(100) as i32).collect(),
            qty: rng.below(5_000) as u32,
        })
        .collect();
    let write = |threads: usize| {
        let options = WriteOptions::default()
            .row_group_bytes(1 << 20)
            .threads(threads);
        let mut writer = Writer::<Mixed, _>::new(Vec::new(), options).unwrap();
        writer.write(&rows).unwrap();
        let (summary, bytes) = writer.finish().unwrap();
        (summary.row_groups, Bytes::from(bytes))
    };
    let (groups, one) = write(1);
    assert!(groups > 3, "the byte limit closed {groups} row groups");
    let sizes: Vec<i64> = metadata(&one)
        .row_groups()
        .iter()
        .map(parquet::file::metadata::RowGroupMetaData::num_rows)
        .collect();
    for threads in [2, 3] {
        assert!(
            write(threads).1 == one,
            "{threads} threads wrote another file (one thread: row groups of {sizes:?})"
        );
    }
    let back: Vec<Mixed> = parquet_rows::from_bytes(one).unwrap();
    assert!(back == rows, "the rows read back differ");
}

/// A struct that is not `Sync` (a skipped `Cell`): it still writes on a
/// writer with threads, its fields pushed on the calling thread.
#[derive(ParquetRow, Debug, Default)]
struct NotSync {
    id: i64,
    #[parquet(skip)]
    seen: std::cell::Cell<u32>,
}

#[test]
fn rows_that_are_not_sync_write_on_a_writer_with_threads() {
    let rows: Vec<NotSync> = (0..20_000)
        .map(|i| NotSync {
            id: i,
            seen: std::cell::Cell::new(1),
        })
        .collect();
    let write = |threads: usize| {
        let options = WriteOptions::default().threads(threads);
        let mut writer = Writer::<NotSync, _>::new(Vec::new(), options).unwrap();
        writer.write(&rows).unwrap();
        writer.finish().unwrap().1
    };
    let two = write(2);
    assert!(two == write(1), "2 threads wrote another file");
    let back: Vec<NotSync> = parquet_rows::from_bytes(Bytes::from(two)).unwrap();
    assert!(back.iter().map(|r| r.id).eq(0..20_000));
    assert!(
        back.iter().all(|r| r.seen.get() == 0),
        "skipped: the default"
    );
}

#[derive(ParquetRow, Debug, Clone)]
struct TwoTexts {
    a: String,
    b: String,
}

/// Two fields refuse a value in one slice of rows: the error names the
/// earlier row, whether the fields were pushed one after the other (which
/// stops at the first part of 4,096 rows with a refusal) or on threads
/// (each field through the whole slice).
#[test]
fn the_earliest_refused_row_is_named_on_any_number_of_threads() {
    let mut rows: Vec<TwoTexts> = (0..100_000)
        .map(|_| TwoTexts {
            a: "x".into(),
            b: "y".into(),
        })
        .collect();
    rows[80_000].a = "a".repeat(101);
    rows[70_000].b = "b".repeat(102);
    for threads in [1, 2] {
        let options = WriteOptions::default()
            .max_value_bytes(100)
            .threads(threads);
        let mut writer = Writer::<TwoTexts, _>::new(Vec::new(), options).unwrap();
        let err = writer.write(&rows).unwrap_err().to_string();
        for part in ["`TwoTexts::b`, row 70000", "102 bytes"] {
            assert!(err.contains(part), "{threads} threads, {part}: {err}");
        }
    }
}
