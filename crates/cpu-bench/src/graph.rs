//! Graph replay (issue 14): a chain of [`CHAIN`] small dependent kernels, launched one by
//! one on a stream and, captured once into a graph and instantiated once, replayed with
//! `cuGraphLaunch`; each way followed by one `cuStreamSynchronize`. The ratio is graph /
//! one by one (lower is better): replaying must cost less than launching.

use crate::cu::{arg, DeviceBuffer, Stream};
use crate::{median, seconds, Bench, Row, Target};

/// Kernels in the chain.
const CHAIN: usize = 100;
/// Elements of the buffer each kernel adds 1 to: one block, one element per thread.
const N: usize = 256;
/// Chains of each way before timing (stream worker, pool, caches).
const WARMUP: usize = 200;
/// Timed chains of each way, alternating.
const REPS: usize = 2000;

impl Bench {
    pub(crate) fn graph_replay(&mut self) {
        let m = self.module("chain.ptx");
        let k = m.function("add_one");
        let stream = Stream::new();
        // A buffer per way, so that each way's result is checked on its own.
        let (by_one, replayed) = (self.cuda.alloc(N * 4), self.cuda.alloc(N * 4));
        by_one.upload(&[0.0; N]);
        replayed.upload(&[0.0; N]);
        let n = N as i32;
        let chain = |buf: &DeviceBuffer| {
            for _ in 0..CHAIN {
                k.launch_on_stream(&stream, [1, 1, 1], [N as u32, 1, 1], 0, &[arg(&buf.ptr), arg(&n)]);
            }
        };
        let graph = stream.capture(|| chain(&replayed));
        let exec = graph.instantiate();
        let one_by_one = || {
            chain(&by_one);
            stream.sync();
        };
        let replay = || {
            exec.launch(&stream);
            stream.sync();
        };
        for _ in 0..WARMUP {
            one_by_one();
            replay();
        }
        let (mut launched, mut replays) = (Vec::with_capacity(REPS), Vec::with_capacity(REPS));
        for rep in 0..REPS {
            // Alternate which way goes first, so neither always finds the other's state.
            if rep % 2 == 0 {
                launched.push(seconds(one_by_one));
                replays.push(seconds(replay));
            } else {
                replays.push(seconds(replay));
                launched.push(seconds(one_by_one));
            }
        }
        // Every element gained 1 per kernel of every chain, exactly (small integers in f32).
        let want = ((WARMUP + REPS) * CHAIN) as f32;
        for (way, buf) in [("one by one", &by_one), ("graph", &replayed)] {
            let mut got = vec![0.0f32; N];
            buf.download(&mut got);
            let wrong = got.iter().position(|&v| v != want);
            assert!(wrong.is_none(), "graph replay ({way}): element {wrong:?} is {}, want {want}", got[wrong.unwrap_or(0)]);
        }
        drop((exec, graph));
        let (g, b) = (median(&replays), median(&launched));
        self.rows.push(Row {
            case: format!("chain of {CHAIN} one-block kernels: graph replay vs one by one, + stream sync"),
            ours: format!("{:.1} us ({:.2} us per kernel)", g * 1e6, g * 1e6 / CHAIN as f64),
            baseline: format!("{:.1} us ({:.2} us per kernel, cuLaunchKernel)", b * 1e6, b * 1e6 / CHAIN as f64),
            ratio: Some(g / b),
            target: Target::RatioBelow(0.5),
            ours_value: g,
        });
    }
}
