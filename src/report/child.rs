//! The child processes of the report. The report re-runs its own binary with
//! `--child ID --size N --runs N [--contender I]` ([`args::child_args`]); the child
//! measures that workload (or that one contender of it) in its own fresh process and
//! prints a [`ChildOutput`] as one JSON line on stdout. A heap that earlier tables left
//! fragmented, or glibc's dynamic mmap and trim thresholds raised by them, thus cannot
//! change a row's figures.
//!
//! The parent side, [`spawn`], turns everything that can go wrong in a child (a panic, an
//! unknown id, output that is not the expected line) into an error naming the workload.

use std::path::Path;
use std::process::{Command, Output};

use serde::{Deserialize, Serialize};

use super::args::{self, ChildTask, OnceTask};
use super::memory::CountingAlloc;
use super::{MemoryRow, Row, measure};
use crate::workloads::{ALL, Contender, Workload};

/// What one child reports: its process id and the rows it measured.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChildOutput {
    /// The child's process id.
    pub pid: u32,
    /// One row per contender measured, in the workload's order.
    pub rows: Vec<Row>,
    /// What the probed contenders among them hold once done (W6).
    pub memory: Vec<MemoryRow>,
}

/// Runs `task` in this process: what a child does. `meter` is the process's global
/// allocator, which each row's memory figures come from.
///
/// # Errors
///
/// No workload has the task's id, or its contender index is out of range.
pub fn run(task: &ChildTask, meter: &CountingAlloc) -> Result<ChildOutput, String> {
    let workload = find(&task.id)?;
    let contenders = match task.contender {
        None => workload.contenders,
        Some(i) => contender_slice(workload, i)?,
    };
    let rows: Vec<Row> =
        contenders.iter().map(|c| measure(workload, c, task.size, task.runs, meter)).collect();
    let memory = workload
        .memory
        .iter()
        .filter(|probe| contenders.iter().any(|c| c.name == probe.name))
        .map(|probe| {
            let held = (probe.held)(task.size);
            MemoryRow {
                contender: probe.name.to_owned(),
                capacity: held.capacity,
                held_bytes: held.bytes,
            }
        })
        .collect();
    Ok(ChildOutput { pid: std::process::id(), rows, memory })
}

/// Runs one contender once at one size, untimed, and returns its checksum
/// (`--once`): the same code a row times, run once, for an instruction counter such as
/// callgrind, whose count at two sizes gives the instructions per operation on any
/// machine, however noisy its clock.
///
/// # Errors
///
/// No workload has the task's id, or its contender index is out of range.
pub fn once(task: &OnceTask) -> Result<u64, String> {
    let workload = find(&task.id)?;
    let contender = &contender_slice(workload, task.contender)?[0];
    Ok((contender.run)(task.size))
}

/// The workload of id `id` (any case).
fn find(id: &str) -> Result<&'static Workload, String> {
    ALL.iter().find(|w| w.id.eq_ignore_ascii_case(id)).ok_or_else(|| format!("no workload `{id}`"))
}

/// Contender `i` of `workload`, as a one-element slice.
fn contender_slice(workload: &'static Workload, i: usize) -> Result<&'static [Contender], String> {
    workload.contenders.get(i..=i).ok_or_else(|| {
        format!("{} has {} contenders, not {}", workload.id, workload.contenders.len(), i + 1)
    })
}

/// Runs `exe --child ...` for `task` and reads its line.
///
/// # Errors
///
/// The child could not start, failed (a panic, an error: its stderr is in the message),
/// or printed something other than one [`ChildOutput`] line; every message starts with
/// the workload id.
pub fn spawn(exe: &Path, task: &ChildTask) -> Result<ChildOutput, String> {
    let output = Command::new(exe)
        .args(args::child_args(task))
        .output()
        .map_err(|e| format!("{}: cannot start a child process {}: {e}", task.id, exe.display()))?;
    read_output(&task.id, &output)
}

/// Reads what a child process of workload `id` left: its line, or why it failed.
///
/// # Errors
///
/// As [`spawn`].
pub fn read_output(id: &str, output: &Output) -> Result<ChildOutput, String> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!(
            "{id}: the child process failed ({}):\n{}",
            output.status,
            stderr.trim()
        ));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.trim()).map_err(|e| {
        format!("{id}: the child process printed no result line ({e}): {}", stdout.trim())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> Output {
        Command::new("sh").args(["-c", script]).output().expect("sh runs")
    }

    #[test]
    fn a_failed_child_is_named_with_its_stderr() {
        let error = read_output("W5", &shell("echo 'thread main panicked: boom' >&2; exit 101"))
            .unwrap_err();
        assert!(error.starts_with("W5: the child process failed"), "{error}");
        assert!(error.contains("101") && error.contains("panicked: boom"), "{error}");
    }

    #[test]
    fn a_child_without_a_result_line_is_an_error() {
        let error = read_output("W8", &shell("echo hello")).unwrap_err();
        assert!(error.starts_with("W8: the child process printed no result line"), "{error}");
        assert!(error.contains("hello"), "{error}");
    }

    #[test]
    fn a_result_line_is_read_back() {
        let line = r#"{"pid":7,"rows":[{"contender":"Box","ns_per_op":1.5,"ms_per_run":0.1,"checksum":3,"peak_bytes":64,"held_bytes":0,"pid":7}],"memory":[]}"#;
        let output = read_output("W1", &shell(&format!("echo '{line}'"))).unwrap();
        assert_eq!((output.pid, output.rows.len(), output.rows[0].checksum), (7, 1, 3));
    }

    #[test]
    fn a_task_names_a_real_workload_and_contender() {
        let task =
            |id: &str, contender| ChildTask { id: id.to_owned(), size: 1, runs: 1, contender };
        // Not the global allocator here: it counts nothing, which this test does not read.
        let meter = CountingAlloc::new();
        assert!(run(&task("W99", None), &meter).unwrap_err().contains("no workload `W99`"));
        assert!(run(&task("W1", Some(999)), &meter).unwrap_err().contains("not 1000"));
        let output = run(&task("W1", Some(3)), &meter).unwrap();
        assert_eq!(output.rows.len(), 1);
        assert_eq!(output.rows[0].contender, ALL[0].contenders[3].name);
        assert_eq!(output.pid, std::process::id());
    }
}
