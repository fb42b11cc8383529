//! What value conversions need to know about a column.

use parquet::schema::types::ColumnDescriptor;

use crate::schema_rules;
use crate::types::Unit;

/// What value conversions need to know about a column, computed once per
/// column chunk: decimal scale and precision, time unit and UTC flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColumnContext {
    /// DECIMAL scale (0 for other columns).
    pub scale: i32,
    /// DECIMAL precision (0 for other columns).
    pub precision: i32,
    /// TIMESTAMP / TIME unit, INT96's nanoseconds.
    pub unit: Option<Unit>,
    /// TIMESTAMP's `isAdjustedToUTC`.
    pub utc: bool,
    /// The integer's bit width and signedness as annotated (`(8, false)` for
    /// `UINT_8`; `(32, true)` for an INT32 without annotation), `None` for
    /// columns that are not integers: narrow integers are read from that many
    /// low bits (see `field::primitive`).
    pub integer: Option<(u8, bool)>,
}

impl ColumnContext {
    /// The context of `column`.
    pub(crate) fn of(column: &ColumnDescriptor) -> Self {
        let model = schema_rules::column(column);
        let (unit, utc) = match (model.timestamp(), model.time_unit()) {
            (Some((unit, utc)), _) => (Some(Unit::from(unit)), utc),
            (None, Some(unit)) => (Some(Unit::from(unit)), false),
            (None, None) => (None, false),
        };
        ColumnContext {
            scale: column.type_scale(),
            precision: column.type_precision(),
            unit,
            utc,
            integer: model.integer(),
        }
    }
}
