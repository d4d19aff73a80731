// A handle cannot be sent out of the closure through a channel.
use std::sync::mpsc;

use arena_kit::Pool;

fn main() {
    let (tx, rx) = mpsc::channel();
    Pool::with(|mut pool| {
        tx.send(pool.insert(1_u32)).unwrap();
    });
    drop(rx.recv());
}
