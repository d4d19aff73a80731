// The scope's lifetime parameter is invariant: shrinking it would let values borrow
// their siblings (the `T: 'p` bound would stop reaching the scope's drop).
use arena_kit::Scope;

fn shrink<'short, 'long: 'short>(scope: &'short Scope<'long>) -> &'short Scope<'short> {
    scope
}

fn main() {}
