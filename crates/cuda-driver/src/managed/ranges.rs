//! What the hints said about managed memory, for `cuMemRangeGetAttribute(s)` (CUDA Driver
//! API, "Unified Addressing", `CUmem_range_attribute`).
//!
//! Advice (`cuMemAdvise`) and prefetches (`cuMemPrefetchAsync`, the batch calls) change
//! nothing about where managed memory lives here (see [`crate::managed`]), but the range
//! attributes report them back, page by page: read-mostly, the preferred location, the
//! devices with accessed-by advice and the last prefetch location. They are kept as
//! disjoint byte segments, each with one state; a byte no hint touched has the default
//! state (nothing set). Freeing a managed allocation forgets its segments.

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::Target;

/// The hints one byte has received.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Hints {
    pub(crate) read_mostly: bool,
    pub(crate) preferred: Option<Target>,
    pub(crate) accessed_by: Vec<Target>,
    pub(crate) last_prefetch: Option<Target>,
}

/// Segments `start -> (end, hints)`, disjoint.
#[derive(Default)]
pub(crate) struct Ranges(Mutex<BTreeMap<u64, (u64, Hints)>>);

impl Ranges {
    /// Applies `f` to the hints of every byte of `[start, end)`.
    pub(crate) fn update(&self, start: u64, end: u64, f: impl Fn(&mut Hints)) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        split_at(&mut map, start);
        split_at(&mut map, end);
        // Fill the gaps with default segments, then update everything inside.
        let mut cursor = start;
        let inside: Vec<(u64, u64)> = map.range(start..end).map(|(&s, &(e, _))| (s, e)).collect();
        for (s, e) in inside {
            if cursor < s {
                map.insert(cursor, (s, Hints::default()));
            }
            cursor = e;
        }
        if cursor < end {
            map.insert(cursor, (end, Hints::default()));
        }
        for (_, (_, hints)) in map.range_mut(start..end) {
            f(hints);
        }
    }

    /// The hints of the bytes of `[start, end)`, one entry per segment (a byte no hint
    /// touched counts as a default segment).
    pub(crate) fn query(&self, start: u64, end: u64) -> Vec<Hints> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = Vec::new();
        let mut cursor = start;
        // The segment that starts before `start` and reaches into the range.
        let before = map.range(..start).next_back().filter(|(_, &(e, _))| e > start);
        for (&s, (e, hints)) in before.into_iter().chain(map.range(start..end)) {
            if cursor < s.max(start) {
                out.push(Hints::default());
            }
            out.push(hints.clone());
            cursor = *e;
        }
        if cursor < end {
            out.push(Hints::default());
        }
        out
    }

    /// Forgets the hints of `[start, end)` (the allocation was freed).
    pub(crate) fn forget(&self, start: u64, end: u64) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        split_at(&mut map, start);
        split_at(&mut map, end);
        let inside: Vec<u64> = map.range(start..end).map(|(&s, _)| s).collect();
        for s in inside {
            map.remove(&s);
        }
    }
}

/// Splits the segment containing `at` (if any starts before it) into two at `at`.
fn split_at(map: &mut BTreeMap<u64, (u64, Hints)>, at: u64) {
    let Some((&s, (e, hints))) = map.range(..at).next_back() else { return };
    if *e > at && s < at {
        let (e, hints) = (*e, hints.clone());
        map.insert(s, (at, hints.clone()));
        map.insert(at, (e, hints));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_split_fill_and_forget() {
        let r = Ranges::default();
        r.update(100, 200, |h| h.read_mostly = true);
        r.update(150, 300, |h| h.preferred = Some(Target::Host));
        let q = r.query(100, 300);
        assert_eq!(q.len(), 3);
        assert!(q[0].read_mostly && q[0].preferred.is_none());
        assert!(q[1].read_mostly && q[1].preferred == Some(Target::Host));
        assert!(!q[2].read_mostly && q[2].preferred == Some(Target::Host));
        // A range reaching past the segments gets a default entry for the gap.
        let q = r.query(250, 400);
        assert_eq!(q.len(), 2);
        assert_eq!(q[1], Hints::default());
        assert!(r.query(120, 130).iter().all(|h| h.read_mostly));
        r.forget(0, 1000);
        assert_eq!(r.query(100, 300), vec![Hints::default()]);
    }
}
