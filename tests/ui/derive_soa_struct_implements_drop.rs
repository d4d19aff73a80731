// `#[arena(soa)]` stores each field in a column of its own: `insert` takes the value apart
// and `remove` builds a new one, so a `Drop` impl would run on a value whose fields live
// on in the pool (a file descriptor closed while still stored, a pointer freed twice).
// The derive rejects it even when every field is `Copy` or zero-sized.
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc)]
#[arena(soa)]
struct FileDescriptor {
    raw: i32,
}

impl Drop for FileDescriptor {
    fn drop(&mut self) {
        let _ = self.raw; // close(self.raw)
    }
}

#[derive(ArenaAlloc)]
#[arena(soa)]
struct Token<T: Copy> {
    value: T,
}

impl<T: Copy> Drop for Token<T> {
    fn drop(&mut self) {}
}

#[derive(ArenaAlloc)]
#[arena(soa)]
struct Marker {
    tag: (),
}

impl Drop for Marker {
    fn drop(&mut self) {}
}

fn main() {}
