//! Warp collectives on AMD wavefronts (see the module doc of `amdgpu` for the warp and
//! wavefront mapping).
//!
//! A PTX warp is 32 lanes: the whole wavefront on wave32 targets, one half of it on wave64
//! ones. `__ptx_hw_lane` is the lane in the wavefront (`mbcnt`), `& 31` the PTX lane and
//! `& 32` the first hardware lane of the warp. `__ptx_warp_ballot(p)` is the 32-bit ballot
//! of the caller's warp (`llvm.amdgcn.ballot`, shifted to the warp's half); its value for
//! `true` is the set of lanes executing the call. `shfl` reads its source lane with
//! `ds_bpermute_b32`; `redux` is a 5-step `ds_bpermute` butterfly when all 32 lanes take
//! part, else a loop over the participating lanes, as is `match`. The neutral contract's
//! lane masks are `i64`; 32-lane masks are their low half.

use crate::lower::intrinsics::{define_header, Intrinsic};

/// Definition of a warp intrinsic for wavefronts of `wave` lanes.
pub(super) fn define(wave: u32, i: &Intrinsic) -> String {
    let prologue = "  %hl = call i32 @__ptx_hw_lane()\n  %lane = and i32 %hl, 31\n  %base = and i32 %hl, 32\n  %arrived = call i32 @__ptx_warp_ballot(i1 true)\n";
    let _ = wave;
    match i.name {
        "__ptx_activemask" => format!(
            "{}\n  %m = call i32 @__ptx_warp_ballot(i1 true)\n  %m64 = zext i32 %m to i64\n  ret i64 %m64\n}}\n",
            define_header(i, &["ctx", "site"])
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
{prologue}  %bit = shl i32 1, %src
  %has = and i32 %bit, %arrived
  %ok = icmp ne i32 %has, 0
  %hw = or i32 %base, %src
  %addr = shl i32 %hw, 2
  %v = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %a)
  %r = select i1 %ok, i32 %v, i32 %a
  ret i32 %r
}}
"#,
            define_header(i, &["ctx", "site", "a", "src", "member"])
        ),
        "__ptx_vote" => format!(
            r#"{}
  %arrived = call i32 @__ptx_warp_ballot(i1 true)
  %member32 = trunc i64 %member to i32
  %active = and i32 %arrived, %member32
  %bits = call i32 @__ptx_warp_ballot(i1 %p)
  %ballot = and i32 %bits, %active
  %ballot64 = zext i32 %ballot to i64
  %active64 = zext i32 %active to i64
  %res.0 = insertvalue {{ i64, i64 }} poison, i64 %ballot64, 0
  %res = insertvalue {{ i64, i64 }} %res.0, i64 %active64, 1
  ret {{ i64, i64 }} %res
}}
"#,
            define_header(i, &["ctx", "site", "p", "member"])
        ),
        "__ptx_redux" => {
            let mut tree = String::new();
            let mut x = "%a".to_string();
            for (k, s) in [1, 2, 4, 8, 16].into_iter().enumerate() {
                tree.push_str(&format!(
                    "  %tl{k} = xor i32 %lane, {s}\n  %th{k} = or i32 %base, %tl{k}\n  %ta{k} = shl i32 %th{k}, 2\n  %ty{k} = call i32 @llvm.amdgcn.ds.bpermute(i32 %ta{k}, i32 {x})\n  %tx{k} = call i32 @__ptx_redux_combine(i32 %op, i32 {x}, i32 %ty{k})\n"
                ));
                x = format!("%tx{k}");
            }
            format!(
                r#"{}
entry:
{prologue}  %member32 = trunc i64 %member to i32
  %active = and i32 %arrived, %member32
  %full = icmp eq i32 %active, -1
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
  %sh = lshr i32 %active, %l
  %in = trunc i32 %sh to i1
  %comb = call i32 @__ptx_redux_combine(i32 %op, i32 %acc, i32 %y)
  %acc.next = select i1 %in, i32 %comb, i32 %acc
  %l.next = add i32 %l, 1
  %more = icmp ult i32 %l.next, 32
  br i1 %more, label %loop, label %done
done:
  %r = phi i32 [ {x}, %tree ], [ %acc.next, %loop ]
  ret i32 %r
}}
"#,
                define_header(i, &["ctx", "site", "op", "a", "member"])
            )
        }
        "__ptx_match" => format!(
            r#"{}
entry:
{prologue}  %member32 = trunc i64 %member to i32
  %active = and i32 %arrived, %member32
  %lo = trunc i64 %a to i32
  %hi64 = lshr i64 %a, 32
  %hi = trunc i64 %hi64 to i32
  br label %loop
loop:
  %l = phi i32 [ 0, %entry ], [ %l.next, %loop ]
  %same = phi i32 [ 0, %entry ], [ %same.next, %loop ]
  %lh = or i32 %base, %l
  %la = shl i32 %lh, 2
  %ylo = call i32 @llvm.amdgcn.ds.bpermute(i32 %la, i32 %lo)
  %yhi = call i32 @llvm.amdgcn.ds.bpermute(i32 %la, i32 %hi)
  %elo = icmp eq i32 %ylo, %lo
  %ehi = icmp eq i32 %yhi, %hi
  %eq = and i1 %elo, %ehi
  %eqi = zext i1 %eq to i32
  %bit = shl i32 %eqi, %l
  %same.next = or i32 %same, %bit
  %l.next = add i32 %l, 1
  %more = icmp ult i32 %l.next, 32
  br i1 %more, label %loop, label %done
done:
  %r = and i32 %same.next, %active
  %r64 = zext i32 %r to i64
  %active64 = zext i32 %active to i64
  %res.0 = insertvalue {{ i64, i64 }} poison, i64 %r64, 0
  %res = insertvalue {{ i64, i64 }} %res.0, i64 %active64, 1
  ret {{ i64, i64 }} %res
}}
"#,
            define_header(i, &["ctx", "site", "a", "member"])
        ),
        other => unreachable!("amdgpu target: no definition for {other}"),
    }
}

/// The target-private helpers the definitions above call.
pub(super) fn helper(wave: u32, name: &str) -> Option<String> {
    Some(match name {
        "__ptx_hw_lane" if wave == 64 => "define internal i32 @__ptx_hw_lane() alwaysinline {\n  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)\n  %l = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)\n  ret i32 %l\n}\n".into(),
        "__ptx_hw_lane" => "define internal i32 @__ptx_hw_lane() alwaysinline {\n  %l = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)\n  ret i32 %l\n}\n".into(),
        "__ptx_warp_ballot" if wave == 64 => "define internal i32 @__ptx_warp_ballot(i1 %p) alwaysinline {\n  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %p)\n  %hl = call i32 @__ptx_hw_lane()\n  %base = and i32 %hl, 32\n  %sh = zext i32 %base to i64\n  %s = lshr i64 %b, %sh\n  %r = trunc i64 %s to i32\n  ret i32 %r\n}\n".into(),
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
