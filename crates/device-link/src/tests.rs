//! Inputs to units and the link, without any driver (the driver's and nvJitLink's own tests
//! load and run what is linked).

use super::*;

const HEAD: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";
const MAIN: &str = ".extern .func (.param .b32 r) twice(.param .b32 x);\n\
.visible .entry k(.param .u64 p) { .reg .b32 %r<3>; .reg .b64 %rd<2>; ld.param.u64 %rd1, [p]; ld.global.u32 %r1, [%rd1];\n\
{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 r; call.uni (r), twice, (a); ld.param.b32 %r2, [r]; }\n\
st.global.u32 [%rd1], %r2; ret; }\n";
const LIB: &str = ".visible .func (.param .b32 r) twice(.param .b32 x) { .reg .b32 %r<3>; ld.param.b32 %r1, [x]; add.s32 %r2, %r1, %r1; st.param.b32 [r], %r2; ret; }\n";

fn ptx(body: &str) -> Vec<u8> {
    format!("{HEAD}{body}\0").into_bytes()
}

fn add(link: &mut PendingLink, kind: InputKind, data: &[u8], name: &str) -> Result<(), InputError> {
    let mut info = String::new();
    link.add(kind, data, name, 80, &mut info)
}

#[test]
fn links_two_units() {
    let mut link = PendingLink::new();
    add(&mut link, InputKind::Ptx, &ptx(MAIN), "main.ptx").unwrap();
    add(&mut link, InputKind::Ptx, &ptx(LIB), "lib.ptx").unwrap();
    let out = link.link().unwrap();
    assert!(out.contains(".visible .entry k"), "{out}");
    assert!(!out.contains(".extern .func"), "{out}");
    // The linked PTX links again, as a "cubin" (what both linkers return).
    let mut again = PendingLink::new();
    add(&mut again, InputKind::Cubin, out.as_bytes(), "linked").unwrap();
    again.link().unwrap();
}

#[test]
fn undefined_reference_is_nvidias_log_line() {
    let mut link = PendingLink::new();
    add(&mut link, InputKind::Ptx, &ptx(MAIN), "main.ptx").unwrap();
    let failure = link.link().unwrap_err();
    assert_eq!(failure.kind, FailureKind::Unresolved);
    assert_eq!(failure.log, "error   : Undefined reference to 'twice' in 'main.ptx'");
}

#[test]
fn refused_inputs_leave_the_link_unchanged() {
    let mut link = PendingLink::new();
    add(&mut link, InputKind::Ptx, &ptx(LIB), "lib").unwrap();
    let dup = add(&mut link, InputKind::Ptx, &ptx(LIB), "lib2").unwrap_err();
    assert_eq!(dup.fault, Fault::MultipleDefinition);
    assert_eq!(dup.log, "error   : Multiple definition of 'twice' in 'lib2', first defined in 'lib'");
    let bad = add(&mut link, InputKind::Ptx, &ptx("frobnicate;"), "bad").unwrap_err();
    assert_eq!(bad.fault, Fault::InvalidPtx);
    assert!(bad.log.starts_with("error   : 'bad': PTX does not compile"), "{}", bad.log);
    let lto = add(&mut link, InputKind::LtoIr, &[0x42, 0x43, 0xC0, 0xDE], "x.ltoir").unwrap_err();
    assert_eq!(lto.fault, Fault::LtoIr);
    let mut sass = b"\x7fELF".to_vec();
    sass.resize(0x40, 0);
    sass[0x12] = EM_CUDA as u8;
    assert!(is_cuda_elf(&sass));
    assert_eq!(add(&mut link, InputKind::Cubin, &sass, "k.cubin").unwrap_err().fault, Fault::SassOnly);
    let archive = add(&mut link, InputKind::Ptx, b"!<arch>\n", "lib.a").unwrap_err();
    assert_eq!(archive.fault, Fault::WrongKind);
    // Still links: only `lib` was added.
    add(&mut link, InputKind::Ptx, &ptx(MAIN), "main").unwrap();
    link.link().unwrap();
}

#[test]
fn archive_members_are_linked_only_when_needed() {
    // A one-member `ar` archive holding LIB as PTX text.
    let member = ptx(LIB);
    let mut ar = b"!<arch>\n".to_vec();
    ar.extend(format!("{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n", "lib.ptx/", 0, 0, 0, 644, member.len()).as_bytes());
    ar.extend(&member);
    if ar.len() % 2 == 1 {
        ar.push(b'\n');
    }
    let mut unused = PendingLink::new();
    add(&mut unused, InputKind::Library, &ar, "libtwice.a").unwrap();
    assert!(!unused.link().unwrap().contains("twice"));
    let mut used = PendingLink::new();
    add(&mut used, InputKind::Library, &ar, "libtwice.a").unwrap();
    add(&mut used, InputKind::Ptx, &ptx(MAIN), "main").unwrap();
    assert!(used.link().unwrap().contains(".func (.param .b32 r) twice"));
}
