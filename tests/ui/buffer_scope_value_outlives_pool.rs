// A value of a buffer pool's scope cannot outlive the pool (and so the buffer).
use core::mem::MaybeUninit;

fn main() {
    let mut buffer = [MaybeUninit::<u8>::uninit(); 256];
    let kept: &u32;
    {
        let pool = arena_kit::BufferBlockPool::new(&mut buffer);
        let scope = pool.scope();
        kept = scope.alloc(7_u32);
    }
    println!("{kept}");
}
