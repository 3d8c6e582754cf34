//! One pool's memory: segments of backend memory, the free blocks inside them with the
//! stream-order points after which each may be reused, and the pool's statistics.
//!
//! A segment is one backend allocation of a whole number of [`CHUNK`]s. Allocations are
//! carved from the start of a free block (best fit: the smallest block that is large
//! enough, the lowest address among equals), in units of [`ALIGN`] bytes, as NVIDIA's
//! pools pack them. A freed block remembers the markers after which its last user's work
//! is done (one per queue: a later point of a queue implies the earlier ones); adjacent
//! free blocks of a segment merge, and their markers with them. A segment that is one
//! free block whose markers are all complete can be given back to the backend.

use std::collections::BTreeMap;

use crate::exec::Marker;

/// The backend memory of a pool grows by this much at least (what NVIDIA's pools reserve
/// at a time: 32 MiB, measured on an H200 with driver 580.159).
pub(crate) const CHUNK: u64 = 32 << 20;
/// Allocations start at multiples of this and take multiples of it (NVIDIA's: 512 bytes).
pub(crate) const ALIGN: u64 = 512;

/// A free block: its size and what must complete before another stream may use it.
struct Free {
    size: u64,
    after: Vec<Marker>,
}

/// One backend allocation and its free blocks (by address).
struct Segment {
    /// The backend allocation's address (the segment starts at the next multiple of
    /// [`ALIGN`]).
    backend_base: u64,
    size: u64,
    free: BTreeMap<u64, Free>,
}

/// How a free block may serve an allocation.
pub(crate) enum Fit {
    /// At once: every marker is one the allocating stream follows.
    Ready,
    /// After the allocating stream waits for these markers (an internal dependency).
    After(Vec<Marker>),
}

/// The segments of one pool and its statistics (`CU_MEMPOOL_ATTR_*_MEM_*`).
#[derive(Default)]
pub(crate) struct Blocks {
    segments: BTreeMap<u64, Segment>,
    pub(crate) reserved: u64,
    pub(crate) reserved_high: u64,
    pub(crate) used: u64,
    pub(crate) used_high: u64,
}

/// `size` in allocation units.
pub(crate) fn rounded(size: u64) -> Option<u64> {
    size.checked_next_multiple_of(ALIGN)
}

impl Blocks {
    /// Adds a segment of fresh backend memory, all free: `size` bytes from `base` (a
    /// multiple of [`ALIGN`]) in the backend allocation at `backend_base`.
    pub(crate) fn add_segment(&mut self, backend_base: u64, base: u64, size: u64) {
        let mut free = BTreeMap::new();
        free.insert(base, Free { size, after: Vec::new() });
        self.segments.insert(base, Segment { backend_base, size, free });
        self.reserved += size;
        self.reserved_high = self.reserved_high.max(self.reserved);
    }

    /// Takes `size` bytes (a multiple of [`ALIGN`]) from the best-fitting free block that
    /// `fit` accepts; returns the address and the markers the caller must wait for.
    pub(crate) fn take(&mut self, size: u64, fit: impl Fn(&[Marker]) -> Option<Fit>) -> Option<(u64, Vec<Marker>)> {
        let mut best: Option<(u64, u64, u64, Fit)> = None;
        for (&seg, segment) in &self.segments {
            for (&addr, block) in &segment.free {
                if block.size < size || best.as_ref().is_some_and(|b| b.2 <= block.size) {
                    continue;
                }
                if let Some(how) = fit(&block.after) {
                    best = Some((seg, addr, block.size, how));
                }
            }
        }
        let (seg, addr, _, how) = best?;
        let segment = self.segments.get_mut(&seg).expect("found above");
        let block = segment.free.remove(&addr).expect("found above");
        if block.size > size {
            segment.free.insert(addr + size, Free { size: block.size - size, after: block.after.clone() });
        }
        Some((addr, if let Fit::After(deps) = how { deps } else { Vec::new() }))
    }

    /// Counts an allocation of `size` bytes (as asked for) in or out of the used memory.
    pub(crate) fn count_used(&mut self, size: u64, allocated: bool) {
        if allocated {
            self.used += size;
            self.used_high = self.used_high.max(self.used);
        } else {
            self.used -= size;
        }
    }

    /// Gives back `size` bytes (a multiple of [`ALIGN`]) at `addr`, reusable by other
    /// streams once `after` has completed (`None`: at once). Returns false if `addr` is in
    /// no segment.
    pub(crate) fn give_back(&mut self, addr: u64, size: u64, after: Option<Marker>) -> bool {
        let Some((_, segment)) = self.segments.range_mut(..=addr).next_back().filter(|(&b, s)| addr + size <= b + s.size) else {
            return false;
        };
        let mut block = Free { size, after: after.into_iter().collect() };
        let mut start = addr;
        if let Some((&next, _)) = segment.free.range(addr + size..).next().filter(|(&n, _)| n == addr + size) {
            let next_block = segment.free.remove(&next).expect("just found");
            block.size += next_block.size;
            merge(&mut block.after, next_block.after);
        }
        if let Some((&prev, p)) = segment.free.range(..addr).next_back() {
            if prev + p.size == addr {
                let prev_block = segment.free.remove(&prev).expect("just found");
                block.size += prev_block.size;
                merge(&mut block.after, prev_block.after);
                start = prev;
            }
        }
        segment.free.insert(start, block);
        true
    }

    /// Forgets the complete markers that `observed` selects: the host has seen that work
    /// finish (a synchronization), so the blocks after it are free for any stream.
    pub(crate) fn observe(&mut self, observed: impl Fn(&Marker) -> bool) {
        for segment in self.segments.values_mut() {
            for block in segment.free.values_mut() {
                block.after.retain(|m| !(m.is_complete() && observed(m)));
            }
        }
    }

    /// Whether some free block still waits for unobserved work.
    pub(crate) fn has_pending(&self) -> bool {
        self.segments.values().any(|s| s.free.values().any(|b| !b.after.is_empty()))
    }

    /// Unlinks whole free segments whose last work has completed while at least `keep`
    /// bytes stay reserved; returns their backend allocations, for the caller to free.
    pub(crate) fn trim(&mut self, keep: u64) -> Vec<u64> {
        let idle: Vec<(u64, u64)> = self
            .segments
            .iter()
            .filter(|(&base, s)| s.free.get(&base).is_some_and(|b| b.size == s.size && b.after.iter().all(Marker::is_complete)))
            .map(|(&base, s)| (base, s.size))
            .collect();
        let mut released = Vec::new();
        for (base, size) in idle {
            if self.reserved - size < keep {
                continue;
            }
            let segment = self.segments.remove(&base).expect("listed above");
            self.reserved -= size;
            released.push(segment.backend_base);
        }
        released
    }
}

/// Adds `more` to `into`, one marker per queue (the later point).
fn merge(into: &mut Vec<Marker>, more: Vec<Marker>) {
    for m in more {
        match into.iter_mut().find(|o| o.same_queue(&m)) {
            Some(o) if o.seq() < m.seq() => *o = m,
            Some(_) => {}
            None => into.push(m),
        }
    }
}
