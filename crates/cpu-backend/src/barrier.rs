//! The named barriers of a block in fiber mode (PTX ISA 9.7.13.1, `bar` / `barrier`).
//!
//! A CTA has 16 barriers. Each counts arrivals: `bar.sync a` and `bar.red a, ..., c` wait
//! until the expected number of threads has arrived at barrier `a` (from any instruction
//! naming it), `bar.arrive a, b` arrives without waiting. The expected number is the `b`
//! operand, or, without one, every thread of the CTA that has not exited (exited threads
//! count as arrived, as on sm_70 and later). A barrier that completes starts its next
//! generation at once; waiters leave when the generation they arrived in is over, so a
//! fast thread arriving again cannot release them twice or mix its predicate into their
//! reduction.
//!
//! Counting arrivals, rather than letting every fiber pass after one scheduler round, is
//! what keeps a barrier closed while some threads are still busy elsewhere: at warp
//! collectives in code only some warps run (a warp-level scan inside `if (warp == 0)`,
//! between two `__syncthreads`), or in spin-waits.

/// Barriers per CTA (PTX ISA 9.7.13.1: "barriers 0 to 15").
pub(crate) const NAMED_BARRIERS: usize = 16;

/// The reduction results of one completed generation.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(crate) struct Reduced {
    /// Arrivals whose predicate was true (`bar.red.popc`).
    pub popc: u32,
    /// Every arrival's predicate was true (`bar.red.and`).
    pub all: bool,
    /// Some arrival's predicate was true (`bar.red.or`).
    pub any: bool,
}

#[derive(Clone, Copy, Debug)]
struct Named {
    arrived: u32,
    /// Arrivals that complete the barrier; 0: every thread that has not exited.
    expected: u32,
    generation: u32,
    popc: u32,
    all: bool,
    any: bool,
    /// Results of completed generations, by generation parity: a waiter reads its own
    /// generation's after the next one may already have started.
    results: [Reduced; 2],
    /// The scheduler round in which each of those generations completed.
    completed_in: [u32; 2],
}

impl Default for Named {
    fn default() -> Self {
        Named {
            arrived: 0,
            expected: 0,
            generation: 0,
            popc: 0,
            all: true,
            any: false,
            results: [Reduced::default(); 2],
            completed_in: [u32::MAX; 2],
        }
    }
}

/// A block's barriers, and what the fiber scheduler needs to see that none can complete.
#[derive(Clone, Debug)]
pub(crate) struct BlockBarriers {
    bars: [Named; NAMED_BARRIERS],
    /// Threads of the block that have not exited.
    live: u32,
    /// Threads waiting at a barrier right now.
    waiting: u32,
    /// The fiber scheduler's current round, and whether a barrier completed in it.
    round: u32,
    completed_this_round: bool,
}

/// A thread's place at a barrier: which one, and the generation it waits out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ticket {
    id: usize,
    generation: u32,
}

impl Default for BlockBarriers {
    fn default() -> Self {
        BlockBarriers::new(0)
    }
}

impl BlockBarriers {
    pub(crate) fn new(live: u32) -> Self {
        BlockBarriers { bars: [Named::default(); NAMED_BARRIERS], live, waiting: 0, round: 0, completed_this_round: false }
    }

    /// The scheduler starts round `round`: every live fiber runs once.
    pub(crate) fn begin_round(&mut self, round: u32) {
        self.round = round;
        self.completed_this_round = false;
    }

    /// A thread arrives at barrier `id` expecting `count` arrivals (0: the whole block),
    /// with predicate `pred`. Returns the ticket to wait on with [`Self::passed`] (already
    /// passed when this arrival completed the barrier).
    pub(crate) fn arrive(&mut self, id: u32, count: u32, pred: bool) -> Ticket {
        let id = id as usize % NAMED_BARRIERS;
        let b = &mut self.bars[id];
        if b.arrived == 0 {
            b.expected = count;
        }
        b.arrived += 1;
        b.popc += pred as u32;
        b.all &= pred;
        b.any |= pred;
        let ticket = Ticket { id, generation: b.generation };
        self.complete_if_full(id);
        ticket
    }

    /// Whether the generation of `t` is over, as seen from the current round: a
    /// generation that completed in this round opens in the next one, so that all of its
    /// threads leave in the same round (lanes of a warp must stay in step for the warp
    /// exchange), whichever of them came first in this round.
    pub(crate) fn passed(&self, t: Ticket) -> bool {
        let b = &self.bars[t.id];
        b.generation != t.generation && b.completed_in[(t.generation & 1) as usize] != self.round
    }

    /// The reduction of `t`'s generation (valid once [`Self::passed`]).
    pub(crate) fn result(&self, t: Ticket) -> Reduced {
        self.bars[t.id].results[(t.generation & 1) as usize]
    }

    /// A thread starts or stops waiting at a barrier.
    pub(crate) fn set_waiting(&mut self, waiting: bool) {
        if waiting {
            self.waiting += 1;
        } else {
            self.waiting -= 1;
        }
    }

    /// At the end of a round: every thread that has not exited waits at a barrier and
    /// none completed, so none ever will: on a GPU the block would hang.
    pub(crate) fn deadlocked(&self) -> bool {
        self.live > 0 && self.waiting == self.live && !self.completed_this_round
    }

    /// A thread of the block exited: whole-block barriers may now be complete.
    pub(crate) fn thread_exited(&mut self) {
        self.live = self.live.saturating_sub(1);
        for id in 0..NAMED_BARRIERS {
            self.complete_if_full(id);
        }
    }

    /// The arrivals a barrier waits for, as text for a diagnostic.
    pub(crate) fn describe_waits(&self) -> String {
        let mut parts = Vec::new();
        for (id, b) in self.bars.iter().enumerate().filter(|(_, b)| b.arrived > 0) {
            let expected = if b.expected == 0 { self.live } else { b.expected };
            parts.push(format!("barrier {id}: {} of {expected} threads arrived", b.arrived));
        }
        parts.join(", ")
    }

    fn complete_if_full(&mut self, id: usize) {
        let live = self.live;
        let b = &mut self.bars[id];
        let expected = if b.expected == 0 { live } else { b.expected };
        if b.arrived == 0 || b.arrived < expected {
            return;
        }
        b.results[(b.generation & 1) as usize] = Reduced { popc: b.popc, all: b.all, any: b.any };
        b.completed_in[(b.generation & 1) as usize] = self.round;
        self.completed_this_round = true;
        b.generation = b.generation.wrapping_add(1);
        b.arrived = 0;
        b.popc = 0;
        b.all = true;
        b.any = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_block_barrier_waits_for_every_live_thread() {
        let mut b = BlockBarriers::new(3);
        b.begin_round(1);
        let t0 = b.arrive(0, 0, true);
        let t1 = b.arrive(0, 0, false);
        assert!(!b.passed(t0) && !b.passed(t1));
        let t2 = b.arrive(0, 0, true);
        // Complete, but it opens in the next round, for every thread at once.
        assert!(!b.passed(t0) && !b.passed(t2));
        b.begin_round(2);
        assert!(b.passed(t0) && b.passed(t1) && b.passed(t2));
        assert_eq!(b.result(t0), Reduced { popc: 2, all: false, any: true });
    }

    #[test]
    fn exited_threads_count_as_arrived() {
        let mut b = BlockBarriers::new(3);
        let t0 = b.arrive(0, 0, true);
        let t1 = b.arrive(0, 0, true);
        b.begin_round(1);
        assert!(!b.passed(t0));
        b.thread_exited();
        b.begin_round(2);
        assert!(b.passed(t0) && b.passed(t1));
        assert_eq!(b.result(t1), Reduced { popc: 2, all: true, any: true });
    }

    #[test]
    fn counted_barrier_and_arrive() {
        // bar.arrive 1, 2 by a producer, bar.sync 1, 2 by a consumer.
        let mut b = BlockBarriers::new(4);
        let consumer = b.arrive(1, 2, false);
        assert!(!b.passed(consumer));
        let producer = b.arrive(1, 2, false);
        b.begin_round(1);
        assert!(b.passed(consumer) && b.passed(producer));
        // Barrier 0 is independent of barrier 1.
        let other = b.arrive(0, 0, false);
        assert!(!b.passed(other));
    }

    #[test]
    fn a_new_generation_keeps_the_old_result() {
        let mut b = BlockBarriers::new(2);
        let a = b.arrive(0, 0, true);
        let c = b.arrive(0, 0, true);
        b.begin_round(1);
        assert!(b.passed(a));
        // `c` passed and arrives again before `a` has looked.
        let c2 = b.arrive(0, 0, false);
        assert!(!b.passed(c2) && b.passed(a));
        assert_eq!(b.result(a), Reduced { popc: 2, all: true, any: true });
        let a2 = b.arrive(0, 0, false);
        b.begin_round(2);
        assert!(b.passed(c2));
        assert_eq!(b.result(a2), Reduced { popc: 0, all: false, any: false });
        assert_eq!(b.result(c), Reduced { popc: 2, all: true, any: true });
    }

    #[test]
    fn deadlock_is_every_live_thread_waiting() {
        let mut b = BlockBarriers::new(2);
        b.begin_round(1);
        let t = b.arrive(3, 64, false);
        b.set_waiting(true);
        assert!(!b.passed(t) && !b.deadlocked());
        let u = b.arrive(3, 64, false);
        b.set_waiting(true);
        assert!(!b.passed(u) && b.deadlocked());
        // All waiting, but a barrier completed this round: they leave in the next one.
        let mut w = BlockBarriers::new(1);
        w.begin_round(1);
        w.arrive(0, 0, false);
        w.set_waiting(true);
        assert!(!w.deadlocked());
        assert_eq!(b.describe_waits(), "barrier 3: 2 of 64 threads arrived");
    }
}
