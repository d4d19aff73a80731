//! The comparison report of `cargo run --release`: every workload, every contender;
//! printed in the seeds' style, charted as SVG, saved as JSON.
//!
//! Flow: [`args`] parses the command line; the report re-runs its own binary as a child
//! process per contender (or per workload, `--isolate workload`), so no row inherits the
//! heap state another one left ([`child`]); each child [`measure`]s (a warm-up, then the
//! median of several timed runs) and prints its rows as one JSON line; the report checks
//! the checksums agree, [`table`] prints, [`chart`] and [`save_json`] write the files.

pub mod args;
pub mod chart;
pub mod child;
pub mod memory;
pub mod table;
pub mod versions;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::workloads::{ALL, Contender, Workload};
use args::{ChildTask, Isolation};
use memory::CountingAlloc;

/// One contender's result on one workload.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    /// Contender name, e.g. `"bumpalo Bump"`.
    pub contender: String,
    /// Median time per operation, in nanoseconds.
    pub ns_per_op: f64,
    /// Median time per run, in milliseconds.
    pub ms_per_run: f64,
    /// The checksum of what it built (equal across contenders).
    pub checksum: u64,
    /// The most bytes held from the allocator at once during its first (warm-up) run,
    /// above what was held right before it.
    pub peak_bytes: u64,
    /// Bytes still held once that run is done, against right before it: a pool or cache
    /// that outlives a run (static or thread-local) shows here.
    pub held_bytes: i64,
    /// The id of the child process that measured it.
    pub pid: u32,
}

/// One workload's results.
#[derive(Debug, Clone, Serialize)]
pub struct WorkloadResult {
    /// `W1` ...
    pub id: &'static str,
    /// What was measured.
    pub title: &'static str,
    /// The seed and its figures.
    pub seed: &'static str,
    /// The size each contender ran at.
    pub size: usize,
    /// What one operation is.
    pub per: &'static str,
    /// One row per contender, in the workload's order.
    pub rows: Vec<Row>,
    /// What the probed contenders hold once done (W6), else empty.
    pub memory: Vec<MemoryRow>,
}

/// What one contender holds after a run (W6: the capacity reached and the bytes behind it).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MemoryRow {
    /// Contender name.
    pub contender: String,
    /// Capacity reached.
    pub capacity: usize,
    /// Bytes its allocator holds for it.
    pub held_bytes: usize,
}

/// The whole report, as saved to JSON.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Timed runs per contender.
    pub runs: usize,
    /// Whether sizes were the quick ones.
    pub quick: bool,
    /// Logical CPUs of the machine.
    pub cpus: usize,
    /// The id of the report's own process, which measured nothing itself.
    pub pid: u32,
    /// `"contender"` or `"workload"`: what each child process measured.
    pub isolate: &'static str,
    /// Each peer crate and its version, from `Cargo.lock`.
    pub versions: BTreeMap<&'static str, &'static str>,
    /// Every workload measured.
    pub workloads: Vec<WorkloadResult>,
}

/// Where the output files went.
#[derive(Debug, Clone)]
pub struct Outputs {
    /// The SVG chart of times.
    pub svg: PathBuf,
    /// The SVG chart of each family's best row against the fastest, per workload.
    pub normalised_svg: PathBuf,
    /// The JSON figures.
    pub json: PathBuf,
}

/// The workloads `only` selects: an exact id, or the id and its `-` variants.
#[must_use]
pub fn select(only: Option<&str>) -> Vec<&'static Workload> {
    ALL.iter()
        .filter(|w| {
            only.is_none_or(|id| {
                w.id.eq_ignore_ascii_case(id)
                    || w.id
                        .to_ascii_lowercase()
                        .starts_with(&format!("{}-", id.to_ascii_lowercase()))
            })
        })
        .collect()
}

/// Seconds a timed sample lasts at least (it repeats the run as needed).
const SAMPLE: f64 = 0.002;

/// Seconds that `repeats` runs of `run` at `size` take.
fn time_runs(run: fn(usize) -> u64, size: usize, repeats: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..repeats {
        black_box(run(black_box(size)));
    }
    start.elapsed().as_secs_f64()
}

/// Measures one contender of `workload` in this process: one run to warm up (its
/// checksum is the row's), then `runs` timed samples of at least 2 ms each (the run
/// repeated as often as needed), reporting the median time per run. `meter` (the
/// process's global allocator) counts the warm-up run only, so the timed runs pay no
/// counting.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "repeat counts are clamped to 1..=10 000 and times are positive"
)]
#[must_use]
pub fn measure(
    workload: &Workload,
    contender: &Contender,
    size: usize,
    runs: usize,
    meter: &CountingAlloc,
) -> Row {
    let ops = (workload.ops)(size).max(1);
    meter.start();
    let checksum = (contender.run)(black_box(size));
    let counted = meter.stop();
    // A sample repeats the run until it lasts about `SAMPLE` seconds, so short runs
    // (W1's 60 000 rounds take a tenth of a millisecond) are not timer noise.
    let once = time_runs(contender.run, size, 1);
    let repeats = ((SAMPLE / once.max(1e-9)).ceil() as usize).clamp(1, 10_000);
    let mut times: Vec<f64> = (0..runs.max(1))
        .map(|_| time_runs(contender.run, size, repeats) / repeats as f64)
        .collect();
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    Row {
        contender: contender.name.to_owned(),
        ns_per_op: median * 1e9 / ops as f64,
        ms_per_run: median * 1e3,
        checksum,
        peak_bytes: counted.peak,
        held_bytes: counted.held,
        pid: std::process::id(),
    }
}

/// Checks that every row built what the first did.
///
/// # Errors
///
/// A contender whose checksum differs from the first one's: it did different work, so
/// the workload gets no table.
pub fn check_checksums(id: &str, rows: &[Row]) -> Result<(), String> {
    let Some(first) = rows.first() else { return Ok(()) };
    match rows.iter().find(|r| r.checksum != first.checksum) {
        Some(row) => Err(format!(
            "{id}: {} built checksum {}, the first contender {}: it did different work",
            row.contender, row.checksum, first.checksum
        )),
        None => Ok(()),
    }
}

/// The child tasks that measure `workload` at `size`, as `isolate` splits them.
fn tasks(workload: &Workload, size: usize, runs: usize, isolate: Isolation) -> Vec<ChildTask> {
    let task = |contender| ChildTask { id: workload.id.to_owned(), size, runs, contender };
    match isolate {
        Isolation::Workload => vec![task(None)],
        Isolation::Contender => (0..workload.contenders.len()).map(|i| task(Some(i))).collect(),
    }
}

/// Measures `workload` in child processes of `exe` (this binary) and gathers their rows.
///
/// # Errors
///
/// A child that failed (its message, prefixed with the workload id), or rows whose
/// checksums differ.
pub fn measure_in_children(
    exe: &Path,
    workload: &Workload,
    size: usize,
    runs: usize,
    isolate: Isolation,
) -> Result<WorkloadResult, String> {
    let mut rows = Vec::with_capacity(workload.contenders.len());
    let mut memory = Vec::new();
    for task in tasks(workload, size, runs, isolate) {
        let output = child::spawn(exe, &task)?;
        rows.extend(output.rows);
        memory.extend(output.memory);
    }
    check_checksums(workload.id, &rows)?;
    Ok(WorkloadResult {
        id: workload.id,
        title: workload.title,
        seed: workload.seed,
        size,
        per: workload.per,
        rows,
        memory,
    })
}

/// Runs the selected workloads, printing each table as it completes (progress on
/// stderr), then the summary, and writes the chart and the JSON.
///
/// # Errors
///
/// No workload matches `--only`, a child that failed, a checksum mismatch, or a file that
/// cannot be written.
pub fn run(options: &args::Options) -> Result<(Report, Outputs), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the report binary: {e}"))?;
    let selected = select(options.only.as_deref());
    if selected.is_empty() {
        let ids: Vec<&str> = ALL.iter().map(|w| w.id).collect();
        return Err(format!(
            "no workload matches `{}`; there are {}",
            options.only.as_deref().unwrap_or_default(),
            ids.join(", ")
        ));
    }
    let mut report = Report {
        runs: options.runs,
        quick: options.quick,
        cpus: std::thread::available_parallelism().map_or(1, usize::from),
        pid: std::process::id(),
        isolate: match options.isolate {
            Isolation::Workload => "workload",
            Isolation::Contender => "contender",
        },
        versions: versions::PEER_VERSIONS.iter().copied().collect(),
        workloads: Vec::new(),
    };
    println!("{}", versions::line());
    for (i, workload) in selected.iter().enumerate() {
        let size = if options.quick { workload.quick_size } else { workload.size };
        let size = workload.size_kind.scaled(size, options.scale);
        eprint!("[{}/{}] {} ({} = {size}) ...", i + 1, selected.len(), workload.id, workload.per);
        let start = Instant::now();
        let result = measure_in_children(&exe, workload, size, options.runs, options.isolate);
        eprintln!(" {:.1} s", start.elapsed().as_secs_f64());
        let result = result?;
        println!("{}", table::render(&result));
        report.workloads.push(result);
    }
    println!("{}", table::summary(&report));
    std::fs::create_dir_all(&options.out)
        .map_err(|e| format!("cannot create {}: {e}", options.out.display()))?;
    let outputs = Outputs {
        svg: options.out.join("report.svg"),
        normalised_svg: options.out.join("report-normalised.svg"),
        json: options.out.join("report.json"),
    };
    chart::write_svg(&report, &outputs.svg)?;
    chart::write_normalised_svg(&report, &outputs.normalised_svg)?;
    save_json(&report, &outputs.json)?;
    Ok((report, outputs))
}

/// Writes the figures as JSON.
///
/// # Errors
///
/// The file cannot be written.
pub fn save_json(report: &Report, path: &Path) -> Result<(), String> {
    let text = serde_json::to_string_pretty(report).map_err(|e| e.to_string())?;
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(contender: &str, checksum: u64) -> Row {
        Row {
            contender: contender.to_owned(),
            ns_per_op: 1.0,
            ms_per_run: 1.0,
            checksum,
            peak_bytes: 0,
            held_bytes: 0,
            pid: 1,
        }
    }

    #[test]
    fn a_checksum_mismatch_names_the_workload_and_the_contender() {
        assert_eq!(check_checksums("W4", &[]), Ok(()));
        assert_eq!(check_checksums("W4", &[row("Box", 5), row("slab Slab", 5)]), Ok(()));
        let error = check_checksums("W4", &[row("Box", 5), row("slab Slab", 6)]).unwrap_err();
        assert!(error.starts_with("W4: slab Slab built checksum 6"), "{error}");
        assert!(error.contains("the first contender 5"), "{error}");
    }

    #[test]
    fn a_task_per_contender_or_one_per_workload() {
        let w4 = &ALL.iter().find(|w| w.id == "W4").expect("W4");
        let per_row = tasks(w4, 10, 2, Isolation::Contender);
        assert_eq!(per_row.len(), w4.contenders.len());
        assert!(per_row.iter().enumerate().all(|(i, t)| t.contender == Some(i) && t.size == 10));
        let one = tasks(w4, 10, 2, Isolation::Workload);
        assert_eq!(one.len(), 1);
        assert_eq!((one[0].contender, one[0].runs, one[0].id.as_str()), (None, 2, "W4"));
    }
}
