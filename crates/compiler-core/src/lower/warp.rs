//! Warp collectives (PTX ISA 9.7.13.x / 9.7.8.x): `shfl.sync`, `vote`, `activemask`,
//! `redux.sync`, `match.sync`, `bar.warp.sync`.
//!
//! Each lane deposits one 64-bit value through the runtime's `warp_exchange`, which
//! returns the warp's values and the mask of lanes that met at the same instruction; the
//! result is then computed with vector IR over the 32 lanes. Kernels using these run as
//! fibers (see `cpu-backend`), like kernels with block barriers.

use super::func::{FnLowerer, R};
use super::types::{bits, is_signed, storage, Mods};
use crate::host_abi;
use crate::ptx::ast::*;

/// Lanes per warp in PTX from NVIDIA's tools.
const WARP: u32 = 32;

/// Whether `i` is a warp collective that needs the lanes of a warp to meet.
pub(crate) fn is_collective(i: &Instruction) -> bool {
    matches!(i.opcode.as_str(), "shfl" | "vote" | "activemask" | "redux" | "match")
        || ((i.opcode == "bar" || i.opcode == "barrier") && i.modifiers.iter().any(|m| m == ".warp"))
}

impl FnLowerer<'_> {
    /// Deposit `value` (an i64) and return `(values_ptr, arrived_mask)`.
    fn exchange(&mut self, value: &str) -> (String, String) {
        self.uses_barrier = true;
        let site = self.span.line.wrapping_mul(4096).wrapping_add(self.span.col);
        let mask_p = self.alloca("i32", 4);
        let vals = self.call_runtime(host_abi::OFFSET_WARP_EXCHANGE, "ptr", &format!(", i32 {site}, i64 {value}, ptr {mask_p}"));
        let mask = self.t();
        self.emit(format!("{mask} = load i32, ptr {mask_p}"));
        (vals, mask)
    }

    fn lane(&mut self) -> R<String> {
        Ok(self.special("%laneid", None)?.expect("laneid is a special register"))
    }

    /// Lower a collective; `is_collective(i)` holds.
    pub(crate) fn collective(&mut self, i: &Instruction) -> R<()> {
        let m = Mods::new(&i.modifiers);
        let ops = &i.operands;
        match i.opcode.as_str() {
            "shfl" => self.shfl(&m, ops),
            "vote" => self.vote(&m, ops),
            "activemask" => {
                let (_, mask) = self.exchange("0");
                self.dst(ops.first().ok_or_else(|| self.err("activemask needs a destination"))?, ScalarType::B(32), &mask)
            }
            "redux" => self.redux(&m, ops),
            "match" => self.match_sync(&m, ops),
            _ => {
                self.exchange("0");
                Ok(())
            }
        }
    }

    /// `shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask` (PTX ISA 9.7.8.6):
    /// `c` packs the clamp value in bits 0-4 and the segment mask in bits 8-12.
    fn shfl(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        if ops.len() < 4 {
            return Err(self.err("shfl needs d, a, b, c"));
        }
        let mode = ["up", "down", "bfly", "idx"]
            .into_iter()
            .find(|x| m.has(&format!(".{x}")))
            .ok_or_else(|| self.err("shfl needs a mode (.up/.down/.bfly/.idx)"))?;
        let a = self.src(&ops[1], ScalarType::B(32))?;
        let b = self.src(&ops[2], ScalarType::U(32))?;
        let c = self.src(&ops[3], ScalarType::U(32))?;
        let a64 = self.t();
        self.emit(format!("{a64} = zext i32 {a} to i64"));
        let (vals, arrived) = self.exchange(&a64);
        let lane = self.lane()?;
        let e = |l: &mut Self, s: String| l.emit(s);
        let (bv, cv, seg) = (self.t(), self.t(), self.t());
        e(self, format!("{bv} = and i32 {b}, 31"));
        e(self, format!("{cv} = and i32 {c}, 31"));
        let s8 = self.t();
        e(self, format!("{s8} = lshr i32 {c}, 8"));
        e(self, format!("{seg} = and i32 {s8}, 31"));
        let nseg = self.t();
        e(self, format!("{nseg} = xor i32 {seg}, 31"));
        let (minl, cpart, maxl) = (self.t(), self.t(), self.t());
        e(self, format!("{minl} = and i32 {lane}, {seg}"));
        e(self, format!("{cpart} = and i32 {cv}, {nseg}"));
        e(self, format!("{maxl} = or i32 {minl}, {cpart}"));
        let (j, pval) = (self.t(), self.t());
        match mode {
            "up" => {
                e(self, format!("{j} = sub i32 {lane}, {bv}"));
                e(self, format!("{pval} = icmp sge i32 {j}, {maxl}"));
            }
            "down" => {
                e(self, format!("{j} = add i32 {lane}, {bv}"));
                e(self, format!("{pval} = icmp sle i32 {j}, {maxl}"));
            }
            "bfly" => {
                e(self, format!("{j} = xor i32 {lane}, {bv}"));
                e(self, format!("{pval} = icmp sle i32 {j}, {maxl}"));
            }
            _ => {
                let bn = self.t();
                e(self, format!("{bn} = and i32 {bv}, {nseg}"));
                e(self, format!("{j} = or i32 {minl}, {bn}"));
                e(self, format!("{pval} = icmp sle i32 {j}, {maxl}"));
            }
        }
        let src = self.t();
        e(self, format!("{src} = select i1 {pval}, i32 {j}, i32 {lane}"));
        // Reading an inactive lane is undefined in PTX; we return the lane's own value.
        let bit = self.t();
        e(self, format!("{bit} = shl i32 1, {src}"));
        let has = self.t();
        e(self, format!("{has} = and i32 {bit}, {arrived}"));
        let ok = self.t();
        e(self, format!("{ok} = icmp ne i32 {has}, 0"));
        let idx = self.t();
        e(self, format!("{idx} = select i1 {ok}, i32 {src}, i32 {lane}"));
        let idx64 = self.t();
        e(self, format!("{idx64} = zext i32 {idx} to i64"));
        let p = self.t();
        e(self, format!("{p} = getelementptr i64, ptr {vals}, i64 {idx64}"));
        let v = self.t();
        e(self, format!("{v} = load i64, ptr {p}"));
        let r = self.t();
        e(self, format!("{r} = trunc i64 {v} to i32"));
        match &ops[0] {
            Operand::List(dp) if dp.len() == 2 => {
                self.dst(&dp[0], ScalarType::B(32), &r)?;
                self.dst(&dp[1], ScalarType::Pred, &pval)
            }
            d => self.dst(d, ScalarType::B(32), &r),
        }
    }

    /// The lanes (as an i32 mask) whose deposited value is non-zero.
    fn ballot_of(&mut self, vals: &str) -> String {
        let v = self.t();
        self.emit(format!("{v} = load <{WARP} x i64>, ptr {vals}, align 8"));
        let c = self.t();
        self.emit(format!("{c} = icmp ne <{WARP} x i64> {v}, zeroinitializer"));
        let b = self.t();
        self.emit(format!("{b} = bitcast <{WARP} x i1> {c} to i32"));
        b
    }

    fn member_mask(&mut self, op: Option<&Operand>) -> R<String> {
        match op {
            Some(o) => self.src(o, ScalarType::B(32)),
            None => Ok("-1".into()),
        }
    }

    /// `vote{.sync}.{all,any,uni}.pred d, {!}a{, membermask}` and `.ballot.b32`.
    fn vote(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        if ops.len() < 2 {
            return Err(self.err("vote needs d, a"));
        }
        let p = self.src(&ops[1], ScalarType::Pred)?;
        let member = self.member_mask(ops.get(2))?;
        let p64 = self.t();
        self.emit(format!("{p64} = zext i1 {p} to i64"));
        let (vals, arrived) = self.exchange(&p64);
        let active = self.t();
        self.emit(format!("{active} = and i32 {arrived}, {member}"));
        let all_bits = self.ballot_of(&vals);
        let ballot = self.t();
        self.emit(format!("{ballot} = and i32 {all_bits}, {active}"));
        if m.has(".ballot") {
            return self.dst(&ops[0], ScalarType::B(32), &ballot);
        }
        let (all, any) = (self.t(), self.t());
        self.emit(format!("{all} = icmp eq i32 {ballot}, {active}"));
        self.emit(format!("{any} = icmp ne i32 {ballot}, 0"));
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
    fn redux(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = m.types.first().copied().ok_or_else(|| self.err("redux needs a type"))?;
        if bits(ty) != 32 {
            return Err(self.err("redux.sync is only supported on 32-bit integer types"));
        }
        if ops.len() < 3 {
            return Err(self.err("redux needs d, a, membermask"));
        }
        let a = self.src(&ops[1], ty)?;
        let member = self.member_mask(ops.get(2))?;
        let a64 = self.t();
        self.emit(format!("{a64} = zext i32 {a} to i64"));
        let (vals, arrived) = self.exchange(&a64);
        let active = self.t();
        self.emit(format!("{active} = and i32 {arrived}, {member}"));
        let op = ["add", "min", "max", "and", "or", "xor"].into_iter().find(|x| m.has(&format!(".{x}"))).ok_or_else(|| self.err("redux needs an operation"))?;
        let (f, identity) = match (op, is_signed(ty)) {
            ("add", _) => ("add", "0"),
            ("min", true) => ("smin", "2147483647"),
            ("min", false) => ("umin", "-1"),
            ("max", true) => ("smax", "-2147483648"),
            ("max", false) => ("umax", "0"),
            ("and", _) => ("and", "-1"),
            ("or", _) => ("or", "0"),
            _ => ("xor", "0"),
        };
        let v = self.t();
        self.emit(format!("{v} = load <{WARP} x i64>, ptr {vals}, align 8"));
        let v32 = self.t();
        self.emit(format!("{v32} = trunc <{WARP} x i64> {v} to <{WARP} x i32>"));
        let sel = self.t();
        self.emit(format!("{sel} = bitcast i32 {active} to <{WARP} x i1>"));
        let masked = self.t();
        self.emit(format!("{masked} = select <{WARP} x i1> {sel}, <{WARP} x i32> {v32}, <{WARP} x i32> splat (i32 {identity})"));
        let r = self.t();
        self.emit(format!("{r} = call i32 @llvm.vector.reduce.{f}.v{WARP}i32(<{WARP} x i32> {masked})"));
        self.dst(&ops[0], ty, &r)
    }

    /// `match.{any,all}.sync.{b32,b64} d[|p], a, membermask` (PTX ISA 9.7.13.x).
    fn match_sync(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
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
        let member = self.member_mask(ops.get(2))?;
        let (vals, arrived) = self.exchange(&a64);
        let active = self.t();
        self.emit(format!("{active} = and i32 {arrived}, {member}"));
        let v = self.t();
        self.emit(format!("{v} = load <{WARP} x i64>, ptr {vals}, align 8"));
        let ins = self.t();
        self.emit(format!("{ins} = insertelement <{WARP} x i64> poison, i64 {a64}, i64 0"));
        let splat = self.t();
        self.emit(format!("{splat} = shufflevector <{WARP} x i64> {ins}, <{WARP} x i64> poison, <{WARP} x i32> zeroinitializer"));
        let eq = self.t();
        self.emit(format!("{eq} = icmp eq <{WARP} x i64> {v}, {splat}"));
        let eqm = self.t();
        self.emit(format!("{eqm} = bitcast <{WARP} x i1> {eq} to i32"));
        let same = self.t();
        self.emit(format!("{same} = and i32 {eqm}, {active}"));
        if m.has(".any") {
            return self.dst(&ops[0], ScalarType::B(32), &same);
        }
        let all = self.t();
        self.emit(format!("{all} = icmp eq i32 {same}, {active}"));
        let d = self.t();
        self.emit(format!("{d} = select i1 {all}, i32 {active}, i32 0"));
        match &ops[0] {
            Operand::List(dp) if dp.len() == 2 => {
                self.dst(&dp[0], ScalarType::B(32), &d)?;
                self.dst(&dp[1], ScalarType::Pred, &all)
            }
            o => self.dst(o, ScalarType::B(32), &d),
        }
    }
}
