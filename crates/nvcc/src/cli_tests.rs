use super::*;

fn p(args: &[&str]) -> Result<Invocation, Fatal> {
    parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

/// The command line `torch.utils.cpp_extension` passes (its source, CUDA 13 builds).
#[test]
fn pytorch_extension_command_line_parses() {
    let inv = p(&[
        "-MD",
        "-MF",
        "x.cuda.o.d",
        "-DTORCH_EXTENSION_NAME=ext",
        "-DTORCH_API_INCLUDE_EXTENSION_H",
        "-isystem",
        "/t/include",
        "-isystem",
        "/cuda/include",
        "-D__CUDA_NO_HALF_OPERATORS__",
        "-D__CUDA_NO_HALF_CONVERSIONS__",
        "-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
        "-D__CUDA_NO_HALF2_OPERATORS__",
        "--expt-relaxed-constexpr",
        "-gencode=arch=compute_86,code=compute_86",
        "-gencode=arch=compute_86,code=sm_86",
        "--compiler-options",
        "'-fPIC'",
        "-std=c++20",
        "-c",
        "x.cu",
        "-o",
        "x.cuda.o",
    ])
    .expect("parses");
    assert_eq!(inv.phase, Phase::Compile);
    assert!(inv.deps.enabled && inv.deps.system_headers);
    assert_eq!(inv.deps.file.as_deref(), Some("x.cuda.o.d"));
    assert_eq!(inv.gencode.len(), 2);
    assert_eq!(inv.std.as_deref(), Some("c++20"));
    assert_eq!(inv.output, Some(PathBuf::from("x.cuda.o")));
    assert_eq!(inv.inputs.len(), 1);
    assert_eq!(inv.inputs[0].lang, Lang::Cu);
    assert!(inv.preprocessor.contains(&"-DTORCH_EXTENSION_NAME=ext".to_string()));
    assert!(inv.preprocessor.windows(2).any(|w| w == ["-isystem", "/cuda/include"]));
    assert_eq!(inv.host_options, vec!["'-fPIC'".to_string()]);
    assert_eq!(inv.device_options, vec!["--expt-relaxed-constexpr".to_string()]);
}

#[test]
fn spellings_of_one_option_agree() {
    let same: &[(&[&str], &[&str])] = &[
        (&["-o", "a"], &["--output-file=a"]),
        (&["-o", "a"], &["-oa"]),
        (&["-Iinc"], &["--include-path", "inc"]),
        (&["-I", "inc"], &["-include-path=inc"]),
        (&["-arch=sm_80"], &["--gpu-architecture", "sm_80"]),
        (&["-arch", "sm_80"], &["-arch=sm_80"]),
        (&["-Xcompiler", "-fPIC,-Wall"], &["--compiler-options=-fPIC", "-Xcompiler=-Wall"]),
        (&["-O3"], &["--optimize", "3"]),
        (&["-DA=1,B"], &["-D", "A=1", "--define-macro=B"]),
        (&["-lfoo", "-L/x"], &["--library", "foo", "--library-path=/x"]),
        (&["-rdc=true"], &["-rdc"]),
        (&["-dc"], &["--device-c"]),
        (&["-ftz=true"], &["--ftz", "true"]),
    ];
    for (a, b) in same {
        let (x, y) = (p(a).expect("a parses"), p(b).expect("b parses"));
        assert_eq!(format!("{x:?}"), format!("{y:?}"), "{a:?} vs {b:?}");
    }
}

#[test]
fn bad_command_lines_get_nvccs_messages() {
    let cases: &[(&[&str], &str)] = &[
        (&["-fPIC", "x.cu"], "Unknown option '-fPIC'"),
        (&["foo.xyz"], "Don't know what to do with 'foo.xyz'"),
        (&["-o"], "No value supplied for option '--output-file'"),
        (&["-std=c++99", "x.cu"], "Value 'c++99' is not defined for option 'std'"),
        (&["-ftz=maybe", "x.cu"], "Value 'maybe' is not defined for option 'ftz'"),
        (&["-cudart=dynamic", "x.cu"], "Value 'dynamic' is not defined for option 'cudart'"),
        (&["--c", "x.cu"], "Unknown option '--c'"),
        (&["-c=1", "x.cu"], "Unknown option '-c=1'"),
    ];
    for (args, msg) in cases {
        assert_eq!(p(args).map(|_| ()), Err(Fatal(msg.to_string())), "{args:?}");
    }
}

#[test]
fn inputs_take_their_language_from_the_extension_or_x() {
    let inv = p(&["a.cu", "b.cpp", "c.c", "d.o", "libe.a", "libf.so.1", "-x", "cu", "g.cpp"]).expect("parses");
    let langs: Vec<Lang> = inv.inputs.iter().map(|i| i.lang).collect();
    assert_eq!(langs, vec![Lang::Cu, Lang::Cxx, Lang::C, Lang::Linkable, Lang::Linkable, Lang::Linkable, Lang::Cu]);
}

#[test]
fn unknown_options_go_to_the_host_compiler_when_asked() {
    let inv = p(&["-forward-unknown-to-host-compiler", "-fPIC", "-Wall", "x.cu"]).expect("parses");
    assert_eq!(inv.host_options, vec!["-fPIC".to_string(), "-Wall".to_string()]);
}

#[test]
fn options_files_are_read_in_place() {
    let dir = std::env::temp_dir().join(format!("nvcc-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("opts");
    std::fs::write(&file, "-DX=\"a b\" -c\n  -o 'out file.o'\n").unwrap();
    let inv = p(&["--options-file", file.to_str().unwrap(), "x.cu"]).expect("parses");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(inv.preprocessor, vec!["-DX=a b".to_string()]);
    assert_eq!(inv.phase, Phase::Compile);
    assert_eq!(inv.output, Some(PathBuf::from("out file.o")));
}
