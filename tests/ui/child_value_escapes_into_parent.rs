// A child scope's value cannot be stored in a value of the parent scope.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let parent = pool.scope();
    let slot: &mut Option<&u32> = parent.alloc_copy(None);
    {
        let child = parent.scope();
        *slot = Some(child.alloc(5));
    }
    println!("{slot:?}");
}
