// The first tree a user writes: nodes pointing at nodes, each made with `alloc` in a
// helper that takes `&Scope`. `alloc` requires `T: 'p` (a value whose destructor runs
// may not borrow the scope's other values), so this is E0621; the README's "Trees and
// graphs of references" and `alloc`'s docs quote this error and give the answer
// (`alloc_copy` for nodes without a destructor, or a `ScopeView<'s>`).
use arena_kit::{BlockPool, Scope};

struct Node<'s> {
    value: i32,
    next: Option<&'s Node<'s>>,
}

fn push<'s>(scope: &'s Scope<'_>, value: i32, next: Option<&'s Node<'s>>) -> &'s Node<'s> {
    scope.alloc(Node { value, next })
}

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let list = push(&scope, 1, None);
    let list = push(&scope, 2, Some(list));
    println!("{}", list.value + list.next.map_or(0, |n| n.value));
}
