//! The system allocator's settings in the child processes: glibc's thresholds fixed, so
//! that memory a run frees is still the process's, faulted in, when the next run asks.
//!
//! glibc serves a request of 128 KiB or more with a fresh `mmap` until a block of that
//! size has been freed, then raises its threshold (up to 32 MiB) and serves such
//! requests from its heap; it returns the heap's top to the kernel whenever more than
//! twice the threshold lies free there. Which of the two a run meets depends on every
//! allocation and free before it, including the report's own. A fresh mapping costs a
//! page fault and a zeroed page per 4 KiB touched: W2's arenas, whose one 240 KiB chunk
//! is such a request, read 1.09 ns per value on warm memory and 1.48 on fresh pages,
//! and which one a contender got changed from process to process and, once each sample
//! moved the heap ([`super::child::Layout`]), in streaks of rounds.
//!
//! The children therefore run with the threshold fixed at its ceiling (32 MiB) and the
//! trim threshold at 256 MiB (`GLIBC_TUNABLES`, read by glibc at start-up): every run
//! after the warm-up gets memory the process already holds, as a long-running program's
//! allocator does once it has warmed up, and every contender alike. What a row
//! measures is then its allocator's work, not the kernel's page faults. `--cold-malloc`
//! leaves glibc's defaults. Other allocators (mimalloc's rows) keep their own policies;
//! a C library other than glibc ignores the variable.
//!
//! The price is glibc's, and the `Box` rows pay it: a large chunk freed from the heap
//! (a run's `Vec` of boxes) makes glibc consolidate its fast bins, which a mapped chunk
//! did not. W2's `Box` row counts 390 instructions per value so, 326 with glibc's own
//! thresholds. Fixing only the trim threshold is no middle way: glibc then fixes the
//! mmap threshold at its 128 KiB start, and every run of a larger buffer faults its
//! pages in again.

use std::ffi::OsString;

/// The tunables set: mmap threshold 32 MiB (glibc's largest dynamic threshold), trim
/// threshold 256 MiB.
pub const TUNABLES: &str =
    "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456";

/// The `GLIBC_TUNABLES` value for a child: [`TUNABLES`] after any the report itself
/// was given (`inherited`), so that a user's own tunables still reach the children.
#[must_use]
pub fn tunables(inherited: Option<OsString>) -> OsString {
    match inherited {
        Some(mut own) if !own.is_empty() => {
            own.push(":");
            own.push(TUNABLES);
            own
        }
        _ => OsString::from(TUNABLES),
    }
}

/// Sets the child's environment on `command` if `warm` (the default), else leaves it.
pub fn configure(command: &mut std::process::Command, warm: bool) {
    if warm {
        command.env("GLIBC_TUNABLES", tunables(std::env::var_os("GLIBC_TUNABLES")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_users_own_tunables_come_first() {
        assert_eq!(tunables(None), OsString::from(TUNABLES));
        assert_eq!(tunables(Some(OsString::new())), OsString::from(TUNABLES));
        let joined = tunables(Some(OsString::from("glibc.malloc.arena_max=1")));
        assert_eq!(joined, OsString::from(format!("glibc.malloc.arena_max=1:{TUNABLES}")));
    }
}
