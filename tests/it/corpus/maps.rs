//! Nested: maps.

use super::*;

// ---------------------------------------------------------------------------
// Nested: maps
// ---------------------------------------------------------------------------

/// A REQUIRED MAP whose values are all null, a MAP whose key_value group has
/// no value field, and a LIST of the same keys. The key-only map is read as
/// a list: its repeated group `key_value` has one field, not named `array`
/// or `my_map_no_v_tuple`, so by the LIST backward-compatibility rules that
/// field is the element (pyarrow also reads it as `list<key: int32>`).
#[derive(ParquetRow)]
#[allow(clippy::struct_field_names)] // the fields are the file's column names
struct MapNoValue {
    my_map: Vec<(i32, Option<i32>)>,
    my_map_no_v: Vec<i32>,
    my_list: Vec<i32>,
}
corpus_test!(map_no_value, "data/map_no_value", MapNoValue, Mode::Exact, {
    "my_map" => my_map, "my_map_no_v" => my_map_no_v, "my_list" => my_list,
});

/// The map with null values as a `HashMap` and a `BTreeMap`.
#[derive(ParquetRow)]
struct MapNoValueHashed {
    #[parquet(rename = "my_map")]
    hashed: HashMap<i32, Option<i32>>,
}
#[derive(ParquetRow)]
struct MapNoValueSorted {
    #[parquet(rename = "my_map")]
    sorted: BTreeMap<i32, Option<i32>>,
}
corpus_test!(map_no_value_as_hash_map, "data/map_no_value", MapNoValueHashed, Mode::Exact, {
    "my_map" => hashed,
}, MAPS_BY_KEY);
corpus_test!(map_no_value_as_btree_map, "data/map_no_value", MapNoValueSorted, Mode::Exact, {
    "my_map" => sorted,
}, MAPS_BY_KEY);

/// The map with null values as a list of structs: its repeated key_value
/// group has two fields, so by the LIST backward-compatibility rules it is
/// the element, a struct whose JSON is the map entry's. (The key-only map
/// cannot be read as a list of `struct { key }`: its one-field group is not
/// the element, the key is.)
#[derive(ParquetRow)]
struct MapNoValueEntries {
    #[parquet(rename = "my_map")]
    entries: Vec<KeyValue>,
}
#[derive(ParquetRow)]
struct KeyValue {
    key: i32,
    value: Option<i32>,
}
object_to_json!(KeyValue { "key" => key, "value" => value });
corpus_test!(map_no_value_as_list_of_structs, "data/map_no_value", MapNoValueEntries, Mode::Exact, {
    "my_map" => entries,
}, SUBSET);

/// map<string, map<int32, bool>>: an OPTIONAL map whose values are OPTIONAL
/// maps (one null, one empty), beside two flat columns.
#[derive(ParquetRow)]
#[allow(clippy::type_complexity)] // the column's shape, spelled out
struct NestedMaps<'a> {
    a: Option<Vec<(&'a str, Option<Vec<(i32, bool)>>)>>,
    b: i32,
    c: f64,
}
corpus_test!(nested_maps_snappy, "data/nested_maps.snappy", NestedMaps, Mode::Exact, {
    "a" => a, "b" => b, "c" => c,
});

/// The same maps as a `HashMap` of `BTreeMap`s.
#[derive(ParquetRow)]
struct NestedMapsHashed {
    a: Option<HashMap<String, Option<BTreeMap<i32, bool>>>>,
}
corpus_test!(nested_maps_snappy_as_hash_maps, "data/nested_maps.snappy", NestedMapsHashed, Mode::Exact, {
    "a" => a,
}, MAPS_BY_KEY);

/// Presto's MAP with an OPTIONAL key (against the spec; pyarrow refuses it,
/// so there is no expected file). Upstream's README gives the content: one
/// row, `my_map = {name: 'report', parent: 'another'}`, values OPTIONAL too.
/// The file holds `parent` first (as the `parquet` crate's record reader
/// also reads it), so `Vec<(K, V)>` is compared in that order and `HashMap`
/// by key.
#[test]
pub(super) fn incorrect_map_schema() {
    #[derive(ParquetRow)]
    struct IncorrectMapSchema<'a> {
        my_map: Option<Vec<(Option<&'a str>, Option<&'a str>)>>,
    }
    #[derive(ParquetRow)]
    struct IncorrectMapSchemaHashed {
        my_map: Option<HashMap<Option<String>, Option<String>>>,
    }
    let Some(path) = corpus_path("data/incorrect_map_schema") else {
        return;
    };
    let file = "data/incorrect_map_schema";
    let parquet = ParquetFile::open(&path).unwrap_or_else(|e| panic!("{file}: open: {e}"));
    let mut want = vec![serde_json::json!([
        {"key": "parent", "value": "another"},
        {"key": "name", "value": "report"},
    ])];
    assert_eq!(parquet.num_rows(), 1, "{file}: num_rows");

    let pages = parquet
        .load::<IncorrectMapSchema>()
        .unwrap_or_else(|e| panic!("{file}: load: {e}"));
    let rows: Vec<IncorrectMapSchema> =
        pages.rows().unwrap_or_else(|e| panic!("{file}: rows: {e}"));
    let got: Vec<Value> = rows.iter().map(|r| r.my_map.to_json()).collect();
    compare(&format!("{file}: column `my_map`"), &got, &want);

    let mut streamed = Vec::new();
    for group in 0..parquet.num_row_groups() {
        let pages = parquet
            .rows::<IncorrectMapSchema>()
            .row_groups([group])
            .load()
            .unwrap_or_else(|e| panic!("{file}: row group: {e}"));
        let rows: Vec<IncorrectMapSchema> =
            pages.rows().unwrap_or_else(|e| panic!("{file}: rows: {e}"));
        streamed.extend(rows.iter().map(|r| r.my_map.to_json()));
    }
    assert!(
        streamed == got,
        "{file}: row groups one at a time differ from load()"
    );

    let hashed: Vec<Value> = parquet
        .rows::<IncorrectMapSchemaHashed>()
        .collect()
        .unwrap_or_else(|e| panic!("{file}: read as HashMap: {e}"))
        .iter()
        .map(|r| r.my_map.to_json())
        .collect();
    want.iter_mut().for_each(sort_maps);
    compare(
        &format!("{file}: column `my_map` as HashMap"),
        &hashed,
        &want,
    );
}
