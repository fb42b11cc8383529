//! The column reader on chunks written here page by page, in every
//! encoding, REQUIRED and OPTIONAL: each variation of the read path
//! (conversion x destination) against the rows the chunk was written from,
//! and a read after [`ColumnReader::skip_rows`] against the tail of a full
//! read.

use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Encoding, Repetition, Type as PhysicalType};
use parquet::column::page::Page;
use parquet::schema::types::{ColumnDescriptor, ColumnPath, Type};

use super::{ColumnContext, ColumnReader, Convert, Copied, Decode, Identity, ShareBytes, Shared};
use crate::chunk::LoadedColumn;
use crate::encoding::delta_binary_packed::encode::encode as delta;
use crate::encoding::delta_byte_array::encode::encode as delta_byte_array;
use crate::encoding::delta_byte_array::Incremental;
use crate::encoding::delta_length_byte_array::encode::encode as delta_length;
use crate::encoding::rle_bp::encode::encode as rle;
use crate::encoding::testing::Rng;
use crate::error::{DecodeError, Error, Result};
use crate::out::{NotNull, Nullable, Optionals, Rows};
use crate::physical::{Boolean, ByteArray, Int64, Physical, Utf8};

/// How a test writes a column's values.
trait Values: Clone + PartialEq + std::fmt::Debug {
    /// The physical type of the column.
    const PHYSICAL: PhysicalType;
    /// The value encodings of data pages (besides dictionary ones) to try.
    const ENCODINGS: &'static [Encoding];
    /// Whether dictionary pages can hold the type.
    const DICTIONARY: bool = true;
    /// A random value; few distinct ones, so dictionaries stay small.
    fn random(rng: &mut Rng) -> Self;
    /// The values section of a page in `encoding`.
    fn encode(values: &[Self], encoding: Encoding) -> Vec<u8>;
}

impl Values for i64 {
    const PHYSICAL: PhysicalType = PhysicalType::INT64;
    const ENCODINGS: &'static [Encoding] = &[
        Encoding::PLAIN,
        Encoding::DELTA_BINARY_PACKED,
        Encoding::BYTE_STREAM_SPLIT,
    ];
    fn random(rng: &mut Rng) -> Self {
        rng.below(50) as i64 * 1_000_003 - 7
    }
    fn encode(values: &[Self], encoding: Encoding) -> Vec<u8> {
        match encoding {
            Encoding::PLAIN => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
            Encoding::DELTA_BINARY_PACKED => delta(values, 128, 4),
            Encoding::BYTE_STREAM_SPLIT => (0..8)
                .flat_map(|b| values.iter().map(move |v| v.to_le_bytes()[b]))
                .collect(),
            other => unreachable!("{other}"),
        }
    }
}

impl Values for String {
    const PHYSICAL: PhysicalType = PhysicalType::BYTE_ARRAY;
    const ENCODINGS: &'static [Encoding] = &[
        Encoding::PLAIN,
        Encoding::DELTA_LENGTH_BYTE_ARRAY,
        Encoding::DELTA_BYTE_ARRAY,
    ];
    fn random(rng: &mut Rng) -> Self {
        let n = rng.below(40);
        format!("key/{n:03}/{}", "é".repeat(n % 3))
    }
    fn encode(values: &[Self], encoding: Encoding) -> Vec<u8> {
        let bytes: Vec<&[u8]> = values.iter().map(String::as_bytes).collect();
        match encoding {
            Encoding::PLAIN => bytes
                .iter()
                .flat_map(|b| {
                    (b.len() as u32)
                        .to_le_bytes()
                        .into_iter()
                        .chain(b.iter().copied())
                })
                .collect(),
            Encoding::DELTA_LENGTH_BYTE_ARRAY => delta_length(&bytes),
            Encoding::DELTA_BYTE_ARRAY => delta_byte_array(&bytes),
            other => unreachable!("{other}"),
        }
    }
}

impl Values for bool {
    const PHYSICAL: PhysicalType = PhysicalType::BOOLEAN;
    const ENCODINGS: &'static [Encoding] = &[Encoding::PLAIN, Encoding::RLE];
    const DICTIONARY: bool = false;
    fn random(rng: &mut Rng) -> Self {
        rng.below(3) == 0
    }
    fn encode(values: &[Self], encoding: Encoding) -> Vec<u8> {
        match encoding {
            Encoding::PLAIN => {
                let mut out = vec![0u8; values.len().div_ceil(8)];
                for (i, &v) in values.iter().enumerate() {
                    out[i / 8] |= u8::from(v) << (i % 8);
                }
                out
            }
            Encoding::RLE => {
                let levels: Vec<u32> = values.iter().map(|&v| u32::from(v)).collect();
                let mut runs = Vec::new();
                rle(&levels, 1, &mut runs);
                length_prefixed(&runs)
            }
            other => unreachable!("{other}"),
        }
    }
}

pub(super) fn length_prefixed(section: &[u8]) -> Vec<u8> {
    let mut out = (section.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(section);
    out
}

/// What a hand-built data page holds: its level sections (`None` where the
/// column has no such levels) and its values section.
pub(super) struct Sections<'a> {
    pub(super) reps: Option<&'a [u8]>,
    pub(super) defs: Option<&'a [u8]>,
    pub(super) values: Vec<u8>,
    pub(super) encoding: Encoding,
    pub(super) num_values: u32,
    pub(super) num_nulls: u32,
    pub(super) num_rows: u32,
}

impl Sections<'_> {
    /// A v1 page (each level section length-prefixed) or a v2 page (level
    /// sections back to back, their lengths in the header).
    pub(super) fn page(self, v1: bool) -> Page {
        if v1 {
            let mut buf = Vec::new();
            for section in [self.reps, self.defs].into_iter().flatten() {
                buf.extend(length_prefixed(section));
            }
            buf.extend(self.values);
            return Page::DataPage {
                buf: Bytes::from(buf),
                num_values: self.num_values,
                encoding: self.encoding,
                def_level_encoding: Encoding::RLE,
                rep_level_encoding: Encoding::RLE,
                statistics: None,
            };
        }
        let (reps, defs) = (self.reps.unwrap_or_default(), self.defs.unwrap_or_default());
        let mut buf = reps.to_vec();
        buf.extend_from_slice(defs);
        buf.extend(self.values);
        Page::DataPageV2 {
            buf: Bytes::from(buf),
            num_values: self.num_values,
            encoding: self.encoding,
            num_nulls: self.num_nulls,
            num_rows: self.num_rows,
            def_levels_byte_len: defs.len() as u32,
            rep_levels_byte_len: reps.len() as u32,
            is_compressed: false,
            statistics: None,
        }
    }
}

/// A column chunk of `rows` (a `None` is a null) in pages of random sizes,
/// encodings and versions; a dictionary page first when some page uses it.
fn chunk<V: Values>(rows: &[Option<V>], optional: bool, rng: &mut Rng) -> LoadedColumn {
    let mut dict: Vec<V> = Vec::new();
    for v in rows.iter().flatten() {
        if !dict.contains(v) {
            dict.push(v.clone());
        }
    }
    let mut encodings = V::ENCODINGS.to_vec();
    if V::DICTIONARY {
        encodings.extend([Encoding::RLE_DICTIONARY, Encoding::PLAIN_DICTIONARY]);
    }
    let mut pages = Vec::new();
    let mut uses_dict = false;
    let mut start = 0;
    while start < rows.len() {
        let end = (start + 1 + rng.below(300)).min(rows.len());
        let encoding = encodings[rng.below(encodings.len())];
        uses_dict |= matches!(
            encoding,
            Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY
        );
        pages.push(data_page(&rows[start..end], optional, encoding, &dict, rng));
        start = end;
    }
    if uses_dict {
        let buf = Bytes::from(V::encode(&dict, Encoding::PLAIN));
        let dictionary = Page::DictionaryPage {
            buf,
            num_values: dict.len() as u32,
            encoding: Encoding::PLAIN,
            is_sorted: false,
        };
        pages.insert(0, dictionary);
    }
    let repetition = if optional {
        Repetition::OPTIONAL
    } else {
        Repetition::REQUIRED
    };
    let ty = Type::primitive_type_builder("x", V::PHYSICAL)
        .with_repetition(repetition)
        .build()
        .unwrap();
    let path = ColumnPath::from("x");
    let descr = ColumnDescriptor::new(Arc::new(ty), i16::from(optional), 0, path);
    LoadedColumn::new(0, Arc::new(descr), pages)
}

/// One data page (v1 or v2 at random) of `rows`.
fn data_page<V: Values>(
    rows: &[Option<V>],
    optional: bool,
    encoding: Encoding,
    dict: &[V],
    rng: &mut Rng,
) -> Page {
    let present: Vec<V> = rows.iter().flatten().cloned().collect();
    let values = match encoding {
        Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY => {
            let indices: Vec<u32> = present
                .iter()
                .map(|v| dict.iter().position(|d| d == v).unwrap() as u32)
                .collect();
            let width = 32 - (dict.len().saturating_sub(1) as u32).leading_zeros();
            let mut section = vec![width as u8];
            rle(&indices, width, &mut section);
            section
        }
        other => V::encode(&present, other),
    };
    let mut levels = Vec::new();
    if optional {
        let defs: Vec<u32> = rows.iter().map(|r| u32::from(r.is_some())).collect();
        rle(&defs, 1, &mut levels);
    }
    let num_values = rows.len() as u32;
    let v1 = rng.below(2) == 0;
    Sections {
        reps: None,
        defs: optional.then_some(&levels[..]),
        values,
        encoding,
        num_values,
        num_nulls: rows.iter().filter(|r| r.is_none()).count() as u32,
        num_rows: num_values,
    }
    .page(v1)
}

/// Random rows, with nulls when `optional` (some pages all null, some none).
fn rows<V: Values>(n: usize, optional: bool, rng: &mut Rng) -> Vec<Option<V>> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let stretch = (1 + rng.below(200)).min(n - out.len());
        let nulls = if optional { rng.below(4) } else { 0 };
        for _ in 0..stretch {
            let null = match nulls {
                0 => false,
                1 => true,
                _ => rng.below(nulls) == 0,
            };
            out.push((!null).then(|| V::random(rng)));
        }
    }
    out
}

/// Reads `n` rows as `Option`s (into a buffer).
fn read<'p, P: Physical, T>(
    reader: &mut ColumnReader<'p, P>,
    n: usize,
    owned: impl Fn(P::Value<'p>) -> T,
) -> Result<Vec<Option<T>>> {
    let mut out = Vec::new();
    let mut decode = Convert(|v, _: &ColumnContext| Ok(owned(v)));
    reader.read_with(n, &mut decode, &mut Optionals::new(&mut out))?;
    Ok(out)
}

/// A row that is its field.
fn itself<T>(row: &mut T) -> &mut T {
    row
}

/// How `String` fields stream DELTA_BYTE_ARRAY values.
type CopyFn<'p, V> = fn(&mut Incremental<'p>) -> Result<V, DecodeError>;

/// Reads after skips against a full read, for one column chunk.
/// `copy`, when given, streams DELTA_BYTE_ARRAY values into rows the way
/// `String` fields do.
fn check_skip_rows<'p, P: Physical, V: Values>(
    column: &'p LoadedColumn,
    expected: &[Option<V>],
    owned: impl Fn(P::Value<'p>) -> V + Copy,
    copy: Option<CopyFn<'p, V>>,
    rng: &mut Rng,
) {
    let total = expected.len();
    let open = || ColumnReader::<P>::new(column, 0).unwrap();
    let mut reader = open();
    assert_eq!(
        read(&mut reader, total, owned).unwrap(),
        expected,
        "full read"
    );
    reader.finish().unwrap();

    let mut cuts = vec![0, 1, total - 1, total];
    cuts.extend((0..8).map(|_| rng.below(total + 1)));
    for k in cuts {
        let mut reader = open();
        reader.skip_rows(k).unwrap();
        let tail = read(&mut reader, total - k, owned).unwrap();
        assert_eq!(tail, &expected[k..], "read after skip_rows({k})");
        reader.finish().unwrap();
        assert!(reader.skip_rows(1).is_err(), "skip past the chunk");
    }

    // Walks of skips and reads; the reads also go into rows.
    for _ in 0..6 {
        let mut reader = open();
        let mut at = 0;
        while at < total {
            let longest = if rng.below(3) == 0 { 600 } else { 40 };
            let m = (1 + rng.below(longest)).min(total - at);
            match rng.below(4) {
                0 => reader.skip_rows(m).unwrap(),
                1 => assert_eq!(read(&mut reader, m, owned).unwrap(), &expected[at..at + m]),
                step => {
                    let mut rows: Vec<Option<V>> = vec![None; m];
                    let mut sink = Rows::<_, _, Nullable>::new(&mut rows, itself);
                    let convert = |v, _: &ColumnContext| Ok(owned(v));
                    match copy.filter(|_| step == 3) {
                        Some(copy) => {
                            reader.read_with(m, &mut Copied::new(convert, copy), &mut sink)
                        }
                        None => reader.read_with(m, &mut Convert(convert), &mut sink),
                    }
                    .unwrap();
                    assert_eq!(rows, &expected[at..at + m], "rows at {at}");
                }
            }
            at += m;
        }
        reader.finish().unwrap();
    }
    assert!(open().skip_rows(total + 1).is_err(), "skip past the chunk");
}

#[test]
fn skip_rows_then_read_gives_the_tail_of_a_full_read() {
    let mut rng = Rng::new(10);
    for optional in [false, true] {
        for total in [1, 7, 300, 2500] {
            let ints = rows::<i64>(total, optional, &mut rng);
            let column = chunk(&ints, optional, &mut rng);
            check_skip_rows::<Int64, _>(&column, &ints, |v| v, None, &mut rng);

            let texts = rows::<String>(total, optional, &mut rng);
            let column = chunk(&texts, optional, &mut rng);
            let copy: fn(&mut Incremental) -> _ = |values| values.next_text().map(str::to_owned);
            check_skip_rows::<Utf8, _>(&column, &texts, str::to_owned, Some(copy), &mut rng);

            let bools = rows::<bool>(total, optional, &mut rng);
            let column = chunk(&bools, optional, &mut rng);
            check_skip_rows::<Boolean, _>(&column, &bools, |v| v, None, &mut rng);
        }
    }
}

#[test]
fn skipped_nulls_do_not_reach_a_plain_field() {
    let mut rng = Rng::new(11);
    let mut values: Vec<Option<i64>> = vec![None; 50];
    values.extend((0..500).map(|i| Some(i * 3)));
    let column = chunk(&values, true, &mut rng);
    let mut reader = ColumnReader::<Int64>::new(&column, 0).unwrap();
    let mut out = Vec::new();
    let err = reader.read_with(60, &mut Identity, &mut out).unwrap_err();
    assert!(err.to_string().contains("null at row 0"), "{err}");
    let mut reader = ColumnReader::<Int64>::new(&column, 0).unwrap();
    reader.skip_rows(50).unwrap();
    reader.read_with(500, &mut Identity, &mut out).unwrap();
    assert_eq!(out, (0..500).map(|i| i * 3).collect::<Vec<_>>());
}

#[test]
fn skip_rows_meets_malformed_pages_as_errors() {
    let descr = |optional: bool| {
        let repetition = if optional {
            Repetition::OPTIONAL
        } else {
            Repetition::REQUIRED
        };
        let ty = Type::primitive_type_builder("x", PhysicalType::INT64)
            .with_repetition(repetition)
            .build()
            .unwrap();
        Arc::new(ColumnDescriptor::new(
            Arc::new(ty),
            i16::from(optional),
            0,
            ColumnPath::from("x"),
        ))
    };
    let page = |buf: Vec<u8>, num_values: u32| Page::DataPage {
        buf: Bytes::from(buf),
        num_values,
        encoding: Encoding::PLAIN,
        def_level_encoding: Encoding::RLE,
        rep_level_encoding: Encoding::RLE,
        statistics: None,
    };
    // A page of 100 values with the bytes of 50: a skip that ends inside
    // it opens it and fails; one that covers it does not open it.
    let short = LoadedColumn::new(0, descr(false), vec![page(vec![0; 400], 100)]);
    let mut reader = ColumnReader::<Int64>::new(&short, 0).unwrap();
    assert!(reader.skip_rows(99).is_err());
    let mut reader = ColumnReader::<Int64>::new(&short, 0).unwrap();
    reader.skip_rows(100).unwrap();
    // Definition levels for 8 of 100 values.
    let mut levels = Vec::new();
    rle(&[1; 8], 1, &mut levels);
    let mut buf = length_prefixed(&levels);
    buf.extend([0; 800]);
    let few_levels = LoadedColumn::new(0, descr(true), vec![page(buf, 100)]);
    let mut reader = ColumnReader::<Int64>::new(&few_levels, 0).unwrap();
    let err = reader.skip_rows(50).unwrap_err();
    assert!(err.to_string().contains("fewer definition levels"), "{err}");
    // A nested reader cannot skip rows yet.
    let mut nested = ColumnReader::<Int64>::nested(&short, 0).unwrap();
    assert!(matches!(
        nested.skip_rows(1),
        Err(Error::Unsupported { .. })
    ));
}

/// Where a read puts its values: the read path's four sinks.
#[derive(Clone, Copy, Debug)]
enum Dest {
    Buffer,         // `Vec<T>`
    OptionalBuffer, // `Optionals` (`Vec<Option<T>>`)
    Rows,           // a `T` field of each row
    OptionalRows,   // an `Option<T>` field of each row
}

const DESTS: [Dest; 4] = [
    Dest::Buffer,
    Dest::OptionalBuffer,
    Dest::Rows,
    Dest::OptionalRows,
];

/// Reads the `total` rows of `column` with `decode` into `dest`, in batches
/// of random sizes; the values of a plain destination come back as `Some`.
fn read_all<'p, P: Physical, S, D>(
    column: &'p LoadedColumn,
    total: usize,
    decode: &mut D,
    dest: Dest,
    placeholder: &D::Value,
    rng: &mut Rng,
) -> Result<Vec<Option<D::Value>>>
where
    D: Decode<'p, P, S>,
    D::Value: Clone,
{
    let mut reader = ColumnReader::<P, S>::new(column, 0)?;
    let mut out = Vec::with_capacity(total);
    let mut at = 0;
    while at < total {
        let m = (1 + rng.below(400)).min(total - at);
        match dest {
            Dest::Buffer => {
                let mut buffer = Vec::new();
                reader.read_with(m, decode, &mut buffer)?;
                out.extend(buffer.into_iter().map(Some));
            }
            Dest::OptionalBuffer => {
                // The values go after what the buffer holds.
                let mut buffer = vec![Some(placeholder.clone())];
                reader.read_with(m, decode, &mut Optionals::new(&mut buffer))?;
                assert_eq!(buffer.len(), m + 1, "values appended");
                out.extend(buffer.into_iter().skip(1));
            }
            Dest::Rows => {
                let mut rows = vec![placeholder.clone(); m];
                reader.read_with(
                    m,
                    decode,
                    &mut Rows::<_, _, NotNull>::new(&mut rows, itself),
                )?;
                out.extend(rows.into_iter().map(Some));
            }
            Dest::OptionalRows => {
                let mut rows = vec![None; m];
                reader.read_with(
                    m,
                    decode,
                    &mut Rows::<_, _, Nullable>::new(&mut rows, itself),
                )?;
                out.extend(rows);
            }
        }
        at += m;
    }
    reader.finish()?;
    Ok(out)
}

/// Reads `column` into each destination and compares with `expected`: the
/// values, or for a plain destination and a null, the error naming its row.
fn check_dests<'p, P: Physical, S, D>(
    column: &'p LoadedColumn,
    expected: &[Option<D::Value>],
    mut decode: impl FnMut() -> D,
    placeholder: &D::Value,
    rng: &mut Rng,
) where
    D: Decode<'p, P, S>,
    D::Value: Clone + PartialEq + std::fmt::Debug,
{
    let first_null = expected.iter().position(Option::is_none);
    for dest in DESTS {
        let got = read_all::<P, S, D>(
            column,
            expected.len(),
            &mut decode(),
            dest,
            placeholder,
            rng,
        );
        match (dest, first_null) {
            (Dest::Buffer | Dest::Rows, Some(row)) => {
                let err = got.unwrap_err().to_string();
                let null = format!("null at row {row} of the row group");
                assert!(err.contains(&null), "{dest:?}: {err}");
                assert!(err.contains("use `Option<T>`"), "{dest:?}: {err}");
            }
            _ => assert_eq!(got.unwrap(), expected, "{dest:?}"),
        }
    }
}

#[test]
fn every_conversion_into_every_destination_gives_the_rows_written() {
    let mut rng = Rng::new(12);
    for optional in [false, true] {
        for total in [1, 900, 2500] {
            let ints = rows::<i64>(total, optional, &mut rng);
            let column = chunk(&ints, optional, &mut rng);
            check_dests::<Int64, (), _>(&column, &ints, || Identity, &0, &mut rng);
            let shifted: Vec<Option<u64>> =
                ints.iter().map(|v| v.map(|v| (v + 7) as u64)).collect();
            let to_u64 =
                |v: i64, _: &ColumnContext| u64::try_from(v + 7).map_err(|e| e.to_string());
            check_dests::<Int64, (), _>(&column, &shifted, || Convert(to_u64), &0, &mut rng);

            let texts = rows::<String>(total, optional, &mut rng);
            let column = chunk(&texts, optional, &mut rng);
            let strs: Vec<Option<&str>> = texts.iter().map(Option::as_deref).collect();
            check_dests::<Utf8, (), _>(&column, &strs, || Identity, &"", &mut rng);
            let owned = |v: &str, _: &ColumnContext| Ok(v.to_owned());
            let empty = String::new();
            check_dests::<Utf8, (), _>(&column, &texts, || Convert(owned), &empty, &mut rng);
            let copy = |values: &mut Incremental| values.next_text().map(str::to_owned);
            let copied = || Copied::new(owned, copy);
            check_dests::<Utf8, (), _>(&column, &texts, copied, &empty, &mut rng);
            let arcs: Vec<Option<Arc<str>>> =
                texts.iter().map(|t| t.as_deref().map(Arc::from)).collect();
            let shared = || Shared(|v: &str, _: &ColumnContext| Ok(Arc::<str>::from(v)));
            check_dests::<Utf8, Arc<str>, _>(&column, &arcs, shared, &Arc::from(""), &mut rng);
            let bytes: Vec<Option<Bytes>> =
                texts.iter().map(|t| t.clone().map(Bytes::from)).collect();
            check_dests::<ByteArray, (), _>(
                &column,
                &bytes,
                || ShareBytes,
                &Bytes::new(),
                &mut rng,
            );

            let bools = rows::<bool>(total, optional, &mut rng);
            let column = chunk(&bools, optional, &mut rng);
            check_dests::<Boolean, (), _>(&column, &bools, || Identity, &false, &mut rng);
        }
    }
}

#[test]
fn a_failed_conversion_is_the_error_of_the_read() {
    let mut rng = Rng::new(13);
    let ints = rows::<i64>(2000, false, &mut rng);
    assert!(ints.iter().flatten().any(|&v| v > 40_000_000));
    let column = chunk(&ints, false, &mut rng);
    let small = |v: i64, _: &ColumnContext| {
        if v > 40_000_000 {
            Err(format!("{v} is too big"))
        } else {
            Ok(v)
        }
    };
    for dest in DESTS {
        let got = read_all::<Int64, (), _>(&column, 2000, &mut Convert(small), dest, &0, &mut rng);
        let err = got.unwrap_err().to_string();
        assert!(err.contains("is too big"), "{dest:?}: {err}");
    }
}

#[test]
fn a_shared_conversion_runs_once_per_dictionary_entry() {
    let mut rng = Rng::new(14);
    let texts = rows::<String>(2500, true, &mut rng);
    let column = chunk(&texts, true, &mut rng);
    let calls = std::cell::Cell::new(0);
    let mut shared = Shared(|v: &str, _: &ColumnContext| {
        calls.set(calls.get() + 1);
        Ok(Arc::<str>::from(v))
    });
    let got = read_all::<Utf8, Arc<str>, _>(
        &column,
        2500,
        &mut shared,
        Dest::OptionalRows,
        &Arc::from(""),
        &mut rng,
    )
    .unwrap();
    let non_null = texts.iter().flatten().count();
    assert_eq!(got.iter().flatten().count(), non_null);
    assert!(
        calls.get() < non_null,
        "{} conversions of {non_null} values",
        calls.get()
    );
    // Equal values from dictionary pages are one allocation.
    let distinct: std::collections::HashSet<*const u8> =
        got.iter().flatten().map(|s| s.as_ptr()).collect();
    assert!(distinct.len() < non_null);
}
