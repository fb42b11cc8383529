//! Checking a decoded file against its expected values (and upstream's CSV
//! files), and `corpus_test!`, which defines a test that does it.

use super::*;

/// What a file's decoding is allowed to do besides matching the expected values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Must decode and match.
    Exact,
    /// Some page CRCs are wrong: matching (CRCs not verified) or an error that
    /// names the checksum are both right.
    CorruptCrc,
}

/// Which of the expected file's columns a test compares.
#[derive(Debug, Clone, Copy)]
pub(super) enum Columns {
    /// Every column (the test of record for a file).
    Every,
    /// Some columns, read into other field types than the test of record's
    /// (or only the flat columns of a nested file).
    Subset,
}

/// In which order a test's decoded maps list their entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MapOrder {
    /// The file's order: maps read into `Vec<(K, V)>`, compared with the
    /// expected values as they are.
    File,
    /// By key: maps read into `HashMap` or `BTreeMap` (whose [`ToJson`] lists
    /// the entries by key), compared with the expected values after
    /// [`sort_maps`].
    ByKey,
}

/// Checks beyond the expected values of the listed columns.
#[derive(Debug, Clone, Copy)]
pub(super) struct Extra {
    /// Which columns must be listed.
    pub(super) columns: Columns,
    /// Pairs of columns that must hold the same values (a BYTE_STREAM_SPLIT
    /// column and its PLAIN twin).
    pub(super) twins: &'static [(&'static str, &'static str)],
    /// Upstream's own expected values: a CSV file of the corpus, one column per
    /// Parquet column (names compared without surrounding spaces and a
    /// trailing `:`), an unquoted empty cell for a null.
    pub(super) csv: Option<&'static str>,
    /// The order of the entries of decoded maps.
    pub(super) maps: MapOrder,
}

/// The default: every column compared, nothing more.
pub(super) const NO_EXTRA: Extra = Extra {
    columns: Columns::Every,
    twins: &[],
    csv: None,
    maps: MapOrder::File,
};

/// A test that reads some columns into other field types.
pub(super) const SUBSET: Extra = Extra {
    columns: Columns::Subset,
    ..NO_EXTRA
};

/// A test that reads some columns, maps into `HashMap` or `BTreeMap`.
pub(super) const MAPS_BY_KEY: Extra = Extra {
    maps: MapOrder::ByKey,
    ..SUBSET
};

/// Decoded columns, in the order of `columns`.
pub(super) type Decoded = Result<Vec<Vec<Value>>, Error>;

/// Checks decoded columns (all row groups at once, then streamed) against the
/// expected file, and what `extra` asks for.
pub(super) fn verify(
    file: &str,
    parquet: &ParquetFile,
    columns: &[&str],
    (decoded, streamed): (Decoded, Decoded),
    mode: Mode,
    extra: Extra,
) {
    let path = corpus_path(file).expect("checked by the caller");
    let expected = expected_json(&path);
    if let Columns::Every = extra.columns {
        let all = expected["columns"].as_object().expect("columns");
        for name in all.keys() {
            assert!(
                columns.contains(&name.as_str()),
                "{file}: column `{name}` is not compared"
            );
        }
    }
    let decoded = match (decoded, mode) {
        (Ok(decoded), _) => decoded,
        (Err(e), Mode::CorruptCrc) => {
            let message = e.to_string().to_lowercase();
            assert!(
                message.contains("crc") || message.contains("checksum"),
                "{file}: the only acceptable error is a checksum mismatch, got: {e}"
            );
            println!("{file}: checksum error, as allowed: {e}");
            return;
        }
        (Err(e), Mode::Exact) => panic!("{file}: decoding failed: {e}\n{e:?}"),
    };
    let num_rows = expected["num_rows"].as_u64().expect("num_rows") as usize;
    assert_eq!(parquet.num_rows(), num_rows, "{file}: num_rows");
    let row_groups = expected["row_groups"].as_u64().expect("row_groups") as usize;
    assert_eq!(parquet.num_row_groups(), row_groups, "{file}: row groups");
    for (name, got) in columns.iter().zip(&decoded) {
        let mut want = expected["columns"][name]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: no expected column `{name}`"))
            .clone();
        if extra.maps == MapOrder::ByKey {
            want.iter_mut().for_each(sort_maps);
        }
        compare(&format!("{file}: column `{name}`"), got, &want);
    }
    for (a, b) in extra.twins {
        let index = |name: &str| {
            columns
                .iter()
                .position(|c| *c == name)
                .unwrap_or_else(|| panic!("{file}: twin column `{name}` is not decoded"))
        };
        compare(
            &format!("{file}: column `{a}` against its twin `{b}`"),
            &decoded[index(a)],
            &decoded[index(b)],
        );
    }
    if let Some(csv) = extra.csv {
        compare_csv(file, csv, columns, &decoded);
    }
    match streamed {
        Ok(streamed) => assert!(
            streamed == decoded,
            "{file}: row_groups() differs from load()"
        ),
        Err(e) => panic!("{file}: streaming failed although load() worked: {e}"),
    }
}

/// Compares decoded values with expected ones; `what` names them in the panic.
pub(super) fn compare(what: &str, got: &[Value], want: &[Value]) {
    assert_eq!(got.len(), want.len(), "{what}: number of rows");
    let wrong: Vec<usize> = (0..got.len())
        .filter(|&i| !same(&got[i], &want[i]))
        .collect();
    if let Some(&i) = wrong.first() {
        panic!(
            "{what}: {} of {} values differ; first at row {i}: got {}, expected {}\n\
             first difference: row {i}{}",
            wrong.len(),
            got.len(),
            got[i],
            want[i],
            difference(&got[i], &want[i]).unwrap_or_default()
        );
    }
}

/// Splits CSV text into rows of cells: `None` for an unquoted empty cell (a
/// null in upstream's files), quotes removed and `""` unescaped otherwise.
pub(super) fn parse_csv(text: &str) -> Vec<Vec<Option<String>>> {
    fn finish(cell: &mut String, quoted: &mut bool) -> Option<String> {
        let text = std::mem::take(cell);
        let was_quoted = std::mem::replace(quoted, false);
        (was_quoted || !text.is_empty()).then_some(text)
    }
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let (mut quoted, mut in_quotes) = (false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => in_quotes = false,
                _ => cell.push(c),
            }
            continue;
        }
        match c {
            '"' => (in_quotes, quoted) = (true, true),
            ',' => row.push(finish(&mut cell, &mut quoted)),
            '\r' => {}
            '\n' => {
                row.push(finish(&mut cell, &mut quoted));
                rows.push(std::mem::take(&mut row));
            }
            _ => cell.push(c),
        }
    }
    if quoted || !cell.is_empty() || !row.is_empty() {
        row.push(finish(&mut cell, &mut quoted));
        rows.push(row);
    }
    rows
}

/// Compares decoded columns with upstream's CSV file `csv` (relative to the corpus).
pub(super) fn compare_csv(file: &str, csv: &str, columns: &[&str], decoded: &[Vec<Value>]) {
    let path = parquet_rows_suite::corpus_file(csv).expect("the corpus is there");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let mut rows = parse_csv(&text).into_iter();
    let header = rows.next().unwrap_or_else(|| panic!("{csv}: empty"));
    let rows: Vec<Vec<Option<String>>> = rows.collect();
    let mut compared = 0;
    for (i, name) in header.iter().enumerate() {
        let name = name.as_deref().unwrap_or_default().trim();
        let column = columns
            .iter()
            .position(|c| c.trim_end_matches(':') == name)
            .unwrap_or_else(|| panic!("{file}: CSV column `{name}` of {csv} is not decoded"));
        let got = &decoded[column];
        assert_eq!(got.len(), rows.len(), "{file}: rows of {csv}");
        for (row, (value, cells)) in got.iter().zip(&rows).enumerate() {
            let want = cells
                .get(i)
                .unwrap_or_else(|| panic!("{csv}: row {row} is short"));
            let got = match value {
                Value::Null => None,
                Value::String(s) => Some(s.clone()),
                other => Some(other.to_string()),
            };
            assert!(
                got == *want,
                "{file}: column `{name}`, row {row}: decoded {got:?}, {csv} says {want:?}"
            );
            compared += 1;
        }
    }
    println!("{file}: {compared} values also match {csv}");
}

/// The [`Extra`] checks given to `corpus_test!`, or none.
macro_rules! extra {
    () => {
        NO_EXTRA
    };
    ($extra:expr) => {
        $extra
    };
}

/// Defines a test that decodes `$file` into `$row` and compares the listed
/// columns (`"column" => field`, or `"column" => field via converter` for the
/// field types whose expected notation needs a converter, see [`value!`])
/// with the expected file, plus the optional [`Extra`] checks.
macro_rules! corpus_test {
    ($test:ident, $file:literal, $row:ident, $mode:expr,
     { $($column:literal => $field:ident $(via $converter:ident)?),+ $(,)? } $(, $extra:expr)? $(,)?) => {
        #[test]
        pub(super) fn $test() {
            let Some(path) = corpus_path($file) else { return };
            let parquet = ParquetFile::open(&path)
                .unwrap_or_else(|e| panic!("{}: open: {e}", $file));
            let to_columns = |rows: &[$row]| -> Vec<Vec<Value>> {
                vec![$(rows.iter().map(|r| value!(r.$field $(, $converter)?)).collect()),+]
            };
            let decoded = (|| -> Decoded {
                let pages = parquet.load::<$row>()?;
                let rows: Vec<$row> = pages.rows()?;
                Ok(to_columns(&rows))
            })();
            let streamed = (|| -> Decoded {
                let mut columns: Vec<Vec<Value>> = vec![Vec::new(); [$($column),+].len()];
                for group in 0..parquet.num_row_groups() {
                    let pages = parquet.rows::<$row>().row_groups([group]).load()?;
                    let rows: Vec<$row> = pages.rows()?;
                    for (all, group) in columns.iter_mut().zip(to_columns(&rows)) {
                        all.extend(group);
                    }
                }
                Ok(columns)
            })();
            let extra: Extra = extra!($($extra)?);
            verify($file, &parquet, &[$($column),+], (decoded, streamed), $mode, extra);
        }
    };
}
