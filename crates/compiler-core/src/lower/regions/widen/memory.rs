//! The strips' loads and stores: the lanes' addresses and the run-time checks that pick
//! a vector access, a window of a guessed pattern (`pattern`) or a gather or scatter
//! (`Wide::instruction`'s `ld` and `st`).

use super::vector::{Wide, W};
use crate::lower::types::bits;
use crate::ptx::ast::*;

impl Wide<'_> {
    /// The lanes' pointers for address operand `op` in space `space` (global, shared or
    /// generic) for accesses of `size` bytes: returns (whether the active lanes'
    /// addresses are consecutive from lane 0's; the name `P` of the pointer vector, with
    /// `P.0` lane 0's pointer).
    pub(super) fn addresses(&mut self, op: &Operand, space: Option<StateSpace>, size: u64) -> W<Addr> {
        let lanes = self.lanes;
        let Operand::Address { base: AddressBase::Ident(r), offset } = op else { return Err("address form".into()) };
        // A 32-bit shared-window address is zero-extended, as the scalar path does; its
        // checks run on the 32-bit lanes (half the vector work), exact because a window is
        // also checked to lie in the block's shared memory, where nothing wraps.
        let narrow = match self.regs.get(r).copied() {
            Some(t) if bits(t) == 32 && space == Some(StateSpace::Shared) => {
                let v = self.read(&Operand::Ident { name: r.clone(), component: None }, ScalarType::U(32))?;
                let v = if *offset != 0 {
                    let t = self.t();
                    self.emit(format!("{t} = add <{lanes} x i32> {v}, {}", self.splat_const(&format!("i32 {offset}"))));
                    t
                } else {
                    v
                };
                let v0 = self.t();
                self.emit(format!("{v0} = extractelement <{lanes} x i32> {v}, i64 0"));
                Some((v, v0))
            }
            _ => None,
        };
        let (a, a0) = match &narrow {
            Some((v, v0)) => {
                let (z, z0) = (self.t(), self.t());
                self.emit(format!("{z} = zext <{lanes} x i32> {v} to <{lanes} x i64>"));
                self.emit(format!("{z0} = zext i32 {v0} to i64"));
                (z, z0)
            }
            None => {
                let a = match self.regs.get(r).copied() {
                    Some(t) if bits(t) == 64 => self.read(&Operand::Ident { name: r.clone(), component: None }, ScalarType::U(64))?,
                    Some(_) => return Err(format!("address register {r}")),
                    None => {
                        let s = self.symbol_address(r, 0)?;
                        self.splat(&s, ScalarType::U(64))
                    }
                };
                let a = if *offset != 0 {
                    let t = self.t();
                    self.emit(format!("{t} = add <{lanes} x i64> {a}, {}", self.splat_const(&format!("i64 {offset}"))));
                    t
                } else {
                    a
                };
                let a0 = self.t();
                self.emit(format!("{a0} = extractelement <{lanes} x i64> {a}, i64 0"));
                (a, a0)
            }
        };
        // Consecutive from lane 0's address for every active lane (lane 0's own address
        // need not be meaningful: inactive lanes are not accessed).
        let all = match &narrow {
            Some((v, v0)) => self.offsets_are(v, v0, "i32", &self.iota("i32", size)),
            None => self.offsets_are(&a, &a0, "i64", &self.iota("i64", size)),
        };
        let p = self.t();
        let base = match space {
            // Regions run on the host only, where a global address is an offset from one
            // base (`__ptx_ptr_global`).
            Some(StateSpace::Global) => {
                let base = self.t();
                self.emit(format!("{base} = call ptr @__ptx_ptr_global(i64 0)"));
                base
            }
            Some(StateSpace::Shared) => "%shared".to_string(),
            None => {
                self.emit(format!("{p} = inttoptr <{lanes} x i64> {a} to <{lanes} x ptr>"));
                self.emit(format!("{p}.0 = inttoptr i64 {a0} to ptr"));
                return Ok(Addr { consecutive: all, ptrs: p, lanes: a, first: a0, narrow });
            }
            Some(s) => return Err(format!("{s:?} memory")),
        };
        self.emit(format!("{p} = getelementptr i8, ptr {base}, <{lanes} x i64> {a}"));
        self.emit(format!("{p}.0 = getelementptr i8, ptr {base}, i64 {a0}"));
        Ok(Addr { consecutive: all, ptrs: p, lanes: a, first: a0, narrow })
    }

    /// Whether every active lane's address in `a` (`<N x elem>`) is lane 0's (`a0`) plus
    /// its element of the constant vector `offsets`.
    fn offsets_are(&mut self, a: &str, a0: &str, elem: &str, offsets: &str) -> String {
        let lanes = self.lanes;
        let a0s = self.splat(a0, if elem == "i32" { ScalarType::U(32) } else { ScalarType::U(64) });
        let (d, eq, all) = (self.t(), self.t(), self.t());
        self.emit(format!("{d} = sub <{lanes} x {elem}> {a}, {a0s}"));
        self.emit(format!("{eq} = icmp eq <{lanes} x {elem}> {d}, {offsets}"));
        let eq = match self.mask.clone() {
            Some(m) => {
                let (off, ok) = (self.t(), self.t());
                self.emit(format!("{off} = xor <{lanes} x i1> {m}, {}", self.splat_const("i1 true")));
                self.emit(format!("{ok} = or <{lanes} x i1> {eq}, {off}"));
                ok
            }
            None => eq,
        };
        self.emit(format!("{all} = call i1 @llvm.vector.reduce.and.v{lanes}i1(<{lanes} x i1> {eq})"));
        all
    }

    /// The window of the load or store being emitted (`size`-byte elements) whose lanes'
    /// offsets from lane 0's address were guessed at compile time (`pattern`), when they
    /// are no run but fit two vectors: (first element's offset from lane 0's address, elements
    /// in the window, each lane's element). Shared memory only: a store writes the window
    /// back whole, which only memory no other thread touches meanwhile allows (a block's
    /// shared memory while its strip runs), and a load must not read past what the block
    /// owns (checked against its shared size).
    pub(super) fn window(&self, size: u64, space: Option<StateSpace>) -> Option<(i64, u32, Vec<u32>)> {
        let d = self.pattern.as_ref()?;
        let size = size as i64;
        if space != Some(StateSpace::Shared) || d.iter().enumerate().all(|(l, &x)| x == l as i64 * size) || d.iter().any(|x| x % size != 0) {
            return None;
        }
        let min = *d.iter().min()?;
        let idx: Vec<u32> = d.iter().map(|x| ((x - min) / size) as u32).collect();
        let elems = idx.iter().max()? + 1;
        (elems <= 2 * self.lanes).then_some((min, elems, idx))
    }

    /// Whether the active lanes' shared-memory addresses `addr` follow pattern `idx`
    /// around lane 0's and the window lies in the block's shared memory.
    pub(super) fn window_check(&mut self, addr: &Addr, min: i64, elems: u32, idx: &[u32], size: u64) -> String {
        let all = match &addr.narrow {
            Some((v, v0)) => {
                let offsets: Vec<String> = idx.iter().map(|&k| format!("i32 {}", min + i64::from(k) * size as i64)).collect();
                self.offsets_are(v, v0, "i32", &format!("<{}>", offsets.join(", ")))
            }
            None => {
                let offsets: Vec<String> = idx.iter().map(|&k| format!("i64 {}", min + i64::from(k) * size as i64)).collect();
                self.offsets_are(&addr.lanes, &addr.first, "i64", &format!("<{}>", offsets.join(", ")))
            }
        };
        let (lo, hi, total, t64, in_lo, in_hi, ok, ok2) = (self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t());
        self.emit(format!("{lo} = add i64 {}, {min}", addr.first));
        self.emit(format!("{hi} = add i64 {lo}, {}", u64::from(elems) * size));
        self.emit(format!("{total} = call i32 @__ptx_sreg_total_smem_size(ptr %ctx)"));
        self.emit(format!("{t64} = zext i32 {total} to i64"));
        self.emit(format!("{in_lo} = icmp sge i64 {lo}, 0"));
        self.emit(format!("{in_hi} = icmp sle i64 {hi}, {t64}"));
        self.emit(format!("{ok} = and i1 {in_lo}, {in_hi}"));
        self.emit(format!("{ok2} = and i1 {ok}, {all}"));
        ok2
    }
}

/// A load's or store's lanes' addresses.
pub(super) struct Addr {
    /// Whether the active lanes' addresses run on from lane 0's.
    pub consecutive: String,
    /// The lanes' pointers (`<N x ptr>`), and `{ptrs}.0` lane 0's.
    pub ptrs: String,
    /// The lanes' addresses (`<N x i64>`, in their state space).
    pub lanes: String,
    /// Lane 0's address (i64).
    pub first: String,
    /// For a 32-bit shared-memory address: the lanes' 32-bit addresses and lane 0's.
    pub narrow: Option<(String, String)>,
}
