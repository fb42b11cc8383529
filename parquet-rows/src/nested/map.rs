//! Maps: a list of key-value pairs collected into `HashMap` or `BTreeMap`.
//! (`Vec<(K, V)>` reads a map too, keeping the file's order and duplicates.)

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};

use super::{Assembled, Bound, ListCursor, ListElement, ParquetNode, Shape};
use crate::error::Result;
use crate::group::RowGroup;

/// Implements `ParquetNode` for a map type; `$insert` adds one pair. A key
/// that appears twice in one map keeps its last value.
macro_rules! map_node {
    ($map:ident<K, V $(, $s:ident)?>, $($bound:tt)*) => {
        impl<'p, K, V $(, $s)?> ParquetNode<'p> for $map<K, V $(, $s)?>
        where
            K: ParquetNode<'p> + $($bound)*,
            V: ParquetNode<'p>,
            $($s: BuildHasher + Default,)?
        {
            fn shape() -> Shape {
                Shape::Map(Box::new(K::shape()), Box::new(V::shape()))
            }
            fn placeholder() -> Self {
                // `HashMap::default()` and `BTreeMap::new()` allocate nothing.
                Self::default()
            }
            type Reader = Assembled<'p, Self>;
            fn reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Reader> {
                Assembled::new(row_group, bound)
            }
            type OptionReader = Assembled<'p, Option<Self>>;
            fn option_reader(
                row_group: &RowGroup<'_, 'p>,
                bound: &Bound,
            ) -> Result<Self::OptionReader> {
                Assembled::new(row_group, bound)
            }
            type Cursor = ListCursor<<(K, V) as ParquetNode<'p>>::Cursor>;
            fn cursor(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Cursor> {
                ListCursor::open::<(K, V)>(row_group, bound)
            }
            #[inline]
            fn def(cursor: &mut Self::Cursor) -> Result<u32> {
                <Vec<(K, V)>>::def(cursor)
            }
            #[inline]
            fn rep(cursor: &mut Self::Cursor) -> Result<Option<u32>> {
                <Vec<(K, V)>>::rep(cursor)
            }
            fn skip(cursor: &mut Self::Cursor) -> Result<()> {
                <Vec<(K, V)>>::skip(cursor)
            }
            fn next(cursor: &mut Self::Cursor) -> Result<Self> {
                let mut map = Self::default();
                cursor.next_with::<(K, V)>(|(k, v)| {
                    map.insert(k, v);
                })?;
                Ok(map)
            }
            fn skip_records(cursor: &mut Self::Cursor, n: usize) -> Result<()> {
                <Vec<(K, V)>>::skip_records(cursor, n)
            }
            fn finish(cursor: &mut Self::Cursor) -> Result<()> {
                <Vec<(K, V)>>::finish(cursor)
            }
        }

        impl<K, V $(, $s)?> ListElement for $map<K, V $(, $s)?> {}
    };
}

map_node!(HashMap<K, V, S>, Eq + Hash);
map_node!(BTreeMap<K, V>, Ord);
