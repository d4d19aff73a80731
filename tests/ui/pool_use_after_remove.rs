// `remove` consumes the handle: using it afterwards does not compile.
use arena_kit::Pool;

fn main() {
    Pool::with(|mut pool| {
        let h = pool.insert(String::from("gone"));
        let value = pool.remove(h);
        println!("{value} {}", pool[&h]);
    });
}
