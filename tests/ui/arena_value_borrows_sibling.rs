// An `Arena`'s values obey the scope rule: a value with a destructor cannot borrow a
// sibling, which may already be dropped when it runs.
use arena_kit::Arena;

fn main() {
    let arena = Arena::new();
    let a = arena.alloc(String::from("a"));
    let b = arena.alloc(vec![&*a]);
    b.push(&*a);
}
