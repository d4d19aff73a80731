// The derive is for structs; an enum gets a spanned error saying what to do instead.
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc)]
enum Shape {
    Circle(f32),
    Square(f32),
}

fn main() {}
