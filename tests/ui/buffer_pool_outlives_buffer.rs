// A pool cannot leave the function whose stack holds its buffer.
use core::mem::MaybeUninit;

fn pool() -> arena_kit::BufferBlockPool<'static> {
    let mut buffer = [MaybeUninit::<u8>::uninit(); 256];
    arena_kit::BufferBlockPool::new(&mut buffer)
}

fn main() {
    let _ = pool();
}
