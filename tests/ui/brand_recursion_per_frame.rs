// A recursive function makes one pool per frame; the outer frame's handle does not
// type-check on the inner frame's pool.
use arena_kit::{Handle, Pool};

fn recurse(depth: u32, outer: Option<&Handle<'_>>) {
    Pool::with(|mut pool| {
        if let Some(h) = outer {
            println!("{}", pool.get(h));
        }
        let mine = pool.insert(depth);
        if depth > 0 {
            recurse(depth - 1, Some(&mine));
        }
    });
}

fn main() {
    recurse(3, None);
}
