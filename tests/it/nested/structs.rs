//! Structs in structs: REQUIRED and OPTIONAL groups, two levels deep.

use super::*;

// ---------------------------------------------------------------------------
// Structs in structs: REQUIRED and OPTIONAL groups, two levels deep
// ---------------------------------------------------------------------------

const ORDERS_SCHEMA: &str = "message orders {
    REQUIRED INT64 id;
    REQUIRED group customer {
        REQUIRED BINARY name (UTF8);
        OPTIONAL BINARY region (UTF8);
        OPTIONAL group address {
            REQUIRED BINARY city (UTF8);
            OPTIONAL INT32 zip;
        }
    }
    OPTIONAL group shipping {
        REQUIRED DOUBLE cost;
        REQUIRED group dims {
            REQUIRED FLOAT w;
            OPTIONAL FLOAT h;
        }
        OPTIONAL group carrier {
            REQUIRED BINARY code (UTF8);
            OPTIONAL INT64 tracking;
            REQUIRED BOOLEAN express;
        }
    }
    OPTIONAL BINARY note (UTF8);
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct OrderOwned {
    id: i64,
    customer: CustomerOwned,
    shipping: Option<Shipping>,
    note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct CustomerOwned {
    name: String,
    region: Option<String>,
    address: Option<AddressOwned>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct AddressOwned {
    city: String,
    #[parquet(rename = "zip")]
    postcode: Option<i32>,
}

/// Fields in another order than the schema's.
#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Shipping {
    carrier: Option<Carrier>,
    dims: Dims,
    cost: f64,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Dims {
    w: f32,
    h: Option<f32>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Carrier {
    code: String,
    tracking: Option<i64>,
    express: bool,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Order<'a> {
    id: i64,
    customer: Customer<'a>,
    shipping: Option<Shipping>,
    note: Option<&'a str>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Customer<'a> {
    name: &'a str,
    region: Option<&'a str>,
    address: Option<Address<'a>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Address<'a> {
    city: &'a str,
    #[parquet(rename = "zip")]
    postcode: Option<i32>,
}

impl From<&Order<'_>> for OrderOwned {
    fn from(o: &Order<'_>) -> Self {
        OrderOwned {
            id: o.id,
            customer: CustomerOwned {
                name: owned_str(o.customer.name),
                region: owned_opt_str(o.customer.region),
                address: o.customer.address.as_ref().map(|a| AddressOwned {
                    city: owned_str(a.city),
                    postcode: a.postcode,
                }),
            },
            shipping: o.shipping.clone(),
            note: owned_opt_str(o.note),
        }
    }
}

fn gen_orders(n: usize) -> Vec<OrderOwned> {
    generate(1, n, |r, i| OrderOwned {
        id: i as i64 * 7 - 300,
        customer: CustomerOwned {
            name: r.word(),
            region: r.maybe(30, Rng::word),
            address: r.maybe(25, |r| AddressOwned {
                city: r.word(),
                postcode: r.maybe(40, Rng::i32),
            }),
        },
        shipping: r.maybe(30, |r| Shipping {
            carrier: r.maybe(35, |r| Carrier {
                code: r.word(),
                tracking: r.maybe(50, Rng::i64),
                express: r.chance(50),
            }),
            dims: Dims {
                w: r.f32(),
                h: r.maybe(20, Rng::f32),
            },
            cost: r.f64(),
        }),
        note: r.maybe(60, Rng::word),
    })
}

fn order_dyn(o: &OrderOwned) -> Vec<Dyn> {
    vec![
        Dyn::I64(o.id),
        Dyn::Group(vec![
            s(&o.customer.name),
            opt(&o.customer.region, |v| s(v)),
            opt(&o.customer.address, |a| {
                Dyn::Group(vec![s(&a.city), opt(&a.postcode, |z| Dyn::I32(*z))])
            }),
        ]),
        opt(&o.shipping, |sh| {
            Dyn::Group(vec![
                Dyn::F64(sh.cost),
                Dyn::Group(vec![Dyn::F32(sh.dims.w), opt(&sh.dims.h, |h| Dyn::F32(*h))]),
                opt(&sh.carrier, |c| {
                    Dyn::Group(vec![
                        s(&c.code),
                        opt(&c.tracking, |t| Dyn::I64(*t)),
                        Dyn::Bool(c.express),
                    ])
                }),
            ])
        }),
        opt(&o.note, |v| s(v)),
    ]
}

fn order_from_record(row: &Row) -> OrderOwned {
    let c = req(group(get(row, "customer")));
    OrderOwned {
        id: req(long(get(row, "id"))),
        customer: CustomerOwned {
            name: req(string(get(c, "name"))),
            region: string(get(c, "region")),
            address: group(get(c, "address")).map(|a| AddressOwned {
                city: req(string(get(a, "city"))),
                postcode: int(get(a, "zip")),
            }),
        },
        shipping: group(get(row, "shipping")).map(|sh| {
            let d = req(group(get(sh, "dims")));
            Shipping {
                carrier: group(get(sh, "carrier")).map(|c| Carrier {
                    code: req(string(get(c, "code"))),
                    tracking: long(get(c, "tracking")),
                    express: req(boolean(get(c, "express"))),
                }),
                dims: Dims {
                    w: req(float(get(d, "w"))),
                    h: float(get(d, "h")),
                },
                cost: req(double(get(sh, "cost"))),
            }
        }),
        note: string(get(row, "note")),
    }
}

/// A projection that reads one leaf deep inside optional groups: whether
/// `address` and `carrier` are null must come from that leaf's levels alone.
#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct OrderDeepLeaves {
    customer: CustomerZip,
    shipping: Option<ShippingExpress>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct CustomerZip {
    address: Option<Zip>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Zip {
    zip: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct ShippingExpress {
    carrier: Option<Express>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Express {
    express: bool,
}

#[test]
fn nested_structs_required_and_optional_two_levels() {
    let rows = gen_orders(1500);
    assert!(rows.iter().any(|o| o.shipping.is_none()));
    assert!(rows
        .iter()
        .any(|o| o.shipping.as_ref().is_some_and(|s| s.carrier.is_none())));
    let shredded: Vec<Vec<Dyn>> = rows.iter().map(order_dyn).collect();
    for (what, file) in files(ORDERS_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, order_from_record);
        check_borrowed!(&what, &file, Order, OrderOwned, &rows);
        let deep: Vec<OrderDeepLeaves> = rows
            .iter()
            .map(|o| OrderDeepLeaves {
                customer: CustomerZip {
                    address: o.customer.address.as_ref().map(|a| Zip { zip: a.postcode }),
                },
                shipping: o.shipping.as_ref().map(|s| ShippingExpress {
                    carrier: s.carrier.as_ref().map(|c| Express { express: c.express }),
                }),
            })
            .collect();
        check_owned(&format!("{what}, projection"), &file, &deep);
    }
}
