//! One table of (field type, column) cases, each judged twice:
//!
//! - as the derive judges it at compile time: the field type's tokens go
//!   through `parquet_rows_rules::recognize` (the derive's syntactic type to
//!   kind mapping), the column through the rules crate's own schema-text
//!   parser, and `Schema::bind` gives the verdict;
//! - as the runtime judges it when a file is opened: the field type's
//!   `ParquetNode::shape`, the column through the `parquet`
//!   crate's parser and `SchemaDescriptor`, and `bind::bind` gives the verdict.
//!
//! The two verdicts (including the texts of what was expected, what was found
//! and what to use instead) must be identical, and must be what the table says.
//! The derive's end of this is exercised for real by the trybuild cases in
//! `derive-tests/tests/ui/`.

use std::fmt::Write as _;
use std::sync::Arc;

use parquet::schema::parser::parse_message_type;
use parquet::schema::types::SchemaDescriptor;
use parquet_rows_rules as rules;

use crate::bind::{bind, Fields, MismatchKind};
use crate::nested::ParquetNode;
use crate::nested::{FieldSpec, Shape};

struct Case {
    ty: &'static str,
    kind: rules::FieldKind,
    nullable: bool,
    column: &'static str,
    ok: bool,
}

/// `cases![ty => "REPETITION TYPE c (ANNOTATION)", ok | no; ...]`
macro_rules! cases {
    ($($ty:ty => $column:literal, $verdict:ident;)*) => {
        vec![$(Case {
            ty: stringify!($ty),
            kind: <$ty as ParquetNode<'static>>::shape().flat().expect("a leaf type").0,
            nullable: <$ty as ParquetNode<'static>>::shape().flat().expect("a leaf type").1,
            column: $column,
            ok: cases!(@ $verdict),
        }),*]
    };
    (@ ok) => { true };
    (@ no) => { false };
}

fn table() -> Vec<Case> {
    cases![
        bool => "REQUIRED BOOLEAN c", ok;
        bool => "REQUIRED INT32 c", no;
        i8 => "REQUIRED INT32 c (INTEGER(8, true))", ok;
        i8 => "REQUIRED INT32 c (INT_8)", ok;
        i8 => "REQUIRED INT32 c", no;
        i8 => "REQUIRED INT32 c (INTEGER(8, false))", no;
        i16 => "REQUIRED INT32 c (INTEGER(8, false))", ok;
        i16 => "REQUIRED INT32 c (INTEGER(16, false))", no;
        i32 => "REQUIRED INT32 c", ok;
        i32 => "REQUIRED INT32 c (UINT_16)", ok;
        i32 => "REQUIRED INT32 c (INTEGER(32, false))", no;
        i32 => "REQUIRED INT32 c (DATE)", ok;
        i32 => "REQUIRED INT32 c (TIME(MILLIS, true))", ok;
        i32 => "REQUIRED INT64 c", no;
        i32 => "REQUIRED BINARY c (UTF8)", no;
        i64 => "REQUIRED INT64 c", ok;
        i64 => "REQUIRED INT32 c", ok;
        i64 => "REQUIRED INT32 c (DATE)", ok;
        i64 => "REQUIRED INT64 c (TIMESTAMP(MICROS, true))", ok;
        i64 => "REQUIRED INT64 c (TIMESTAMP_MILLIS)", ok;
        i64 => "REQUIRED INT64 c (TIME(NANOS, false))", ok;
        i64 => "REQUIRED INT64 c (INTEGER(64, false))", no;
        i64 => "REQUIRED INT96 c", no;
        i64 => "REQUIRED DOUBLE c", no;
        u8 => "REQUIRED INT32 c (UINT_8)", ok;
        u8 => "REQUIRED INT32 c", no;
        u16 => "REQUIRED INT32 c (INTEGER(8, false))", ok;
        u16 => "REQUIRED INT32 c (INTEGER(16, true))", no;
        u32 => "REQUIRED INT32 c (UINT_32)", ok;
        u32 => "REQUIRED INT32 c", no;
        u64 => "REQUIRED INT64 c (UINT_64)", ok;
        u64 => "REQUIRED INT32 c (UINT_32)", ok;
        u64 => "REQUIRED INT64 c", no;
        f32 => "REQUIRED FLOAT c", ok;
        f32 => "REQUIRED DOUBLE c", no;
        f64 => "REQUIRED DOUBLE c", ok;
        f64 => "REQUIRED FLOAT c", ok;
        f64 => "REQUIRED INT64 c", no;
        &'static str => "REQUIRED BINARY c (UTF8)", ok;
        &'static str => "REQUIRED BINARY c (STRING)", ok;
        &'static str => "REQUIRED BINARY c (ENUM)", ok;
        &'static str => "REQUIRED BINARY c (JSON)", ok;
        &'static str => "REQUIRED BINARY c", no;
        &'static str => "REQUIRED BINARY c (BSON)", no;
        &'static str => "REQUIRED FIXED_LEN_BYTE_ARRAY(16) c", no;
        &'static str => "REQUIRED INT32 c", no;
        String => "REQUIRED BINARY c (UTF8)", ok;
        String => "REQUIRED BINARY c", no;
        Box<str> => "REQUIRED BINARY c (STRING)", ok;
        Arc<str> => "REQUIRED BINARY c (UTF8)", ok;
        Arc<str> => "REQUIRED DOUBLE c", no;
        &'static [u8] => "REQUIRED BINARY c", ok;
        &'static [u8] => "REQUIRED BINARY c (UTF8)", ok;
        &'static [u8] => "REQUIRED FIXED_LEN_BYTE_ARRAY(4) c", ok;
        &'static [u8] => "REQUIRED INT32 c", no;
        Vec<u8> => "REQUIRED BINARY c", ok;
        Vec<u8> => "REQUIRED DOUBLE c", no;
        bytes::Bytes => "REQUIRED BINARY c", ok;
        bytes::Bytes => "REQUIRED BOOLEAN c", no;
        [u8; 16] => "REQUIRED FIXED_LEN_BYTE_ARRAY(16) c", ok;
        [u8; 16] => "REQUIRED FIXED_LEN_BYTE_ARRAY(16) c (UUID)", ok;
        [u8; 16] => "REQUIRED FIXED_LEN_BYTE_ARRAY(8) c", no;
        [u8; 16] => "REQUIRED BINARY c", no;
        crate::Timestamp => "REQUIRED INT64 c (TIMESTAMP(MILLIS, false))", ok;
        crate::Timestamp => "REQUIRED INT96 c", ok;
        crate::Timestamp => "REQUIRED INT64 c", no;
        crate::Date => "REQUIRED INT32 c (DATE)", ok;
        crate::Date => "REQUIRED INT32 c", no;
        crate::Time => "REQUIRED INT32 c (TIME(MILLIS, true))", ok;
        crate::Time => "REQUIRED INT64 c (TIME(MICROS, false))", ok;
        crate::Time => "REQUIRED INT64 c", no;
        crate::Int96 => "REQUIRED INT96 c", ok;
        crate::Int96 => "REQUIRED INT64 c (TIMESTAMP(NANOS, false))", no;
        crate::Decimal => "REQUIRED INT32 c (DECIMAL(9, 2))", ok;
        crate::Decimal => "REQUIRED FIXED_LEN_BYTE_ARRAY(16) c (DECIMAL(38, 4))", ok;
        crate::Decimal => "REQUIRED BINARY c (DECIMAL(40, 2))", ok;
        crate::Decimal => "REQUIRED DOUBLE c", no;
        i128 => "REQUIRED INT64 c (DECIMAL(18, 0))", ok;
        i128 => "REQUIRED INT64 c", no;
        Option<i32> => "OPTIONAL INT32 c", ok;
        Option<i32> => "REQUIRED INT32 c", ok;
        Option<i32> => "OPTIONAL INT64 c", no;
        i32 => "OPTIONAL INT32 c", ok;
        String => "OPTIONAL BINARY c (UTF8)", ok;
        String => "OPTIONAL INT32 c", no;
        Option<&'static str> => "OPTIONAL BINARY c (UTF8)", ok;
        Option<&'static str> => "OPTIONAL BINARY c", no;
        Option<Option<i32>> => "OPTIONAL INT32 c", no;
        Option<i32> => "OPTIONAL INT32 c (UNKNOWN)", ok;
        Option<&'static [u8]> => "OPTIONAL BINARY c (UNKNOWN)", ok;
        Option<f64> => "OPTIONAL INT32 c (UNKNOWN)", no;
        f64 => "REPEATED DOUBLE c", no;
        Option<f64> => "OPTIONAL group c { REQUIRED DOUBLE x; }", no;
    ]
}

/// The verdict as one comparable line.
fn verdict(problem: Option<MismatchKind>) -> String {
    match problem {
        None => "ok".to_owned(),
        Some(MismatchKind::WrongType {
            expected,
            found,
            suggestion,
        }) => format!("wrong type: found {found}, reads {expected}, use {suggestion:?}"),
        Some(MismatchKind::Nullable { found }) => format!("nullable: found {found}"),
        Some(MismatchKind::Nested { found, hint }) => format!("nested: found {found}; {hint}"),
        Some(MismatchKind::MissingColumn { closest, available }) => {
            format!("missing: closest {closest:?} of {available:?}")
        }
        Some(MismatchKind::Ambiguous { count, nth }) => format!("ambiguous: {count}, {nth:?}"),
    }
}

/// The shape of a leaf field type of `kind`, or of `Option` of it.
fn leaf_shape(kind: rules::FieldKind, nullable: bool) -> Shape {
    let leaf = Shape::Leaf {
        kind,
        rust_type: "",
    };
    if nullable {
        Shape::Option(Box::new(leaf))
    } else {
        leaf
    }
}

fn compile_time(schema_text: &str, column: &str, ty: &str) -> (rules::Field, String) {
    let schema = rules::parse(schema_text).expect("the rules' parser reads the schema");
    // The derive passes the crate path of `#[parquet(crate = "...")]`; the
    // table's crate types are written `crate::X`, as with `crate = "crate"`.
    let field = rules::recognize(ty, "crate");
    let problem = schema
        .bind(column, field)
        .err()
        .map(|p| MismatchKind::from_problem(p, &schema));
    (field, verdict(problem))
}

fn run_time(schema_text: &str, spec: FieldSpec) -> String {
    let schema = parse_message_type(schema_text).expect("parquet's parser reads the schema");
    let descr = SchemaDescriptor::new(Arc::new(schema));
    let fields = Fields {
        specs: vec![spec],
        declared_schema: None,
    };
    let problem = bind("Row", &fields, &descr)
        .err()
        .map(|mut e| e.mismatches.remove(0).kind);
    verdict(problem)
}

#[test]
fn compile_time_and_run_time_verdicts_are_identical() {
    check_table(table());
}

/// The field types of the optional integrations (`--all-features`).
#[cfg(all(
    feature = "chrono",
    feature = "rust_decimal",
    feature = "half",
    feature = "uuid"
))]
#[test]
fn feature_types_verdicts_are_identical() {
    check_table(cases![
        chrono::DateTime<chrono::Utc> => "REQUIRED INT64 c (TIMESTAMP(MICROS, true))", ok;
        chrono::DateTime<chrono::Utc> => "REQUIRED INT96 c", ok;
        chrono::DateTime<chrono::Utc> => "REQUIRED INT64 c (TIMESTAMP(MICROS, false))", no;
        chrono::NaiveDateTime => "REQUIRED INT64 c (TIMESTAMP(MICROS, false))", ok;
        chrono::NaiveDate => "REQUIRED INT32 c (DATE)", ok;
        chrono::NaiveDate => "REQUIRED INT64 c", no;
        chrono::NaiveTime => "REQUIRED INT64 c (TIME(NANOS, false))", ok;
        rust_decimal::Decimal => "REQUIRED INT64 c (DECIMAL(18, 4))", ok;
        rust_decimal::Decimal => "REQUIRED BINARY c (DECIMAL(40, 30))", no;
        half::f16 => "REQUIRED FIXED_LEN_BYTE_ARRAY(2) c (FLOAT16)", ok;
        half::f16 => "REQUIRED FIXED_LEN_BYTE_ARRAY(2) c", no;
        uuid::Uuid => "REQUIRED FIXED_LEN_BYTE_ARRAY(16) c (UUID)", ok;
        uuid::Uuid => "REQUIRED FIXED_LEN_BYTE_ARRAY(16) c", ok;
        Option<uuid::Uuid> => "OPTIONAL FIXED_LEN_BYTE_ARRAY(8) c", no;
    ]);
}

fn check_table(cases: Vec<Case>) {
    let mut report = String::new();
    for case in cases {
        let text = if case.column.ends_with('}') {
            format!("message m {{ {} }}", case.column)
        } else {
            format!("message m {{ {}; }}", case.column)
        };
        let (field, at_compile_time) = compile_time(&text, "c", case.ty);
        assert_eq!(
            field,
            rules::Field::known(case.kind, case.nullable),
            "the derive recognises `{}` as the type it is",
            case.ty
        );
        let at_run_time = run_time(
            &text,
            FieldSpec {
                field: "c",
                column: "c",
                rust_type: case.ty,
                shape: leaf_shape(case.kind, case.nullable),
                nth: None,
            },
        );
        assert_eq!(
            at_compile_time, at_run_time,
            "`{}` on `{}`: the derive and the binder disagree",
            case.ty, case.column
        );
        assert_eq!(
            at_run_time == "ok",
            case.ok,
            "`{}` on `{}`: {at_run_time}",
            case.ty,
            case.column
        );
        let _ = writeln!(report, "{:<22} {:<55} {at_run_time}", case.ty, case.column);
    }
    println!("{report}");
}

#[test]
fn missing_columns_suggest_the_same_name() {
    let text = "message m { REQUIRED INT64 ts; REQUIRED BINARY symbol (UTF8); REQUIRED DOUBLE bid_price; REQUIRED DOUBLE Ask; }";
    for wanted in ["ask", "bidprice", "symbl", "venue", "TS", "t"] {
        let (_, at_compile_time) = compile_time(text, wanted, "f64");
        let at_run_time = run_time(
            text,
            FieldSpec {
                field: "x",
                column: wanted,
                rust_type: "f64",
                shape: leaf_shape(rules::FieldKind::F64, false),
                nth: None,
            },
        );
        assert_eq!(at_compile_time, at_run_time, "column `{wanted}`");
        assert!(at_run_time.starts_with("missing"), "{at_run_time}");
    }
}

/// The derive's footer reader (`schema_file`) and `parquet`'s footer reader
/// see the same schema in a file `parquet` wrote.
#[test]
fn footer_reader_agrees_with_parquet() {
    use parquet::file::properties::WriterProperties;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::file::writer::SerializedFileWriter;

    let text = "message spark_schema {
        REQUIRED INT64 ts (TIMESTAMP(MICROS, true));
        OPTIONAL INT64 local (TIMESTAMP(NANOS, false));
        REQUIRED INT64 legacy (TIMESTAMP_MILLIS);
        REQUIRED BINARY symbol (UTF8);
        OPTIONAL BINARY s2 (STRING);
        REQUIRED INT32 small (INTEGER(8, false));
        REQUIRED INT32 day (DATE);
        REQUIRED INT32 t (TIME(MILLIS, true));
        REQUIRED FIXED_LEN_BYTE_ARRAY(16) id (UUID);
        REQUIRED FIXED_LEN_BYTE_ARRAY(9) d (DECIMAL(20, 4));
        REQUIRED INT64 d2 (DECIMAL(12, 3));
        REQUIRED FIXED_LEN_BYTE_ARRAY(2) h (FLOAT16);
        OPTIONAL group tags (LIST) { REPEATED group list { OPTIONAL BINARY element (UTF8); } }
        REQUIRED INT96 old;
        REQUIRED BOOLEAN flag = 42;
        REQUIRED FLOAT f;
        REQUIRED DOUBLE bid;
    }";
    let schema = Arc::new(parse_message_type(text).unwrap());
    let mut file = Vec::new();
    SerializedFileWriter::new(&mut file, schema, Arc::new(WriterProperties::default()))
        .unwrap()
        .close()
        .unwrap();
    let reader = SerializedFileReader::new(bytes::Bytes::from(file.clone())).unwrap();
    let by_parquet = crate::schema_rules::schema(reader.metadata().file_metadata().schema_descr());
    let by_footer_reader = rules::read_schema(&file).unwrap();
    assert_eq!(by_footer_reader, by_parquet);
    // And the text the derive stores for `schema_file` parses back to it.
    assert_eq!(
        rules::parse(&by_footer_reader.to_string()).unwrap(),
        by_parquet
    );
    // As does the text itself.
    assert_eq!(rules::parse(text).unwrap(), by_parquet);
}
