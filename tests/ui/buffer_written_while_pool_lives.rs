// A buffer lent to a BufferBlockPool is borrowed until the pool and its scopes end:
// writing to it while a scope's value lives is a borrow error.
use core::mem::MaybeUninit;

fn main() {
    let mut buffer = [MaybeUninit::<u8>::uninit(); 256];
    let pool = arena_kit::BufferBlockPool::new(&mut buffer);
    let scope = pool.scope();
    let x = scope.alloc(1_u32);
    buffer[0] = MaybeUninit::new(0);
    println!("{x}");
}
