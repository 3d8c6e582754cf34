//! Headless OpenGL contexts for the interop tests: Mesa's EGL on the surfaceless
//! platform (`EGL_MESA_platform_surfaceless`), a desktop GL 3.3 core or an OpenGL ES 3.0
//! context with no surface (`EGL_KHR_surfaceless_context`), and the GL calls the tests
//! make to create objects and read them back independently of the driver.

use std::ffi::{c_char, c_void};

use libloading::Library;

const EGL_PLATFORM_SURFACELESS_MESA: u32 = 0x31DD;
const EGL_NONE: i32 = 0x3038;
const EGL_SURFACE_TYPE: i32 = 0x3033;
const EGL_PBUFFER_BIT: i32 = 0x0001;
const EGL_RENDERABLE_TYPE: i32 = 0x3040;
const EGL_OPENGL_BIT: i32 = 0x0008;
const EGL_OPENGL_API: u32 = 0x30A2;
const EGL_OPENGL_ES_API: u32 = 0x30A0;
const EGL_OPENGL_ES3_BIT: i32 = 0x0040;
const EGL_CONTEXT_MAJOR_VERSION: i32 = 0x3098;
const EGL_CONTEXT_MINOR_VERSION: i32 = 0x30FB;
const EGL_CONTEXT_OPENGL_PROFILE_MASK: i32 = 0x30FD;
const EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT: i32 = 0x0001;

pub const GL_ARRAY_BUFFER: u32 = 0x8892;
pub const GL_DYNAMIC_DRAW: u32 = 0x88E8;
pub const GL_TEXTURE_2D: u32 = 0x0DE1;
pub const GL_TEXTURE_3D: u32 = 0x806F;
pub const GL_R32UI: u32 = 0x8236;
pub const GL_RED_INTEGER: u32 = 0x8D94;
pub const GL_UNSIGNED_INT: u32 = 0x1405;
pub const GL_UNPACK_ALIGNMENT: u32 = 0x0CF5;
pub const GL_PACK_ALIGNMENT: u32 = 0x0D05;
pub const GL_TEXTURE_BINDING_2D: u32 = 0x8069;
pub const GL_ARRAY_BUFFER_BINDING: u32 = 0x8894;

type Ptr = *mut c_void;

/// The EGL entry points used, and the GL ones, resolved once a context is current.
pub struct Egl {
    _lib: Library,
    pub display: Ptr,
    pub context: Ptr,
    make_current: unsafe extern "C" fn(Ptr, Ptr, Ptr, Ptr) -> u32,
    pub get_proc: unsafe extern "C" fn(*const c_char) -> Ptr,
}

/// GL functions of the test's context.
pub struct Gl {
    gen_buffers: unsafe extern "C" fn(i32, *mut u32),
    bind_buffer: unsafe extern "C" fn(u32, u32),
    buffer_data: unsafe extern "C" fn(u32, isize, *const c_void, u32),
    get_buffer_sub_data: unsafe extern "C" fn(u32, isize, isize, *mut c_void),
    gen_textures: unsafe extern "C" fn(i32, *mut u32),
    bind_texture: unsafe extern "C" fn(u32, u32),
    tex_image_2d: unsafe extern "C" fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void),
    get_tex_image: unsafe extern "C" fn(u32, i32, u32, u32, *mut c_void),
    pixel_storei: unsafe extern "C" fn(u32, i32),
    get_error: unsafe extern "C" fn() -> u32,
    get_integerv: unsafe extern "C" fn(u32, *mut i32),
    delete_textures: unsafe extern "C" fn(i32, *const u32),
}

impl Egl {
    /// A surfaceless desktop GL context (not yet current), or why there is none.
    pub fn surfaceless() -> Result<Egl, String> {
        Egl::surfaceless_api(false)
    }

    /// A surfaceless OpenGL ES 3 context (not yet current), or why there is none.
    pub fn surfaceless_es() -> Result<Egl, String> {
        Egl::surfaceless_api(true)
    }

    fn surfaceless_api(es: bool) -> Result<Egl, String> {
        // SAFETY: Mesa's libEGL; each symbol has the EGL 1.5 signature given.
        unsafe {
            let lib = Library::new("libEGL.so.1").map_err(|e| format!("libEGL.so.1: {e}"))?;
            let get_proc = *lib.get::<unsafe extern "C" fn(*const c_char) -> Ptr>(b"eglGetProcAddress\0").map_err(|e| e.to_string())?;
            let get_display =
                *lib.get::<unsafe extern "C" fn(u32, Ptr, *const isize) -> Ptr>(b"eglGetPlatformDisplay\0").map_err(|e| e.to_string())?;
            let initialize = *lib.get::<unsafe extern "C" fn(Ptr, *mut i32, *mut i32) -> u32>(b"eglInitialize\0").map_err(|e| e.to_string())?;
            let bind_api = *lib.get::<unsafe extern "C" fn(u32) -> u32>(b"eglBindAPI\0").map_err(|e| e.to_string())?;
            let choose =
                *lib.get::<unsafe extern "C" fn(Ptr, *const i32, *mut Ptr, i32, *mut i32) -> u32>(b"eglChooseConfig\0").map_err(|e| e.to_string())?;
            let create = *lib.get::<unsafe extern "C" fn(Ptr, Ptr, Ptr, *const i32) -> Ptr>(b"eglCreateContext\0").map_err(|e| e.to_string())?;
            let make_current = *lib.get::<unsafe extern "C" fn(Ptr, Ptr, Ptr, Ptr) -> u32>(b"eglMakeCurrent\0").map_err(|e| e.to_string())?;

            let display = get_display(EGL_PLATFORM_SURFACELESS_MESA, std::ptr::null_mut(), std::ptr::null());
            if display.is_null() {
                return Err("eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA) gave no display".into());
            }
            let (mut major, mut minor) = (0, 0);
            if initialize(display, &mut major, &mut minor) == 0 {
                return Err("eglInitialize failed on the surfaceless platform".into());
            }
            if bind_api(if es { EGL_OPENGL_ES_API } else { EGL_OPENGL_API }) == 0 {
                return Err("eglBindAPI failed".into());
            }
            let renderable = if es { EGL_OPENGL_ES3_BIT } else { EGL_OPENGL_BIT };
            let attribs = [EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, renderable, EGL_NONE];
            let (mut config, mut count) = (std::ptr::null_mut(), 0);
            if choose(display, attribs.as_ptr(), &mut config, 1, &mut count) == 0 || count == 0 {
                return Err("no EGL config renders desktop OpenGL".into());
            }
            let desktop_attribs = [
                EGL_CONTEXT_MAJOR_VERSION,
                3,
                EGL_CONTEXT_MINOR_VERSION,
                3,
                EGL_CONTEXT_OPENGL_PROFILE_MASK,
                EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                EGL_NONE,
            ];
            let es_attribs = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE];
            let ctx_attribs: &[i32] = if es { &es_attribs } else { &desktop_attribs };
            let context = create(display, config, std::ptr::null_mut(), ctx_attribs.as_ptr());
            if context.is_null() {
                return Err("eglCreateContext (OpenGL 3.3 core / ES 3.0) failed".into());
            }
            Ok(Egl { _lib: lib, display, context, make_current, get_proc })
        }
    }

    /// Makes the context current on this thread (or none, with `current` false).
    pub fn make_current(&self, current: bool) -> bool {
        let ctx = if current { self.context } else { std::ptr::null_mut() };
        // SAFETY: this display, no surfaces (surfaceless), this context or none.
        unsafe { (self.make_current)(self.display, std::ptr::null_mut(), std::ptr::null_mut(), ctx) != 0 }
    }

    /// The GL functions (the context must be current).
    pub fn gl(&self) -> Gl {
        let get = |name: &str| -> Ptr {
            let c = format!("{name}\0");
            // SAFETY: a NUL-terminated name.
            let p = unsafe { (self.get_proc)(c.as_ptr().cast()) };
            assert!(!p.is_null(), "eglGetProcAddress({name})");
            p
        };
        /// A function pointer from its address.
        ///
        /// # Safety
        /// `p` is a function of type `T` (a pointer-sized `unsafe extern "C" fn`).
        unsafe fn cast<T>(p: Ptr) -> T {
            assert_eq!(std::mem::size_of::<T>(), std::mem::size_of::<Ptr>());
            // SAFETY: same size, and `p` is such a function, per the contract.
            unsafe { std::mem::transmute_copy(&p) }
        }
        // SAFETY: each pointer is the named GL function, of the OpenGL 4.6 signature given.
        unsafe {
            Gl {
                gen_buffers: cast(get("glGenBuffers")),
                bind_buffer: cast(get("glBindBuffer")),
                buffer_data: cast(get("glBufferData")),
                get_buffer_sub_data: cast(get("glGetBufferSubData")),
                gen_textures: cast(get("glGenTextures")),
                bind_texture: cast(get("glBindTexture")),
                tex_image_2d: cast(get("glTexImage2D")),
                get_tex_image: cast(get("glGetTexImage")),
                pixel_storei: cast(get("glPixelStorei")),
                get_error: cast(get("glGetError")),
                get_integerv: cast(get("glGetIntegerv")),
                delete_textures: cast(get("glDeleteTextures")),
            }
        }
    }
}

impl Gl {
    /// A buffer holding `data`, left bound to `GL_ARRAY_BUFFER`.
    pub fn buffer(&self, data: &[u32]) -> u32 {
        let mut name = 0;
        // SAFETY: one name written; `data` readable for its size.
        unsafe {
            (self.gen_buffers)(1, &mut name);
            (self.bind_buffer)(GL_ARRAY_BUFFER, name);
            (self.buffer_data)(GL_ARRAY_BUFFER, std::mem::size_of_val(data) as isize, data.as_ptr().cast(), GL_DYNAMIC_DRAW);
        }
        self.no_error();
        name
    }

    /// The first `n` words of buffer `name`, read through `GL_ARRAY_BUFFER`.
    pub fn read_buffer(&self, name: u32, n: usize) -> Vec<u32> {
        let mut out = vec![0u32; n];
        // SAFETY: `out` holds n words.
        unsafe {
            (self.bind_buffer)(GL_ARRAY_BUFFER, name);
            (self.get_buffer_sub_data)(GL_ARRAY_BUFFER, 0, (n * 4) as isize, out.as_mut_ptr().cast());
        }
        self.no_error();
        out
    }

    /// A `width` x `height` `GL_R32UI` texture holding `data` (row-major).
    pub fn texture_r32ui(&self, width: usize, height: usize, data: &[u32]) -> u32 {
        assert_eq!(data.len(), width * height);
        let mut name = 0;
        // SAFETY: one name written; `data` holds the whole level.
        unsafe {
            (self.gen_textures)(1, &mut name);
            (self.bind_texture)(GL_TEXTURE_2D, name);
            (self.pixel_storei)(GL_UNPACK_ALIGNMENT, 1);
            (self.tex_image_2d)(
                GL_TEXTURE_2D,
                0,
                GL_R32UI as i32,
                width as i32,
                height as i32,
                0,
                GL_RED_INTEGER,
                GL_UNSIGNED_INT,
                data.as_ptr().cast(),
            );
        }
        self.no_error();
        name
    }

    /// Level 0 of a `GL_R32UI` texture.
    pub fn read_texture_r32ui(&self, name: u32, texels: usize) -> Vec<u32> {
        let mut out = vec![0u32; texels];
        // SAFETY: `out` holds the whole level.
        unsafe {
            (self.bind_texture)(GL_TEXTURE_2D, name);
            (self.pixel_storei)(GL_PACK_ALIGNMENT, 1);
            (self.get_tex_image)(GL_TEXTURE_2D, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, out.as_mut_ptr().cast());
        }
        self.no_error();
        out
    }

    /// `glGetIntegerv` of a single-valued state.
    pub fn integer(&self, pname: u32) -> i32 {
        let mut v = 0;
        // SAFETY: one integer is written.
        unsafe { (self.get_integerv)(pname, &mut v) };
        v
    }

    /// Binds `name` to `GL_TEXTURE_2D` and sets the pack and unpack alignments.
    pub fn set_state(&self, texture: u32, pack_alignment: i32, unpack_alignment: i32) {
        // SAFETY: valid enums and values.
        unsafe {
            (self.bind_texture)(GL_TEXTURE_2D, texture);
            (self.pixel_storei)(GL_PACK_ALIGNMENT, pack_alignment);
            (self.pixel_storei)(GL_UNPACK_ALIGNMENT, unpack_alignment);
        }
        self.no_error();
    }

    /// Deletes texture `name`.
    pub fn delete_texture(&self, name: u32) {
        // SAFETY: one name.
        unsafe { (self.delete_textures)(1, &name) };
    }

    /// A name that is no object (never generated).
    pub fn unused_name(&self) -> u32 {
        0x7fff_0000
    }

    fn no_error(&self) {
        // SAFETY: no arguments.
        let e = unsafe { (self.get_error)() };
        assert_eq!(e, 0, "GL error {e:#x}");
    }
}
