//! The hash behind cudart's INTEGRITY_CHECK export table (slot 1).
//!
//! cudart calls slot 1 with its own version, the time, and a 16-byte out buffer, and
//! compares the result with its own computation; a mismatch fails every runtime call
//! with error 103. The facts (see `shared/facts/cudart-driver-contract.md`):
//!
//! - `rt_version % 10 == 0` and `== 1` answer fixed constants;
//! - otherwise the answer is HMAC-MD2 (RFC 1319 hash, RFC 2104 HMAC with MD2's 16-byte
//!   block) over a little-endian message of the driver version, the runtime version,
//!   `getpid()`, `(uint32_t)pthread_self()`, three addresses (the CUDART_INTERFACE
//!   table, the INTEGRITY_CHECK table, the slot-1 function), the time, and for every
//!   device its UUID and PCI domain, bus and device numbers.
//!
//! This file is pure computation over an [`IntegrityInput`]; gathering the input from
//! the process and the driver happens in `export_tables.rs`.

use hmac::digest::KeyInit;
use hmac::{Mac, SimpleHmac};
use md2::Md2;

/// The HMAC key.
const KEY: [u8; 16] = [0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52, 0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f];

/// The answer for `rt_version % 10 == 0`; for `== 1` byte 7 becomes [`SALT_1_BYTE_7`].
const FIXED_ANSWER: [u8; 16] = [0x5c, 0x67, 0xcb, 0x03, 0x1c, 0x18, 0x41, 0x33, 0xe8, 0xd1, 0x4c, 0x1f, 0xaa, 0x83, 0xd3, 0x8e];
const SALT_1_BYTE_7: u8 = 0x18;

/// What identifies one device to the hash: the values the public API reports for it
/// (`cuDeviceGetUuid`, attributes 50, 33 and 34).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceIdentity {
    pub uuid: [u8; 16],
    pub pci_domain: u32,
    pub pci_bus: u32,
    pub pci_device: u32,
}

/// Everything the hash covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntegrityInput {
    pub driver_version: u32,
    pub rt_version: u32,
    pub pid: u32,
    /// `(uint32_t)pthread_self()`, not the kernel thread id.
    pub thread: u32,
    pub cudart_interface_table: u64,
    pub integrity_table: u64,
    pub integrity_fn: u64,
    pub unix_seconds: u64,
    pub devices: Vec<DeviceIdentity>,
}

/// The 16 bytes slot 1 writes to its out buffer.
pub fn integrity_hash(input: &IntegrityInput) -> [u8; 16] {
    match input.rt_version % 10 {
        0 => return FIXED_ANSWER,
        1 => {
            let mut answer = FIXED_ANSWER;
            answer[7] = SALT_1_BYTE_7;
            return answer;
        }
        _ => {}
    }
    let mut mac = <SimpleHmac<Md2> as KeyInit>::new_from_slice(&KEY).expect("HMAC accepts any key length");
    mac.update(&message(input));
    mac.finalize().into_bytes().into()
}

/// The little-endian message the HMAC covers.
fn message(input: &IntegrityInput) -> Vec<u8> {
    let mut msg = Vec::with_capacity(48 + 28 * input.devices.len());
    msg.extend_from_slice(&input.driver_version.to_le_bytes());
    msg.extend_from_slice(&input.rt_version.to_le_bytes());
    msg.extend_from_slice(&input.pid.to_le_bytes());
    msg.extend_from_slice(&input.thread.to_le_bytes());
    msg.extend_from_slice(&input.cudart_interface_table.to_le_bytes());
    msg.extend_from_slice(&input.integrity_table.to_le_bytes());
    msg.extend_from_slice(&input.integrity_fn.to_le_bytes());
    msg.extend_from_slice(&input.unix_seconds.to_le_bytes());
    for device in &input.devices {
        msg.extend_from_slice(&device.uuid);
        msg.extend_from_slice(&device.pci_domain.to_le_bytes());
        msg.extend_from_slice(&device.pci_bus.to_le_bytes());
        msg.extend_from_slice(&device.pci_device.to_le_bytes());
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn published_vector() -> IntegrityInput {
        IntegrityInput {
            driver_version: 12020,
            rt_version: 0x2B4A,
            pid: 0x4D08,
            thread: 0x2B78,
            cudart_interface_table: 0x0000_7FF8_C807_17F0,
            integrity_table: 0x0000_7FF8_C825_E4B0,
            integrity_fn: 0x0000_7FF8_C7DD_0AD0,
            unix_seconds: 0x64A3_65EE,
            devices: vec![DeviceIdentity {
                uuid: [0x67, 0x22, 0xcb, 0xcf, 0xc6, 0x61, 0xf2, 0x92, 0x74, 0xd6, 0xed, 0x23, 0x2a, 0x32, 0x13, 0x1c],
                pci_domain: 0,
                pci_bus: 4,
                pci_device: 0,
            }],
        }
    }

    fn hex_reversed(bytes: &[u8; 16]) -> String {
        bytes.iter().rev().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn published_test_vector() {
        let input = published_vector();
        assert_eq!(input.rt_version % 10, 2, "the vector exercises the HMAC path");
        assert_eq!(hex_reversed(&integrity_hash(&input)), "eaf1313342bfcd84a7c34628f214707a");
    }

    #[test]
    fn message_layout() {
        let msg = message(&published_vector());
        assert_eq!(msg.len(), 48 + 28);
        assert_eq!(&msg[0..4], &12020u32.to_le_bytes());
        assert_eq!(&msg[16..24], &0x0000_7FF8_C807_17F0u64.to_le_bytes());
        assert_eq!(msg[48], 0x67);
        assert_eq!(&msg[68..72], &4u32.to_le_bytes());
    }

    #[test]
    fn fixed_answers() {
        let mut input = published_vector();
        input.rt_version = 13050;
        assert_eq!(integrity_hash(&input), FIXED_ANSWER);
        input.rt_version = 12091;
        let answer = integrity_hash(&input);
        assert_eq!(answer[7], 0x18);
        assert_eq!(answer[..7], FIXED_ANSWER[..7]);
        assert_eq!(answer[8..], FIXED_ANSWER[8..]);
        // Anything else hashes, and the hash depends on the input.
        input.rt_version = 13052;
        let a = integrity_hash(&input);
        input.pid += 1;
        assert_ne!(a, integrity_hash(&input));
    }

    #[test]
    fn md2_known_answers() {
        use md2::Digest as _;
        // RFC 1319, appendix A.5.
        let hex = |d: &[u8]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(hex(&Md2::digest(b"")), "8350e5a3e24c153df2275c9f80692773");
        assert_eq!(hex(&Md2::digest(b"abc")), "da853b0d3f88d99b30283a69e6ded6bb");
    }
}
