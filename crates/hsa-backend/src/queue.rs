//! HSA queues and AQL packet submission.
//!
//! A launch takes a queue from the pool, reserves a slot with
//! `hsa_queue_add_write_index_screlease`, writes the 64-byte packet body, publishes the
//! header word with a release store (the AQL rule: the packet processor reads a slot
//! only once its header is valid), rings the doorbell, and waits on the completion
//! signal in slices so a queue error reported through the queue callback is noticed even
//! though the signal will never complete.

use crate::ffi::{self, Agent, Hsa, Queue, Signal};
use compiler_core::target::amdgpu::abi::{dispatch_header, DispatchPacket};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// Slots per queue.
const QUEUE_SLOTS: u32 = 1024;

/// One HSA queue and the error its callback recorded (0: none).
pub struct HsaQueue {
    queue: *mut Queue,
    error: Arc<AtomicU32>,
}

// SAFETY: an HSA queue may be used from any thread; we use each from one at a time.
unsafe impl Send for HsaQueue {}

unsafe extern "C" fn on_queue_error(status: u32, _queue: *mut Queue, data: *mut std::ffi::c_void) {
    // SAFETY: `data` is the `AtomicU32` inside the `Arc` the queue's owner keeps alive.
    let error = unsafe { &*(data as *const AtomicU32) };
    error.store(status, Ordering::Release);
}

/// The queues of one device not in use right now.
pub struct QueuePool {
    hsa: Arc<Hsa>,
    agent: Agent,
    free: Mutex<Vec<HsaQueue>>,
    /// Timestamp ticks in 100 ms.
    wait_slice: u64,
}

/// The 32-bit word that publishes a packet: its header and `setup` field.
pub fn header_word(packet: &DispatchPacket) -> u32 {
    dispatch_header() as u32 | (packet.setup as u32) << 16
}

/// The byte offset of slot `index` in a ring of `slots` 64-byte packets.
pub fn slot_offset(index: u64, slots: u32) -> usize {
    ((index % slots as u64) * 64) as usize
}

impl QueuePool {
    pub fn new(hsa: Arc<Hsa>, agent: Agent, timestamp_hz: u64) -> QueuePool {
        QueuePool { hsa, agent, free: Mutex::new(Vec::new()), wait_slice: (timestamp_hz / 10).max(1) }
    }

    fn take(&self) -> Result<HsaQueue, u32> {
        if let Some(q) = self.free.lock().unwrap_or_else(|e| e.into_inner()).pop() {
            return Ok(q);
        }
        let error = Arc::new(AtomicU32::new(0));
        let mut queue: *mut Queue = std::ptr::null_mut();
        // SAFETY: valid agent; the callback data outlives the queue (kept in HsaQueue).
        let st = unsafe {
            (self.hsa.hsa_queue_create)(
                self.agent,
                QUEUE_SLOTS,
                ffi::QUEUE_TYPE_SINGLE,
                Some(on_queue_error),
                Arc::as_ptr(&error) as *mut _,
                u32::MAX,
                u32::MAX,
                &mut queue,
            )
        };
        if st != ffi::STATUS_SUCCESS || queue.is_null() {
            return Err(st);
        }
        Ok(HsaQueue { queue, error })
    }

    fn give_back(&self, q: HsaQueue) {
        if q.error.load(Ordering::Acquire) != 0 {
            // SAFETY: the queue came from hsa_queue_create and nothing else uses it.
            unsafe { (self.hsa.hsa_queue_destroy)(q.queue) };
        } else {
            self.free.lock().unwrap_or_else(|e| e.into_inner()).push(q);
        }
    }

    /// Submit `packet` (its `completion_signal` is set here) and wait for it. `Err` is the
    /// HSA status the queue reported.
    pub fn run(&self, mut packet: DispatchPacket) -> Result<(), u32> {
        let q = self.take()?;
        let result = self.run_on(&q, &mut packet);
        self.give_back(q);
        result
    }

    fn run_on(&self, q: &HsaQueue, packet: &mut DispatchPacket) -> Result<(), u32> {
        let hsa = &self.hsa;
        let mut signal = Signal::default();
        // SAFETY: creating a signal with no consumers restriction.
        let st = unsafe { (hsa.hsa_signal_create)(1, 0, std::ptr::null(), &mut signal) };
        if st != ffi::STATUS_SUCCESS {
            return Err(st);
        }
        packet.completion_signal = signal.0;
        // SAFETY: `q.queue` is a live queue; the slot arithmetic stays inside its ring.
        let result = unsafe {
            let queue = &*q.queue;
            let index = (hsa.hsa_queue_add_write_index_screlease)(q.queue, 1);
            while index - (hsa.hsa_queue_load_read_index_scacquire)(q.queue) >= queue.size as u64 {
                if q.error.load(Ordering::Acquire) != 0 {
                    break;
                }
                std::thread::yield_now();
            }
            let slot = (queue.base_address as *mut u8).add(slot_offset(index, queue.size));
            let bytes: [u8; 64] = std::mem::transmute(*packet);
            std::ptr::copy_nonoverlapping(bytes.as_ptr().add(4), slot.add(4), 60);
            (*(slot as *const AtomicU32)).store(header_word(packet), Ordering::Release);
            (hsa.hsa_signal_store_screlease)(queue.doorbell_signal, index as i64);
            loop {
                let v = (hsa.hsa_signal_wait_scacquire)(signal, ffi::SIGNAL_CONDITION_LT, 1, self.wait_slice, ffi::WAIT_STATE_BLOCKED);
                if v < 1 {
                    break Ok(());
                }
                let e = q.error.load(Ordering::Acquire);
                if e != 0 {
                    if let Some(f) = crate::fault::take() {
                        crate::debug(crate::fault::describe(&f));
                    }
                    break Err(e);
                }
            }
        };
        // SAFETY: the packet completed or its queue is dead: nothing will signal it again.
        unsafe { (hsa.hsa_signal_destroy)(signal) };
        result
    }
}

impl Drop for QueuePool {
    fn drop(&mut self) {
        for q in self.free.lock().unwrap_or_else(|e| e.into_inner()).drain(..) {
            // SAFETY: idle queues owned by the pool.
            unsafe { (self.hsa.hsa_queue_destroy)(q.queue) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_land_in_ring_slots_and_publish_header_and_setup() {
        assert_eq!(slot_offset(0, 1024), 0);
        assert_eq!(slot_offset(3, 1024), 192);
        assert_eq!(slot_offset(1024 + 5, 1024), 320);
        let p = DispatchPacket { setup: 3, ..Default::default() };
        let w = header_word(&p);
        assert_eq!(w & 0xffff, dispatch_header() as u32);
        assert_eq!(w >> 16, 3);
    }
}
