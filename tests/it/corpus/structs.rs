//! Nested: structs.

use super::*;

// ---------------------------------------------------------------------------
// Nested: structs
// ---------------------------------------------------------------------------

/// An OPTIONAL group whose one child is null in every row (the group is not).
#[derive(ParquetRow)]
struct NullsSnappy {
    b_struct: Option<BStruct>,
}
#[derive(ParquetRow)]
struct BStruct {
    b_c_int: Option<i32>,
}
object_to_json!(BStruct { "b_c_int" => b_c_int });
corpus_test!(nulls_snappy, "data/nulls.snappy", NullsSnappy, Mode::Exact, {
    "b_struct" => b_struct,
});

/// REQUIRED groups of INT64 statistics (`count` is INT(64, unsigned)).
#[derive(ParquetRow)]
struct IntStats {
    min: i64,
    max: i64,
    mean: i64,
    count: u64,
    sum: i64,
    variance: i64,
}
object_to_json!(IntStats {
    "min" => min, "max" => max, "mean" => mean, "count" => count, "sum" => sum,
    "variance" => variance,
});

/// REQUIRED groups of DOUBLE statistics (`count` is INT(64, unsigned)).
#[derive(ParquetRow)]
struct FloatStats {
    min: f64,
    max: f64,
    mean: f64,
    count: u64,
    sum: f64,
    variance: f64,
}
object_to_json!(FloatStats {
    "min" => min, "max" => max, "mean" => mean, "count" => count, "sum" => sum,
    "variance" => variance,
});

/// A group of TIMESTAMP(MICROS, UTC) statistics, read as [`Timestamp`].
#[derive(ParquetRow)]
struct TimestampStats {
    min: Timestamp,
    max: Timestamp,
    mean: Timestamp,
    count: u64,
    sum: Timestamp,
    variance: Timestamp,
}

/// A TIMESTAMP(MICROS, UTC) as its raw microseconds (the expected notation).
fn utc_micros(t: &Timestamp) -> Value {
    assert_eq!(
        (t.unit, t.utc),
        (Unit::Micros, true),
        "TIMESTAMP(MICROS, UTC) read as Timestamp: unit and UTC flag"
    );
    Value::from(t.value)
}

impl ToJson for TimestampStats {
    fn to_json(&self) -> Value {
        serde_json::json!({
            "min": utc_micros(&self.min),
            "max": utc_micros(&self.max),
            "mean": utc_micros(&self.mean),
            "count": self.count,
            "sum": utc_micros(&self.sum),
            "variance": utc_micros(&self.variance),
        })
    }
}

/// 36 REQUIRED groups of statistics (written by parquet-rs), one row. Their
/// names mix cases, hence the renames.
#[derive(ParquetRow)]
struct NestedStructsRust {
    roll_num: IntStats,
    #[parquet(rename = "PC_CUR")]
    pc_cur: IntStats,
    #[parquet(rename = "CVA_2012")]
    cva_2012: IntStats,
    #[parquet(rename = "CVA_2016")]
    cva_2016: IntStats,
    #[parquet(rename = "BIA_3")]
    bia_3: FloatStats,
    #[parquet(rename = "BIA_4")]
    bia_4: FloatStats,
    #[parquet(rename = "ACTUAL_FRONTAGE")]
    actual_frontage: FloatStats,
    #[parquet(rename = "ACTUAL_DEPTH")]
    actual_depth: FloatStats,
    #[parquet(rename = "ACTUAL_LOT_SIZE")]
    actual_lot_size: FloatStats,
    #[parquet(rename = "GLA")]
    gla: FloatStats,
    #[parquet(rename = "SOURCE_GLA")]
    source_gla: FloatStats,
    #[parquet(rename = "IPS_GLA")]
    ips_gla: FloatStats,
    #[parquet(rename = "GLA_ALL")]
    gla_all: FloatStats,
    bia: IntStats,
    #[parquet(rename = "EFFECTIVE_LOT_SIZE")]
    effective_lot_size: FloatStats,
    effective_lot_area: FloatStats,
    #[parquet(rename = "EFFECTIVE_FRONTAGE")]
    effective_frontage: FloatStats,
    #[parquet(rename = "EFFECTIVE_DEPTH")]
    effective_depth: FloatStats,
    rw_area_tot: FloatStats,
    effective_lot_sqft: FloatStats,
    dup: IntStats,
    #[parquet(rename = "nonCTXT")]
    non_ctxt: IntStats,
    vacantland: IntStats,
    parkingbillboard: IntStats,
    cvalte10: IntStats,
    condootherhotel: IntStats,
    calculated_lot_size: FloatStats,
    calculated_efflot_size: FloatStats,
    missingsite: IntStats,
    missinggla: IntStats,
    missingsitegla: IntStats,
    actual_lot_size_sqft: FloatStats,
    lotsize_sqft: FloatStats,
    count: IntStats,
    ul_observation_date: IntStats, // TIMESTAMP(MICROS) as raw i64
    ul_tz_offset_minutes_ul_observation_date: IntStats,
}
corpus_test!(nested_structs_rust, "data/nested_structs.rust", NestedStructsRust, Mode::Exact, {
    "roll_num" => roll_num,
    "PC_CUR" => pc_cur,
    "CVA_2012" => cva_2012,
    "CVA_2016" => cva_2016,
    "BIA_3" => bia_3,
    "BIA_4" => bia_4,
    "ACTUAL_FRONTAGE" => actual_frontage,
    "ACTUAL_DEPTH" => actual_depth,
    "ACTUAL_LOT_SIZE" => actual_lot_size,
    "GLA" => gla,
    "SOURCE_GLA" => source_gla,
    "IPS_GLA" => ips_gla,
    "GLA_ALL" => gla_all,
    "bia" => bia,
    "EFFECTIVE_LOT_SIZE" => effective_lot_size,
    "effective_lot_area" => effective_lot_area,
    "EFFECTIVE_FRONTAGE" => effective_frontage,
    "EFFECTIVE_DEPTH" => effective_depth,
    "rw_area_tot" => rw_area_tot,
    "effective_lot_sqft" => effective_lot_sqft,
    "dup" => dup,
    "nonCTXT" => non_ctxt,
    "vacantland" => vacantland,
    "parkingbillboard" => parkingbillboard,
    "cvalte10" => cvalte10,
    "condootherhotel" => condootherhotel,
    "calculated_lot_size" => calculated_lot_size,
    "calculated_efflot_size" => calculated_efflot_size,
    "missingsite" => missingsite,
    "missinggla" => missinggla,
    "missingsitegla" => missingsitegla,
    "actual_lot_size_sqft" => actual_lot_size_sqft,
    "lotsize_sqft" => lotsize_sqft,
    "count" => count,
    "ul_observation_date" => ul_observation_date,
    "ul_tz_offset_minutes_ul_observation_date" => ul_tz_offset_minutes_ul_observation_date,
});

/// The timestamp group read as [`Timestamp`], and a group bound under a
/// Rust name of its own.
#[derive(ParquetRow)]
struct NestedStructsTimestamps {
    ul_observation_date: TimestampStats,
    #[parquet(rename = "GLA_ALL")]
    all: FloatStats,
}
corpus_test!(nested_structs_rust_as_timestamp, "data/nested_structs.rust", NestedStructsTimestamps, Mode::Exact, {
    "ul_observation_date" => ul_observation_date,
    "GLA_ALL" => all,
}, SUBSET);
