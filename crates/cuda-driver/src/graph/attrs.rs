//! Kernel node attributes (`cuGraphKernelNodeGetAttribute`, `...SetAttribute`,
//! `...CopyAttributes`; `CUkernelNodeAttrID` is `CUlaunchAttributeID`): the values a node
//! was given, kept as the 64 bytes of their `CUlaunchAttributeValue`.
//!
//! `COOPERATIVE` makes the node's launches cooperative (as the attribute does for
//! `cuLaunchKernelEx`); clusters of more than one block are not supported, nor are
//! device-updatable kernel nodes (device-side graph updates); the others are scheduling
//! and memory hints with no effect on these devices, kept and returned. An attribute never
//! set reads as all zero. Stream-only attributes (synchronization policy, programmatic
//! dependencies and events, launch-completion events) are not kernel node attributes.

use super::NodeParams;
use crate::diag::fail;
use crate::{CuError, CuResult, Driver, GraphNodeHandle};

/// A `CUlaunchAttributeValue`.
pub type AttrValue = [u8; 64];

/// `CU_LAUNCH_ATTRIBUTE_COOPERATIVE`, `_CLUSTER_DIMENSION`,
/// `_DEVICE_UPDATABLE_KERNEL_NODE`.
const COOPERATIVE: u32 = 2;
const CLUSTER_DIMENSION: u32 = 4;
const DEVICE_UPDATABLE_KERNEL_NODE: u32 = 13;

/// Attribute ids a kernel node takes: access policy window (1), cooperative (2), cluster
/// dimension (4), cluster scheduling policy (5), priority (8), memory synchronization
/// domain map and domain (9, 10), preferred cluster dimension (11), device-updatable
/// kernel node (13), preferred shared memory carveout (14), NVLink-utilization-centric
/// scheduling (16).
const KERNEL_NODE_ATTRS: [u32; 11] = [1, 2, 4, 5, 8, 9, 10, 11, 13, 14, 16];

fn word(v: &AttrValue, i: usize) -> u32 {
    u32::from_ne_bytes([v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]])
}

impl super::KernelParams {
    /// The value of attribute `id` (all zero if never set).
    pub fn attribute(&self, id: u32) -> AttrValue {
        self.attrs.iter().find(|a| a.0 == id).map_or([0; 64], |a| a.1)
    }

    /// Whether the node's launches are cooperative.
    pub(crate) fn cooperative(&self) -> bool {
        word(&self.attribute(COOPERATIVE), 0) != 0
    }
}

fn check_id(id: u32) -> CuResult<()> {
    if !KERNEL_NODE_ATTRS.contains(&id) {
        return Err(fail(CuError::INVALID_VALUE, format_args!("kernel node attribute {id}")));
    }
    Ok(())
}

impl Driver {
    /// `cuGraphKernelNodeGetAttribute`.
    pub fn kernel_node_attribute(&self, n: GraphNodeHandle, id: u32) -> CuResult<AttrValue> {
        check_id(id)?;
        match self.graph_node_params(n)? {
            NodeParams::Kernel(k) => Ok(k.attribute(id)),
            _ => Err(fail(CuError::INVALID_VALUE, format_args!("graph node {:#x} is not a kernel node", n.0))),
        }
    }

    /// `cuGraphKernelNodeSetAttribute`.
    pub fn kernel_node_set_attribute(&self, n: GraphNodeHandle, id: u32, value: &AttrValue) -> CuResult<()> {
        check_id(id)?;
        if id == CLUSTER_DIMENSION && (0..3).any(|i| word(value, i) > 1) {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("thread block clusters are not supported")));
        }
        if id == DEVICE_UPDATABLE_KERNEL_NODE && word(value, 0) != 0 {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("device-updatable kernel nodes are not supported")));
        }
        self.with_kernel_node(n, |k| match k.attrs.iter_mut().find(|a| a.0 == id) {
            Some(a) => a.1 = *value,
            None => k.attrs.push((id, *value)),
        })
    }

    /// `cuGraphKernelNodeCopyAttributes(dst, src)`: every attribute of `src` (kernel nodes).
    pub fn kernel_node_copy_attributes(&self, dst: GraphNodeHandle, src: GraphNodeHandle) -> CuResult<()> {
        let attrs = match self.graph_node_params(src)? {
            NodeParams::Kernel(k) => k.attrs,
            _ => return Err(fail(CuError::INVALID_VALUE, format_args!("graph node {:#x} is not a kernel node", src.0))),
        };
        self.with_kernel_node(dst, |k| k.attrs = attrs)
    }

    fn with_kernel_node(&self, n: GraphNodeHandle, f: impl FnOnce(&mut super::KernelParams)) -> CuResult<()> {
        self.with_node_mut(n, |node| match &mut node.params {
            NodeParams::Kernel(k) => {
                f(k);
                Ok(())
            }
            _ => Err(fail(CuError::INVALID_VALUE, format_args!("graph node {:#x} is not a kernel node", n.0))),
        })?
    }
}
