//! Conditional nodes (CUDA Programming Guide, "Conditional Graph Nodes"; driver API
//! `cuGraphConditionalHandleCreate`, `CUDA_CONDITIONAL_NODE_PARAMS`): IF (one body, or two
//! with an ELSE), WHILE and SWITCH nodes whose bodies run according to a conditional
//! handle's value when the graph reaches the node.
//!
//! - A handle is a 32-bit value cell in the memory of the handle's context's device, and
//!   the handle's value is the cell's device address: device code sets it with
//!   `cudaGraphSetConditional(handle, value)`, which the compiler lowers to a store
//!   (`compiler_core::devrt::GRAPH_SET_CONDITIONAL`). The driver keeps every live handle
//!   ([`Registry`]), so a node given anything else fails its `Add` call. The cell lives
//!   while its graph or anything instantiated from it refers to it.
//! - `CU_GRAPH_COND_ASSIGN_DEFAULT` writes the default value at the start of each launch
//!   of an executable graph using the handle, in stream order; without it the value is
//!   whatever the cell last held (CUDA calls it undefined).
//! - A conditional node owns its body graphs (`phGraph_out`), made when the node is added;
//!   bodies may hold kernel, empty, memcpy, memset, child graph and conditional nodes only
//!   (`CUDA_CONDITIONAL_NODE_PARAMS::phGraph_out`), checked when the graph is instantiated.
//! - At launch the node is one stream operation that reads the cell once its
//!   dependencies completed and runs the chosen body's work inline, in a topological
//!   order (a WHILE body again for as long as the value is non-zero after it ran).
//!
//! Executable graphs instantiated from one graph (or its clones) share each handle's
//! cell, where NVIDIA's driver gives each launch its own value: so that no launch sees
//! another's value, a launch using a cell waits for the previous launch that used it,
//! whatever its stream (running them in turn is one of the executions CUDA allows).

use std::sync::{Arc, Mutex, MutexGuard};

use backend_api::{Device, DeviceError, LaunchConfig};

use super::node::KernelParams;
use crate::diag::fail;
use crate::exec::Marker;
use crate::function::Function;
use crate::{CtxHandle, CuError, CuResult, Driver, GraphHandle};

/// `CU_GRAPH_COND_ASSIGN_DEFAULT`.
pub const ASSIGN_DEFAULT: u32 = 1;

/// `CUgraphConditionalNodeType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum CondKind {
    If = 0,
    While = 1,
    Switch = 2,
}

impl CondKind {
    pub fn from_raw(v: u32) -> Option<CondKind> {
        [CondKind::If, CondKind::While, CondKind::Switch].into_iter().find(|k| *k as u32 == v)
    }

    /// Body counts `CUDA_CONDITIONAL_NODE_PARAMS::size` allows: IF 1 or 2 (an ELSE body),
    /// WHILE 1, SWITCH any positive count.
    fn allows(self, size: u32) -> bool {
        match self {
            CondKind::If => matches!(size, 1 | 2),
            CondKind::While => size == 1,
            CondKind::Switch => size >= 1,
        }
    }
}

/// A conditional handle's value cell.
pub(crate) struct Cell {
    /// The handle: the cell's device address.
    pub(crate) handle: u64,
    graph: GraphHandle,
    pub(crate) ctx: CtxHandle,
    device: Arc<dyn Device>,
    default: u32,
    assign_default: bool,
    /// The end of the last graph launch using the cell.
    last: Mutex<Option<Marker>>,
}

impl Cell {
    /// The end of the last launch using the cell, if it has not completed.
    pub(crate) fn last_launch(&self) -> Option<Marker> {
        self.last.lock().unwrap_or_else(|e| e.into_inner()).clone().filter(|m| !m.is_complete())
    }

    pub(crate) fn set_last_launch(&self, m: Marker) {
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(m);
    }

    pub(crate) fn read(&self) -> Result<u32, DeviceError> {
        let mut v = 0u32;
        // SAFETY: 4 writable bytes; the cell is 4 bytes of this device's memory, alive
        // while `self` is.
        unsafe { self.device.copy_from_device((&mut v as *mut u32).cast(), self.handle, 4)? };
        Ok(v)
    }

    fn write(&self, v: u32) -> Result<(), DeviceError> {
        // SAFETY: as `read`.
        unsafe { self.device.copy_to_device(self.handle, (&v as *const u32).cast(), 4) }
    }
}

impl Drop for Cell {
    fn drop(&mut self) {
        let _ = self.device.free(self.handle);
    }
}

/// Every live conditional handle.
#[derive(Default)]
pub(crate) struct Registry(Mutex<Vec<Arc<Cell>>>);

impl Registry {
    fn list(&self) -> MutexGuard<'_, Vec<Arc<Cell>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets the handles of a destroyed graph (nodes and executable graphs using them
    /// keep their cells).
    pub(crate) fn forget_graph(&self, g: GraphHandle) {
        self.list().retain(|c| c.graph != g);
    }
}

/// A conditional node's parameters: its handle, kind and the body graphs it owns.
#[derive(Clone)]
pub struct ConditionalParams {
    pub(crate) cell: Arc<Cell>,
    pub kind: CondKind,
    /// The body graphs, owned by the node (what `phGraph_out` points to).
    pub bodies: Arc<[GraphHandle]>,
}

impl ConditionalParams {
    pub fn handle(&self) -> u64 {
        self.cell.handle
    }

    pub fn ctx(&self) -> CtxHandle {
        self.cell.ctx
    }
}

/// Body work prepared for a launch, which may run any number of times.
pub(crate) enum Step {
    Launch { function: Arc<Function>, config: LaunchConfig, kernel: KernelParams },
    Run(crate::copy::StepFn),
    Conditional(Box<Prepared>),
}

/// A conditional node prepared for a launch: its cell and each body's steps.
pub(crate) struct Prepared {
    pub(crate) cell: Arc<Cell>,
    pub(crate) kind: CondKind,
    pub(crate) bodies: Vec<Vec<Step>>,
}

impl Prepared {
    /// Evaluates the node: reads the handle's value and runs the chosen body (IF: body 0
    /// when non-zero, else body 1 if there is one; SWITCH: body `value` if there is one;
    /// WHILE: body 0 as long as the value is non-zero).
    pub(crate) fn run(&self) -> Result<(), DeviceError> {
        loop {
            let v = self.cell.read()?;
            let body = match self.kind {
                CondKind::If if v != 0 => self.bodies.first(),
                CondKind::If => self.bodies.get(1),
                CondKind::Switch => self.bodies.get(v as usize),
                CondKind::While if v != 0 => self.bodies.first(),
                CondKind::While => None,
            };
            let Some(body) = body else { return Ok(()) };
            run_steps(body)?;
            if self.kind != CondKind::While {
                return Ok(());
            }
        }
    }
}

fn run_steps(steps: &[Step]) -> Result<(), DeviceError> {
    for s in steps {
        match s {
            Step::Launch { function, config, kernel } if kernel.cooperative() => {
                function.loaded.launch_cooperative(function.name_str(), config, kernel.arg_bytes())?
            }
            Step::Launch { function, config, kernel } => function.loaded.launch(function.name_str(), config, kernel.arg_bytes())?,
            Step::Run(f) => f()?,
            Step::Conditional(c) => c.run()?,
        }
    }
    Ok(())
}

/// Writes the default value of every handle among `cells` created with
/// `CU_GRAPH_COND_ASSIGN_DEFAULT` (the start of a graph launch).
pub(crate) fn assign_defaults(cells: &[Arc<Cell>]) -> Result<(), DeviceError> {
    for c in cells.iter().filter(|c| c.assign_default) {
        c.write(c.default)?;
    }
    Ok(())
}

impl Driver {
    /// `cuGraphConditionalHandleCreate`: a handle for conditional nodes of `g` (or of its
    /// bodies) in context `ctx`, which must be given (NVIDIA's driver answers
    /// `CUDA_ERROR_INVALID_CONTEXT` for NULL, measured on an H200). `flags`: 0 or
    /// `CU_GRAPH_COND_ASSIGN_DEFAULT`.
    pub fn graph_conditional_handle_create(&self, g: GraphHandle, ctx: CtxHandle, default: u32, flags: u32) -> CuResult<u64> {
        self.graph(g)?;
        if flags & !ASSIGN_DEFAULT != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuGraphConditionalHandleCreate: flags {flags:#x}")));
        }
        let ctx = self.given_context(ctx, "cuGraphConditionalHandleCreate")?;
        let device = self.devices[ctx.device].backend.clone();
        let cell = device.alloc(4).map_err(|e| fail(crate::error::from_device(&e), format_args!("conditional handle: {e}")))?;
        let assign_default = flags & ASSIGN_DEFAULT != 0;
        let cell = Arc::new(Cell { handle: cell, graph: g, ctx: ctx.handle, device, default, assign_default, last: Mutex::new(None) });
        cell.write(default).map_err(|e| crate::error::from_device(&e))?;
        let handle = cell.handle;
        self.graphs.conditionals.list().push(cell);
        Ok(handle)
    }

    /// A context a conditional handle or node names (NULL is refused, as by NVIDIA's driver).
    fn given_context(&self, ctx: CtxHandle, what: &str) -> CuResult<Arc<crate::context::Context>> {
        if ctx.is_null() {
            return Err(fail(CuError::INVALID_CONTEXT, format_args!("{what}: a NULL context")));
        }
        self.context_or_current(ctx)
    }

    /// Checks a conditional node's description and makes its (empty) body graphs.
    pub fn conditional_params(&self, handle: u64, kind: u32, size: u32, ctx: CtxHandle) -> CuResult<ConditionalParams> {
        let cell = self.graphs.conditionals.list().iter().find(|c| c.handle == handle).cloned();
        let cell = cell.ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("conditional node: {handle:#x} is not a conditional handle")))?;
        let kind = CondKind::from_raw(kind).ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("conditional node: type {kind}")))?;
        if !kind.allows(size) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("conditional node: {size} bodies for a {kind:?} node")));
        }
        let ctx = self.given_context(ctx, "conditional node")?;
        if ctx.handle != cell.ctx {
            return Err(fail(CuError::INVALID_VALUE, format_args!("conditional node: the handle belongs to another context")));
        }
        let bodies = (0..size).map(|_| self.new_graph(super::GraphState::default())).collect();
        Ok(ConditionalParams { cell, kind, bodies })
    }
}

#[cfg(test)]
#[path = "../tests/conditional.rs"]
mod tests;
