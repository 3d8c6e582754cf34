//! The warp exchange of fiber mode: where the lanes of a warp meet at a collective
//! (`host_abi::WarpExchangeFn`).

use super::{enter_kernel, leave_kernel, runtime, trap, MAX_WARP};
use crate::fault::Suspend;
use compiler_core::host_abi::ThreadCtx;
use compiler_core::lower::is_added_meeting;

/// Where the lanes of one warp meet at a collective. Double-buffered by round parity: a
/// lane deposits in round r and reads in round r + 1, while lanes that already moved on
/// deposit into the other buffer. Warps of 32 lanes use the first half.
#[derive(Clone)]
pub(super) struct WarpExchange {
    pub(super) values: [[u64; MAX_WARP]; 2],
    /// `(round << 32) | (site + 1)` of each lane's deposit; lanes with equal stamps met.
    pub(super) stamps: [[u64; MAX_WARP]; 2],
    /// The member mask of each lane's deposit.
    pub(super) members: [[u64; MAX_WARP]; 2],
    /// The lanes that have exited, or that the warp does not have (a bit per lane).
    pub(super) exited: u64,
    /// `exited` as the previous round ended (what every lane resuming in a round sees).
    pub(super) exited_seen: u64,
    /// The lanes waiting at a block barrier, and as the previous round ended: a member
    /// there does not come to a collective before the barrier completes.
    pub(super) at_barrier: u64,
    pub(super) at_barrier_seen: u64,
    /// Per buffer, the lanes that deposited one stamp this round: the common case, every
    /// lane at one collective, then needs no scan of the stamps (`mixed`: deposits of
    /// different stamps came, scan).
    pub(super) group_stamp: [u64; 2],
    pub(super) group_mask: [u64; 2],
    pub(super) group_mixed: [bool; 2],
}

impl Default for WarpExchange {
    fn default() -> Self {
        WarpExchange {
            values: [[0; MAX_WARP]; 2],
            stamps: [[0; MAX_WARP]; 2],
            members: [[0; MAX_WARP]; 2],
            exited: 0,
            exited_seen: 0,
            at_barrier: 0,
            at_barrier_seen: 0,
            group_stamp: [0; 2],
            group_mask: [0; 2],
            group_mixed: [false; 2],
        }
    }
}

/// Rounds a collective waits for the lanes of its member mask.
const MAX_WAIT_FOR_MEMBERS: u32 = 1 << 20;

/// A warp collective in fiber mode: deposit, let the other lanes run to their next
/// suspension point, then report who met here. Lanes of the member mask that have not
/// exited, do not wait at a block barrier and are not here yet (spinning on a flag, or a round behind after a divergent
/// path with one more collective than ours) are waited for: the lanes here deposit again
/// each round until they have come (PTX ISA 9.7.8.6 `shfl.sync`: "the executing thread
/// waits until all non-exited threads in membermask have executed" it).
pub(super) unsafe extern "C" fn warp_exchange_in_fiber(ctx: *mut ThreadCtx, site: u32, value: u64, member: u64, arrived: *mut u64) -> *const u64 {
    // SAFETY: `runtime` points to this fiber's `FiberRuntime`, whose `warp` and `round`
    // point into the block scratch that outlives every fiber of the block. Fibers of a
    // block run on one OS thread, one at a time, so these accesses never race.
    unsafe {
        leave_kernel(ctx);
        let rt = runtime(ctx);
        let mut waited = 0u32;
        let ours_added = is_added_meeting(site);
        let (buf, mask) = loop {
            let round = *rt.round;
            let buf = (round & 1) as usize;
            let stamp = ((round as u64) << 32) | (site as u64 + 1);
            let w = &mut *rt.warp;
            w.values[buf][rt.lane] = value;
            w.stamps[buf][rt.lane] = stamp;
            w.members[buf][rt.lane] = member;
            let bit = 1u64 << rt.lane;
            if w.group_stamp[buf] >> 32 != stamp >> 32 {
                // The first deposit of this round in this buffer.
                (w.group_stamp[buf], w.group_mask[buf], w.group_mixed[buf]) = (stamp, bit, false);
            } else if w.group_stamp[buf] == stamp {
                w.group_mask[buf] |= bit;
            } else {
                w.group_mixed[buf] = true;
            }
            (*rt.yielder).suspend(Suspend::Wait);
            let w = &*rt.warp;
            // The lanes whose deposit carries our stamp. Lanes a warp does not have never
            // deposit, so their stamps never match.
            let mask = if !w.group_mixed[buf] && w.group_stamp[buf] == stamp {
                w.group_mask[buf]
            } else {
                let mut mask = 0u64;
                for (lane, s) in w.stamps[buf].iter().enumerate() {
                    if *s == stamp {
                        mask |= 1 << lane;
                    }
                }
                mask
            };
            // Every lane resuming in this round sees the same stamps and `exited_seen`.
            // A member that never comes (it waits at a block barrier, or for us) must
            // not hang the block: after a while we meet without it.
            let mut missing = member & !w.exited_seen & !w.at_barrier_seen & !mask;
            // A member at another collective of this round whose own mask names us meets
            // us there (sm_70+ lets different `shfl.sync`s match): no one to wait for.
            // Unless it is at a meeting the compiler added and we are not: it comes here
            // next (`compiler_core::lower::is_added_meeting`).
            let mut look = missing;
            while look != 0 {
                let lane = look.trailing_zeros() as usize;
                look &= look - 1;
                let theirs = w.stamps[buf][lane];
                let at_added_meeting = is_added_meeting(((theirs & 0xffff_ffff) as u32).wrapping_sub(1));
                if theirs >> 32 == stamp >> 32 && w.members[buf][lane] >> rt.lane & 1 == 1 && (ours_added || !at_added_meeting) {
                    missing &= !(1u64 << lane);
                }
            }
            waited += 1;
            if missing == 0 || waited > MAX_WAIT_FOR_MEMBERS {
                break (buf, mask);
            }
        };
        *arrived = mask;
        enter_kernel(ctx);
        (*rt.warp).values[buf].as_ptr()
    }
}

/// Kernels with warp collectives always run as fibers; reaching this is a compiler bug.
pub(super) unsafe extern "C" fn warp_exchange_outside_fiber(
    ctx: *mut ThreadCtx,
    _site: u32,
    _value: u64,
    _member: u64,
    _arrived: *mut u64,
) -> *const u64 {
    // SAFETY: as in `trap`.
    unsafe { trap(ctx) };
    std::ptr::null()
}
