// Two generated pools of the same struct have different brands: a handle (or key) of
// one does not type-check on the other, in the plain and the struct-of-arrays layout.
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc, Default)]
struct Plain {
    x: u32,
}

#[derive(ArenaAlloc, Default)]
#[arena(soa)]
struct Columns {
    x: u32,
}

fn main() {
    PlainPool::with(|mut a| {
        PlainPool::with(|mut b| {
            let h = a.insert(Plain::default());
            let _ = b.get(&h);
            let k = b.insert_keyed(Plain::default());
            let _ = a.get_key(k);
        });
    });
    ColumnsPool::with(|mut a| {
        ColumnsPool::with(|mut b| {
            let h = a.insert(Columns::default());
            let _ = b.x(&h);
            b.remove(h);
        });
    });
}
