//! End-to-end kernel runs on the CPU device: PTX (nvcc output of our own ctests programs)
//! compiled, launched through the backend API, results checked against host arithmetic.

use backend_api::{Device, LaunchConfig, LoadOptions};
mod support;
use support::{download, upload};

fn device() -> std::sync::Arc<dyn Device> {
    cpu_backend::devices().remove(0)
}

/// Pack parameters at the offsets the kernel declares.
fn pack(info: &backend_api::KernelInfo, values: &[&[u8]]) -> Vec<u8> {
    let mut buf = vec![0u8; info.param_buffer_size];
    for (p, v) in info.params.iter().zip(values) {
        assert_eq!(p.size, v.len());
        buf[p.offset..p.offset + p.size].copy_from_slice(v);
    }
    buf
}

#[test]
fn saxpy_thread_loop() {
    let d = device();
    let m = d.load_ptx(include_str!("data/saxpy.ptx"), &LoadOptions::default()).unwrap();
    let k = m.kernel("_Z5saxpyifPKfPf").unwrap();
    let n = 10_000usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| 1000.0 - i as f32).collect();
    let (dx, dy) = (upload(&*d, &x), upload(&*d, &y));
    let a = 2.5f32;
    let params = pack(&k, &[&(n as i32).to_le_bytes(), &a.to_le_bytes(), &dx.to_le_bytes(), &dy.to_le_bytes()]);
    let cfg = LaunchConfig { grid: [n.div_ceil(512) as u32, 1, 1], block: [512, 1, 1], dynamic_shared_bytes: 0 };
    m.launch(&k.name, &cfg, &params).unwrap();
    let got: Vec<f32> = download(&*d, dy, n);
    for i in 0..n {
        let want = a.mul_add(x[i], y[i]);
        assert!(got[i] == want || got[i] == a * x[i] + y[i], "i={i}: {} vs {want}", got[i]);
    }
}

#[test]
fn block_reduction_with_barriers_1024_threads() {
    let d = device();
    let m = d.load_ptx(include_str!("data/block_reduce.ptx"), &LoadOptions::default()).unwrap();
    for (name, block) in [("_Z9block_sumILi1024EEvPKiPxi", 1024u32), ("_Z9block_sumILi128EEvPKiPxi", 128)] {
        let k = m.kernel(name).unwrap();
        let n = 5000usize;
        let input: Vec<i32> = (0..n as i32).map(|i| (i * 7919) % 1000 - 500).collect();
        let blocks = n.div_ceil(block as usize);
        let din = upload(&*d, &input);
        let dsums = upload(&*d, &vec![0i64; blocks]);
        let params = pack(&k, &[&din.to_le_bytes(), &dsums.to_le_bytes(), &(n as i32).to_le_bytes()]);
        let cfg = LaunchConfig { grid: [blocks as u32, 1, 1], block: [block, 1, 1], dynamic_shared_bytes: 0 };
        m.launch(&k.name, &cfg, &params).unwrap();
        let got: Vec<i64> = download(&*d, dsums, blocks);
        for (b, g) in got.iter().enumerate() {
            let want: i64 = input[b * block as usize..((b + 1) * block as usize).min(n)].iter().map(|&v| v as i64).sum();
            assert_eq!(*g, want, "{name} block {b}");
        }
    }
}

#[test]
fn malformed_ptx_reports_line_and_column() {
    let d = device();
    let err =
        d.load_ptx(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n  frobnicate.u32 %r1;\n}\n", &LoadOptions::default());
    match err {
        Err(backend_api::LoadError::InvalidPtx { log }) => assert!(log.contains("6:"), "log: {log}"),
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("malformed PTX was accepted"),
    }
}

/// The generated thread loops assume blocks within the device's limits (1024 x 1024 x 64,
/// 1024 threads; CUDA's limits for compute capability 8.6): the backend refuses any other
/// block itself, without running a thread, and runs blocks at the limits.
#[test]
fn blocks_outside_the_device_limits_are_refused() {
    const COUNT: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry count(.param .u64 out)
{
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [out];
  atom.global.add.u32 %r1, [%rd1], 1;
  ret;
}
"#;
    let d = device();
    let m = d.load_ptx(COUNT, &LoadOptions::default()).unwrap();
    let out = upload(&*d, &[0u32]);
    let cases: [([u32; 3], bool); 9] = [
        ([1024, 1, 1], true),
        ([1, 1024, 1], true),
        ([1, 16, 64], true),
        ([32, 32, 1], true),
        ([1025, 1, 1], false),
        ([1, 1025, 1], false),
        ([1, 1, 65], false),
        ([64, 32, 1], false),
        ([0, 1, 1], false),
    ];
    let mut want = 0u32;
    for (block, ok) in cases {
        let cfg = LaunchConfig { grid: [2, 1, 1], block, dynamic_shared_bytes: 0 };
        let r = m.launch("count", &cfg, &out.to_le_bytes());
        assert_eq!(r.is_ok(), ok, "block {block:?}: {r:?}");
        if ok {
            want += 2 * block.iter().product::<u32>();
        }
        assert_eq!(download::<u32>(&*d, out, 1)[0], want, "block {block:?}: threads run");
    }
}
