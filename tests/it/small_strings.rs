//! `compact_str::CompactString` fields (feature `compact_str`) read the
//! values `String` fields read, on every read path and page encoding: short
//! values inline, long ones (over 24 bytes) on the heap, nulls as `None`.

use parquet::basic::Encoding;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;
use parquet_rows::compact_str::CompactString;
use parquet_rows::{ParquetFile, ParquetRow, ReadOptions};
use parquet_rows_suite::{write_columns, ColumnValues};

const SCHEMA: &str = "message m {
    REQUIRED INT64 id;
    OPTIONAL BINARY sym (UTF8);
    REQUIRED BINARY name (UTF8);
}";

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Inline {
    id: i64,
    sym: Option<CompactString>,
    name: CompactString,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Owned {
    id: i64,
    sym: Option<String>,
    name: String,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Borrowed<'a> {
    id: i64,
    sym: Option<&'a str>,
    name: &'a str,
}

/// A long value: 40 bytes, more than `CompactString` keeps inline.
const LONG: &str = "a symbol name longer than twenty-four b";

/// Row `i`: a null every 7th, a short symbol out of 9 (one of them the
/// longest that fits inline, 24 bytes, one of them empty), a long one every
/// 11th, and a `name` that is long every 5th row and unique per row.
fn row(i: usize) -> (i64, Option<String>, String) {
    const SYMBOLS: [&str; 9] = [
        "EURUSD",
        "",
        "AAPL",
        "€uro-ünïcode",
        "exactly-24-bytes-long-xx",
        "MSFT",
        "GBPUSD",
        "X",
        "BTC-PERP",
    ];
    let sym = match i {
        _ if i % 7 == 3 => None,
        _ if i % 11 == 5 => Some(format!("{LONG}{}", i % 4)),
        _ => Some(SYMBOLS[i % SYMBOLS.len()].to_owned()),
    };
    let name = if i.is_multiple_of(5) {
        format!("{LONG} row {i}")
    } else {
        format!("n{i}")
    };
    (i as i64, sym, name)
}

fn expected(rows: usize) -> Vec<Owned> {
    (0..rows)
        .map(|i| {
            let (id, sym, name) = row(i);
            Owned { id, sym, name }
        })
        .collect()
}

/// A file of `rows` rows in row groups of `group` rows, pages of 500 rows.
fn file(rows: usize, group: usize, encoding: Option<Encoding>) -> bytes::Bytes {
    let mut props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(group))
        .set_data_page_row_count_limit(500)
        .set_write_batch_size(100);
    if let Some(encoding) = encoding {
        props = props.set_dictionary_enabled(false);
        for column in ["sym", "name"] {
            props = props.set_column_encoding(ColumnPath::from(column), encoding);
        }
    }
    let groups: Vec<Vec<ColumnValues>> = (0..rows)
        .step_by(group)
        .map(|start| {
            let range = start..(start + group).min(rows);
            let (mut ids, mut syms, mut names) = (Vec::new(), Vec::new(), Vec::new());
            for i in range {
                let (id, sym, name) = row(i);
                ids.push(Some(id));
                syms.push(sym.map(String::into_bytes));
                names.push(Some(name.into_bytes()));
            }
            vec![
                ColumnValues::Int64(ids),
                ColumnValues::Bytes(syms),
                ColumnValues::Bytes(names),
            ]
        })
        .collect();
    write_columns(SCHEMA, props.build(), &groups).expect("write")
}

/// The encodings the string columns are written with: dictionary (the
/// writer's default), PLAIN, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY.
fn layouts() -> [(&'static str, Option<Encoding>); 4] {
    [
        ("dictionary", None),
        ("plain", Some(Encoding::PLAIN)),
        ("delta length", Some(Encoding::DELTA_LENGTH_BYTE_ARRAY)),
        ("delta", Some(Encoding::DELTA_BYTE_ARRAY)),
    ]
}

fn as_owned(rows: &[Inline]) -> Vec<Owned> {
    rows.iter()
        .map(|r| Owned {
            id: r.id,
            sym: r.sym.as_ref().map(|s| s.as_str().to_owned()),
            name: r.name.as_str().to_owned(),
        })
        .collect()
}

/// Short values are inline (no heap), long ones on the heap: the point of
/// the type, and what the values above were chosen to exercise.
fn check_storage(rows: &[Inline]) {
    let mut heap = 0;
    for r in rows {
        for s in r.sym.iter().chain([&r.name]) {
            assert_eq!(s.is_heap_allocated(), s.len() > 24, "{s:?}");
            heap += usize::from(s.is_heap_allocated());
        }
    }
    assert!(heap > 0, "no long value was read");
}

#[test]
fn compact_strings_equal_strings_on_every_encoding_and_path() {
    const ROWS: usize = 5_000;
    let want = expected(ROWS);
    assert!(want.iter().any(|r| r.sym.is_none()));
    for (layout, encoding) in layouts() {
        let bytes = file(ROWS, 1_700, encoding);
        let file = ParquetFile::from_bytes(bytes.clone()).expect("open");

        // The `String` read is the reference, as the file says.
        assert_eq!(
            file.rows::<Owned>().collect().expect("read String"),
            want,
            "{layout}"
        );

        let read = file.rows::<Inline>().collect().expect("read");
        assert_eq!(as_owned(&read), want, "{layout}: read");
        check_storage(&read);

        let pages = file.load::<Inline>().expect("load");
        let rows: Vec<Inline> = pages.rows().expect("rows");
        assert_eq!(rows, read, "{layout}: load + rows");
        // A reused `Vec`: `rows_into` appends.
        let mut reused = vec![read[0].clone()];
        pages.rows_into(&mut reused).expect("rows_into");
        assert_eq!(reused[1..], read[..], "{layout}: rows_into");

        let streamed: Vec<Inline> = file
            .rows::<Inline>()
            .stream()
            .expect("stream")
            .collect::<Result<_, _>>()
            .expect("stream rows");
        assert_eq!(streamed, read, "{layout}: stream");

        // Borrowed rows of the same pages agree too.
        let pages = file.load::<Borrowed>().expect("load borrowed");
        let borrowed: Vec<Borrowed<'_>> = pages.rows().expect("borrowed rows");
        for (b, r) in borrowed.iter().zip(&read) {
            assert_eq!(b.sym, r.sym.as_deref(), "{layout}");
            assert_eq!(b.name, r.name.as_str(), "{layout}");
        }

        // Parallel: row groups, and ranges of rows within one.
        let small_tasks = ParquetFile::from_bytes(bytes)
            .expect("open")
            .with_options(ReadOptions::default().min_task_rows(300));
        for f in [&file, &small_tasks] {
            assert_eq!(
                f.rows::<Inline>().threads(0).collect().expect("par_read"),
                read,
                "{layout}: par_read"
            );
        }
    }
}

/// Rows read from pages that are then dropped keep their values: each is a
/// copy of its converted dictionary entry (or its own heap string), never a
/// view of a page or of the converted dictionary of a row group.
#[test]
fn values_outlive_the_pages_and_row_groups_they_came_from() {
    let bytes = file(3_000, 1_000, None);
    let file = ParquetFile::from_bytes(bytes).expect("open");
    let rows: Vec<Inline> = {
        let pages = file.load::<Inline>().expect("load");
        pages.rows().expect("rows")
    }; // the pages are dropped here
    assert_eq!(as_owned(&rows), expected(3_000));
}

/// A `CompactString` field on a column it cannot read is refused at bind
/// time, as a `String` field is, with the same rule's message.
#[test]
fn compact_string_is_refused_where_string_is() {
    #[derive(ParquetRow, Debug)]
    struct Wrong {
        #[allow(dead_code)]
        id: CompactString,
    }
    let file = ParquetFile::from_bytes(file(10, 10, None)).expect("open");
    let err = file.rows::<Wrong>().collect().unwrap_err().to_string();
    assert!(
        err.contains("`id`") && err.contains("BYTE_ARRAY annotated STRING"),
        "{err}"
    );
}

/// `CompactString` fields write as `String` fields do (a STRING column) and
/// read back equal, nulls and long values included.
#[test]
fn compact_strings_round_trip_through_the_writer() {
    let rows: Vec<Inline> = expected(2_000)
        .into_iter()
        .map(|r| Inline {
            id: r.id,
            sym: r.sym.map(CompactString::from),
            name: CompactString::from(r.name),
        })
        .collect();
    let mut writer = parquet_rows::Writer::<Inline, Vec<u8>>::new(
        Vec::new(),
        parquet_rows::WriteOptions::default(),
    )
    .expect("writer");
    writer.write(&rows).expect("write");
    let (_, bytes) = writer.finish().expect("finish");
    let file = ParquetFile::from_bytes(bytes).expect("open");
    let sym = file.schema().column(1);
    assert_eq!(sym.name(), "sym");
    assert!(
        matches!(
            sym.logical_type_ref(),
            Some(parquet::basic::LogicalType::String)
        ),
        "{sym:?}"
    );
    assert_eq!(file.rows::<Inline>().collect().expect("read back"), rows);
    assert_eq!(
        file.rows::<Owned>().collect().expect("read as String"),
        expected(2_000)
    );
}
