// The derive is for structs; a union gets a spanned error saying what to do instead.
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
