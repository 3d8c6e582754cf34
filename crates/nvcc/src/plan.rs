//! From an [`Invocation`] to the steps that carry it out.
//!
//! A `.cu` file takes three steps, as clang's CUDA compilation does them (clang's "Compiling
//! CUDA with clang"): one device pass per virtual architecture (`--cuda-device-only`, PTX
//! out), our fatbin writer packing the PTX, and the host pass (`--cuda-host-only`) that
//! embeds the fatbin and emits the `__cudaRegisterFatBinary`/`__cudaRegisterFunction` calls
//! and `cudaLaunchKernel` stubs cudart serves. Both passes see `cuda_runtime.h` first, as
//! nvcc's do. C and C++ files go to the host compiler; the link is the host compiler's,
//! with our libcudart.

use std::path::{Path, PathBuf};

use crate::arch::{arch_list_macro, Virtual};
use crate::cli::{Cudart, Fatal, Input, Invocation, Lang, Phase};
use crate::rewrite;
use crate::toolkit::Toolkit;
use cuda_frontend::options::Options;
use cuda_frontend::Target;

/// One thing to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Run a program.
    Run(Vec<String>),
    /// Pack PTX files, one per virtual architecture, into a fatbin container.
    Fatbin { ptx: Vec<(PathBuf, u32)>, debug: bool, out: PathBuf },
    /// Write the device-link C source for the relocatable device code of `objects`
    /// (`dlink::stub_source`).
    DeviceLinkStub { objects: Vec<PathBuf>, out: PathBuf },
    /// Run the locate pass `locate` over `source`, write the rewritten text to `rewritten`
    /// and a VFS overlay showing it at `source`'s path to `overlay` (`rewrite.rs`).
    Rewrite { locate: Vec<String>, source: PathBuf, rewritten: PathBuf, overlay: PathBuf, managed: PathBuf },
    /// Mend a device pass's PTX: mark the managed variables the rewrite found (listed in
    /// `managed`), and under `-rdc` join clang's copies of static variables
    /// (`rewrite::join_static_copies`).
    MendPtx { ptx: PathBuf, managed: Option<PathBuf>, rdc: bool },
}

/// The clang CUDA version whose host-side ABI we ask for: clang emits the CUDA 9.2+ launch
/// sequence (`__cudaPushCallConfiguration`, `cudaLaunchKernel`) only for a known SDK
/// version, and 12.x is the newest clang 19 knows.
const CLANG_SDK_VERSION: &str = "12.0";

pub struct Planner<'a> {
    pub inv: &'a Invocation,
    pub toolkit: &'a Toolkit,
    pub virtuals: Vec<Virtual>,
    pub device: Options,
    pub tmp: PathBuf,
    /// Per `.cu` input, whether it needs the locate pass (`rewrite::needed`): every pass of
    /// the input asks, the file is read once.
    pub rewrites: std::cell::RefCell<std::collections::HashMap<PathBuf, bool>>,
}

/// `-L<toolkit lib>`, as the link line and `-v`'s `LIBRARIES=` both spell it.
pub fn library_dir_flag(lib: &Path) -> String {
    format!("-L{}", s(lib))
}

fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into())
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

impl Planner<'_> {
    fn host_compiler(&self, lang: Lang) -> String {
        match (&self.inv.ccbin, lang) {
            // -ccbin names a directory or a compiler.
            (Some(c), Lang::C) if Path::new(c).is_dir() => s(&Path::new(c).join("gcc")),
            (Some(c), _) if Path::new(c).is_dir() => s(&Path::new(c).join("g++")),
            (Some(c), _) => c.clone(),
            (None, Lang::C) => "gcc".into(),
            (None, _) => "g++".into(),
        }
    }

    /// Macros both passes define: ours and NVIDIA's (the device macros without the
    /// per-architecture ones), nvcc's `__NVCC__`, and the architecture list.
    fn common_macros(&self) -> Vec<String> {
        let t = Target { arch: self.virtuals[0].arch.clone(), warp_size: 32 };
        let mut m: Vec<String> = cuda_frontend::device_macros(&self.device, &t)
            .into_iter()
            .filter(|(k, _)| !k.starts_with("__CUDA_ARCH"))
            .map(|(k, v)| format!("-D{k}={v}"))
            .collect();
        m.push("-D__NVCC__=1".into());
        m.push(format!("-D__CUDA_ARCH_LIST__={}", arch_list_macro(&self.virtuals)));
        if self.inv.per_thread_default_stream {
            m.push("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1".into());
        }
        m
    }

    /// The toolkit's headers, after the user's: `include/` and, as a system directory,
    /// `include/cccl` (where NVIDIA's toolkit keeps its C++ libraries, and ours the few
    /// pieces of them that libraries written for it name).
    fn toolkit_includes(&self) -> [String; 3] {
        [format!("-I{}", s(&self.toolkit.include)), "-isystem".into(), s(&self.toolkit.include.join("cccl"))]
    }

    fn std_flag(&self) -> String {
        format!("-std={}", self.inv.std.as_deref().unwrap_or("c++17"))
    }

    /// What both clang passes of a `.cu` file take.
    fn clang_cuda_common(&self) -> Vec<String> {
        let mut a: Vec<String> = vec![
            self.toolkit.clang.clone(),
            "-x".into(),
            "cuda".into(),
            "-nocudainc".into(),
            "-nocudalib".into(),
            "-Xclang".into(),
            format!("-target-sdk-version={CLANG_SDK_VERSION}"),
            self.std_flag(),
            // Variadic device functions are declared (never called) by libcu++'s traits; nvcc
            // accepts them, as our NVRTC does.
            "-Xclang".into(),
            "-fcuda-allow-variadic-functions".into(),
            // NVIDIA's pragmas (nv_diag_suppress, ...) and `#pragma unroll (N)`.
            "-Wno-unknown-pragmas".into(),
            "-Wno-cuda-compat".into(),
            "-Wno-unknown-cuda-version".into(),
            "-Wno-unknown-warning-option".into(),
        ];
        a.extend(self.inv.preprocessor.iter().cloned());
        a.extend(self.toolkit_includes());
        a.extend(self.common_macros());
        if self.inv.no_warnings {
            a.push("-w".into());
        }
        if self.inv.werror {
            a.push("-Werror".into());
        }
        a.extend(["-include".into(), "cuda_runtime.h".into()]);
        a
    }

    /// clang's compilation-unit id, the same in both passes of one file: `-fgpu-rdc` gives
    /// the unit's internal device symbols (`static __global__`) names made unique with it,
    /// which the host pass registers and the device pass must define.
    fn cuid(input: &Path) -> String {
        let path = std::fs::canonicalize(input).unwrap_or_else(|_| input.to_path_buf());
        // FNV-1a: stable across runs and hosts, unlike std's hasher.
        let hash = path.to_string_lossy().bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        format!("-cuid={hash:016x}")
    }

    fn device_pass(&self, input: &Path, v: &Virtual, out: &Path) -> Vec<String> {
        let mut a = self.device_flags(input, v);
        a.extend(self.overlay_flags(input));
        a.extend(["-S".into(), "-o".into(), s(out), s(input)]);
        a
    }

    /// Whether `input` goes through the locate pass and its rewrite first.
    fn rewrites(&self, input: &Path) -> bool {
        *self
            .rewrites
            .borrow_mut()
            .entry(input.to_path_buf())
            .or_insert_with(|| std::fs::read(input).is_ok_and(|src| rewrite::needed(&String::from_utf8_lossy(&src), self.inv.rdc)))
    }

    fn overlay_path(&self, input: &Path) -> PathBuf {
        self.tmp.join(format!("{}.vfs.yaml", stem(input)))
    }

    /// The clang flags that make a pass read `input`'s rewritten text.
    fn overlay_flags(&self, input: &Path) -> Vec<String> {
        if !self.rewrites(input) {
            return Vec::new();
        }
        let overlay = std::path::absolute(self.overlay_path(input)).unwrap_or_else(|_| self.overlay_path(input));
        vec!["-ivfsoverlay".into(), s(&overlay)]
    }

    /// The locate pass and rewrite of `input`, when it needs them (`rewrite.rs`).
    fn rewrite_steps(&self, input: &Path) -> Vec<Step> {
        if !self.rewrites(input) {
            return Vec::new();
        }
        let mut locate: Vec<String> = self.device_flags(input, &self.virtuals[0]).into_iter().filter(|f| f != "-w" && f != "-Werror").collect();
        // Every error, and of the warnings only the deprecations that mark managed variables.
        locate
            .extend(["-fsyntax-only", "-ferror-limit=0", "-fno-color-diagnostics", "-Wno-everything", "-Wdeprecated-declarations"].map(String::from));
        locate.push(s(input));
        let source = std::path::absolute(input).unwrap_or_else(|_| input.to_path_buf());
        vec![Step::Rewrite {
            locate,
            source,
            rewritten: self.tmp.join(format!("{}.rewritten.cu", stem(input))),
            overlay: self.overlay_path(input),
            managed: self.managed_list(input),
        }]
    }

    fn managed_list(&self, input: &Path) -> PathBuf {
        self.tmp.join(format!("{}.managed", stem(input)))
    }

    /// A device pass writing `out`, and the mending of its PTX.
    fn device_pass_steps(&self, input: &Path, v: &Virtual, out: &Path) -> Vec<Step> {
        let mut steps = vec![Step::Run(self.device_pass(input, v, out))];
        let managed = self.rewrites(input).then(|| self.managed_list(input));
        if managed.is_some() || self.inv.rdc {
            steps.push(Step::MendPtx { ptx: out.to_path_buf(), managed, rdc: self.inv.rdc });
        }
        steps
    }

    /// A device pass's flags, without its input and output.
    fn device_flags(&self, input: &Path, v: &Virtual) -> Vec<String> {
        let mut a = self.clang_cuda_common();
        a.push(Self::cuid(input));
        let t = Target { arch: v.arch.clone(), warp_size: 32 };
        a.push("--cuda-device-only".into());
        a.push(format!("--cuda-gpu-arch={}", v.arch.llvm_cpu()));
        a.extend(["-Xclang".into(), "-target-feature".into(), "-Xclang".into(), v.arch.llvm_ptx_feature().into()]);
        // The processor clang targets may be older than the architecture asked for.
        a.push("-U__CUDA_ARCH__".into());
        for (k, val) in cuda_frontend::device_macros(&self.device, &t) {
            if k.starts_with("__CUDA_ARCH") && k != "__CUDA_ARCH_LIST__" {
                a.push(format!("-D{k}={val}"));
            }
        }
        a.push(if self.device.optimize() { "-O3" } else { "-O0" }.into());
        a.push(if self.device.fmad { "-ffp-contract=fast" } else { "-ffp-contract=off" }.into());
        if self.device.ftz {
            a.push("-fcuda-flush-denormals-to-zero".into());
        }
        if self.inv.rdc {
            a.push("-fgpu-rdc".into());
        }
        a
    }

    fn host_flags(&self) -> Vec<String> {
        let mut a = Vec::new();
        if let Some(o) = &self.inv.host_optimize {
            a.push(format!("-O{o}"));
        }
        if self.inv.host_debug {
            a.push("-g".into());
        }
        a.extend(self.inv.host_options.iter().cloned());
        a
    }

    fn deps_flags(&self, object: &Path) -> Vec<String> {
        let d = &self.inv.deps;
        if !d.enabled {
            return Vec::new();
        }
        let mut a = vec![if d.system_headers { "-MD" } else { "-MMD" }.to_string()];
        let file = d.file.clone().unwrap_or_else(|| s(&object.with_extension("d")));
        a.extend(["-MF".into(), file]);
        a.extend(["-MT".into(), d.target.clone().unwrap_or_else(|| s(object))]);
        if d.phony_targets {
            a.push("-MP".into());
        }
        a
    }

    fn host_pass(&self, input: &Path, fatbin: Option<&Path>, out: &Path) -> Vec<String> {
        let mut a = self.clang_cuda_common();
        // clang's driver gives -cuid to device compilations only: the host's cc1 gets it
        // directly.
        a.extend(["-Xclang".into(), Self::cuid(input)]);
        a.push("--cuda-host-only".into());
        // Signed overflow wraps: nvcc's host compiler (gcc) leaves such code as written
        // where clang's optimizer assumes it cannot happen, and real programs rely on it
        // (cuda-samples' simpleOccupancy compares `a[i] != i * i` past 46341).
        a.push("-fwrapv".into());
        if let Some(f) = fatbin {
            a.extend(["-Xclang".into(), "-fcuda-include-gpubinary".into(), "-Xclang".into(), s(f)]);
        }
        if self.inv.rdc {
            a.push("-fgpu-rdc".into());
        }
        a.extend(self.host_flags());
        a.extend(self.deps_flags(out));
        a.extend(self.overlay_flags(input));
        a.extend(["-c".into(), "-o".into(), s(out), s(input)]);
        a
    }

    fn host_compile(&self, input: &Input, out: &Path) -> Vec<String> {
        let mut a = vec![self.host_compiler(input.lang)];
        if input.lang == Lang::Cxx {
            a.push(self.std_flag());
        }
        a.extend(self.inv.preprocessor.iter().cloned());
        a.extend(self.toolkit_includes());
        if self.inv.per_thread_default_stream {
            a.push("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1".into());
        }
        a.extend(self.host_flags());
        a.extend(self.deps_flags(out));
        a.extend(["-c".into(), "-o".into(), s(out), s(&input.path)]);
        a
    }

    /// The device passes and the fatbin of one `.cu` file.
    fn device_steps(&self, input: &Path, fatbin: &Path) -> Vec<Step> {
        let mut steps = self.rewrite_steps(input);
        let mut ptx = Vec::new();
        for v in &self.virtuals {
            let out = self.tmp.join(format!("{}.compute_{}.ptx", stem(input), v.arch.number_string()));
            steps.extend(self.device_pass_steps(input, v, &out));
            ptx.push((out, v.number()));
        }
        steps.push(Step::Fatbin { ptx, debug: self.device.device_debug, out: fatbin.to_path_buf() });
        steps
    }

    /// Steps that turn one input into an object file.
    fn object_steps(&self, input: &Input, object: &Path) -> Result<Vec<Step>, Fatal> {
        Ok(match input.lang {
            Lang::Cu => {
                let fatbin = self.tmp.join(format!("{}.fatbin", stem(&input.path)));
                let mut steps = self.device_steps(&input.path, &fatbin);
                steps.push(Step::Run(self.host_pass(&input.path, Some(&fatbin), object)));
                steps
            }
            Lang::Cxx | Lang::C => vec![Step::Run(self.host_compile(input, object))],
            Lang::Ptx => return Err(Fatal(format!("Don't know what to do with '{}'", input.path.display()))),
            Lang::Linkable => Vec::new(),
        })
    }

    fn output_for(&self, input: &Path, ext: &str) -> PathBuf {
        let name = format!("{}.{ext}", stem(input));
        match &self.inv.output_dir {
            Some(d) => d.join(name),
            None => PathBuf::from(name),
        }
    }

    fn single_output(&self, input: &Path, ext: &str) -> Result<PathBuf, Fatal> {
        if self.inv.output.is_some() && self.inv.inputs.len() > 1 {
            return Err(Fatal("A single input file is required for a non-link phase when an outputfile is specified".into()));
        }
        Ok(self.inv.output.clone().unwrap_or_else(|| self.output_for(input, ext)))
    }

    /// All steps of the invocation.
    pub fn steps(&self) -> Result<Vec<Step>, Fatal> {
        let inv = self.inv;
        if inv.inputs.is_empty() {
            return Err(Fatal("No input files specified; use option --help for more information".into()));
        }
        let mut steps = Vec::new();
        match inv.phase {
            Phase::Cubin => {
                return Err(Fatal("Option '--cubin' needs NVIDIA's ptxas, which this toolkit does not have; use --ptx or --fatbin".into()))
            }
            Phase::Ptx | Phase::Fatbin => {
                for input in &inv.inputs {
                    if input.lang != Lang::Cu {
                        return Err(Fatal(format!("Don't know what to do with '{}'", input.path.display())));
                    }
                    if inv.phase == Phase::Ptx {
                        let out = self.single_output(&input.path, "ptx")?;
                        steps.extend(self.rewrite_steps(&input.path));
                        steps.extend(self.device_pass_steps(&input.path, &self.virtuals[0], &out));
                    } else {
                        let out = self.single_output(&input.path, "fatbin")?;
                        steps.extend(self.device_steps(&input.path, &out));
                    }
                }
            }
            Phase::Preprocess | Phase::Dependencies => {
                for input in &inv.inputs {
                    let mut cmd = match input.lang {
                        Lang::Cu => {
                            let mut c = self.clang_cuda_common();
                            c.push("--cuda-host-only".into());
                            c
                        }
                        _ => {
                            let mut c = vec![self.host_compiler(input.lang)];
                            c.extend(inv.preprocessor.iter().cloned());
                            c.extend(self.toolkit_includes());
                            c
                        }
                    };
                    if inv.phase == Phase::Preprocess {
                        cmd.push("-E".into());
                    } else {
                        cmd.push(if inv.deps.system_headers { "-M" } else { "-MM" }.into());
                        if let Some(t) = &inv.deps.target {
                            cmd.extend(["-MT".into(), t.clone()]);
                        }
                        if let Some(f) = &inv.deps.file {
                            cmd.extend(["-MF".into(), f.clone()]);
                        }
                    }
                    if let Some(o) = &inv.output {
                        cmd.extend(["-o".into(), s(o)]);
                    }
                    cmd.push(s(&input.path));
                    steps.push(Step::Run(cmd));
                }
            }
            Phase::Compile => {
                for input in &inv.inputs {
                    if input.lang == Lang::Linkable {
                        continue;
                    }
                    let out = self.single_output(&input.path, "o")?;
                    steps.extend(self.object_steps(input, &out)?);
                }
            }
            Phase::Link | Phase::Lib => {
                let mut objects = Vec::new();
                for input in &inv.inputs {
                    if input.lang == Lang::Linkable {
                        objects.push(s(&input.path));
                        continue;
                    }
                    let obj = self.tmp.join(format!("{}.o", stem(&input.path)));
                    steps.extend(self.object_steps(input, &obj)?);
                    objects.push(s(&obj));
                }
                if inv.phase == Phase::Link && inv.rdc {
                    let dlink = self.tmp.join("a_dlink.o");
                    steps.extend(self.device_link(&objects, &dlink));
                    objects.push(s(&dlink));
                }
                steps.push(Step::Run(if inv.phase == Phase::Lib { self.archive(&objects) } else { self.link(&objects) }));
            }
            Phase::DeviceLink => {
                let mut objects = Vec::new();
                for input in &inv.inputs {
                    if input.lang != Lang::Linkable {
                        return Err(Fatal(format!("Don't know what to do with '{}' in a device link", input.path.display())));
                    }
                    objects.push(s(&input.path));
                }
                let out = inv.output.clone().unwrap_or_else(|| PathBuf::from("a_dlink.o"));
                steps.extend(self.device_link(&objects, &out));
            }
        }
        Ok(steps)
    }

    /// The device link of `objects` into the host object `out`: the registration stub for
    /// their relocatable device code, compiled by the host C compiler.
    fn device_link(&self, objects: &[String], out: &Path) -> Vec<Step> {
        let source = self.tmp.join("a_dlink.c");
        let mut cc = vec![self.host_compiler(Lang::C), "-fPIC".into(), "-c".into(), s(&source), "-o".into(), s(out)];
        cc.extend(self.host_flags().into_iter().filter(|f| f.starts_with("-g") || f.starts_with("-O")));
        vec![Step::DeviceLinkStub { objects: objects.iter().map(PathBuf::from).collect(), out: source }, Step::Run(cc)]
    }

    fn archive(&self, objects: &[String]) -> Vec<String> {
        let out = self.inv.output.clone().unwrap_or_else(|| PathBuf::from("a.a"));
        let mut a = vec!["ar".to_string(), "rcs".into(), s(&out)];
        a.extend(objects.iter().cloned());
        a
    }

    fn link(&self, objects: &[String]) -> Vec<String> {
        let inv = self.inv;
        let mut a = vec![self.host_compiler(Lang::Cxx)];
        if inv.shared {
            a.push("-shared".into());
        }
        a.extend(self.host_flags());
        a.extend(objects.iter().cloned());
        // clang compiles the host side of .cu files: its OpenMP code calls LLVM's runtime
        // (__kmpc_*), which also serves the GOMP_* calls of g++-compiled objects, so it
        // goes before the libgomp that g++ -fopenmp adds at the end.
        if inv.host_options.iter().any(|o| o == "-fopenmp") {
            if let Some(dir) = &self.toolkit.llvm_lib {
                a.extend([format!("-L{}", s(dir)), format!("-Wl,-rpath,{}", s(dir)), "-lomp".into()]);
            }
        }
        for o in &inv.linker_options {
            a.push(format!("-Wl,{o}"));
        }
        a.extend(inv.libraries.iter().cloned());
        a.push(library_dir_flag(&self.toolkit.lib));
        match inv.cudart {
            Cudart::None => {}
            Cudart::Shared => a.push("-lcudart".into()),
            // Our runtime as an archive (cudart-abi's staticlib): the program needs only
            // the driver at run time, as with NVIDIA's libcudart_static.a.
            Cudart::Static => a.push("-lcudart_static".into()),
        }
        a.extend(["-lpthread".into(), "-ldl".into(), "-lrt".into()]);
        a.extend(["-o".into(), s(&inv.output.clone().unwrap_or_else(|| PathBuf::from("a.out")))]);
        a
    }
}
