//! The on-disk kernel cache: a second compile of the same module loads the object file
//! from the cache; a different module or option misses; a damaged entry is recompiled.

use compiler_core::cache::Cache;
use compiler_core::host::{compile_ptx_with_cache, HostOptions};

const PTX: &str = r#".version 8.0
.target sm_80
.address_size 64
.global .align 4 .u32 counter;
.visible .entry add_one(.param .u64 p)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  add.s32 %r2, %r1, 1;
  st.global.u32 [%rd1], %r2;
  ret;
}
"#;

#[test]
fn second_compile_is_a_cache_hit() {
    let dir = std::env::temp_dir().join(format!("cuda-cpu-compile-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = Cache::at(&dir, 1 << 30);
    let opts = HostOptions::default();
    let cold = compile_ptx_with_cache(PTX, &opts, Some(&cache)).unwrap();
    assert!(!cold.from_cache);
    let entries = || std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).collect::<Vec<_>>();
    assert_eq!(entries().len(), 1);
    let warm = compile_ptx_with_cache(PTX, &opts, Some(&cache)).unwrap();
    assert!(warm.from_cache);
    assert_eq!(warm.kernels.len(), 1);
    assert_eq!(warm.kernels[0].meta.name, "add_one");
    assert_eq!(warm.globals.len(), 1);
    assert_ne!(warm.globals[0].1, 0);

    // Another optimization level is another entry.
    let o1 = compile_ptx_with_cache(PTX, &HostOptions { opt_level: 1, ..HostOptions::default() }, Some(&cache)).unwrap();
    assert!(!o1.from_cache);
    assert_eq!(entries().len(), 2);

    // A damaged entry is ignored and replaced.
    for e in entries() {
        std::fs::write(&e, b"\x7fELF but not really an object file, long enough to pass the size check....").unwrap();
    }
    let again = compile_ptx_with_cache(PTX, &opts, Some(&cache)).unwrap();
    assert!(!again.from_cache);
    let hit = compile_ptx_with_cache(PTX, &opts, Some(&cache)).unwrap();
    assert!(hit.from_cache);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A module compiled on several threads is one entry of several objects; a hit gives the
/// same partitions back whatever thread count the second compile asks for (the entry
/// does not depend on it).
#[test]
fn partitioned_module_round_trips_through_the_cache() {
    let ptx = include_str!("data/split_kernels.ptx");
    let dir = std::env::temp_dir().join(format!("cuda-cpu-compile-cache-split-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = Cache::at(&dir, 1 << 30);
    let three = HostOptions { threads: 3, ..Default::default() };
    let cold = compile_ptx_with_cache(ptx, &three, Some(&cache)).unwrap();
    assert!(!cold.from_cache);
    assert_eq!(cold.partitions, 3);
    let one = HostOptions { threads: 1, ..Default::default() };
    let warm = compile_ptx_with_cache(ptx, &one, Some(&cache)).unwrap();
    assert!(warm.from_cache);
    assert_eq!(warm.partitions, 3);
    let mut names: Vec<&str> = warm.kernels.iter().map(|k| k.meta.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["bump", "map", "reverse"]);
    assert_eq!(warm.globals.len(), 2);
    // Without a cache, one thread gives one object.
    assert_eq!(compile_ptx_with_cache(ptx, &one, None).unwrap().partitions, 1);
    let _ = std::fs::remove_dir_all(&dir);
}
