use super::*;

/// (source, sites as (kind, line, col), expected output)
const CASES: &[(&str, &[(char, usize, usize)], &str)] = &[
    ("  k<<<1, 32>>>(p, 7);", &[('k', 1, 3)], "  ::__scale_device_launch<&k>(1, 32)(p, 7);"),
    (
        "ns::k<int> <<< dim3(g.x, 2), b, 0, s >>> (f(a, b));",
        &[('k', 1, 5)],
        "::__scale_device_launch<&ns::k<int>>( dim3(g.x, 2), b, 0, s )(f(a, b));",
    ),
    ("void *f = (void *)child;", &[('k', 1, 19)], "void *f = (void *)::__scale_device_launch<&child>::__address;"),
    (
        "x = counter + ::ns::v[2];",
        &[('m', 1, 5), ('m', 1, 21)],
        "x = _Pragma(\"clang diagnostic push\") _Pragma(\"clang diagnostic ignored \\\"-Wdeprecated-declarations\\\"\") ::__scale_managed_ref(counter) _Pragma(\"clang diagnostic pop\") + _Pragma(\"clang diagnostic push\") _Pragma(\"clang diagnostic ignored \\\"-Wdeprecated-declarations\\\"\") ::__scale_managed_ref(::ns::v) _Pragma(\"clang diagnostic pop\")[2];",
    ),
    // A launch of a kernel template, its configuration on the next line, found by clang's
    // "no matching function" (an ordinary call it reports so is left alone).
    (
        "build<N>\n    <<<4, N>>>(c, p); f(x);",
        &[('u', 1, 1), ('u', 2, 23)],
        "::__scale_device_launch<&build<N>>(4, N)(c, p); f(x);",
    ),
    // A launch whose configuration never closes is left alone.
    ("k<<<1, 2;", &[('k', 1, 1)], "k<<<1, 2;"),
    // A second line, and a site past the end of the text.
    ("int a;\n  k<<<1,1>>>();", &[('k', 2, 3), ('k', 9, 1)], "int a;\n  ::__scale_device_launch<&k>(1,1)();"),
];

#[test]
fn rewrites_each_site() {
    for (src, sites, want) in CASES {
        let sites: Vec<Site> = sites
            .iter()
            .map(|&(kind, line, col)| match kind {
                'k' => Site::KernelReference { line, col },
                'u' => Site::UnresolvedCall { line, col },
                _ => Site::ManagedUse { line, col },
            })
            .collect();
        assert_eq!(apply(src, &sites), *want, "source {src:?}");
    }
}

#[test]
fn reads_sites_of_the_main_file_only() {
    let dir = std::env::temp_dir().join(format!("nvcc-rewrite-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let main = dir.join("a.cu");
    std::fs::write(&main, "").unwrap();
    let m = main.display();
    let stderr = format!(
        "{m}:3:5: error: reference to __global__ function 'child' in __global__ function\n\
         {m}:3:5: error: reference to __global__ function 'child' in __global__ function\n\
         /usr/include/x.h:1:1: error: reference to __global__ function 'k' in __device__ function\n\
         {m}:7:12: warning: 'counter' is deprecated: __managed__ variable: ... [-Wdeprecated-declarations]\n\
         {m}:8:1: warning: 'old' is deprecated: use new [-Wdeprecated-declarations]\n\
         {m}:9:2: error: no matching function for call to 'f'\n"
    );
    let found = sites(&stderr, &main);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        found,
        vec![Site::KernelReference { line: 3, col: 5 }, Site::ManagedUse { line: 7, col: 12 }, Site::UnresolvedCall { line: 9, col: 2 }]
    );
}

#[test]
fn needs_the_pass_only_for_managed_variables_or_relocatable_launches() {
    assert!(needed("__managed__ int x;", false));
    assert!(needed("k<<<1,1>>>();", true));
    assert!(!needed("k<<<1,1>>>();", false));
    assert!(!needed("int main() {}", true));
}

#[test]
fn marks_the_managed_variables_of_the_ptx() {
    let stderr = "a.cu:3:1: warning: 'counter' is deprecated: __managed__ variable: x [-Wdeprecated-declarations]\n\
                  a.cu:4:1: warning: 'vals' is deprecated: __managed__ variable: x [-Wdeprecated-declarations]\n\
                  a.cu:5:1: warning: 'counter' is deprecated: __managed__ variable: x [-Wdeprecated-declarations]\n";
    let names = managed_names(stderr);
    assert_eq!(names, vec!["counter".to_string(), "vals".to_string()]);
    let ptx = ".visible .global .align 4 .u32 counter = 5;\n.visible .global .align 4 .b8 _ZN2ns4valsE[256];\n.global .align 4 .u32 other;\n\tld.global.u32 %r1, [counter];\n";
    let want = ".visible .global .attribute(.managed) .align 4 .u32 counter = 5;\n.visible .global .attribute(.managed) .align 4 .b8 _ZN2ns4valsE[256];\n.global .align 4 .u32 other;\n\tld.global.u32 %r1, [counter];\n";
    assert_eq!(mark_managed(ptx, &names), want);
}

#[test]
fn joins_rdc_copies_of_static_variables() {
    let ptx = ".extern .const .align 4 .b8 _ZL2cv[16];\n.visible .const .align 4 .b8 _ZL2cv__static__ee61[16];\n.global .align 4 .b8 _ZL2cvx[4];\n\tld.const.f32 %f1, [_ZL2cv];\n\tld.const.f32 %f2, [_ZL2cv+4];\n\tld.global.f32 %f3, [_ZL2cvx];\n";
    let want = ".visible .const .align 4 .b8 _ZL2cv__static__ee61[16];\n.global .align 4 .b8 _ZL2cvx[4];\n\tld.const.f32 %f1, [_ZL2cv__static__ee61];\n\tld.const.f32 %f2, [_ZL2cv__static__ee61+4];\n\tld.global.f32 %f3, [_ZL2cvx];\n";
    assert_eq!(join_static_copies(ptx), want);
    let plain = ".visible .global .align 4 .b8 x[4];\n";
    assert_eq!(join_static_copies(plain), plain);
}
