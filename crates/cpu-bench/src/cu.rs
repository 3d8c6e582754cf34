//! The CUDA driver API as a program calls it: the C entry points of `cuda-abi` (the code
//! of our `libcuda.so.1`, linked in as an rlib), with raw handles and `CUresult` codes.
//! Every failure ends the benchmark with the entry point's name and the error's name.

use std::ffi::{c_char, c_uint, c_void, CStr, CString};

use cuda::exports::{context, device, error, graph, init, launch, memcpy, memory, module, stream};
use cuda::types::{CUcontext, CUdevice, CUdeviceptr, CUfunction, CUmodule, CUresult, CUstream};

/// Ends the process with a message naming `what` and the error.
fn check(r: CUresult, what: &str) {
    if r == CUresult::SUCCESS {
        return;
    }
    let mut name: *const c_char = std::ptr::null();
    // SAFETY: `name` is writable; the driver stores a pointer to a static string.
    let named = unsafe { error::cuGetErrorName(r, &mut name) } == CUresult::SUCCESS && !name.is_null();
    let name = if named {
        // SAFETY: a static NUL-terminated string from the driver.
        unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned()
    } else {
        format!("error {}", r.0)
    };
    eprintln!("cpu-bench: {what} failed: {name}");
    std::process::exit(1);
}

/// The primary context of device 0, current on the calling thread.
pub struct Cuda {
    _ctx: CUcontext,
}

impl Cuda {
    pub fn init() -> Cuda {
        let mut dev: CUdevice = 0;
        let mut ctx: CUcontext = std::ptr::null_mut();
        // SAFETY: the out-pointers are valid.
        unsafe {
            check(init::cuInit(0), "cuInit");
            check(device::cuDeviceGet(&mut dev, 0), "cuDeviceGet");
            check(device::cuDevicePrimaryCtxRetain(&mut ctx, dev), "cuDevicePrimaryCtxRetain");
            check(context::cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
        }
        Cuda { _ctx: ctx }
    }

    /// `cuModuleLoadData` on PTX text (compiled by our compiler, as for any program).
    pub fn load_ptx(&self, ptx: &str) -> Module {
        let text = CString::new(ptx).expect("PTX without NUL bytes");
        let mut m: CUmodule = std::ptr::null_mut();
        // SAFETY: `text` is NUL-terminated PTX; `m` is writable.
        check(unsafe { module::cuModuleLoadData(&mut m, text.as_ptr().cast()) }, "cuModuleLoadData");
        Module(m)
    }

    pub fn alloc(&self, bytes: usize) -> DeviceBuffer {
        let mut p: CUdeviceptr = 0;
        // SAFETY: `p` is writable.
        check(unsafe { memory::cuMemAlloc_v2(&mut p, bytes) }, "cuMemAlloc");
        DeviceBuffer { ptr: p, bytes }
    }

    /// `cuCtxSynchronize`.
    pub fn sync(&self) {
        // SAFETY: no arguments.
        check(unsafe { context::cuCtxSynchronize() }, "cuCtxSynchronize");
    }
}

/// A loaded module.
pub struct Module(CUmodule);

impl Module {
    pub fn function(&self, name: &str) -> Function {
        let n = CString::new(name).expect("kernel name");
        let mut f: CUfunction = std::ptr::null_mut();
        // SAFETY: valid module handle, NUL-terminated name, writable out-pointer.
        check(unsafe { module::cuModuleGetFunction(&mut f, self.0, n.as_ptr()) }, "cuModuleGetFunction");
        Function(f)
    }
}

/// A kernel handle.
#[derive(Clone, Copy)]
pub struct Function(CUfunction);

impl Function {
    /// `cuLaunchKernel` on the legacy default stream; `args` holds one pointer per kernel
    /// parameter, each to a value of the parameter's type.
    pub fn launch(&self, grid: [u32; 3], block: [u32; 3], shared_bytes: u32, args: &[*mut c_void]) {
        self.launch_on(std::ptr::null_mut(), grid, block, shared_bytes, args);
    }

    /// [`Function::launch`] on `stream`.
    pub fn launch_on_stream(&self, stream: &Stream, grid: [u32; 3], block: [u32; 3], shared_bytes: u32, args: &[*mut c_void]) {
        self.launch_on(stream.0, grid, block, shared_bytes, args);
    }

    fn launch_on(&self, stream: CUstream, grid: [u32; 3], block: [u32; 3], shared_bytes: u32, args: &[*mut c_void]) {
        // SAFETY: `args` has one valid pointer per parameter (callers pass the kernel's
        // exact parameter list); the kernel's pointers are live device buffers.
        let r = unsafe {
            launch::cuLaunchKernel(
                self.0,
                grid[0] as c_uint,
                grid[1] as c_uint,
                grid[2] as c_uint,
                block[0] as c_uint,
                block[1] as c_uint,
                block[2] as c_uint,
                shared_bytes,
                stream,
                args.as_ptr() as *mut *mut c_void,
                std::ptr::null_mut(),
            )
        };
        check(r, "cuLaunchKernel");
    }
}

/// A stream of its own (`cuStreamCreate` with default flags); destroyed on drop.
pub struct Stream(CUstream);

impl Stream {
    pub fn new() -> Stream {
        let mut s: CUstream = std::ptr::null_mut();
        // SAFETY: `s` is writable.
        check(unsafe { stream::cuStreamCreate(&mut s, 0) }, "cuStreamCreate");
        Stream(s)
    }

    /// `cuStreamSynchronize`.
    pub fn sync(&self) {
        // SAFETY: a live stream.
        check(unsafe { stream::cuStreamSynchronize(self.0) }, "cuStreamSynchronize");
    }

    /// Records what `f` submits to this stream as a graph (`cuStreamBeginCapture_v2` in
    /// global mode, `cuStreamEndCapture`).
    pub fn capture(&self, f: impl FnOnce()) -> Graph {
        // SAFETY: a live stream; mode 0 is CU_STREAM_CAPTURE_MODE_GLOBAL.
        check(unsafe { stream::cuStreamBeginCapture_v2(self.0, 0) }, "cuStreamBeginCapture");
        f();
        let mut g: *mut c_void = std::ptr::null_mut();
        // SAFETY: the stream is capturing; `g` is writable.
        check(unsafe { stream::cuStreamEndCapture(self.0, &mut g) }, "cuStreamEndCapture");
        Graph(g)
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: a stream from cuStreamCreate, destroyed once.
        unsafe { stream::cuStreamDestroy_v2(self.0) };
    }
}

/// A `CUgraph`; destroyed on drop.
pub struct Graph(*mut c_void);

impl Graph {
    /// `cuGraphInstantiateWithFlags` (no flags).
    pub fn instantiate(&self) -> GraphExec {
        let mut e: *mut c_void = std::ptr::null_mut();
        // SAFETY: a live graph; `e` is writable.
        check(unsafe { graph::cuGraphInstantiateWithFlags(&mut e, self.0, 0) }, "cuGraphInstantiateWithFlags");
        GraphExec(e)
    }
}

impl Drop for Graph {
    fn drop(&mut self) {
        // SAFETY: a graph from a capture, destroyed once.
        unsafe { graph::cuGraphDestroy(self.0) };
    }
}

/// A `CUgraphExec`; destroyed on drop.
pub struct GraphExec(*mut c_void);

impl GraphExec {
    /// `cuGraphLaunch` on `stream`.
    pub fn launch(&self, stream: &Stream) {
        // SAFETY: a live executable graph and stream.
        check(unsafe { graph::cuGraphLaunch(self.0, stream.0) }, "cuGraphLaunch");
    }
}

impl Drop for GraphExec {
    fn drop(&mut self) {
        // SAFETY: an executable graph from cuGraphInstantiate*, destroyed once.
        unsafe { graph::cuGraphExecDestroy(self.0) };
    }
}

/// Device memory (`cuMemAlloc`); freed on drop.
pub struct DeviceBuffer {
    pub ptr: CUdeviceptr,
    bytes: usize,
}

impl DeviceBuffer {
    pub fn upload(&self, data: &[f32]) {
        let bytes = std::mem::size_of_val(data);
        assert!(bytes <= self.bytes);
        // SAFETY: `data` is readable for `bytes`; the buffer holds at least that many.
        check(unsafe { memcpy::cuMemcpyHtoD_v2(self.ptr, data.as_ptr().cast(), bytes) }, "cuMemcpyHtoD");
    }

    pub fn download(&self, out: &mut [f32]) {
        let bytes = std::mem::size_of_val(out);
        assert!(bytes <= self.bytes);
        // SAFETY: `out` is writable for `bytes`; the buffer holds at least that many.
        check(unsafe { memcpy::cuMemcpyDtoH_v2(out.as_mut_ptr().cast(), self.ptr, bytes) }, "cuMemcpyDtoH");
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        // SAFETY: a pointer from cuMemAlloc, freed once.
        unsafe { memory::cuMemFree_v2(self.ptr) };
    }
}

/// A pointer to a kernel argument, for [`Function::launch`].
pub fn arg<T>(v: &T) -> *mut c_void {
    v as *const T as *mut c_void
}
