//! What a builder describes, without the row type.

use crate::filter::Selection;
use crate::options::ReadOptions;

/// One read's options: the filter's predicates and window, the builder's
/// window on top of it, the row groups, the limits and the threads.
#[derive(Debug, Clone, Default)]
pub(crate) struct Spec {
    pub(crate) query: Selection, // the filter, with its own offset and limit
    pub(crate) offset: usize,    // rows of the query's to skip
    pub(crate) limit: Option<usize>, // rows of the query's to return at most
    pub(crate) row_groups: Option<Vec<usize>>, // by index in the footer; `None`: every one
    pub(crate) options: Option<ReadOptions>, // `None`: the source's
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))] // set by `threads` (feature `rayon`)
    pub(crate) threads: usize, // 0: rayon's current pool; read by `Parallel` only
}

impl Spec {
    /// The selection read: the query's predicates, its window narrowed by
    /// the builder's (the builder's offset and limit count the rows the
    /// query's window returns).
    pub(crate) fn selection(&self) -> Selection {
        let mut selection = self.query.clone();
        selection.offset = self.query.offset.saturating_add(self.offset);
        let left = self.query.limit.map(|l| l.saturating_sub(self.offset));
        selection.limit = match (left, self.limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        selection
    }

    /// Whether the read keeps every row of the row groups read.
    pub(crate) fn everything(&self) -> bool {
        let selection = self.selection();
        selection.predicates.is_empty() && selection.offset == 0 && selection.limit.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(query: (usize, Option<usize>), offset: usize, limit: Option<usize>) -> Spec {
        let mut spec = Spec {
            offset,
            limit,
            ..Spec::default()
        };
        (spec.query.offset, spec.query.limit) = query;
        spec
    }

    #[test]
    fn the_builders_window_narrows_the_querys() {
        // rows q.offset.. (at most q.limit), then skip `offset`, take `limit`
        let cases = [
            ((0, None), 0, None, (0, None)),
            ((0, None), 5, Some(3), (5, Some(3))),
            ((10, Some(20)), 5, None, (15, Some(15))),
            ((10, Some(20)), 5, Some(3), (15, Some(3))),
            ((10, Some(4)), 5, Some(3), (15, Some(0))),
            ((0, Some(7)), 0, Some(9), (0, Some(7))),
        ];
        for (query, offset, limit, (o, l)) in cases {
            let s = spec(query, offset, limit).selection();
            assert_eq!((s.offset, s.limit), (o, l), "{query:?} {offset} {limit:?}");
        }
        assert!(spec((0, None), 0, None).everything());
        assert!(!spec((0, None), 1, None).everything());
    }
}
