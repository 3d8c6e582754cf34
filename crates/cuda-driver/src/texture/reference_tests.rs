//! The reference state's rules (the setters' codes, created references) on the fake
//! device; binding and sampling through modules run on the CPU device in
//! `crates/cuda-abi/tests/texref.rs`.

use super::*;

#[test]
fn setters_refuse_what_nvidias_driver_refuses_and_change_nothing_then() {
    let mut s = TexRefState::default();
    assert_eq!((s.format, s.channels, s.address_mode, s.filter_mode, s.flags), (FORMAT_FLOAT, 1, [1; 3], 0, 0));
    assert_eq!(set_format(&mut s, 0x20, 3), Err(CuError::INVALID_VALUE));
    assert_eq!(set_format(&mut s, 0x20, 8), Err(CuError::INVALID_VALUE));
    assert_eq!(set_format(&mut s, 0x20, 5), Err(CuError::INVALID_VALUE));
    assert_eq!(set_format(&mut s, 0x20, -1), Ok(()), "as NVIDIA's driver takes it");
    assert_eq!(set_format(&mut s, 0x77, 0), Ok(()), "any format, 0 channels");
    assert_eq!((s.format, s.channels), (0x77, 0));
    assert_eq!(set_address_mode(&mut s, 3, 0), Err(CuError::INVALID_VALUE));
    assert_eq!(set_address_mode(&mut s, -1, 0), Err(CuError::INVALID_VALUE));
    assert_eq!(set_address_mode(&mut s, 2, 3), Ok(()));
    assert_eq!(set_address_mode(&mut s, 0, 7), Ok(()));
    assert_eq!(s.address_mode, [ADDRESS_MODE_CLAMP, ADDRESS_MODE_CLAMP, 3], "an unknown mode reads back as clamp");
    assert_eq!(address_mode_of(&s, 2), Ok(3));
    assert_eq!(address_mode_of(&s, 3), Err(CuError::INVALID_VALUE));
    assert_eq!(set_filter_mode(&mut s, 2), Ok(()));
    assert_eq!(s.filter_mode, 2, "read back as given");
    assert_eq!(set_mipmap_filter_mode(&mut s, 2), Err(CuError::INVALID_VALUE));
    for bad in [0xff, 0x40, 0x8000_0000] {
        assert_eq!(set_flags(&mut s, bad), Err(CuError::INVALID_VALUE), "{bad:#x}");
    }
    assert_eq!(set_flags(&mut s, 0x33), Ok(()));
}

#[test]
fn created_references_keep_state_and_belong_to_no_module() {
    let (driver, _) = crate::tests::setup();
    let h = driver.texref_create().unwrap();
    assert_eq!(driver.texref_address(h), Err(CuError::INVALID_VALUE), "nothing bound");
    assert_eq!(driver.texref_set_address(h, 4096 + 20, 64), Ok(20));
    assert_eq!(driver.texref_address(h), Ok(4096));
    assert_eq!(driver.texref_update(h, |s| set_flags(s, 0x40)), Err(CuError::INVALID_VALUE));
    assert_eq!(driver.texref_state(h).unwrap().flags, 0, "a refused change changes nothing");
    assert_eq!(driver.texref_set_array(h, ArrayHandle(0), 0), Err(CuError::INVALID_HANDLE));
    driver.texref_destroy(h).unwrap();
    assert_eq!(driver.texref_state(h).err(), Some(CuError::INVALID_HANDLE));
    assert_eq!(driver.texref_destroy(h), Err(CuError::INVALID_HANDLE));
    let m = crate::tests::load_module(&driver);
    assert_eq!(driver.module_get_texref(m, "counter"), Err(CuError::NOT_FOUND), "a variable is no reference");
    assert_eq!(driver.module_get_surfref(m, "nope"), Err(CuError::NOT_FOUND));
}
