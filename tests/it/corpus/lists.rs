//! Nested: lists.

use super::*;

// ---------------------------------------------------------------------------
// Nested: lists
// ---------------------------------------------------------------------------

/// OPTIONAL 3-level lists as parquet-cpp writes them (repeated group `list`,
/// element `item`), with a null list and null elements.
#[derive(ParquetRow)]
struct ListColumns<'a> {
    int64_list: Option<Vec<Option<i64>>>,
    utf8_list: Option<Vec<Option<&'a str>>>,
}
corpus_test!(list_columns, "data/list_columns", ListColumns, Mode::Exact, {
    "int64_list" => int64_list, "utf8_list" => utf8_list,
});

/// The same lists with owned strings (`String`, and `Arc<str>` shared per
/// dictionary entry).
#[derive(ParquetRow)]
struct ListColumnsOwned {
    #[parquet(rename = "utf8_list")]
    strings: Option<Vec<Option<String>>>,
}
#[derive(ParquetRow)]
struct ListColumnsShared {
    #[parquet(rename = "utf8_list")]
    shared: Option<Vec<Option<Arc<str>>>>,
}
corpus_test!(list_columns_as_string, "data/list_columns", ListColumnsOwned, Mode::Exact, {
    "utf8_list" => strings,
}, SUBSET);
corpus_test!(list_columns_as_arc_str, "data/list_columns", ListColumnsShared, Mode::Exact, {
    "utf8_list" => shared,
}, SUBSET);

/// `data/null_list.parquet`: one row whose OPTIONAL list is empty (not null).
/// Its elements are INT32 annotated with the Null logical type (UNKNOWN:
/// always null), which `Option<i32>` reads as `None`s.
#[derive(ParquetRow)]
struct NullList {
    emptylist: Option<Vec<Option<i32>>>,
}
corpus_test!(null_list, "data/null_list", NullList, Mode::Exact, {
    "emptylist" => emptylist,
});

/// list<list<list<string>>> with every level OPTIONAL (repetition levels up
/// to 3, definition levels up to 7), and a flat column beside it.
#[derive(ParquetRow)]
#[allow(clippy::type_complexity)] // the column's shape, spelled out
struct NestedLists<'a> {
    a: Option<Vec<Option<Vec<Option<Vec<Option<&'a str>>>>>>>,
    b: i32,
}
corpus_test!(nested_lists_snappy, "data/nested_lists.snappy", NestedLists, Mode::Exact, {
    "a" => a, "b" => b,
});

/// Legacy 2-level list of lists (parquet-avro's old list structure):
/// `required group a (LIST) { repeated group array (LIST) { repeated int32
/// array; } }`. The repeated group has one field named `array`, so it is the
/// element (a list), whose repeated primitive is in turn its element.
#[derive(ParquetRow)]
struct OldListStructure {
    a: Vec<Vec<i32>>,
}
corpus_test!(old_list_structure, "data/old_list_structure", OldListStructure, Mode::Exact, {
    "a" => a,
});

/// REPEATED primitives without LIST annotation, at the top level and in a
/// REQUIRED group: each is a list of REQUIRED elements (an empty one in row 1).
#[derive(ParquetRow)]
struct RepeatedPrimitiveNoList<'a> {
    #[parquet(rename = "Int32_list")]
    int32_list: Vec<i32>,
    #[parquet(rename = "String_list")]
    string_list: Vec<&'a str>,
    group_of_lists: GroupOfLists,
}
#[derive(ParquetRow)]
struct GroupOfLists {
    #[parquet(rename = "Int32_list_in_group")]
    int32_list_in_group: Vec<i64>, // INT32 widened
    #[parquet(rename = "String_list_in_group")]
    string_list_in_group: Vec<String>,
}
object_to_json!(GroupOfLists {
    "Int32_list_in_group" => int32_list_in_group,
    "String_list_in_group" => string_list_in_group,
});
corpus_test!(repeated_primitive_no_list, "data/repeated_primitive_no_list", RepeatedPrimitiveNoList, Mode::Exact, {
    "Int32_list" => int32_list,
    "String_list" => string_list,
    "group_of_lists" => group_of_lists,
});

/// A repeated group without LIST annotation (`phone`, so a list of structs)
/// inside an OPTIONAL group; the footer's num_rows says 0, the row group
/// holds 6 rows.
#[derive(ParquetRow)]
struct RepeatedNoAnnotation<'a> {
    id: i32,
    #[parquet(rename = "phoneNumbers")]
    phone_numbers: Option<PhoneNumbers<'a>>,
}
#[derive(ParquetRow)]
struct PhoneNumbers<'a> {
    phone: Vec<Phone<'a>>,
}
#[derive(ParquetRow)]
pub(super) struct Phone<'a> {
    pub(super) number: i64,
    pub(super) kind: Option<&'a str>,
}
object_to_json!(PhoneNumbers<'_> { "phone" => phone });
object_to_json!(Phone<'_> { "number" => number, "kind" => kind });
corpus_test!(repeated_no_annotation, "data/repeated_no_annotation", RepeatedNoAnnotation, Mode::Exact, {
    "id" => id, "phoneNumbers" => phone_numbers,
});
