//! The exact model's thread pool at the wasm edge. In the threaded build (`pkg-threads/`), the
//! model's worker starts pool workers that instantiate the same module on its shared memory,
//! each calling [`pool_register`] and then [`pool_serve`], which never returns; a pool worker
//! whose instance traps calls [`pool_crashed`], and the model's next product fails instead of
//! waiting for it. In the single-threaded build (`pkg/`) there is no pool: one thread.

use super::Failure;
use crate::model::pool;
use wasm_bindgen::prelude::*;

/// Whether this is the threaded build (shared memory, a pool of workers).
#[wasm_bindgen]
pub fn threaded() -> bool {
    cfg!(target_feature = "atomics")
}

/// The threads the exact model's products run on now: 1, plus each registered pool worker.
#[wasm_bindgen]
pub fn threads() -> usize {
    pool::threads()
}

/// Output rows each thread has computed (the model's worker first): the tests' proof that every
/// pool worker took part.
#[wasm_bindgen(js_name = poolRows)]
pub fn pool_rows() -> Vec<u32> {
    pool::rows_done().into_iter().map(|r| r as u32).collect()
}

/// A pool worker joins the pool (between two products); its index, for [`pool_serve`].
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = poolRegister)]
pub fn pool_register() -> usize {
    pool::register()
}

/// A pool worker's life: its rows of every product, until the page closes.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = poolServe)]
pub fn pool_serve(index: usize) {
    pool::serve(index)
}

/// A pool worker's instance trapped: the model's worker must not wait for it.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = poolCrashed)]
pub fn pool_crashed() {
    pool::report_crash()
}

/// Crashes a pool worker in the middle of a product, as a bug there would, for the recovery
/// tests: the model's worker then fails too, and the page restarts it.
#[wasm_bindgen(js_name = trapPool)]
pub fn trap_pool() -> Result<(), Failure> {
    if pool::threads() < 2 {
        return Err(Failure::verbatim("there is no pool worker to crash"));
    }
    pool::for_rows(pool::threads(), 1, &|rows| {
        if rows.start > 0 {
            panic!("pool trap requested");
        }
    });
    Ok(())
}
