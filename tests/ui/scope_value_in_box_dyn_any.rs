// A reference into a scope cannot be erased into a `Box<dyn Any>` (which is `'static`) and
// recovered after the scope ends.
use std::any::Any;

use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let boxed: Box<dyn Any> = {
        let scope = pool.scope();
        let x: &u32 = scope.alloc(5);
        Box::new(x)
    };
    println!("{:?}", boxed.downcast_ref::<&u32>());
}
