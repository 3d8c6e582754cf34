//! The host API's parallel layout of the pseudo-random generators: how many parallel
//! subsequences ("threads") NVIDIA's kernels use for each generator and ordering, and the
//! interleaving of their outputs.
//!
//! Generation works in *slots*: global slot g belongs to thread g mod T and is that
//! thread's (g div T)-th slot; a slot consumes `inputs` consecutive values of the
//! thread's stream and produces `outputs` consecutive results. So 32-bit results of
//! XORWOW are one value per slot (result n from thread n mod 4096), Box-Muller pairs are
//! two values in and two results out, Philox writes the four values of one counter
//! together. Thread states are kept between calls and skipped forward as needed.
//!
//! Where a call starts: for XORWOW and MRG32k3a NVIDIA's generators count slots, not
//! results. The call's slot g is S + i / outputs, where S is the offset set by
//! `curandSetGeneratorOffset` plus the slots of earlier calls (a Box-Muller pair or a
//! double is one slot); each thread's stream carries on where its last slot left it
//! (a pair or a double consumed two values), starting at value ceil((offset - t) / T)
//! (observed on an H100: a normal call of 2 then one of 6 takes its pairs from threads 1,
//! 2 and 3). Philox counts in values: result offset + i is value j of slot (offset + i) / 4.

use crate::mrg32k3a::Mrg32k3a;
use crate::philox::Philox;
use crate::xorwow::Xorwow;

/// One thread's stream of 32-bit values (MRG32k3a also has native doubles).
pub trait Stream: Clone + Send {
    /// Thread `thread`'s stream under `seed`, at value `pos`.
    fn at(seed: u64, thread: u64, pos: u64) -> Self;
    fn skip(&mut self, n: u64);
    fn next_u32(&mut self) -> u32;
}

impl Stream for Xorwow {
    fn at(seed: u64, thread: u64, pos: u64) -> Self {
        Xorwow::init(seed, thread, pos)
    }
    fn skip(&mut self, n: u64) {
        Xorwow::skip(self, n as u128)
    }
    fn next_u32(&mut self) -> u32 {
        Xorwow::next_u32(self)
    }
}

impl Stream for Philox {
    fn at(seed: u64, thread: u64, pos: u64) -> Self {
        Philox::init(seed, thread, pos)
    }
    fn skip(&mut self, n: u64) {
        Philox::skip(self, n as u128)
    }
    fn next_u32(&mut self) -> u32 {
        Philox::next_u32(self)
    }
}

impl Stream for Mrg32k3a {
    fn at(seed: u64, thread: u64, pos: u64) -> Self {
        Mrg32k3a::init(seed, thread, pos)
    }
    fn skip(&mut self, n: u64) {
        Mrg32k3a::skip(self, n as u128)
    }
    fn next_u32(&mut self) -> u32 {
        Mrg32k3a::next_u32(self)
    }
}

/// T thread streams, created lazily and kept at the position of their next value.
pub struct Threads<S: Stream> {
    seed: u64,
    states: Vec<Option<(u64, S)>>,
}

impl<S: Stream> Threads<S> {
    pub fn new(seed: u64, threads: u64) -> Self {
        Threads { seed, states: vec![None; threads as usize] }
    }

    pub fn count(&self) -> u64 {
        self.states.len() as u64
    }

    /// Thread `t`'s stream positioned at value `pos`.
    pub fn get(&mut self, t: u64, pos: u64) -> &mut S {
        let slot = &mut self.states[t as usize];
        match slot {
            Some((p, s)) if *p <= pos => {
                s.skip(pos - *p);
                *p = pos;
            }
            _ => *slot = Some((pos, S::at(self.seed, t, pos))),
        }
        &mut slot.as_mut().unwrap().1
    }

    /// Runs `slot(g, stream)` for global slots g in [first, first + n), thread by thread.
    /// Thread t's first slot of the call reads its stream from value `start(t)`; each slot
    /// consumes exactly `inputs` values.
    /// `start(t, kept)` gets the position thread t was left at by earlier calls, if any.
    pub fn for_slots(&mut self, first: u64, n: u64, inputs: u64, start: impl Fn(u64, Option<u64>) -> u64, mut slot: impl FnMut(u64, &mut S)) {
        let t_count = self.count();
        let threads = n.min(t_count);
        for i in 0..threads {
            let g0 = first + i;
            let t = g0 % t_count;
            let mut pos = start(t, self.states[t as usize].as_ref().map(|(p, _)| *p));
            let mut s = self.get(t, pos).clone();
            let mut g = g0;
            while g < first + n {
                slot(g, &mut s);
                g += t_count;
                pos += inputs;
            }
            self.states[t as usize] = Some((pos, s));
        }
    }
}
