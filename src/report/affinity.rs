//! Pinning a serving child to one CPU.
//!
//! A single-thread table's children are pinned to one CPU, the last the report may run
//! on: the scheduler then never moves a contender between cores half-way through a
//! sample (a move costs it its warm caches and branch predictors, on one row and not
//! the next), and every contender of the table runs on the same core. Tables that run
//! threads (`-2t`, `-par`) are left unpinned: they need every core. Two full runs a few
//! minutes apart disagreed on about a third as many paired ratios pinned as unpinned
//! (BENCHMARKS.md, "How stable the report is").
//!
//! Only Linux pins (`sched_setaffinity`); elsewhere [`allowed`] is empty and the report
//! runs unpinned.

/// Whether the table of id `id` runs threads of its own (`-2t`, `-par`): not pinned,
/// and not counted by `--instructions`.
#[must_use]
pub fn threaded(id: &str) -> bool {
    id.ends_with("-2t") || id.ends_with("-par")
}

/// The CPUs this process may run on, in increasing order; empty where it cannot be
/// told (not Linux, or the call failed).
#[must_use]
pub fn allowed() -> Vec<usize> {
    imp::allowed()
}

/// Pins the calling thread to `cpu`; threads it starts later inherit the pin, so a
/// child calls it first thing, before it starts any.
///
/// # Errors
///
/// Not Linux, `cpu` is out of range, or the kernel refused (a CPU this process may not
/// use): the message says which.
pub fn pin(cpu: usize) -> Result<(), String> {
    imp::pin(cpu)
}

#[cfg(target_os = "linux")]
mod imp {
    use std::mem::MaybeUninit;

    /// CPUs a `cpu_set_t` holds.
    const SET_SIZE: usize = 8 * size_of::<libc::cpu_set_t>();

    pub(super) fn allowed() -> Vec<usize> {
        let mut set = MaybeUninit::<libc::cpu_set_t>::zeroed();
        // SAFETY: `set` is a writable `cpu_set_t` of the size passed; pid 0 is this
        // process. The kernel writes at most that many bytes.
        let rc =
            unsafe { libc::sched_getaffinity(0, size_of::<libc::cpu_set_t>(), set.as_mut_ptr()) };
        if rc != 0 {
            return Vec::new();
        }
        // SAFETY: zeroed, then filled by the kernel: a valid bit set either way.
        let set = unsafe { set.assume_init() };
        // SAFETY: `cpu` is below the set's size.
        (0..SET_SIZE).filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) }).collect()
    }

    pub(super) fn pin(cpu: usize) -> Result<(), String> {
        if cpu >= SET_SIZE {
            return Err(format!("cannot pin to CPU {cpu}: a CPU set holds {SET_SIZE}"));
        }
        // SAFETY: an all-zero `cpu_set_t` is the empty set.
        let mut set = unsafe { MaybeUninit::<libc::cpu_set_t>::zeroed().assume_init() };
        // SAFETY: `cpu` is below the set's size (checked above).
        unsafe { libc::CPU_SET(cpu, &mut set) };
        // SAFETY: `set` is a valid `cpu_set_t` of the size passed; pid 0 is this process.
        let rc =
            unsafe { libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &raw const set) };
        if rc == 0 {
            Ok(())
        } else {
            Err(format!("cannot pin to CPU {cpu}: {}", std::io::Error::last_os_error()))
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub(super) fn allowed() -> Vec<usize> {
        Vec::new()
    }

    pub(super) fn pin(cpu: usize) -> Result<(), String> {
        Err(format!("cannot pin to CPU {cpu}: pinning is Linux only"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threaded_tables_are_the_2t_and_par_ones() {
        assert!(threaded("W4-2t") && threaded("W7-par"));
        assert!(!threaded("W4") && !threaded("W6-1M") && !threaded("W3-50k"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_thread_pinned_to_an_allowed_cpu_runs_there_alone() {
        let cpus = allowed();
        assert!(!cpus.is_empty(), "a Linux process may run somewhere");
        let last = *cpus.last().expect("not empty");
        // In a thread of its own: affinity is per thread, and the test harness's other
        // threads keep theirs.
        std::thread::spawn(move || {
            pin(last).unwrap();
            assert_eq!(allowed(), vec![last]);
        })
        .join()
        .unwrap();
        assert!(pin(100_000).unwrap_err().contains("CPU set holds"));
    }
}
