//! The bridge from the `parquet` crate's schema types to the model of the
//! shared rules (`parquet-rows-rules`), which decide what each field type
//! reads. The derive runs the same rules at compile time on a declared schema.

use parquet::basic::{ConvertedType, LogicalType, Repetition, TimeUnit, Type as PhysicalType};
use parquet::schema::types::{ColumnDescriptor, SchemaDescriptor, Type};
use parquet_rows_rules as rules;

use crate::types::Unit;

/// The rules' model of a leaf column.
pub(crate) fn column(descr: &ColumnDescriptor) -> rules::Column {
    let info = descr.self_type().get_basic_info();
    rules::Column {
        physical: physical(descr.physical_type()),
        length: descr.type_length(),
        repetition: repetition(info.has_repetition().then(|| info.repetition())),
        logical: descr.logical_type_ref().map(logical),
        converted: converted(descr.converted_type()),
        precision: descr.type_precision(),
        scale: descr.type_scale(),
    }
}

/// The rules' model of a whole schema.
pub(crate) fn schema(descr: &SchemaDescriptor) -> rules::Schema {
    let root = descr.root_schema();
    rules::Schema {
        name: root.name().to_owned(),
        fields: root.get_fields().iter().map(|t| node(t)).collect(),
    }
}

fn node(t: &Type) -> rules::Node {
    let info = t.get_basic_info();
    let name = info.name().to_owned();
    let id = info.has_id().then(|| info.id());
    let rep = repetition(info.has_repetition().then(|| info.repetition()));
    match t {
        Type::PrimitiveType {
            physical_type,
            type_length,
            scale,
            precision,
            ..
        } => rules::Node::Primitive {
            name,
            column: rules::Column {
                physical: physical(*physical_type),
                length: *type_length,
                repetition: rep,
                logical: info.logical_type_ref().map(logical),
                converted: converted(info.converted_type()),
                precision: *precision,
                scale: *scale,
            },
            id,
        },
        Type::GroupType { fields, .. } => rules::Node::Group {
            name,
            repetition: rep,
            logical: info.logical_type_ref().map(logical),
            converted: converted(info.converted_type()),
            id,
            fields: fields.iter().map(|t| node(t)).collect(),
        },
    }
}

/// Whether the column is annotated as an unsigned integer.
pub(crate) fn is_unsigned(descr: &ColumnDescriptor) -> bool {
    column(descr).is_unsigned()
}

/// The width and signedness of an INT32 column annotated INT(8|16, _)
/// (`INT_8`, `UINT_16`, ...): its values are read from that many low bits.
pub(crate) fn narrow_int32(descr: &ColumnDescriptor) -> Option<(u8, bool)> {
    column(descr).narrow_int32()
}

fn physical(t: PhysicalType) -> rules::Physical {
    match t {
        PhysicalType::BOOLEAN => rules::Physical::Boolean,
        PhysicalType::INT32 => rules::Physical::Int32,
        PhysicalType::INT64 => rules::Physical::Int64,
        PhysicalType::INT96 => rules::Physical::Int96,
        PhysicalType::FLOAT => rules::Physical::Float,
        PhysicalType::DOUBLE => rules::Physical::Double,
        PhysicalType::BYTE_ARRAY => rules::Physical::ByteArray,
        PhysicalType::FIXED_LEN_BYTE_ARRAY => rules::Physical::FixedLenByteArray,
    }
}

/// A missing repetition (only the root has none) counts as REQUIRED.
fn repetition(r: Option<Repetition>) -> rules::Repetition {
    match r {
        Some(Repetition::OPTIONAL) => rules::Repetition::Optional,
        Some(Repetition::REPEATED) => rules::Repetition::Repeated,
        Some(Repetition::REQUIRED) | None => rules::Repetition::Required,
    }
}

fn unit(u: TimeUnit) -> rules::TimeUnit {
    match u {
        TimeUnit::MILLIS => rules::TimeUnit::Millis,
        TimeUnit::MICROS => rules::TimeUnit::Micros,
        TimeUnit::NANOS => rules::TimeUnit::Nanos,
    }
}

fn logical(l: &LogicalType) -> rules::Logical {
    match l {
        LogicalType::String => rules::Logical::String,
        LogicalType::Map => rules::Logical::Map,
        LogicalType::List => rules::Logical::List,
        LogicalType::Enum => rules::Logical::Enum,
        LogicalType::Decimal(d) => rules::Logical::Decimal {
            precision: d.precision,
            scale: d.scale,
        },
        LogicalType::Date => rules::Logical::Date,
        LogicalType::Time(t) => rules::Logical::Time {
            unit: unit(t.unit),
            utc: t.is_adjusted_to_u_t_c,
        },
        LogicalType::Timestamp(t) => rules::Logical::Timestamp {
            unit: unit(t.unit),
            utc: t.is_adjusted_to_u_t_c,
        },
        LogicalType::Integer(i) => rules::Logical::Integer {
            bits: i.bit_width,
            signed: i.is_signed,
        },
        LogicalType::Unknown => rules::Logical::Unknown,
        LogicalType::Json => rules::Logical::Json,
        LogicalType::Bson => rules::Logical::Bson,
        LogicalType::Uuid => rules::Logical::Uuid,
        LogicalType::Float16 => rules::Logical::Float16,
        other => rules::Logical::Other(format!("{other:?}").to_uppercase()),
    }
}

fn converted(c: ConvertedType) -> rules::Converted {
    match c {
        ConvertedType::NONE => rules::Converted::None,
        ConvertedType::UTF8 => rules::Converted::Utf8,
        ConvertedType::MAP => rules::Converted::Map,
        ConvertedType::MAP_KEY_VALUE => rules::Converted::MapKeyValue,
        ConvertedType::LIST => rules::Converted::List,
        ConvertedType::ENUM => rules::Converted::Enum,
        ConvertedType::DECIMAL => rules::Converted::Decimal,
        ConvertedType::DATE => rules::Converted::Date,
        ConvertedType::TIME_MILLIS => rules::Converted::TimeMillis,
        ConvertedType::TIME_MICROS => rules::Converted::TimeMicros,
        ConvertedType::TIMESTAMP_MILLIS => rules::Converted::TimestampMillis,
        ConvertedType::TIMESTAMP_MICROS => rules::Converted::TimestampMicros,
        ConvertedType::UINT_8 => rules::Converted::Uint8,
        ConvertedType::UINT_16 => rules::Converted::Uint16,
        ConvertedType::UINT_32 => rules::Converted::Uint32,
        ConvertedType::UINT_64 => rules::Converted::Uint64,
        ConvertedType::INT_8 => rules::Converted::Int8,
        ConvertedType::INT_16 => rules::Converted::Int16,
        ConvertedType::INT_32 => rules::Converted::Int32,
        ConvertedType::INT_64 => rules::Converted::Int64,
        ConvertedType::JSON => rules::Converted::Json,
        ConvertedType::BSON => rules::Converted::Bson,
        ConvertedType::INTERVAL => rules::Converted::Interval,
    }
}

impl From<rules::TimeUnit> for Unit {
    fn from(unit: rules::TimeUnit) -> Self {
        match unit {
            rules::TimeUnit::Millis => Unit::Millis,
            rules::TimeUnit::Micros => Unit::Micros,
            rules::TimeUnit::Nanos => Unit::Nanos,
        }
    }
}
