//! The checks themselves can fail.

use super::lists::Phone;
use super::*;

// ---------------------------------------------------------------------------
// The checks themselves can fail
// ---------------------------------------------------------------------------

#[test]
fn comparison_is_strict() {
    assert!(same(&1.0f64.to_json(), &serde_json::json!(1)));
    assert!(same(&1.0f64.to_json(), &serde_json::json!(1.0)));
    assert!(!same(&(-0.0f64).to_json(), &serde_json::json!(0.0)));
    assert!(same(
        &(-0.0f32).to_json(),
        &serde_json::from_str::<Value>("-0.0").unwrap()
    ));
    assert!(same(&f64::NAN.to_json(), &serde_json::json!("NaN")));
    assert!(!same(&f64::NAN.to_json(), &serde_json::json!(null)));
    assert!(same(
        &1.1f32.to_json(),
        &serde_json::json!(1.100_000_023_841_858)
    ));
    assert!(!same(&1.1f32.to_json(), &serde_json::json!(1.1)));
    assert!(same(
        &u64::MAX.to_json(),
        &serde_json::from_str::<Value>("18446744073709551615").unwrap()
    ));
    assert!(same(
        &(&b"\x00\xff"[..]).to_json(),
        &serde_json::json!("hex:00ff")
    ));
    assert!(same(&[0u8, 0xff].to_json(), &serde_json::json!("hex:00ff")));
    assert!(!same(&"00ff".to_json(), &serde_json::json!("hex:00ff")));
    assert!(same(&None::<i32>.to_json(), &Value::Null));
    assert!(!same(&Some(0i32).to_json(), &Value::Null));
    assert!(same(
        &half::f16::from_f32(-0.0).to_json(),
        &serde_json::from_str::<Value>("-0.0").unwrap()
    ));
    assert!(same(&half::f16::NAN.to_json(), &serde_json::json!("NaN")));
    let cents = Decimal {
        unscaled: -1230,
        precision: 5,
        scale: 2,
    };
    assert!(same(&cents.to_json(), &serde_json::json!("-12.30")));
    assert!(!same(&cents.to_json(), &serde_json::json!("-12.3")));
    assert!(same(
        &rust_decimal::Decimal::new(100, 2).to_json(),
        &serde_json::json!("1.00")
    ));
    assert!(same(
        &scale_3(Some(&1_003_858)),
        &serde_json::json!("1003.858")
    ));
}

#[test]
fn nested_comparison_is_strict() {
    use serde_json::json;
    // Inside lists and structs too, numbers compare by value and the sign of
    // a zero counts.
    let list = vec![Some(vec![Some(1.0f64), None]), None].to_json();
    assert!(same(&list, &json!([[1, null], null])));
    assert!(!same(&list, &json!([[1, null]])));
    assert!(!same(&list, &json!([[1, null], []])));
    assert!(!same(&vec![-0.0f64].to_json(), &json!([0.0])));
    assert!(same(&Vec::<i32>::new().to_json(), &json!([])));
    assert!(!same(&Vec::<i32>::new().to_json(), &Value::Null));
    // `Vec<u8>` stays a byte array, a list of `u16` is a list.
    assert!(same(&vec![0u8, 0xff].to_json(), &json!("hex:00ff")));
    assert!(same(&vec![0u16, 0xff].to_json(), &json!([0, 255])));
    // Structs: every field, no more, no fewer.
    let phone = Phone {
        number: 5,
        kind: None,
    };
    assert!(same(&phone.to_json(), &json!({"kind": null, "number": 5})));
    assert!(!same(&phone.to_json(), &json!({"number": 5})));
    assert!(!same(
        &phone.to_json(),
        &json!({"number": 5, "kind": null, "extra": 1})
    ));
    // Maps: file order for `Vec<(K, V)>`, key order for the others.
    let pairs = vec![("b", 1), ("a", 2)].to_json();
    let mut want = json!([{"key": "b", "value": 1}, {"key": "a", "value": 2}]);
    assert!(same(&pairs, &want));
    let sorted: BTreeMap<&str, i32> = [("b", 1), ("a", 2)].into_iter().collect();
    let hashed: HashMap<&str, i32> = [("b", 1), ("a", 2)].into_iter().collect();
    assert!(!same(&sorted.to_json(), &want));
    sort_maps(&mut want);
    assert!(same(&sorted.to_json(), &want));
    assert!(same(&hashed.to_json(), &want));
    let mut numbers = json!([[{"key": 10, "value": 0}, {"key": 9, "value": 0}]]);
    sort_maps(&mut numbers);
    assert_eq!(
        numbers,
        json!([[{"key": 9, "value": 0}, {"key": 10, "value": 0}]])
    );
    // Where two values differ.
    assert_eq!(
        difference(
            &json!([{"phone": [{"number": 1, "kind": "home"}]}]),
            &json!([{"phone": [{"number": 1, "kind": null}]}])
        )
        .as_deref(),
        Some("[0].phone[0].kind: got \"home\", expected null")
    );
    assert_eq!(difference(&json!([[1, 2]]), &json!([[1, 2]])), None);
}

#[test]
fn int96_conversions() {
    // 2009-03-01 00:00:00, the first timestamp of alltypes_plain.
    let t = Int96 {
        nanos_of_day: 0,
        julian_day: 2_454_892,
    };
    assert_eq!(
        int96_nanos(Some(&t)),
        Value::from(1_235_865_600_000_000_000_i64)
    );
    assert_eq!(
        spark_micros(Some(&t)),
        Value::from(1_235_865_600_000_000_i64)
    );
    assert_eq!(spark_micros(None), Value::Null);
    let far = Int96 {
        nanos_of_day: 0,
        julian_day: i32::MAX,
    };
    assert!(
        int96_nanos(Some(&far)).is_string(),
        "overflow is not a number"
    );
}

#[test]
fn csv_cells() {
    let rows = parse_csv("\"a\",b,c\n\"x, \"\"y\"\"\",,\"\"\r\n1,2,3");
    assert_eq!(
        rows,
        vec![
            vec![Some("a".into()), Some("b".into()), Some("c".into())],
            vec![Some("x, \"y\"".into()), None, Some(String::new())],
            vec![Some("1".into()), Some("2".into()), Some("3".into())],
        ]
    );
}
