//! EGL interop on the CPU device over Mesa (llvmpipe): EGL images made from GL textures
//! and a renderbuffer are registered, read and changed by CUDA through their frame's
//! array, and read back through GL; the register and map flags; when the texels move
//! (registration, map, unmap, unregistration: `cuda_driver::gl`'s `egl` module); and the
//! codes of misuse ("EGL Interoperability"; the codes an H200 with driver 580.159
//! answered). Expected values are computed here from the texels the test wrote through
//! GL. Skipped, with the reason printed, only where EGL cannot make a context. (Its own
//! test binary: the GL context belongs to the one test thread.)

#[path = "gl_support/egl_image.rs"]
mod egl_image;
#[allow(dead_code, reason = "shared with gl_interop.rs, which uses the rest")]
mod gl_support;

use std::ffi::c_void;

use cuda_driver::gl::{EglFrame, MAP_FLAGS_WRITE_DISCARD};
use cuda_driver::handle::GraphicsHandle;
use cuda_driver::texture::ArrayHandle;
use cuda_driver::{init, CuError, Driver, StreamHandle};
use egl_image::{Images, GL_R8, GL_RED, GL_RG, GL_RG8, GL_RGB, GL_RGB8, GL_RGBA, GL_RGBA8, GL_TEXTURE_BINDING_2D};
use gl_support::Egl;

const W: usize = 8;
const H: usize = 5;
const BYTES: usize = W * H * 4;

/// `CU_EGL_COLOR_FORMAT_ABGR`, `CU_EGL_COLOR_FORMAT_Y`, `CU_AD_FORMAT_UNSIGNED_INT8`.
const COLOR_ABGR: u32 = 0x0E;
const COLOR_Y: u32 = 0x52;
const FORMAT_U8: u32 = 0x01;

fn texels(seed: u8) -> Vec<u8> {
    (0..BYTES).map(|i| (i as u8).wrapping_mul(7).wrapping_add(seed)).collect()
}

fn read_array(driver: &Driver, array: ArrayHandle) -> Vec<u8> {
    let base = driver.array(array).unwrap().base;
    let mut out = vec![0u8; BYTES];
    // SAFETY: `out` holds the array's W x H RGBA8 texels.
    unsafe { driver.memcpy_dtoh(out.as_mut_ptr().cast(), base, BYTES) }.unwrap();
    out
}

fn write_array(driver: &Driver, array: ArrayHandle, data: &[u8]) {
    let base = driver.array(array).unwrap().base;
    // SAFETY: `data` holds the array's W x H RGBA8 texels.
    unsafe { driver.memcpy_htod(base, data.as_ptr().cast(), data.len()) }.unwrap();
}

fn frame(driver: &Driver, res: GraphicsHandle) -> EglFrame {
    driver.graphics_resource_get_mapped_egl_frame(res, 0, 0).unwrap()
}

#[test]
fn egl_images_through_cuda() {
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
    assert!(egl.make_current(true), "eglMakeCurrent");
    let images = Images::new(&egl);

    let tex = images.texture(GL_RGBA8, GL_RGBA, W, H, &texels(1));
    let image = images.of_texture(tex);
    misuse(driver, &egl, image);
    register_and_read(driver, &images, tex, image);
    map_and_unmap(driver, &images, tex, image);
    unregistration(driver, &images, tex, image);
    flags(driver, &images, tex, image);
    formats(driver, &images);
    images.destroy(image);
    gles_context(driver, image);
}

/// The codes of misuse, as an H200 (driver 580.159) answers them, and ours where NVIDIA's
/// driver needs no GL context.
fn misuse(driver: &Driver, egl: &Egl, image: *mut c_void) {
    assert_eq!(driver.graphics_egl_register_image(std::ptr::null_mut(), 0), Err(CuError::UNKNOWN));
    for bad in [3, 4, 8, 0x10, 0x100] {
        assert_eq!(driver.graphics_egl_register_image(image, bad), Err(CuError::INVALID_VALUE), "flags {bad:#x}");
    }
    assert_eq!(driver.graphics_resource_get_mapped_egl_frame(GraphicsHandle(0x1234), 0, 0), Err(CuError::INVALID_HANDLE));

    // GL buffers and textures have no EGL frame, mapped or not.
    let gl = egl.gl();
    let buffer = driver.graphics_gl_register_buffer(gl.buffer(&[1, 2, 3]), 0).unwrap();
    let texture = driver.graphics_gl_register_image(gl.texture_r32ui(1, 1, &[4]), 0x0DE1, 0).unwrap();
    for res in [buffer, texture] {
        assert_eq!(driver.graphics_resource_get_mapped_egl_frame(res, 0, 0), Err(CuError::INVALID_VALUE));
        driver.graphics_map_resources(&[res], StreamHandle::NULL).unwrap();
        assert_eq!(driver.graphics_resource_get_mapped_egl_frame(res, 0, 0), Err(CuError::INVALID_VALUE));
        driver.graphics_unregister_resource(res).unwrap();
    }

    // Reading the image needs the thread's EGL context.
    assert!(egl.make_current(false));
    assert_eq!(driver.graphics_egl_register_image(image, 0), Err(CuError::INVALID_GRAPHICS_CONTEXT));
    assert!(egl.make_current(true));
}

/// Registration copies the image; the frame is one RGBA8 array, whatever the index and
/// level asked for; the other getters answer as for a registered image.
fn register_and_read(driver: &Driver, images: &Images, tex: u32, image: *mut c_void) {
    let other = images.texture(GL_RGBA8, GL_RGBA, 1, 1, &[0; 4]);
    images.bind(other);
    let res = driver.graphics_egl_register_image(image, 0).unwrap();
    assert_eq!(images.integer(GL_TEXTURE_BINDING_2D), other as i32, "the application's texture binding");
    let f = frame(driver, res);
    assert_eq!((f.width, f.height, f.num_channels, f.cu_format, f.color_format), (W as u32, H as u32, 4, FORMAT_U8, COLOR_ABGR));
    for (index, level) in [(1, 0), (0, 1), (6, 3)] {
        assert_eq!(driver.graphics_resource_get_mapped_egl_frame(res, index, level), Ok(f));
        assert_eq!(driver.graphics_sub_resource_get_mapped_array(res, index, level), Ok(f.array));
    }
    let d = driver.array_3d_descriptor(f.array).unwrap();
    // Surface load/store and gather allowed, as an H200's array for an image.
    assert_eq!((d.width, d.height, d.depth, d.format, d.num_channels, d.flags), (W, H, 0, FORMAT_U8, 4, 0x0A));
    assert_eq!(driver.graphics_resource_get_mapped_mipmapped_array(res), Err(CuError::UNKNOWN));
    assert_eq!(driver.graphics_resource_get_mapped_pointer(res), Err(CuError::NOT_MAPPED_AS_POINTER));
    assert_eq!(read_array(driver, f.array), texels(1));

    // Registered twice, each resource has its own copy.
    let again = driver.graphics_egl_register_image(image, 0).unwrap();
    assert_ne!(frame(driver, again).array, f.array);
    driver.graphics_unregister_resource(again).unwrap();
    driver.graphics_unregister_resource(res).unwrap();
    assert_eq!(images.read_rgba8(tex, BYTES), texels(1), "nothing written, nothing changed");
    assert_eq!(driver.graphics_resource_get_mapped_egl_frame(res, 0, 0), Err(CuError::INVALID_HANDLE));
}

/// Mapping reads GL's changes into the copy, in stream order; unmapping writes CUDA's.
fn map_and_unmap(driver: &Driver, images: &Images, tex: u32, image: *mut c_void) {
    images.write_rgba8(tex, W, H, &texels(2));
    let res = driver.graphics_egl_register_image(image, 0).unwrap();
    let array = frame(driver, res).array;
    assert_eq!(driver.graphics_unmap_resources(&[res], StreamHandle::NULL), Err(CuError::NOT_MAPPED));

    // GL changes the image: CUDA's copy is the registration's until the next map.
    images.write_rgba8(tex, W, H, &texels(3));
    assert_eq!(read_array(driver, array), texels(2));
    let stream = driver.stream_create(1).unwrap();
    driver.graphics_map_resources(&[res], stream).unwrap();
    assert_eq!(driver.graphics_map_resources(&[res], stream), Err(CuError::ALREADY_MAPPED));
    driver.stream_synchronize(stream).unwrap();
    assert_eq!(frame(driver, res).array, array, "the copy lives as long as the registration");
    assert_eq!(read_array(driver, array), texels(3));

    // CUDA writes; unmapping puts it in the image, seen through the texture it came from.
    let written: Vec<u8> = texels(3).iter().map(|v| v ^ 0x5A).collect();
    write_array(driver, array, &written);
    driver.graphics_unmap_resources(&[res], stream).unwrap();
    assert_eq!(driver.graphics_unmap_resources(&[res], stream), Err(CuError::NOT_MAPPED));
    assert_eq!(images.read_rgba8(tex, BYTES), written);
    // The frame stays accessible after the unmap.
    assert_eq!(read_array(driver, frame(driver, res).array), written);

    // A resource that was mapped and unmapped is not written again at unregistration: GL's
    // later texels stay.
    images.write_rgba8(tex, W, H, &texels(4));
    driver.graphics_unregister_resource(res).unwrap();
    assert_eq!(images.read_rgba8(tex, BYTES), texels(4));
    driver.stream_destroy(stream).unwrap();
}

/// A program written for NVIDIA's driver (memory shared, no map) sees CUDA's writes in the
/// image once it unregisters; a mapped resource is unmapped by its unregistration.
fn unregistration(driver: &Driver, images: &Images, tex: u32, image: *mut c_void) {
    let res = driver.graphics_egl_register_image(image, 0).unwrap();
    let written = texels(5);
    write_array(driver, frame(driver, res).array, &written);
    assert_eq!(images.read_rgba8(tex, BYTES), texels(4), "not before unregistration");
    driver.graphics_unregister_resource(res).unwrap();
    assert_eq!(images.read_rgba8(tex, BYTES), written);

    let res = driver.graphics_egl_register_image(image, 0).unwrap();
    driver.graphics_map_resources(&[res], StreamHandle::NULL).unwrap();
    write_array(driver, frame(driver, res).array, &texels(6));
    driver.graphics_unregister_resource(res).unwrap();
    assert_eq!(images.read_rgba8(tex, BYTES), texels(6));
}

/// READ_ONLY: nothing goes back to the image; WRITE_DISCARD: nothing is read from it.
fn flags(driver: &Driver, images: &Images, tex: u32, image: *mut c_void) {
    images.write_rgba8(tex, W, H, &texels(7));
    let ro = driver.graphics_egl_register_image(image, 0x01).unwrap();
    let array = frame(driver, ro).array;
    assert_eq!(read_array(driver, array), texels(7));
    write_array(driver, array, &texels(8));
    driver.graphics_map_resources(&[ro], StreamHandle::NULL).unwrap();
    write_array(driver, array, &texels(9));
    driver.graphics_unmap_resources(&[ro], StreamHandle::NULL).unwrap();
    driver.graphics_unregister_resource(ro).unwrap();
    assert_eq!(images.read_rgba8(tex, BYTES), texels(7));

    // Registered WRITE_DISCARD: CUDA's copy starts without the image's texels, and what
    // CUDA writes reaches the image.
    let wd = driver.graphics_egl_register_image(image, 0x02).unwrap();
    let array = frame(driver, wd).array;
    assert_ne!(read_array(driver, array), texels(7));
    write_array(driver, array, &texels(10));
    driver.graphics_unregister_resource(wd).unwrap();
    assert_eq!(images.read_rgba8(tex, BYTES), texels(10));

    // Map flag WRITE_DISCARD: the map does not read GL's changes.
    let res = driver.graphics_egl_register_image(image, 0).unwrap();
    let array = frame(driver, res).array;
    driver.graphics_resource_set_map_flags(res, MAP_FLAGS_WRITE_DISCARD).unwrap();
    images.write_rgba8(tex, W, H, &texels(11));
    driver.graphics_map_resources(&[res], StreamHandle::NULL).unwrap();
    assert_eq!(read_array(driver, array), texels(10));
    write_array(driver, array, &texels(12));
    driver.graphics_unmap_resources(&[res], StreamHandle::NULL).unwrap();
    assert_eq!(images.read_rgba8(tex, BYTES), texels(12));
    driver.graphics_unregister_resource(res).unwrap();
}

/// One-channel images are `CU_EGL_COLOR_FORMAT_Y`; two-channel ones are not supported and
/// three-channel ones invalid (an H200's answers); a renderbuffer's image maps as a
/// texture's does.
fn formats(driver: &Driver, images: &Images) {
    let r8 = images.of_texture(images.texture(GL_R8, GL_RED, W, H, &texels(13)[..W * H]));
    let res = driver.graphics_egl_register_image(r8, 0).unwrap();
    let f = frame(driver, res);
    assert_eq!((f.num_channels, f.cu_format, f.color_format), (1, FORMAT_U8, COLOR_Y));
    let base = driver.array(f.array).unwrap().base;
    let mut back = vec![0u8; W * H];
    // SAFETY: `back` holds the array's W x H bytes.
    unsafe { driver.memcpy_dtoh(back.as_mut_ptr().cast(), base, W * H) }.unwrap();
    assert_eq!(back, texels(13)[..W * H]);
    driver.graphics_unregister_resource(res).unwrap();
    images.destroy(r8);

    let rg8 = images.of_texture(images.texture(GL_RG8, GL_RG, W, H, &texels(14)[..W * H * 2]));
    assert_eq!(driver.graphics_egl_register_image(rg8, 0), Err(CuError::NOT_SUPPORTED));
    images.destroy(rg8);
    let rgb8 = images.of_texture(images.texture(GL_RGB8, GL_RGB, W, H, &texels(15)[..W * H * 3]));
    assert_eq!(driver.graphics_egl_register_image(rgb8, 0), Err(CuError::INVALID_VALUE));
    images.destroy(rgb8);

    let rb = images.of_renderbuffer(images.renderbuffer_rgba8(W, H));
    let res = driver.graphics_egl_register_image(rb, 0).unwrap();
    let f = frame(driver, res);
    assert_eq!((f.width, f.height, f.num_channels, f.color_format), (W as u32, H as u32, 4, COLOR_ABGR));
    driver.graphics_map_resources(&[res], StreamHandle::NULL).unwrap();
    write_array(driver, f.array, &texels(16));
    driver.graphics_unmap_resources(&[res], StreamHandle::NULL).unwrap();
    driver.graphics_unregister_resource(res).unwrap();
    // A new registration reads what the unmap wrote into the renderbuffer.
    let res = driver.graphics_egl_register_image(rb, 0).unwrap();
    assert_eq!(read_array(driver, frame(driver, res).array), texels(16));
    driver.graphics_unregister_resource(res).unwrap();
    images.destroy(rb);
}

/// An OpenGL ES context cannot read the image back (ES has no `glGetTexImage`).
fn gles_context(driver: &Driver, image: *mut c_void) {
    let egl = match Egl::surfaceless_es() {
        Ok(egl) => egl,
        Err(why) => {
            println!("OpenGL ES part skipped: {why}");
            return;
        }
    };
    assert!(egl.make_current(true), "eglMakeCurrent (ES)");
    assert_eq!(driver.graphics_egl_register_image(image, 0), Err(CuError::NOT_SUPPORTED));
    assert!(egl.make_current(false));
}
