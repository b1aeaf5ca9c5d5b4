//! The pool alone, in a process of its own: no other test's products compete for its leader.

use sampling_lab::model::pool;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// A helper is counted from the moment it registers; a product published before its thread
/// first serves must still get its share from it, not wait for it forever.
#[test]
fn a_helper_that_starts_serving_after_a_product_was_published_still_takes_its_share() {
    let index = pool::register();
    let (finished, product_done) = mpsc::channel();
    std::thread::spawn(move || {
        let rows = AtomicUsize::new(0);
        pool::for_rows(64, 1, &|range| {
            rows.fetch_add(range.len(), Ordering::Relaxed);
        });
        finished.send(rows.into_inner()).unwrap();
    });
    // Long enough for the product to be published before the helper's first look at the pool.
    std::thread::sleep(Duration::from_millis(300));
    std::thread::spawn(move || pool::serve(index));
    let rows = product_done
        .recv_timeout(Duration::from_secs(60))
        .expect("the product ends once the late helper serves");
    assert_eq!(rows, 64);
    assert!(
        pool::rows_done()[index] > 0,
        "the helper computed rows: {:?}",
        pool::rows_done()
    );
}
