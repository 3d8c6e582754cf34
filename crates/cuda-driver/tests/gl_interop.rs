//! OpenGL interop on the CPU device over Mesa (llvmpipe): GL buffers and a 2D texture are
//! registered, mapped, read and changed by CUDA (a kernel, copies) and read back through
//! GL; and the codes of misuse ("Graphics Interoperability", "OpenGL Interoperability").
//! Expected values are computed here from the data the test wrote through GL. Skipped,
//! with the reason printed, only where EGL cannot make a context. (Its own test binary:
//! the GL context belongs to the one test thread.)

mod gl_support;

use std::ffi::c_void;

use backend_api::LoadOptions;
use cuda_driver::gl::{MAP_FLAGS_READ_ONLY, MAP_FLAGS_WRITE_DISCARD};
use cuda_driver::handle::GraphicsHandle;
use cuda_driver::{init, CuError, Driver, StreamHandle};
use gl_support::{Egl, Gl, GL_ARRAY_BUFFER_BINDING, GL_PACK_ALIGNMENT, GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_BINDING_2D, GL_UNPACK_ALIGNMENT};

/// `add(src, dst)`: dst[t] = src[t] + 1 for each thread of one block.
const ADD: &str = ".version 8.0\n.target sm_80\n.address_size 64\n\
.visible .entry add(.param .u64 src, .param .u64 dst)\n{\n\
.reg .b32 %r<3>;\n.reg .b64 %rd<6>;\n\
ld.param.u64 %rd1, [src];\nld.param.u64 %rd2, [dst];\nmov.u32 %r1, %tid.x;\n\
mul.wide.u32 %rd3, %r1, 4;\nadd.u64 %rd4, %rd1, %rd3;\nadd.u64 %rd5, %rd2, %rd3;\n\
ld.global.u32 %r2, [%rd4];\nadd.u32 %r2, %r2, 1;\nst.global.u32 [%rd5], %r2;\nret;\n}\n\0";

fn read_words(driver: &Driver, ptr: u64, n: usize) -> Vec<u32> {
    let mut out = vec![0u32; n];
    // SAFETY: `out` holds n words.
    unsafe { driver.memcpy_dtoh(out.as_mut_ptr().cast(), ptr, n * 4) }.unwrap();
    out
}

fn write_words(driver: &Driver, ptr: u64, data: &[u32]) {
    // SAFETY: `data` holds its words.
    unsafe { driver.memcpy_htod(ptr, data.as_ptr().cast(), data.len() * 4) }.unwrap();
}

#[test]
fn gl_buffers_and_textures_through_cuda() {
    std::env::set_var("CUDA_BACKEND", "cpu");
    let egl = match Egl::surfaceless() {
        Ok(egl) => egl,
        Err(why) => {
            println!("skipped: no EGL context on this machine: {why}");
            return;
        }
    };
    let driver = init(0).expect("cuInit");
    let ctx = driver.primary_ctx_retain(0).unwrap();
    driver.ctx_set_current(ctx).unwrap();

    // No GL context current: NVIDIA's CUDA_ERROR_INVALID_GRAPHICS_CONTEXT.
    assert_eq!(driver.graphics_gl_register_buffer(1, 0), Err(CuError::INVALID_GRAPHICS_CONTEXT));
    assert_eq!(driver.gl_get_devices(1), Err(CuError::INVALID_GRAPHICS_CONTEXT));

    assert!(egl.make_current(true), "eglMakeCurrent");
    let gl = egl.gl();
    assert_eq!(driver.gl_get_devices(1).unwrap(), vec![0]);
    assert_eq!(driver.gl_get_devices(4), Err(CuError::INVALID_VALUE));

    buffer_through_a_kernel(driver, &gl);
    map_flags(driver, &gl);
    texture_2d(driver, &gl);
    deprecated_buffer_objects(driver, &gl);
    gl_state_and_threads(driver, &gl);
    assert!(egl.make_current(false));
    gles_buffers(driver);
}

fn buffer_through_a_kernel(driver: &Driver, gl: &Gl) {
    let n = 256usize;
    let data: Vec<u32> = (0..n as u32).map(|i| i * 3 + 7).collect();
    let buffer = gl.buffer(&data);
    assert_eq!(driver.graphics_gl_register_buffer(gl.unused_name(), 0), Err(CuError::INVALID_VALUE));
    assert_eq!(driver.graphics_gl_register_buffer(buffer, 0x10), Err(CuError::INVALID_VALUE));
    let res = driver.graphics_gl_register_buffer(buffer, 0).unwrap();

    assert_eq!(driver.graphics_resource_get_mapped_pointer(res), Err(CuError::NOT_MAPPED));
    assert_eq!(driver.graphics_unmap_resources(&[res], StreamHandle::NULL), Err(CuError::NOT_MAPPED));
    assert_eq!(driver.graphics_map_resources(&[res, res], StreamHandle::NULL), Err(CuError::INVALID_HANDLE));
    assert_eq!(driver.graphics_map_resources(&[GraphicsHandle(0x1234)], StreamHandle::NULL), Err(CuError::INVALID_HANDLE));

    let stream = driver.stream_create(1).unwrap();
    driver.graphics_map_resources(&[res], stream).unwrap();
    assert_eq!(driver.graphics_map_resources(&[res], stream), Err(CuError::ALREADY_MAPPED));
    assert_eq!(driver.graphics_resource_set_map_flags(res, MAP_FLAGS_READ_ONLY), Err(CuError::ALREADY_MAPPED));
    assert_eq!(driver.graphics_sub_resource_get_mapped_array(res, 0, 0), Err(CuError::NOT_MAPPED_AS_ARRAY));
    assert_eq!(driver.graphics_resource_get_mapped_mipmapped_array(res), Err(CuError::NOT_MAPPED_AS_ARRAY));
    let (ptr, size) = driver.graphics_resource_get_mapped_pointer(res).unwrap();
    assert_eq!(size, n * 4);
    assert_eq!(read_words(driver, ptr, n), data);

    // The kernel runs on `stream`, queued; the unmap on the same stream must see its result.
    // SAFETY: NUL-terminated PTX.
    let (module, logs) = unsafe { driver.module_load_data(ADD.as_ptr().cast(), &LoadOptions::default()) };
    let module = module.unwrap_or_else(|e| panic!("{e}: {}", logs.error));
    let f = driver.module_get_function(module, "add").unwrap();
    let (mut a, mut b) = (ptr, ptr);
    let mut args: [*mut c_void; 2] = [(&mut a as *mut u64).cast(), (&mut b as *mut u64).cast()];
    // SAFETY: the kernel's two pointer parameters.
    unsafe { driver.launch_kernel(f.as_raw(), [1, 1, 1], [n as u32, 1, 1], 0, stream, args.as_mut_ptr(), std::ptr::null_mut()) }.unwrap();
    driver.graphics_unmap_resources(&[res], stream).unwrap();
    let expected: Vec<u32> = data.iter().map(|v| v + 1).collect();
    assert_eq!(gl.read_buffer(buffer, n), expected);

    // Mapped again, the copy holds GL's current contents.
    driver.graphics_map_resources(&[res], StreamHandle::NULL).unwrap();
    let (ptr, _) = driver.graphics_resource_get_mapped_pointer(res).unwrap();
    assert_eq!(read_words(driver, ptr, n), expected);
    // Unregistering a mapped resource unmaps it, writing CUDA's changes back.
    write_words(driver, ptr, &[42; 4]);
    driver.graphics_unregister_resource(res).unwrap();
    assert_eq!(gl.read_buffer(buffer, 4), vec![42; 4]);
    assert_eq!(driver.graphics_resource_get_mapped_pointer(res), Err(CuError::INVALID_HANDLE));
    assert_eq!(driver.graphics_unregister_resource(res), Err(CuError::INVALID_HANDLE));
    driver.stream_destroy(stream).unwrap();
    driver.module_unload(module).unwrap();
}

fn map_flags(driver: &Driver, gl: &Gl) {
    let data: Vec<u32> = (0..64).map(|i| 1000 + i).collect();
    let buffer = gl.buffer(&data);
    let res = driver.graphics_gl_register_buffer(buffer, 0).unwrap();
    assert_eq!(driver.graphics_resource_set_map_flags(res, 3), Err(CuError::INVALID_VALUE));

    // READ_ONLY: what CUDA writes is not copied back.
    driver.graphics_resource_set_map_flags(res, MAP_FLAGS_READ_ONLY).unwrap();
    driver.graphics_map_resources(&[res], StreamHandle::NULL).unwrap();
    let (ptr, _) = driver.graphics_resource_get_mapped_pointer(res).unwrap();
    assert_eq!(read_words(driver, ptr, 64), data);
    write_words(driver, ptr, &[0; 64]);
    driver.graphics_unmap_resources(&[res], StreamHandle::NULL).unwrap();
    assert_eq!(gl.read_buffer(buffer, 64), data);

    // WRITE_DISCARD: CUDA overwrites everything, and that reaches GL.
    driver.graphics_resource_set_map_flags(res, MAP_FLAGS_WRITE_DISCARD).unwrap();
    driver.graphics_map_resources(&[res], StreamHandle::NULL).unwrap();
    let (ptr, _) = driver.graphics_resource_get_mapped_pointer(res).unwrap();
    let fresh: Vec<u32> = (0..64).map(|i| i * i).collect();
    write_words(driver, ptr, &fresh);
    driver.graphics_unmap_resources(&[res], StreamHandle::NULL).unwrap();
    assert_eq!(gl.read_buffer(buffer, 64), fresh);

    // Registered READ_ONLY: never written back, whatever the map flags.
    let ro = driver.graphics_gl_register_buffer(buffer, 0x01).unwrap();
    driver.graphics_map_resources(&[ro], StreamHandle::NULL).unwrap();
    let (ptr, _) = driver.graphics_resource_get_mapped_pointer(ro).unwrap();
    write_words(driver, ptr, &[7; 64]);
    driver.graphics_unmap_resources(&[ro], StreamHandle::NULL).unwrap();
    assert_eq!(gl.read_buffer(buffer, 64), fresh);
    driver.graphics_unregister_resource(ro).unwrap();
    driver.graphics_unregister_resource(res).unwrap();
}

fn texture_2d(driver: &Driver, gl: &Gl) {
    let (w, h) = (8usize, 5usize);
    let texels: Vec<u32> = (0..(w * h) as u32).map(|i| i * 11 + 1).collect();
    let tex = gl.texture_r32ui(w, h, &texels);
    assert_eq!(driver.graphics_gl_register_image(tex, GL_TEXTURE_3D, 0), Err(CuError::NOT_SUPPORTED));
    assert_eq!(driver.graphics_gl_register_image(tex, 0x1234, 0), Err(CuError::INVALID_VALUE));
    assert_eq!(driver.graphics_gl_register_image(gl.unused_name(), GL_TEXTURE_2D, 0), Err(CuError::INVALID_VALUE));
    let res = driver.graphics_gl_register_image(tex, GL_TEXTURE_2D, 0).unwrap();
    assert_eq!(driver.graphics_sub_resource_get_mapped_array(res, 0, 0), Err(CuError::NOT_MAPPED));

    driver.graphics_map_resources(&[res], StreamHandle::NULL).unwrap();
    assert_eq!(driver.graphics_resource_get_mapped_pointer(res), Err(CuError::NOT_MAPPED_AS_POINTER));
    assert_eq!(driver.graphics_sub_resource_get_mapped_array(res, 1, 0), Err(CuError::INVALID_VALUE));
    assert_eq!(driver.graphics_sub_resource_get_mapped_array(res, 0, 1), Err(CuError::INVALID_VALUE));
    let array = driver.graphics_sub_resource_get_mapped_array(res, 0, 0).unwrap();
    let mipmap = driver.graphics_resource_get_mapped_mipmapped_array(res).unwrap();
    assert_eq!(driver.mipmapped_array_get_level(mipmap, 0).unwrap(), array);
    let d = driver.array_3d_descriptor(array).unwrap();
    // CU_AD_FORMAT_UNSIGNED_INT32, one channel, the texture's extent.
    assert_eq!((d.width, d.height, d.depth, d.format, d.num_channels), (w, h, 0, 0x03, 1));
    let base = driver.array(array).unwrap().base;
    assert_eq!(read_words(driver, base, w * h), texels);

    let changed: Vec<u32> = texels.iter().map(|v| v ^ 0xA5A5_0000).collect();
    write_words(driver, base, &changed);
    driver.graphics_unmap_resources(&[res], StreamHandle::NULL).unwrap();
    assert_eq!(gl.read_texture_r32ui(tex, w * h), changed);
    driver.graphics_unregister_resource(res).unwrap();
}

fn deprecated_buffer_objects(driver: &Driver, gl: &Gl) {
    let data: Vec<u32> = (0..32).map(|i| 5 * i).collect();
    let buffer = gl.buffer(&data);
    assert_eq!(driver.gl_set_buffer_object_map_flags(buffer, 0), Err(CuError::INVALID_HANDLE));
    assert_eq!(driver.gl_map_buffer_object(buffer, StreamHandle::LEGACY), Err(CuError::INVALID_VALUE));
    driver.gl_register_buffer_object(buffer).unwrap();
    let (ptr, size) = driver.gl_map_buffer_object(buffer, StreamHandle::LEGACY).unwrap();
    assert_eq!(size, 128);
    assert_eq!(read_words(driver, ptr, 32), data);
    assert_eq!(driver.gl_register_buffer_object(buffer), Err(CuError::ALREADY_MAPPED));
    assert_eq!(driver.gl_set_buffer_object_map_flags(buffer, 0), Err(CuError::ALREADY_MAPPED));
    driver.memset(ptr, 9, 4, 32).unwrap();
    driver.gl_unmap_buffer_object(buffer, StreamHandle::LEGACY).unwrap();
    assert_eq!(gl.read_buffer(buffer, 32), vec![9; 32]);
    driver.gl_unregister_buffer_object(buffer).unwrap();
    assert_eq!(driver.gl_unregister_buffer_object(buffer), Err(CuError::INVALID_VALUE));
}

/// The application's GL state is as it left it after map and unmap; a thread without the
/// GL context cannot map; a map of several resources is all or nothing.
fn gl_state_and_threads(driver: &Driver, gl: &Gl) {
    let buffer = gl.buffer(&[1, 2, 3, 4]);
    let other = gl.texture_r32ui(1, 1, &[5]);
    let tex = gl.texture_r32ui(2, 2, &[6, 7, 8, 9]);
    let buf_res = driver.graphics_gl_register_buffer(buffer, 0).unwrap();
    let tex_res = driver.graphics_gl_register_image(tex, GL_TEXTURE_2D, 0).unwrap();
    gl.set_state(other, 8, 2);
    let array_binding = gl.integer(GL_ARRAY_BUFFER_BINDING);
    driver.graphics_map_resources(&[buf_res, tex_res], StreamHandle::NULL).unwrap();
    driver.graphics_unmap_resources(&[buf_res, tex_res], StreamHandle::NULL).unwrap();
    assert_eq!(gl.integer(GL_TEXTURE_BINDING_2D), other as i32);
    assert_eq!((gl.integer(GL_PACK_ALIGNMENT), gl.integer(GL_UNPACK_ALIGNMENT)), (8, 2));
    assert_eq!(gl.integer(GL_ARRAY_BUFFER_BINDING), array_binding);

    // Another thread, with the CUDA context but no GL context.
    let ctx = driver.ctx_get_current();
    std::thread::scope(|s| {
        s.spawn(|| {
            driver.ctx_set_current(ctx).unwrap();
            assert_eq!(driver.graphics_map_resources(&[buf_res], StreamHandle::NULL), Err(CuError::INVALID_GRAPHICS_CONTEXT));
        });
    });

    // The texture is deleted in GL: mapping both fails and leaves the buffer unmapped.
    gl.delete_texture(tex);
    assert!(driver.graphics_map_resources(&[buf_res, tex_res], StreamHandle::NULL).is_err());
    assert_eq!(driver.graphics_resource_get_mapped_pointer(buf_res), Err(CuError::NOT_MAPPED));
    driver.graphics_unregister_resource(tex_res).unwrap();
    driver.graphics_unregister_resource(buf_res).unwrap();
}

/// An OpenGL ES 3.0 context: buffers map (read through `glMapBufferRange`, written back
/// with `glBufferSubData`), textures are refused (ES has no `glGetTexImage`).
fn gles_buffers(driver: &Driver) {
    let egl = match Egl::surfaceless_es() {
        Ok(egl) => egl,
        Err(why) => {
            println!("OpenGL ES part skipped: {why}");
            return;
        }
    };
    assert!(egl.make_current(true), "eglMakeCurrent (ES)");
    let gl = egl.gl();
    let data: Vec<u32> = (0..16).map(|i| 0x100 + i).collect();
    let buffer = gl.buffer(&data);
    let res = driver.graphics_gl_register_buffer(buffer, 0).unwrap();
    driver.graphics_map_resources(&[res], StreamHandle::NULL).unwrap();
    let (ptr, size) = driver.graphics_resource_get_mapped_pointer(res).unwrap();
    assert_eq!((size, read_words(driver, ptr, 16)), (64, data.clone()));
    let doubled: Vec<u32> = data.iter().map(|v| v * 2).collect();
    write_words(driver, ptr, &doubled);
    driver.graphics_unmap_resources(&[res], StreamHandle::NULL).unwrap();
    // Mapped again: GL's store now holds what CUDA wrote.
    driver.graphics_map_resources(&[res], StreamHandle::NULL).unwrap();
    let (ptr, _) = driver.graphics_resource_get_mapped_pointer(res).unwrap();
    assert_eq!(read_words(driver, ptr, 16), doubled);
    driver.graphics_unregister_resource(res).unwrap();
    let tex = gl.texture_r32ui(1, 1, &[1]);
    assert_eq!(driver.graphics_gl_register_image(tex, GL_TEXTURE_2D, 0), Err(CuError::NOT_SUPPORTED));
    assert!(egl.make_current(false));
}
