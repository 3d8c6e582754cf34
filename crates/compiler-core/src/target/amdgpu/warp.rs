//! Warp collectives on AMD wavefronts (see the module doc of `amdgpu` for the warp and
//! wavefront mapping).
//!
//! Three shapes ([`WarpShape`]): a 32-lane PTX warp is the whole wavefront on wave32
//! targets and one half of it on wave64 ones; a 64-lane PTX warp (`.warp_size 64`) is a
//! whole wave64 wavefront. `__ptx_hw_lane` is the lane in the wavefront (`mbcnt`), `& (lanes
//! - 1)` the PTX lane and `& 32` (32-lane warps on wave64 only) the first hardware lane of
//! the warp. `__ptx_warp_ballot(p)` is the ballot of the caller's warp as an integer of the
//! warp's width (`llvm.amdgcn.ballot`, shifted to the warp's half where a wavefront holds
//! two warps); its value for `true` is the set of lanes executing the call. `shfl` reads
//! its source lane with `ds_bpermute_b32` (on gfx9 it reaches all 64 lanes of the
//! wavefront); `redux` is a log2(lanes)-step `ds_bpermute` butterfly when all lanes take
//! part, else a loop over the participating lanes, as is `match`. The neutral contract's
//! lane masks are `i64`; 32-lane masks are their low half.

use crate::lower::intrinsics::{define_header, Intrinsic};

/// How PTX warps sit in hardware wavefronts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct WarpShape {
    /// Lanes of a hardware wavefront (32 or 64).
    pub wave: u32,
    /// Lanes of a PTX warp (32, or 64 on wave64 targets only).
    pub lanes: u32,
}

impl WarpShape {
    /// The shape for a module of `warp_size` lanes on wavefronts of `wave` lanes. A 64-lane
    /// module is refused on wave32 targets before lowering; were it asked for anyway, it
    /// gets 32-lane collectives.
    pub fn new(wave: u32, warp_size: u32) -> WarpShape {
        WarpShape { wave, lanes: if wave == 64 && warp_size == 64 { 64 } else { 32 } }
    }

    /// The integer type of a lane mask of this warp.
    fn mask(self) -> &'static str {
        if self.lanes == 64 {
            "i64"
        } else {
            "i32"
        }
    }

    /// `dst = ` the neutral i64 mask `src` as this warp's mask type.
    fn mask_from_neutral(self, dst: &str, src: &str) -> String {
        if self.lanes == 64 {
            format!("  {dst} = bitcast i64 {src} to i64\n")
        } else {
            format!("  {dst} = trunc i64 {src} to i32\n")
        }
    }

    /// `dst = ` this warp's mask `src` as a neutral i64 mask.
    fn mask_to_neutral(self, dst: &str, src: &str) -> String {
        if self.lanes == 64 {
            format!("  {dst} = bitcast i64 {src} to i64\n")
        } else {
            format!("  {dst} = zext i32 {src} to i64\n")
        }
    }

    /// `dst = ` the i32 lane number `src` as this warp's mask type (for shifts).
    fn lane_as_mask(self, dst: &str, src: &str) -> String {
        if self.lanes == 64 {
            format!("  {dst} = zext i32 {src} to i64\n")
        } else {
            format!("  {dst} = bitcast i32 {src} to i32\n")
        }
    }

    /// `%hl` (hardware lane), `%lane` (PTX lane), `%base` (hardware lane of the warp's lane
    /// 0) and `%arrived` (the executing lanes of the warp).
    fn prologue(self) -> String {
        let first = if self.lanes == 32 && self.wave == 64 { 32 } else { 0 };
        format!(
            "  %hl = call i32 @__ptx_hw_lane()\n  %lane = and i32 %hl, {}\n  %base = and i32 %hl, {first}\n  %arrived = call {m} @__ptx_warp_ballot(i1 true)\n",
            self.lanes - 1,
            m = self.mask()
        )
    }
}

/// Definition of a warp intrinsic for warps of `shape`.
pub(super) fn define(shape: WarpShape, i: &Intrinsic) -> String {
    let m = shape.mask();
    let n = shape.lanes;
    let prologue = shape.prologue();
    match i.name {
        "__ptx_activemask" => format!(
            "{}\n  %m = call {m} @__ptx_warp_ballot(i1 true)\n{}  ret i64 %m64\n}}\n",
            define_header(i, &["ctx", "site"]),
            shape.mask_to_neutral("%m64", "%m")
        ),
        // Lanes of a wavefront execute in lockstep: ordering their memory accesses is all
        // a warp barrier has to do.
        "__ptx_warp_sync" => format!(
            "{}\n  fence syncscope(\"wavefront\") acq_rel\n  call void @llvm.amdgcn.wave.barrier()\n  ret void\n}}\n",
            define_header(i, &["ctx", "site", "member"])
        ),
        // Reading a lane that is not executing is undefined in PTX; we return the lane's own value.
        "__ptx_shfl" => format!(
            r#"{}
{prologue}{}  %bit = shl {m} 1, %srcm
  %has = and {m} %bit, %arrived
  %ok = icmp ne {m} %has, 0
  %hw = or i32 %base, %src
  %addr = shl i32 %hw, 2
  %v = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %a)
  %r = select i1 %ok, i32 %v, i32 %a
  ret i32 %r
}}
"#,
            define_header(i, &["ctx", "site", "a", "src", "member"]),
            shape.lane_as_mask("%srcm", "%src")
        ),
        "__ptx_vote" => format!(
            r#"{}
  %arrived = call {m} @__ptx_warp_ballot(i1 true)
{}  %active = and {m} %arrived, %memberm
  %bits = call {m} @__ptx_warp_ballot(i1 %p)
  %ballot = and {m} %bits, %active
{}{}  %res.0 = insertvalue {{ i64, i64 }} poison, i64 %ballot64, 0
  %res = insertvalue {{ i64, i64 }} %res.0, i64 %active64, 1
  ret {{ i64, i64 }} %res
}}
"#,
            define_header(i, &["ctx", "site", "p", "member"]),
            shape.mask_from_neutral("%memberm", "%member"),
            shape.mask_to_neutral("%ballot64", "%ballot"),
            shape.mask_to_neutral("%active64", "%active")
        ),
        "__ptx_redux" => {
            let mut tree = String::new();
            let mut x = "%a".to_string();
            let steps = n.trailing_zeros();
            for k in 0..steps {
                let s = 1u32 << k;
                tree.push_str(&format!(
                    "  %tl{k} = xor i32 %lane, {s}\n  %th{k} = or i32 %base, %tl{k}\n  %ta{k} = shl i32 %th{k}, 2\n  %ty{k} = call i32 @llvm.amdgcn.ds.bpermute(i32 %ta{k}, i32 {x})\n  %tx{k} = call i32 @__ptx_redux_combine(i32 %op, i32 {x}, i32 %ty{k})\n"
                ));
                x = format!("%tx{k}");
            }
            format!(
                r#"{}
entry:
{prologue}{}  %active = and {m} %arrived, %memberm
  %full = icmp eq {m} %active, -1
  %identity = call i32 @__ptx_redux_identity(i32 %op)
  br i1 %full, label %tree, label %loop
tree:
{tree}  br label %done
loop:
  %l = phi i32 [ 0, %entry ], [ %l.next, %loop ]
  %acc = phi i32 [ %identity, %entry ], [ %acc.next, %loop ]
  %lh = or i32 %base, %l
  %la = shl i32 %lh, 2
  %y = call i32 @llvm.amdgcn.ds.bpermute(i32 %la, i32 %a)
{}  %sh = lshr {m} %active, %lm
  %in = trunc {m} %sh to i1
  %comb = call i32 @__ptx_redux_combine(i32 %op, i32 %acc, i32 %y)
  %acc.next = select i1 %in, i32 %comb, i32 %acc
  %l.next = add i32 %l, 1
  %more = icmp ult i32 %l.next, {n}
  br i1 %more, label %loop, label %done
done:
  %r = phi i32 [ {x}, %tree ], [ %acc.next, %loop ]
  ret i32 %r
}}
"#,
                define_header(i, &["ctx", "site", "op", "a", "member"]),
                shape.mask_from_neutral("%memberm", "%member"),
                shape.lane_as_mask("%lm", "%l")
            )
        }
        "__ptx_match" => format!(
            r#"{}
entry:
{prologue}{}  %active = and {m} %arrived, %memberm
  %lo = trunc i64 %a to i32
  %hi64 = lshr i64 %a, 32
  %hi = trunc i64 %hi64 to i32
  br label %loop
loop:
  %l = phi i32 [ 0, %entry ], [ %l.next, %loop ]
  %same = phi {m} [ 0, %entry ], [ %same.next, %loop ]
  %lh = or i32 %base, %l
  %la = shl i32 %lh, 2
  %ylo = call i32 @llvm.amdgcn.ds.bpermute(i32 %la, i32 %lo)
  %yhi = call i32 @llvm.amdgcn.ds.bpermute(i32 %la, i32 %hi)
  %elo = icmp eq i32 %ylo, %lo
  %ehi = icmp eq i32 %yhi, %hi
  %eq = and i1 %elo, %ehi
  %eqi = zext i1 %eq to {m}
{}  %bit = shl {m} %eqi, %lm
  %same.next = or {m} %same, %bit
  %l.next = add i32 %l, 1
  %more = icmp ult i32 %l.next, {n}
  br i1 %more, label %loop, label %done
done:
  %r = and {m} %same.next, %active
{}{}  %res.0 = insertvalue {{ i64, i64 }} poison, i64 %r64, 0
  %res = insertvalue {{ i64, i64 }} %res.0, i64 %active64, 1
  ret {{ i64, i64 }} %res
}}
"#,
            define_header(i, &["ctx", "site", "a", "member"]),
            shape.mask_from_neutral("%memberm", "%member"),
            shape.lane_as_mask("%lm", "%l"),
            shape.mask_to_neutral("%r64", "%r"),
            shape.mask_to_neutral("%active64", "%active")
        ),
        other => unreachable!("amdgpu target: no definition for {other}"),
    }
}

/// The target-private helpers the definitions above call.
pub(super) fn helper(shape: WarpShape, name: &str) -> Option<String> {
    Some(match name {
        "__ptx_hw_lane" if shape.wave == 64 => "define internal i32 @__ptx_hw_lane() alwaysinline {\n  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)\n  %l = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)\n  ret i32 %l\n}\n".into(),
        "__ptx_hw_lane" => "define internal i32 @__ptx_hw_lane() alwaysinline {\n  %l = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)\n  ret i32 %l\n}\n".into(),
        // A 64-lane warp is the whole wavefront: the ballot is EXEC-wide as it stands.
        "__ptx_warp_ballot" if shape.lanes == 64 => "define internal i64 @__ptx_warp_ballot(i1 %p) alwaysinline {\n  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %p)\n  ret i64 %b\n}\n".into(),
        "__ptx_warp_ballot" if shape.wave == 64 => "define internal i32 @__ptx_warp_ballot(i1 %p) alwaysinline {\n  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %p)\n  %hl = call i32 @__ptx_hw_lane()\n  %base = and i32 %hl, 32\n  %sh = zext i32 %base to i64\n  %s = lshr i64 %b, %sh\n  %r = trunc i64 %s to i32\n  ret i32 %r\n}\n".into(),
        "__ptx_warp_ballot" => "define internal i32 @__ptx_warp_ballot(i1 %p) alwaysinline {\n  %b = call i32 @llvm.amdgcn.ballot.i32(i1 %p)\n  ret i32 %b\n}\n".into(),
        "__ptx_redux_combine" => r#"define internal i32 @__ptx_redux_combine(i32 %op, i32 %x, i32 %y) alwaysinline {
  switch i32 %op, label %xor [ i32 0, label %add i32 1, label %smin i32 2, label %smax i32 3, label %umin i32 4, label %umax i32 5, label %and i32 6, label %or ]
add:
  %r0 = add i32 %x, %y
  ret i32 %r0
smin:
  %r1 = call i32 @llvm.smin.i32(i32 %x, i32 %y)
  ret i32 %r1
smax:
  %r2 = call i32 @llvm.smax.i32(i32 %x, i32 %y)
  ret i32 %r2
umin:
  %r3 = call i32 @llvm.umin.i32(i32 %x, i32 %y)
  ret i32 %r3
umax:
  %r4 = call i32 @llvm.umax.i32(i32 %x, i32 %y)
  ret i32 %r4
and:
  %r5 = and i32 %x, %y
  ret i32 %r5
or:
  %r6 = or i32 %x, %y
  ret i32 %r6
xor:
  %r7 = xor i32 %x, %y
  ret i32 %r7
}
"#
        .into(),
        "__ptx_redux_identity" => r#"define internal i32 @__ptx_redux_identity(i32 %op) alwaysinline {
  switch i32 %op, label %zero [ i32 1, label %smin i32 2, label %smax i32 3, label %ones i32 5, label %ones ]
zero:
  ret i32 0
smin:
  ret i32 2147483647
smax:
  ret i32 -2147483648
ones:
  ret i32 -1
}
"#
        .into(),
        _ => return None,
    })
}
