//! Compile-fail cases: each file in `tests/ui/` is an attack on arena-kit's lifetime
//! safety that must not compile; its `.stderr` beside it is the error rustc gives.
//!
//! The snapshots are rustc 1.95's (the toolchain CI builds with); other compilers word
//! their errors differently, so there the test is skipped rather than rewritten.

#[rustversion::attr(not(stable(1.95)), ignore = "ui snapshots are rustc 1.95's wording")]
#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
