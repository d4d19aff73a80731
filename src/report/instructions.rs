//! Instructions per operation, counted under callgrind (`--instructions`).
//!
//! Times move with the machine; instruction counts do not: the same binary, inputs and
//! environment give the same count whatever else the machine is doing. The report runs
//! its own binary under `valgrind --tool=callgrind` with `--once ID I N` (one untimed run
//! of contender `I` at size `N`) at two sizes, so that start-up and warm-up cancel in the
//! difference: instructions per operation = (count at the larger size - count at the
//! smaller) / (operations at the larger - at the smaller). The sizes are the table's
//! quick size and twice it (a tree depth and the next, for W7, whose operations are its
//! nodes). Tables that run threads (`-2t`, `-par`) are not counted: callgrind runs the
//! threads one at a time.

use std::path::Path;
use std::process::Command;

use crate::workloads::{SizeKind, Workload};

/// Whether `valgrind` can be run; the message to show when it cannot.
///
/// # Errors
///
/// `valgrind --version` does not run.
pub fn available() -> Result<(), String> {
    match Command::new("valgrind").arg("--version").output() {
        Ok(out) if out.status.success() => Ok(()),
        _ => Err(String::from(
            "--instructions needs valgrind on the PATH (Debian: apt-get install valgrind); \
             run the report without --instructions for times only",
        )),
    }
}

/// Whether the table of id `id` is counted (not one that runs threads).
#[must_use]
pub fn counted(id: &str) -> bool {
    !super::affinity::threaded(id)
}

/// The instructions callgrind collects for one untimed run of contender `index` of
/// `workload` at `size`.
///
/// # Errors
///
/// valgrind cannot start, or its output has no "Collected" line (the message quotes
/// the end of its stderr).
pub fn count(
    exe: &Path,
    workload: &Workload,
    index: usize,
    size: usize,
    warm_malloc: bool,
) -> Result<u64, String> {
    let mut command = Command::new("valgrind");
    super::warm_malloc::configure(&mut command, warm_malloc);
    let output = command
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .args(["--once", workload.id, &index.to_string(), &size.to_string()])
        .output()
        .map_err(|e| format!("{}: cannot run valgrind: {e}", workload.id))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    parse_collected(&stderr).ok_or_else(|| {
        let tail: String = stderr
            .lines()
            .rev()
            .take(5)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("\n");
        format!("{}: callgrind counted nothing for contender {index}:\n{tail}", workload.id)
    })
}

/// The count in callgrind's "Collected : N" line.
#[must_use]
pub fn parse_collected(stderr: &str) -> Option<u64> {
    stderr.lines().find_map(|line| {
        let (_, rest) = line.split_once("Collected :")?;
        rest.trim().parse().ok()
    })
}

/// The two sizes a workload is counted at.
#[must_use]
pub fn sizes(workload: &Workload) -> (usize, usize) {
    let small = workload.quick_size.max(1);
    match workload.size_kind {
        SizeKind::Count => (small, 2 * small),
        SizeKind::Depth => (small, small + 1),
    }
}

/// Instructions per operation of contender `index` of `workload`, with the timed rows'
/// allocator settings (`warm_malloc`: [`super::warm_malloc`]).
///
/// # Errors
///
/// As [`count`].
#[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
pub fn per_op(
    exe: &Path,
    workload: &Workload,
    index: usize,
    warm_malloc: bool,
) -> Result<f64, String> {
    let (small, large) = sizes(workload);
    let count = |size| count(exe, workload, index, size, warm_malloc);
    let (a, b) = (count(small)?, count(large)?);
    let ops = (workload.ops)(large).saturating_sub((workload.ops)(small)).max(1);
    Ok((b as f64 - a as f64) / ops as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workloads::ALL;

    #[test]
    fn the_collected_line_is_read() {
        let stderr = "==1== Callgrind, a call-graph generating cache profiler\n\
                      ==1== Events    : Ir\n==1== Collected : 123456\n==1==\n==1== I   refs:      123,456\n";
        assert_eq!(parse_collected(stderr), Some(123_456));
        assert_eq!(parse_collected("nothing here"), None);
    }

    #[test]
    fn tables_with_threads_are_not_counted_and_depths_step_by_one() {
        assert!(counted("W4") && counted("W6-1M") && !counted("W4-2t") && !counted("W7-par"));
        let w7 = ALL.iter().find(|w| w.id == "W7").expect("W7");
        let (a, b) = sizes(w7);
        assert_eq!(b, a + 1);
        let w4 = ALL.iter().find(|w| w.id == "W4").expect("W4");
        assert_eq!(sizes(w4), (w4.quick_size, 2 * w4.quick_size));
    }
}
