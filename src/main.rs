//! `cargo run --release`: until the comparison report lands, a runnable tour of the scope
//! API that prints what each step does.

fn main() {}
