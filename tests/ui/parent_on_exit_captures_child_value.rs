// An on_exit callback of the parent cannot capture a child's value: the child (and the
// value) is gone long before the parent runs its callbacks.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let parent = pool.scope();
    {
        let child = parent.scope();
        let name = child.alloc(String::from("dropped with the child"));
        parent.on_exit(move || println!("{name}"));
    }
}
