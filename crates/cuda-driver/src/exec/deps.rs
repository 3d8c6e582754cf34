//! What an operation waits for before it runs: markers of other queues' operations
//! (CUDA's legacy-stream rules, `cuStreamWaitEvent`).
//!
//! An operation usually waits for nothing or for one marker (a blocking stream's work
//! after the legacy stream's, one event), so the first few are stored inline: queuing
//! an operation, a launch in particular, allocates nothing for them.

use super::Marker;

/// Markers stored without a heap allocation; more go to a vector.
const INLINE_DEPS: usize = 4;

/// The markers one operation waits for.
#[derive(Default)]
pub(crate) struct Deps {
    inline: [Option<Marker>; INLINE_DEPS],
    more: Vec<Marker>,
}

impl Deps {
    pub(crate) fn push(&mut self, marker: Marker) {
        match self.inline.iter_mut().find(|slot| slot.is_none()) {
            Some(slot) => *slot = Some(marker),
            None => self.more.push(marker),
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &Marker> {
        self.inline.iter().flatten().chain(&self.more)
    }
}

impl Extend<Marker> for Deps {
    fn extend<I: IntoIterator<Item = Marker>>(&mut self, markers: I) {
        for m in markers {
            self.push(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{Queue, QueueKind};
    use std::sync::{Arc, Weak};

    #[test]
    fn markers_come_back_in_order_inline_or_not() {
        let device: Arc<dyn backend_api::Device> = crate::fake::FakeDevice::new();
        let queue = Queue::new(QueueKind::Created, true, Weak::new(), device);
        // (markers pushed, of them on the heap)
        for (count, heap) in [(0usize, 0usize), (1, 0), (INLINE_DEPS, 0), (INLINE_DEPS + 1, 1), (INLINE_DEPS + 5, 5)] {
            let mut deps = Deps::default();
            deps.extend((1..=count as u64).map(|seq| Marker { queue: queue.clone(), seq }));
            let seqs: Vec<u64> = deps.iter().map(|m| m.seq).collect();
            assert_eq!(seqs, (1..=count as u64).collect::<Vec<_>>(), "{count} markers");
            assert_eq!(deps.more.len(), heap, "{count} markers");
        }
    }
}
