//! Warp collectives (PTX ISA 9.7.13.x / 9.7.8.x): `shfl.sync`, `vote`, `activemask`,
//! `redux.sync`, `match.sync`, `bar.warp.sync`.
//!
//! Each becomes one call of a neutral intrinsic (`__ptx_shfl`, `__ptx_vote`, ...; see
//! `intrinsics`) with a per-call-site constant `site`; the target implements the meeting
//! of the lanes (the host through its runtime's warp exchange, AMDGPU with cross-lane
//! instructions). On the CPU device, kernels using these run as fibers, or as regions where
//! `regions::warp_split` can split them.
//!
//! Lane masks and lane numbers follow the module's warp size (32 or 64, see `lanemask`).

use super::func::{FnLowerer, R};
use super::intrinsics::{REDUX_OPS, SHFL_MODES};
use super::types::{bits, is_signed, storage, Mods};
use crate::ptx::ast::*;

/// Whether `i` is a warp collective that needs the lanes of a warp to meet.
pub(crate) fn is_collective(i: &Instruction) -> bool {
    matches!(i.opcode.as_str(), "shfl" | "vote" | "activemask" | "redux" | "match")
        || super::matrix::is_collective(i)
        || ((i.opcode == "bar" || i.opcode == "barrier") && i.modifiers.iter().any(|m| m == ".warp"))
}

/// Whether `i` needs the lanes of its warp to meet in a module of `warp_size` lanes: the
/// collectives, and `exit` in 64-lane modules (it checks the warp is converged).
pub(crate) fn needs_warp(i: &Instruction, warp_size: u32) -> bool {
    is_collective(i) || (warp_size == 64 && i.opcode == "exit")
}

/// `shfl.sync.down.b32`: the instruction as written, for diagnostics.
fn spelled(i: &Instruction) -> String {
    format!("{}{}", i.opcode, i.modifiers.concat())
}

impl FnLowerer<'_> {
    /// The call-site constant of the instruction being lowered.
    pub(crate) fn site(&mut self) -> u32 {
        self.uses_barrier = true;
        self.span.line.wrapping_mul(4096).wrapping_add(self.span.col)
    }

    /// The meeting of the lanes at collective intrinsic `name` (arguments after the site
    /// in `rest`): a call of the intrinsic, or in the read half of a region split
    /// (`regions::warp_split`) of the target's `__ptx_region_*` helper, which takes the
    /// exchange's values and the lanes that met in place of the ctx and the site.
    fn meet(&mut self, name: &str, site: u32, rest: &str) -> String {
        let sep = if rest.is_empty() { "" } else { ", " };
        if !self.warp_read {
            return self.intrinsic(name, &format!("i32 {site}{sep}{rest}"));
        }
        let (vals, arrived) = self.exchange_view();
        let ret = super::intrinsics::lookup(name).expect("a collective intrinsic").ret;
        let helper = name.replacen("__ptx_", "__ptx_region_", 1);
        let call = format!("call {ret} @{helper}(ptr {vals}, i64 {arrived}{sep}{rest})");
        if ret == "void" {
            self.emit(call);
            return String::new();
        }
        let t = self.t();
        self.emit(format!("{t} = {call}"));
        t
    }

    /// Lower a collective; `is_collective(i)` holds.
    pub(crate) fn collective(&mut self, i: &Instruction) -> R<()> {
        let m = Mods::new(&i.modifiers);
        let ops = &i.operands;
        let what = spelled(i);
        match i.opcode.as_str() {
            "shfl" => self.shfl(&m, ops, &what),
            "vote" => self.vote(&m, ops, &what),
            "activemask" => {
                let d = ops.first().ok_or_else(|| self.err("activemask needs a destination"))?;
                let site = self.site();
                let mask = self.meet("__ptx_activemask", site, "");
                self.mask_dst(d, &mask, &what)
            }
            "redux" => self.redux(&m, ops, &what),
            "match" => self.match_sync(&m, ops, &what),
            "wmma" | "mma" | "ldmatrix" | "stmatrix" | "movmatrix" => self.warp_matrix(i),
            _ => {
                // bar.warp.sync membermask
                let member = self.member_mask(ops.first(), &what)?;
                let site = self.site();
                self.meet("__ptx_warp_sync", site, &format!("i64 {member}"));
                Ok(())
            }
        }
    }

    /// `shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask` (PTX ISA 9.7.8.6):
    /// `c` packs the clamp value in bits 0-4 and the segment mask in bits 8-12, and `b`'s
    /// lane is bits 0-4; in a 64-lane module each has one bit more (bits 0-5, 8-13 and 0-5:
    /// seed 002, "cval in bits 0-7 and segmask in bits 8-15" portably). The source lane and
    /// the in-range predicate are PTX arithmetic, computed here; the target only reads `a`
    /// from the source lane.
    fn shfl(&mut self, m: &Mods, ops: &[Operand], what: &str) -> R<()> {
        if ops.len() < 4 {
            return Err(self.err("shfl needs d, a, b, c"));
        }
        let mode = SHFL_MODES.iter().find(|x| m.has(&format!(".{x}"))).ok_or_else(|| self.err("shfl needs a mode (.up/.down/.bfly/.idx)"))?;
        let a = self.src(&ops[1], ScalarType::B(32))?;
        let b = self.src(&ops[2], ScalarType::U(32))?;
        let c = self.src(&ops[3], ScalarType::U(32))?;
        let member = self.member_mask(ops.get(4), what)?;
        let lane = self.intrinsic("__ptx_sreg_laneid", "");
        let top = (self.cx.warp_size - 1).to_string();
        let mut op = |text: String| {
            let t = self.t();
            self.emit(format!("{t} = {text}"));
            t
        };
        let (src, pval) = shfl_source(mode, "i32", "i1", &top, "8", &lane, &b, &c, &mut op);
        let site = self.site();
        let r = self.meet("__ptx_shfl", site, &format!("i32 {a}, i32 {src}, i64 {member}"));
        match &ops[0] {
            Operand::List(dp) if dp.len() == 2 => {
                self.dst(&dp[0], ScalarType::B(32), &r)?;
                self.dst(&dp[1], ScalarType::Pred, &pval)
            }
            d => self.dst(d, ScalarType::B(32), &r),
        }
    }

    /// Split a `{i64, i64}` result (two lane masks) into its fields.
    fn pair(&mut self, res: &str) -> (String, String) {
        let (x, y) = (self.t(), self.t());
        self.emit(format!("{x} = extractvalue {{ i64, i64 }} {res}, 0"));
        self.emit(format!("{y} = extractvalue {{ i64, i64 }} {res}, 1"));
        (x, y)
    }

    /// `vote{.sync}.{all,any,uni}.pred d, {!}a{, membermask}` and `.ballot.b32`.
    fn vote(&mut self, m: &Mods, ops: &[Operand], what: &str) -> R<()> {
        if ops.len() < 2 {
            return Err(self.err("vote needs d, a"));
        }
        let p = self.src(&ops[1], ScalarType::Pred)?;
        let member = self.member_mask(ops.get(2), what)?;
        let site = self.site();
        let res = self.meet("__ptx_vote", site, &format!("i1 {p}, i64 {member}"));
        let (ballot, active) = self.pair(&res);
        if m.has(".ballot") {
            return self.mask_dst(&ops[0], &ballot, what);
        }
        let (all, any) = (self.t(), self.t());
        self.emit(format!("{all} = icmp eq i64 {ballot}, {active}"));
        self.emit(format!("{any} = icmp ne i64 {ballot}, 0"));
        let r = if m.has(".all") {
            all
        } else if m.has(".any") {
            any
        } else {
            // .uni: all active lanes agree.
            let none = self.t();
            self.emit(format!("{none} = xor i1 {any}, true"));
            let u = self.t();
            self.emit(format!("{u} = or i1 {all}, {none}"));
            u
        };
        self.dst(&ops[0], ScalarType::Pred, &r)
    }

    /// `redux.sync.{add,min,max,and,or,xor}.{u32,s32,b32} d, a, membermask` (sm_80).
    fn redux(&mut self, m: &Mods, ops: &[Operand], what: &str) -> R<()> {
        let ty = m.types.first().copied().ok_or_else(|| self.err("redux needs a type"))?;
        if bits(ty) != 32 {
            return Err(self.err("redux.sync is only supported on 32-bit integer types"));
        }
        if ops.len() < 3 {
            return Err(self.err("redux needs d, a, membermask"));
        }
        let a = self.src(&ops[1], ty)?;
        let member = self.member_mask(ops.get(2), what)?;
        let op = ["add", "min", "max", "and", "or", "xor"]
            .into_iter()
            .find(|x| m.has(&format!(".{x}")))
            .ok_or_else(|| self.err("redux needs an operation"))?;
        let name = match (op, is_signed(ty)) {
            ("min" | "max", true) => format!("{op}.s"),
            ("min" | "max", false) => format!("{op}.u"),
            _ => op.to_string(),
        };
        let code = REDUX_OPS.iter().position(|x| *x == name).expect("a redux operation");
        let site = self.site();
        let r = self.meet("__ptx_redux", site, &format!("i32 {code}, i32 {a}, i64 {member}"));
        self.dst(&ops[0], ty, &r)
    }

    /// `match.{any,all}.sync.{b32,b64} d[|p], a, membermask` (PTX ISA 9.7.13.x).
    fn match_sync(&mut self, m: &Mods, ops: &[Operand], what: &str) -> R<()> {
        let ty = m.types.first().copied().ok_or_else(|| self.err("match needs a type"))?;
        if ops.len() < 3 {
            return Err(self.err("match needs d, a, membermask"));
        }
        let a = self.src(&ops[1], ty)?;
        let a64 = if bits(ty) == 64 {
            a
        } else {
            let t = self.t();
            self.emit(format!("{t} = zext {} {a} to i64", storage(ty)));
            t
        };
        let member = self.member_mask(ops.get(2), what)?;
        let site = self.site();
        let res = self.meet("__ptx_match", site, &format!("i64 {a64}, i64 {member}"));
        let (same, active) = self.pair(&res);
        if m.has(".any") {
            return self.mask_dst(&ops[0], &same, what);
        }
        let all = self.t();
        self.emit(format!("{all} = icmp eq i64 {same}, {active}"));
        let d = self.t();
        self.emit(format!("{d} = select i1 {all}, i64 {active}, i64 0"));
        match &ops[0] {
            Operand::List(dp) if dp.len() == 2 => {
                self.mask_dst(&dp[0], &d, what)?;
                self.dst(&dp[1], ScalarType::Pred, &all)
            }
            o => self.mask_dst(o, &d, what),
        }
    }
}

/// The source lane of `shfl` mode `mode` (`up`, `down`, `bfly`, `idx`) and whether it is in
/// range, as IR (PTX ISA 9.7.8.6): `c` packs the clamp value in its low bits and the
/// segment mask from bit 8, `top` is the highest lane number, `lane`, `b` and `c` are
/// values of type `ty` (`i32`, or a vector of them with `top` and `eight` as constants
/// of that type and `bool_ty` the matching predicate type); `op` emits one instruction
/// and names its result. Returns (source lane, in range). Shared by the per-thread
/// lowering and the vector strips (`regions::widen`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn shfl_source(
    mode: &str,
    ty: &str,
    bool_ty: &str,
    top: &str,
    eight: &str,
    lane: &str,
    b: &str,
    c: &str,
    op: &mut dyn FnMut(String) -> String,
) -> (String, String) {
    let bv = op(format!("and {ty} {b}, {top}"));
    let cv = op(format!("and {ty} {c}, {top}"));
    let s8 = op(format!("lshr {ty} {c}, {eight}"));
    let seg = op(format!("and {ty} {s8}, {top}"));
    let nseg = op(format!("xor {ty} {seg}, {top}"));
    let minl = op(format!("and {ty} {lane}, {seg}"));
    let cpart = op(format!("and {ty} {cv}, {nseg}"));
    let maxl = op(format!("or {ty} {minl}, {cpart}"));
    let (j, cmp) = match mode {
        "up" => (op(format!("sub {ty} {lane}, {bv}")), "sge"),
        "down" => (op(format!("add {ty} {lane}, {bv}")), "sle"),
        "bfly" => (op(format!("xor {ty} {lane}, {bv}")), "sle"),
        _ => {
            let bn = op(format!("and {ty} {bv}, {nseg}"));
            (op(format!("or {ty} {minl}, {bn}")), "sle")
        }
    };
    let pval = op(format!("icmp {cmp} {ty} {j}, {maxl}"));
    let src = op(format!("select {bool_ty} {pval}, {ty} {j}, {ty} {lane}"));
    (src, pval)
}

/// [`shfl_source`] on constants: lane `lane`'s source lane and whether it is in range,
/// for the strips' shuffles with constant lane and clamp operands.
pub(crate) fn shfl_source_lane(mode: &str, lane: i64, b: i64, c: i64, top: i64) -> (i64, bool) {
    let (bv, cv, seg) = (b & top, c & top, (c >> 8) & top);
    let nseg = seg ^ top;
    let (minl, maxl) = (lane & seg, (lane & seg) | (cv & nseg));
    let (j, ok) = match mode {
        "up" => (lane - bv, lane - bv >= maxl),
        "down" => (lane + bv, lane + bv <= maxl),
        "bfly" => (lane ^ bv, (lane ^ bv) <= maxl),
        _ => (minl | (bv & nseg), (minl | (bv & nseg)) <= maxl),
    };
    (if ok { j } else { lane }, ok)
}
