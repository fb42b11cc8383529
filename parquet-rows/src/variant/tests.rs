//! Variant encoding: hand-built bytes, round trips through the encoder, and
//! hostile bytes (mutations of valid values) that must be errors, never panics.

use super::*;

/// Metadata of sorted `names`, 1-byte offsets.
fn metadata(names: &[&str]) -> Vec<u8> {
    let mut out = vec![0x11, names.len() as u8, 0];
    let mut end = 0;
    for n in names {
        end += n.len();
        out.push(end as u8);
    }
    for n in names {
        out.extend_from_slice(n.as_bytes());
    }
    out
}

#[test]
fn primitives_by_hand() {
    let m = metadata(&[]);
    let cases: Vec<(Vec<u8>, VariantValue<'static>)> = vec![
        (vec![0x00], VariantValue::Null),
        (vec![0x04], VariantValue::Bool(true)),
        (vec![0x08], VariantValue::Bool(false)),
        (vec![3 << 2, 0xff], VariantValue::Int8(-1)),
        (vec![4 << 2, 0x00, 0x80], VariantValue::Int16(i16::MIN)),
        (vec![5 << 2, 1, 0, 0, 0], VariantValue::Int32(1)),
        (
            [vec![6 << 2], (-5i64).to_le_bytes().to_vec()].concat(),
            VariantValue::Int64(-5),
        ),
        (
            [vec![7 << 2], 2.5f64.to_le_bytes().to_vec()].concat(),
            VariantValue::Double(2.5),
        ),
        (
            [vec![14 << 2], 0.5f32.to_le_bytes().to_vec()].concat(),
            VariantValue::Float(0.5),
        ),
        // decimal4: scale 2, unscaled 325 (0x0145)
        (
            vec![8 << 2, 2, 0x45, 0x01, 0, 0],
            VariantValue::Decimal {
                unscaled: 325,
                scale: 2,
                width: 4,
            },
        ),
        (
            [vec![9 << 2, 1], (-7i64).to_le_bytes().to_vec()].concat(),
            VariantValue::Decimal {
                unscaled: -7,
                scale: 1,
                width: 8,
            },
        ),
        (
            [vec![10 << 2, 0], (i128::MAX).to_le_bytes().to_vec()].concat(),
            VariantValue::Decimal {
                unscaled: i128::MAX,
                scale: 0,
                width: 16,
            },
        ),
        (vec![11 << 2, 0x0c, 0x4d, 0, 0], VariantValue::Date(19724)),
        (
            [vec![12 << 2], 1i64.to_le_bytes().to_vec()].concat(),
            VariantValue::TimestampMicros(1),
        ),
        (
            [vec![13 << 2], 2i64.to_le_bytes().to_vec()].concat(),
            VariantValue::TimestampNtzMicros(2),
        ),
        (
            [vec![17 << 2], 3i64.to_le_bytes().to_vec()].concat(),
            VariantValue::TimeNtzMicros(3),
        ),
        (
            [vec![18 << 2], 4i64.to_le_bytes().to_vec()].concat(),
            VariantValue::TimestampNanos(4),
        ),
        (
            [vec![19 << 2], 5i64.to_le_bytes().to_vec()].concat(),
            VariantValue::TimestampNtzNanos(5),
        ),
        (
            vec![15 << 2, 2, 0, 0, 0, 0xde, 0xad],
            VariantValue::Binary(&[0xde, 0xad]),
        ),
        (
            vec![16 << 2, 2, 0, 0, 0, b'h', b'i'],
            VariantValue::String("hi"),
        ),
        // short string: length 3 in the header
        (
            vec![(3 << 2) | 1, b'a', b'b', b'c'],
            VariantValue::String("abc"),
        ),
        (
            [vec![20 << 2], (0u8..16).collect::<Vec<_>>()].concat(),
            VariantValue::Uuid(core::array::from_fn(|i| i as u8)),
        ),
    ];
    for (bytes, expected) in cases {
        let v = Variant::new(&m, &bytes).unwrap_or_else(|e| panic!("{bytes:?}: {e}"));
        assert_eq!(v.unpack(), expected, "{bytes:?}");
        // One byte short is an error, one byte more too.
        assert!(
            Variant::new(&m, &bytes[..bytes.len() - 1]).is_err(),
            "{bytes:?}"
        );
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Variant::new(&m, &longer).is_err(), "{bytes:?}");
    }
}

#[test]
fn object_and_array_by_hand() {
    // names: a(0) b(1) c(2); object {c: 1i8, a: "x"} with values stored c then a
    let m = metadata(&["a", "b", "c"]);
    let value = vec![
        0x02, // object, 1-byte ids and offsets, not large
        2,    // 2 fields
        0,
        2, // ids in name order: a, c
        2,
        0,
        4, // offsets: a's value at 2, c's at 0, end 4
        3 << 2,
        1, // c: int8 1
        (1 << 2) | 1,
        b'x', // a: "x"
    ];
    let v = Variant::new(&m, &value).unwrap();
    assert_eq!(v.get("a").and_then(|a| a.as_str()), Some("x"));
    assert_eq!(v.get("c").and_then(|c| c.as_i64()), Some(1));
    assert!(v.get("b").is_none());
    let names: Vec<&str> = v.as_object().unwrap().iter().map(|(k, _)| k).collect();
    assert_eq!(names, ["a", "c"]);
    assert_eq!(v.to_json(), r#"{"a":"x","c":1}"#);

    // array [true, null, 7i8]
    let array = vec![0x03, 3, 0, 1, 2, 4, 0x04, 0x00, 3 << 2, 7];
    let a = Variant::new(&m, &array).unwrap();
    assert_eq!(a.as_array().unwrap().len(), 3);
    assert_eq!(a.index(0).and_then(|v| v.as_bool()), Some(true));
    assert!(a.index(1).unwrap().is_null());
    assert_eq!(a.index(2).and_then(|v| v.as_i64()), Some(7));
    assert!(a.index(3).is_none());
    assert_eq!(a.to_json(), "[true,null,7]");
}

#[test]
fn malformed_objects_are_errors() {
    let m = metadata(&["a", "b"]);
    // field ids out of name order
    let unsorted = [0x02, 2, 1, 0, 0, 1, 2, 0x00, 0x00];
    let e = Variant::new(&m, &unsorted).unwrap_err().to_string();
    assert!(e.contains("not sorted"), "{e}");
    // duplicate field
    let twice = [0x02, 2, 0, 0, 0, 1, 2, 0x00, 0x00];
    assert!(Variant::new(&m, &twice).is_err());
    // field id past the dictionary
    let unknown = [0x02, 1, 5, 0, 1, 0x00];
    let e = Variant::new(&m, &unknown).unwrap_err().to_string();
    assert!(e.contains("field id 5"), "{e}");
    // two elements at one offset: overlapping values
    let overlap = [0x03, 2, 0, 0, 2, 3 << 2, 1];
    let e = Variant::new(&m, &overlap).unwrap_err().to_string();
    assert!(e.contains("overlapping"), "{e}");
    // a large array claiming 2^32 - 1 elements in 10 bytes
    let huge = [0x03 | (1 << 4), 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0];
    assert!(Variant::new(&m, &huge).is_err());
    // unknown primitive type
    assert!(Variant::new(&m, &[21 << 2]).is_err());
    // invalid UTF-8 in a short string
    assert!(Variant::new(&m, &[(1 << 2) | 1, 0xff]).is_err());
    // decimal scale 39
    assert!(Variant::new(&m, &[8 << 2, 39, 0, 0, 0, 0]).is_err());
}

#[test]
fn malformed_metadata_is_an_error() {
    for (bytes, what) in [
        (vec![], "empty"),
        (vec![0x02, 0, 0], "version"),
        (vec![0x11, 5, 0, 1], "offsets"),
        (vec![0x11, 1, 0, 2, b'a'], "spans"),
        (vec![0x11, 2, 0, 1, 2, b'b', b'a'], "sorted"),
        (vec![0x01, 1, 0, 1, 0xff], "UTF-8"),
        (vec![0x01, 1, 1, 1, b'a'], "first offset"),
        (vec![0x01, 1, 0, 1, b'a', b'b'], "after them"),
        (vec![0xc1, 0xff, 0xff, 0xff, 0xff], "offsets"),
    ] {
        let e = VariantMetadata::new(&bytes).unwrap_err().to_string();
        assert!(e.contains(what), "{bytes:?}: {e}");
    }
    let unsorted = VariantMetadata::new(&[0x01, 2, 0, 1, 2, b'b', b'a']).unwrap();
    assert_eq!(unsorted.iter().collect::<Vec<_>>(), ["b", "a"]);
}

#[test]
fn depth_is_limited() {
    let m = metadata(&[]);
    let mut value = vec![0x00];
    for _ in 0..MAX_DEPTH {
        let len = value.len();
        let mut outer = vec![0x03 | (1 << 2), 1, 0, 0, len as u8, (len >> 8) as u8];
        outer.extend_from_slice(&value);
        value = outer;
    }
    assert!(Variant::new(&m, &value).is_ok());
    let len = value.len();
    let mut outer = vec![0x03 | (1 << 2), 1, 0, 0, len as u8, (len >> 8) as u8];
    outer.extend_from_slice(&value);
    let e = Variant::new(&m, &outer).unwrap_err().to_string();
    assert!(e.contains("deep"), "{e}");
}

fn sample() -> OwnedValue {
    OwnedValue::Object(vec![
        ("price".into(), OwnedValue::Double(101.25)),
        ("name".into(), OwnedValue::String("a long name ".repeat(10))),
        ("qty".into(), OwnedValue::Int32(-3)),
        (
            "tags".into(),
            OwnedValue::Array(vec![
                OwnedValue::from("fx"),
                OwnedValue::Null,
                OwnedValue::Bool(false),
                OwnedValue::Object(vec![("inner".into(), OwnedValue::Int8(1))]),
            ]),
        ),
        (
            "d".into(),
            OwnedValue::Decimal {
                unscaled: -12345,
                scale: 3,
                width: 8,
            },
        ),
        ("day".into(), OwnedValue::Date(-1)),
        (
            "ts".into(),
            OwnedValue::TimestampMicros(1_704_164_645_123_456),
        ),
        ("bin".into(), OwnedValue::Binary(vec![0, 1, 2, 255])),
        ("id".into(), OwnedValue::Uuid([0x55; 16])),
        ("t".into(), OwnedValue::TimeNtzMicros(3_723_500_000)),
    ])
}

#[test]
fn round_trip_through_the_encoder() {
    let value = sample();
    let owned = OwnedVariant::from_value(&value).unwrap();
    let v = owned.as_variant();
    assert_eq!(v.to_owned_value(), sorted(&value));
    assert_eq!(v.get("qty").and_then(|q| q.as_i64()), Some(-3));
    assert_eq!(v.get("d").and_then(|d| d.as_decimal()), Some((-12345, 3)));
    assert_eq!(
        v.get("tags")
            .and_then(|t| t.index(3))
            .and_then(|o| o.get("inner"))
            .and_then(|i| i.as_i64()),
        Some(1)
    );
    assert_eq!(
        v.to_json(),
        concat!(
            r#"{"bin":"AAEC/w==","d":-12.345,"day":"1969-12-31","id":"55555555-5555-5555-5555-555555555555","#,
            r#""name":"a long name a long name a long name a long name a long name a long name a long name a long name a long name a long name ","#,
            r#""price":101.25,"qty":-3,"t":"01:02:03.5","tags":["fx",null,false,{"inner":1}],"ts":"2024-01-02T03:04:05.123456Z"}"#
        )
    );
    // A large object (more than 255 fields, 2-byte ids and offsets).
    let wide = OwnedValue::Object(
        (0..300)
            .map(|i| (format!("f{i:03}"), OwnedValue::Int64(i)))
            .collect(),
    );
    let owned = OwnedVariant::from_value(&wide).unwrap();
    let v = owned.as_variant();
    assert_eq!(v.as_object().unwrap().len(), 300);
    assert_eq!(v.get("f299").and_then(|f| f.as_i64()), Some(299));
    assert_eq!(v.get("f000").and_then(|f| f.as_i64()), Some(0));
    assert!(v.get("f300").is_none());
    // Duplicate names are refused by the encoder.
    let twice = OwnedValue::Object(vec![
        ("a".into(), OwnedValue::Null),
        ("a".into(), OwnedValue::Null),
    ]);
    assert!(twice.encode().is_err());
}

/// `value` with its objects' fields in name order (as decoding gives them).
fn sorted(value: &OwnedValue) -> OwnedValue {
    match value {
        OwnedValue::Object(fields) => {
            let mut fields: Vec<_> = fields.iter().map(|(k, v)| (k.clone(), sorted(v))).collect();
            fields.sort_by(|a, b| a.0.cmp(&b.0));
            OwnedValue::Object(fields)
        }
        OwnedValue::Array(values) => OwnedValue::Array(values.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// Walks everything a variant exposes, so a mutation that passed the check
/// but breaks an accessor would show.
fn walk(v: Variant<'_>) -> usize {
    let _ = v.to_json();
    match v.unpack() {
        VariantValue::Object(o) => o
            .iter()
            .map(|(k, v)| k.len() + walk(v) + usize::from(o.get(k).is_some()))
            .sum(),
        VariantValue::Array(a) => a.iter().map(walk).sum(),
        _ => 1,
    }
}

#[test]
fn mutated_bytes_never_panic() {
    let (metadata, value) = sample().encode().unwrap();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut ok, mut err) = (0, 0);
    for _ in 0..20_000 {
        let mut m = metadata.clone();
        let mut v = value.clone();
        for _ in 0..=(next() % 4) {
            let target = if next() % 4 == 0 { &mut m } else { &mut v };
            match next() % 3 {
                0 if !target.is_empty() => {
                    let i = (next() % target.len() as u64) as usize;
                    target[i] = next() as u8;
                }
                1 if !target.is_empty() => {
                    let keep = (next() % target.len() as u64) as usize;
                    target.truncate(keep);
                }
                _ => target.push(next() as u8),
            }
        }
        match Variant::new(&m, &v) {
            Ok(parsed) => {
                walk(parsed);
                ok += 1;
            }
            Err(_) => err += 1,
        }
    }
    // Both outcomes happen: the mutations reach past the first check.
    assert!(ok > 100 && err > 100, "ok {ok}, err {err}");
}

#[test]
fn equality_is_by_value() {
    let a = OwnedVariant::from_value(&OwnedValue::String("short".into())).unwrap();
    // The same string as a long string (type id 16).
    let long = [vec![16 << 2, 5, 0, 0, 0], b"short".to_vec()].concat();
    let m = metadata(&["unused"]);
    let b = Variant::new(&m, &long).unwrap();
    assert_eq!(a.as_variant(), b);
    assert_ne!(a.as_variant(), Variant::NULL);
}
