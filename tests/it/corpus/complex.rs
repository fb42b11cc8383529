//! Nested: Impala's complex types, and only the flat columns of nested files.

use super::*;

// ---------------------------------------------------------------------------
// Nested: Impala's complex types
// ---------------------------------------------------------------------------

/// Impala's nested schema, every level REQUIRED: lists, lists of lists, maps
/// (legacy: the repeated group is `map`, annotated MAP_KEY_VALUE), a list of
/// maps, and a struct of a list, a struct of a list of lists of structs and a
/// map to structs of structs of lists. The names mix cases.
#[derive(ParquetRow)]
struct NonNullableImpala<'a> {
    #[parquet(rename = "ID")]
    id: i64,
    #[parquet(rename = "Int_Array")]
    int_array: Vec<i32>,
    int_array_array: Vec<Vec<i32>>,
    #[parquet(rename = "Int_Map")]
    int_map: Vec<(&'a str, i32)>,
    int_map_array: Vec<Vec<(&'a str, i32)>>,
    #[parquet(rename = "nested_Struct")]
    nested_struct: NonNullableStruct<'a>,
}
#[derive(ParquetRow)]
struct NonNullableStruct<'a> {
    a: i32,
    #[parquet(rename = "B")]
    b: Vec<i32>,
    c: NonNullableC<'a>,
    #[parquet(rename = "G")]
    g: Vec<(&'a str, NonNullableValue)>,
}
#[derive(ParquetRow)]
struct NonNullableC<'a> {
    #[parquet(rename = "D")]
    d: Vec<Vec<NonNullableEf<'a>>>,
}
#[derive(ParquetRow)]
struct NonNullableEf<'a> {
    e: i32,
    f: &'a str,
}
#[derive(ParquetRow)]
struct NonNullableValue {
    h: NonNullableH,
}
#[derive(ParquetRow)]
struct NonNullableH {
    i: Vec<f64>,
}
object_to_json!(NonNullableStruct<'_> { "a" => a, "B" => b, "c" => c, "G" => g });
object_to_json!(NonNullableC<'_> { "D" => d });
object_to_json!(NonNullableEf<'_> { "e" => e, "f" => f });
object_to_json!(NonNullableValue { "h" => h });
object_to_json!(NonNullableH { "i" => i });
corpus_test!(nonnullable_impala, "data/nonnullable.impala", NonNullableImpala, Mode::Exact, {
    "ID" => id,
    "Int_Array" => int_array,
    "int_array_array" => int_array_array,
    "Int_Map" => int_map,
    "int_map_array" => int_map_array,
    "nested_Struct" => nested_struct,
});

/// The maps of `nonnullable.impala` as `HashMap`s and `BTreeMap`s, with owned
/// strings.
#[derive(ParquetRow)]
struct NonNullableImpalaHashed {
    #[parquet(rename = "Int_Map")]
    int_map: HashMap<String, i32>,
    int_map_array: Vec<BTreeMap<String, i64>>, // INT32 widened
}
corpus_test!(nonnullable_impala_as_maps, "data/nonnullable.impala", NonNullableImpalaHashed, Mode::Exact, {
    "Int_Map" => int_map,
    "int_map_array" => int_map_array,
}, MAPS_BY_KEY);

/// The same schema with every level OPTIONAL (keys excepted) and nulls at
/// every level: null lists, null elements, empty lists, null maps and map
/// values, null structs and struct fields.
#[derive(ParquetRow)]
#[allow(clippy::type_complexity)] // the columns' shapes, spelled out
struct NullableImpala<'a> {
    id: Option<i64>,
    int_array: Option<Vec<Option<i32>>>,
    #[parquet(rename = "int_array_Array")]
    int_array_array: Option<Vec<Option<Vec<Option<i32>>>>>,
    int_map: Option<Vec<(&'a str, Option<i32>)>>,
    #[parquet(rename = "int_Map_Array")]
    int_map_array: Option<Vec<Option<Vec<(&'a str, Option<i32>)>>>>,
    nested_struct: Option<NullableStruct<'a>>,
}
#[derive(ParquetRow)]
struct NullableStruct<'a> {
    #[parquet(rename = "A")]
    a: Option<i32>,
    b: Option<Vec<Option<i32>>>,
    #[parquet(rename = "C")]
    c: Option<NullableC<'a>>,
    g: Option<Vec<(&'a str, Option<NullableValue>)>>,
}
#[derive(ParquetRow)]
struct NullableC<'a> {
    d: Option<Vec<Option<Vec<Option<NullableEf<'a>>>>>>,
}
#[derive(ParquetRow)]
struct NullableEf<'a> {
    #[parquet(rename = "E")]
    e: Option<i32>,
    #[parquet(rename = "F")]
    f: Option<&'a str>,
}
#[derive(ParquetRow)]
struct NullableValue {
    #[parquet(rename = "H")]
    h: Option<NullableH>,
}
#[derive(ParquetRow)]
struct NullableH {
    i: Option<Vec<Option<f64>>>,
}
object_to_json!(NullableStruct<'_> { "A" => a, "b" => b, "C" => c, "g" => g });
object_to_json!(NullableC<'_> { "d" => d });
object_to_json!(NullableEf<'_> { "E" => e, "F" => f });
object_to_json!(NullableValue { "H" => h });
object_to_json!(NullableH { "i" => i });
corpus_test!(nullable_impala, "data/nullable.impala", NullableImpala, Mode::Exact, {
    "id" => id,
    "int_array" => int_array,
    "int_array_Array" => int_array_array,
    "int_map" => int_map,
    "int_Map_Array" => int_map_array,
    "nested_struct" => nested_struct,
});

/// The maps of `nullable.impala` as `HashMap`s and `BTreeMap`s (`int_Map_Array`
/// row 1 lists `k3` before `k1`: file order and key order differ), with owned
/// strings.
#[derive(ParquetRow)]
#[allow(clippy::type_complexity)] // the columns' shapes, spelled out
struct NullableImpalaHashed<'a> {
    int_map: Option<HashMap<String, Option<i32>>>,
    #[parquet(rename = "int_Map_Array")]
    int_map_array: Option<Vec<Option<BTreeMap<Box<str>, Option<i32>>>>>,
    nested_struct: Option<NullableStructSorted<'a>>,
}
#[derive(ParquetRow)]
struct NullableStructSorted<'a> {
    #[parquet(rename = "A")]
    a: Option<i32>,
    b: Option<Vec<Option<i32>>>,
    #[parquet(rename = "C")]
    c: Option<NullableC<'a>>,
    g: Option<BTreeMap<&'a str, Option<NullableValue>>>,
}
object_to_json!(NullableStructSorted<'_> { "A" => a, "b" => b, "C" => c, "g" => g });
corpus_test!(nullable_impala_as_maps, "data/nullable.impala", NullableImpalaHashed, Mode::Exact, {
    "int_map" => int_map,
    "int_Map_Array" => int_map_array,
    "nested_struct" => nested_struct,
}, MAPS_BY_KEY);

// ---------------------------------------------------------------------------
// Only the flat columns of nested files
// ---------------------------------------------------------------------------

/// `b` beside a list<list<list<string>>>, which is not bound.
#[derive(ParquetRow)]
struct NestedListsFlat {
    b: i32,
}
corpus_test!(flat_columns_of_nested_lists, "data/nested_lists.snappy", NestedListsFlat, Mode::Exact, {
    "b" => b,
}, SUBSET);

/// `b`, `c` beside a map<string, map<int32, bool>>, which is not bound.
#[derive(ParquetRow)]
struct NestedMapsFlat {
    b: i32,
    c: f64,
}
corpus_test!(flat_columns_of_nested_maps, "data/nested_maps.snappy", NestedMapsFlat, Mode::Exact, {
    "b" => b, "c" => c,
}, SUBSET);

/// Impala's nested schema, all required: `ID` is the one flat column.
#[derive(ParquetRow)]
struct NonNullableImpalaFlat {
    #[parquet(rename = "ID")]
    id: i64,
}
corpus_test!(flat_columns_of_nonnullable_impala, "data/nonnullable.impala", NonNullableImpalaFlat, Mode::Exact, {
    "ID" => id,
}, SUBSET);

/// The nullable twin: `id` is the one flat column.
#[derive(ParquetRow)]
struct NullableImpalaFlat {
    id: Option<i64>,
}
corpus_test!(flat_columns_of_nullable_impala, "data/nullable.impala", NullableImpalaFlat, Mode::Exact, {
    "id" => id,
}, SUBSET);

/// `id` beside a repeated group, which is not bound.
#[derive(ParquetRow)]
struct RepeatedNoAnnotationFlat {
    id: i32,
}
corpus_test!(flat_columns_of_repeated_no_annotation, "data/repeated_no_annotation", RepeatedNoAnnotationFlat, Mode::Exact, {
    "id" => id,
}, SUBSET);
