//! Lazy module loading (`CUDA_MODULE_LOADING=LAZY`; large modules by default): kernels
//! compile when first asked for, share the module's variables, and a kernel that cannot
//! be compiled fails its own launch without keeping the module or its other kernels from
//! working.

use backend_api::{DeviceError, LaunchConfig, LoadOptions};

const PTX: &str = r#".version 8.0
.target sm_80
.address_size 64
.global .align 4 .u32 counter = 5;
.global .align 8 .u64 counter_addr = generic(counter);

.func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [x];
  add.u32 %r2, %r1, %r1;
  st.param.u32 [r], %r2;
  ret;
}

.visible .entry bump(.param .u32 v)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [v];
  atom.global.add.u32 %r2, [counter], %r1;
  ret;
}

.visible .entry read(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.global.u64 %rd2, [counter_addr];
  ld.u32 %r1, [%rd2];
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r1;
    call (b), twice, (a);
    ld.param.b32 %r2, [b];
  }
  st.global.u32 [%rd1], %r2;
  ret;
}

.visible .entry broken(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  getctarank.shared::cluster.u32 %r1, %rd1;
  ret;
}
"#;

#[test]
fn kernels_compile_on_first_use_and_share_the_module_variables() {
    // The only test of this binary: nothing else reads the environment concurrently.
    std::env::set_var("CUDA_MODULE_LOADING", "LAZY");
    let d = cpu_backend::devices().remove(0);
    // The unsupported instruction in `broken` does not fail the load.
    let m = d.load_ptx(PTX, &LoadOptions::default()).expect("a lazy load only parses the kernels");
    assert_eq!(m.kernel_names(), ["bump", "read", "broken"]);
    let one = LaunchConfig { grid: [1, 1, 1], block: [1, 1, 1], ..Default::default() };

    let out = d.alloc(4).unwrap();
    let read = |expect: u32| {
        m.launch("read", &one, &out.to_le_bytes()).unwrap();
        let mut v = 0u32;
        unsafe { d.copy_from_device(&mut v as *mut u32 as *mut u8, out, 4).unwrap() };
        assert_eq!(v, expect);
    };
    // `read` sees the initial value through a variable holding another one's address.
    read(2 * 5);
    // `bump`, compiled later into the same module, adds to the same variable.
    let cfg = LaunchConfig { grid: [3, 1, 1], block: [64, 1, 1], ..Default::default() };
    m.launch("bump", &cfg, &7u32.to_le_bytes()).unwrap();
    read(2 * (5 + 3 * 64 * 7));
    let g = m.global("counter").unwrap();
    let mut v = 0u32;
    unsafe { d.copy_from_device(&mut v as *mut u32 as *mut u8, g.address, 4).unwrap() };
    assert_eq!(v, 5 + 3 * 64 * 7);

    // `broken` is described by its signature, and its launch names the problem.
    let info = m.kernel("broken").expect("the signature describes the kernel");
    assert_eq!(info.param_buffer_size, 8);
    // The reason is there to log when the driver hands out the function.
    assert!(m.kernel_error("broken").is_some_and(|why| why.contains("getctarank")));
    assert_eq!(m.kernel_error("read"), None);
    match m.launch("broken", &one, &out.to_le_bytes()) {
        Err(DeviceError::NotSupported(why)) => assert!(why.contains("getctarank"), "{why}"),
        other => panic!("{other:?}"),
    }
    // The module and its compiled kernels still work.
    read(2 * (5 + 3 * 64 * 7));
    assert!(m.kernel("missing").is_none());
}

/// A kernel that takes another kernel's address reaches it, so its lazy compile brings
/// the other kernel's code along: that kernel must then be defined once, whichever of the
/// two is compiled first (defined twice, the second compile failed with "Duplicate
/// definition of symbol", as a device-side launch's parent and child did).
#[test]
fn a_kernel_reached_by_another_is_defined_once() {
    const REACHING: &str = r#".version 8.0
.target sm_80
.address_size 64

.visible .entry child(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 42;
  st.global.u32 [%rd1], %r1;
  ret;
}

.visible .entry parent(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, child;
  setp.eq.u64 %p1, %rd2, 0;
  selp.u32 %r1, 1, 7, %p1;
  st.global.u32 [%rd1], %r1;
  ret;
}
"#;
    let ptx = REACHING.replace(".reg .b64 %rd<3>;", ".reg .b64 %rd<3>;\n  .reg .pred %p<2>;");
    let d = cpu_backend::devices().remove(0);
    let one = LaunchConfig { grid: [1, 1, 1], block: [1, 1, 1], ..Default::default() };
    let out = d.alloc(4).unwrap();
    for order in [["parent", "child"], ["child", "parent"]] {
        let m = d.load_ptx(&ptx, &LoadOptions { lazy: Some(true), ..Default::default() }).unwrap();
        for name in order {
            m.launch(name, &one, &out.to_le_bytes()).unwrap_or_else(|e| panic!("{order:?}: {name}: {e:?}"));
            let mut v = 0u32;
            unsafe { d.copy_from_device(&mut v as *mut u32 as *mut u8, out, 4).unwrap() };
            assert_eq!(v, if name == "child" { 42 } else { 7 }, "{order:?}: {name}");
        }
    }
}
