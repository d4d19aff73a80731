//! The comparison report of `cargo run --release`: every workload, every contender;
//! printed in the seeds' style, charted as SVG, saved as JSON.
//!
//! Flow: [`args`] parses the command line; the report re-runs its own binary as a child
//! process per contender (or per workload, `--isolate workload`), so no row inherits the
//! heap state another one left ([`child`]); each child warms its contenders up, then the
//! report asks every child for one sample per round, round after round, in a rotating
//! order ([`rounds`]); [`stats`] turns the rounds into medians, spreads, paired ratios
//! and a verdict per table; with `--instructions`, [`instructions`] counts each
//! contender's instructions per operation under callgrind; the report checks the
//! checksums agree, [`table`] prints, [`chart`] and [`save_json`] write the files;
//! [`compare`] reads two saved runs back and says what changed.

pub mod affinity;
pub mod args;
pub mod chart;
pub mod child;
pub mod compare;
pub mod instructions;
pub mod memory;
pub mod rounds;
pub mod stats;
pub mod table;
pub mod versions;
pub mod warm_malloc;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::workloads::{ALL, Workload};
use args::Isolation;
use stats::{Spread, Verdict};

/// One contender's result on one workload.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    /// Contender name, e.g. `"bumpalo Bump"`.
    pub contender: String,
    /// Median time per operation over the rounds, in nanoseconds.
    pub ns_per_op: f64,
    /// Median time per run, in milliseconds.
    pub ms_per_run: f64,
    /// Time per operation: median and interquartile range over the rounds, in ns.
    pub spread: Spread,
    /// Time per operation in each round, in ns: what the paired ratios are made of.
    pub rounds: Vec<f64>,
    /// This row over the table's fastest (by median), round by round; in a threaded
    /// table, over the fastest row on as many threads ([`thread_groups`]).
    pub vs_fastest: Spread,
    /// This row over `Box`'s (on as many threads), round by round, where `Box` takes
    /// part.
    pub vs_box: Option<Spread>,
    /// Instructions per operation under callgrind (`--instructions`), where counted.
    pub instructions: Option<f64>,
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
    /// Rounds timed (each round times every contender once).
    pub rounds: usize,
    /// Per round, the set of child processes (epoch, from 0) it ran in.
    pub epoch_of: Vec<usize>,
    /// One row per contender, in the workload's order.
    pub rows: Vec<Row>,
    /// arena-kit's fastest row against the fastest other (the limit and hand-written rows aside), if the
    /// table has both.
    pub verdict: Option<Verdict>,
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
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent settings of the run, each saved as it was"
)]
pub struct Report {
    /// Rounds at least per table.
    pub runs: usize,
    /// Seconds a table's rounds went on for, once `runs` were done.
    pub seconds: f64,
    /// Whether instructions per operation were counted.
    pub instructions: bool,
    /// Whether sizes were the quick ones.
    pub quick: bool,
    /// Logical CPUs of the machine.
    pub cpus: usize,
    /// The id of the report's own process, which measured nothing itself.
    pub pid: u32,
    /// `"contender"` or `"workload"`: what each child process measured.
    pub isolate: &'static str,
    /// The CPU every single-thread table's children were pinned to, if they were.
    pub pinned_cpu: Option<usize>,
    /// Whether each sample ran at a freshly moved heap and stack (`--no-shift`: not).
    pub shifted: bool,
    /// Whether the children ran with glibc's thresholds fixed (`--cold-malloc`: not).
    pub warm_malloc: bool,
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

/// The workloads `only` selects: for each of its comma-separated ids, that id exactly,
/// or the id and its `-` variants; every workload when `None`. In the report's order.
#[must_use]
pub fn select(only: Option<&str>) -> Vec<&'static Workload> {
    let matches = |w: &Workload, id: &str| {
        let id = id.trim().to_ascii_lowercase();
        let own = w.id.to_ascii_lowercase();
        !id.is_empty() && (own == id || own.starts_with(&format!("{id}-")))
    };
    ALL.iter().filter(|w| only.is_none_or(|ids| ids.split(',').any(|id| matches(w, id)))).collect()
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

/// The rows count as arena-kit's.
#[must_use]
pub fn is_arena_kit(name: &str) -> bool {
    name.starts_with("arena-kit")
}

/// The hand-written physical limit, not a contender one could pick.
#[must_use]
pub fn is_limit(name: &str) -> bool {
    name.starts_with("limit")
}

/// A hand-written reference row (`hand-written ...`: a seed's own design coded by hand,
/// such as seed 003's static free list in W4): shown beside the crates, with its ratios,
/// but no more a crate one could pick than the limit is, so not a peer in the verdict.
#[must_use]
pub fn is_hand_written(name: &str) -> bool {
    name.starts_with("hand-written")
}

/// A table's result from what its rounds measured: each row's median and spread, its
/// paired ratios to the fastest row and to `Box`, and the table's verdict.
///
/// # Panics
///
/// If a contender has no round.
#[must_use]
pub fn assemble(workload: &Workload, size: usize, measured: rounds::Measured) -> WorkloadResult {
    let ops = (workload.ops)(size).max(1);
    #[expect(clippy::cast_precision_loss, reason = "operation counts far below 2^52")]
    let ns: Vec<Vec<f64>> =
        measured.seconds.iter().map(|s| s.iter().map(|t| t * 1e9 / ops as f64).collect()).collect();
    let spreads: Vec<Spread> = ns.iter().map(|r| Spread::of(r)).collect();
    let names: Vec<&str> = measured.warm.iter().map(|(w, _)| w.contender.as_str()).collect();
    let groups = thread_groups(&names);
    let medians: Vec<f64> = spreads.iter().map(|s| s.median).collect();
    let fastest = fastest_in_group(&names, &medians);
    let box_of = |group: Option<usize>| {
        (0..ns.len()).find(|&i| groups[i] == group && names[i].starts_with("Box"))
    };
    let rows: Vec<Row> = measured
        .warm
        .iter()
        .zip(&ns)
        .zip(&spreads)
        .zip(&groups)
        .zip(&fastest)
        .map(|(((((warm, pid), rounds), spread), &group), &fastest)| {
            #[expect(clippy::cast_precision_loss, reason = "operation counts far below 2^52")]
            let ms_per_run = spread.median * ops as f64 / 1e6;
            Row {
                contender: warm.contender.clone(),
                ns_per_op: spread.median,
                ms_per_run,
                spread: *spread,
                rounds: rounds.clone(),
                vs_fastest: stats::paired(rounds, &ns[fastest]),
                vs_box: box_of(group).map(|b| stats::paired(rounds, &ns[b])),
                instructions: None,
                checksum: warm.checksum,
                peak_bytes: warm.peak_bytes,
                held_bytes: warm.held_bytes,
                pid: *pid,
            }
        })
        .collect();
    let verdict = verdict(&rows);
    WorkloadResult {
        id: workload.id,
        title: workload.title,
        seed: workload.seed,
        size,
        per: workload.per,
        rounds: ns.first().map_or(0, Vec::len),
        epoch_of: measured.epoch_of,
        rows,
        verdict,
        memory: measured.memory,
    }
}

/// How many threads a row of a threaded table runs on, as its name ends: `", 1 thread"`
/// is 1, `", 2 threads"` is 2; `None` for a row that says neither (every row of a
/// single-thread table, and W7-par's rayon rows, which run on every core).
#[must_use]
pub fn threads_of(name: &str) -> Option<usize> {
    let (_, tail) = name.rsplit_once(", ")?;
    let count = tail.strip_suffix(" threads").or_else(|| tail.strip_suffix(" thread"))?;
    count.parse().ok()
}

/// The group each row is compared within: rows that run on as many threads
/// ([`threads_of`]). Two rows of one group take the machine's second core alike, so
/// their ratio is the code's difference; a two-thread row over a one-thread row is the
/// second core's availability that minute as much as the code's scaling (their times
/// stand side by side in the table for that). A row alone in its group (W7-par's one
/// single-thread reference) is compared with every row instead, as `None`.
#[must_use]
pub fn thread_groups(names: &[&str]) -> Vec<Option<usize>> {
    let counts: Vec<Option<usize>> = names.iter().map(|n| threads_of(n)).collect();
    counts
        .iter()
        .map(|&c| {
            let alone = counts.iter().filter(|&&o| o == c).count() < 2;
            if alone { None } else { c }
        })
        .collect()
}

/// For each row of `names` (times per operation `medians`, same order), the index of the
/// fastest row of its thread group ([`thread_groups`]): the row its ratio to the fastest
/// is taken against, in a table and in `--compare`.
#[must_use]
pub fn fastest_in_group(names: &[&str], medians: &[f64]) -> Vec<usize> {
    let groups = thread_groups(names);
    (0..names.len())
        .map(|i| {
            (0..names.len())
                .filter(|&j| groups[j] == groups[i])
                .min_by(|&a, &b| medians[a].total_cmp(&medians[b]))
                .unwrap_or(i)
        })
        .collect()
}

/// arena-kit's fastest row against the fastest other row (the limit and hand-written
/// reference rows aside: the verdict is about the crates one could pick). In a threaded
/// table only the rows of the most threads count: the table asks which is fastest on
/// every core.
#[must_use]
pub fn verdict(rows: &[Row]) -> Option<Verdict> {
    let names: Vec<&str> = rows.iter().map(|r| r.contender.as_str()).collect();
    let groups = thread_groups(&names);
    let widest = groups.iter().copied().max().flatten();
    let best = |keep: &dyn Fn(&Row) -> bool| {
        rows.iter()
            .zip(&groups)
            .filter(|&(r, &g)| keep(r) && (widest.is_none() || g == widest))
            .map(|(r, _)| r)
            .min_by(|a, b| a.ns_per_op.total_cmp(&b.ns_per_op))
    };
    let ours = best(&|r: &Row| is_arena_kit(&r.contender))?;
    let peer = best(&|r: &Row| {
        !is_arena_kit(&r.contender) && !is_limit(&r.contender) && !is_hand_written(&r.contender)
    })?;
    Some(Verdict::new((&ours.contender, &ours.rounds), (&peer.contender, &peer.rounds)))
}

/// Counts every contender's instructions per operation into `result`'s rows, if the
/// table is one that is counted; progress on stderr.
///
/// # Errors
///
/// As [`instructions::count`].
pub fn count_instructions(
    exe: &Path,
    workload: &Workload,
    result: &mut WorkloadResult,
    warm_malloc: bool,
) -> Result<(), String> {
    if !instructions::counted(workload.id) {
        return Ok(());
    }
    for (i, row) in result.rows.iter_mut().enumerate() {
        eprint!(
            "\r    counting instructions: {} {}/{}",
            workload.id,
            i + 1,
            workload.contenders.len()
        );
        row.instructions = Some(instructions::per_op(exe, workload, i, warm_malloc)?);
    }
    eprintln!();
    Ok(())
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
    if options.instructions {
        instructions::available()?;
    }
    let mut report = Report {
        runs: options.runs,
        seconds: options.seconds,
        instructions: options.instructions,
        quick: options.quick,
        cpus: std::thread::available_parallelism().map_or(1, usize::from),
        pid: std::process::id(),
        isolate: match options.isolate {
            Isolation::Workload => "workload",
            Isolation::Contender => "contender",
        },
        pinned_cpu: if options.pin { affinity::allowed().last().copied() } else { None },
        shifted: options.shift,
        warm_malloc: options.warm_malloc,
        versions: versions::PEER_VERSIONS.iter().copied().collect(),
        workloads: Vec::new(),
    };
    let plan = rounds::Plan {
        min_rounds: options.runs,
        seconds: options.seconds,
        max_rounds: 400,
        epochs: options.epochs,
        shift: options.shift,
        warm_malloc: options.warm_malloc,
    };
    println!("{}", versions::line());
    if let Some(cpu) = report.pinned_cpu {
        println!("single-thread tables pinned to CPU {cpu} (--no-pin to leave them free)");
    }
    for (i, workload) in selected.iter().enumerate() {
        let size = if options.quick { workload.quick_size } else { workload.size };
        let size = workload.size_kind.scaled(size, options.scale);
        eprint!("[{}/{}] {} ({} = {size}) ...", i + 1, selected.len(), workload.id, workload.per);
        let start = Instant::now();
        let cpu = report.pinned_cpu.filter(|_| !affinity::threaded(workload.id));
        let measured = rounds::measure(&exe, workload, size, &plan, options.isolate, cpu);
        eprintln!(" {:.1} s", start.elapsed().as_secs_f64());
        let mut result = assemble(workload, size, measured?);
        check_checksums(workload.id, &result.rows)?;
        if options.instructions {
            count_instructions(&exe, workload, &mut result, options.warm_malloc)?;
        }
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
        let spread = Spread { median: 1.0, q1: 1.0, q3: 1.0 };
        Row {
            contender: contender.to_owned(),
            ns_per_op: 1.0,
            ms_per_run: 1.0,
            spread,
            rounds: vec![1.0],
            vs_fastest: spread,
            vs_box: None,
            instructions: None,
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

    /// What rounds of `seconds` per contender of W4 would have measured.
    fn measured(seconds: Vec<Vec<f64>>) -> rounds::Measured {
        measured_for("W4", seconds)
    }

    /// What rounds of `seconds` per contender of table `id` would have measured.
    fn measured_for(id: &str, seconds: Vec<Vec<f64>>) -> rounds::Measured {
        let w4 = ALL.iter().find(|w| w.id == id).expect("a table");
        let warm = w4
            .contenders
            .iter()
            .take(seconds.len())
            .enumerate()
            .map(|(i, c)| {
                let warm = child::Warm {
                    contender: c.name.to_owned(),
                    checksum: 1,
                    peak_bytes: 0,
                    held_bytes: 0,
                    repeats: 1,
                };
                (warm, u32::try_from(i).expect("few"))
            })
            .collect();
        let epoch_of = vec![0; seconds.first().map_or(0, Vec::len)];
        rounds::Measured { warm, seconds, epoch_of, memory: Vec::new() }
    }

    #[test]
    fn threaded_rows_are_compared_with_rows_on_as_many_threads() {
        assert_eq!(threads_of("arena-kit SyncPool, 2 threads"), Some(2));
        assert_eq!(threads_of("Box, 1 thread"), Some(1));
        assert_eq!(threads_of("bumpalo Bump::reset per tree, rayon"), None);
        assert_eq!(threads_of("slab Slab"), None);
        let names = ["ours, 1 thread", "ours, 2 threads", "Box, 1 thread", "Box, 2 threads"];
        assert_eq!(thread_groups(&names), [Some(1), Some(2), Some(1), Some(2)]);
        // A row alone on its thread count joins the others.
        let names = ["ours, rayon", "Box, rayon", "ours, 1 thread"];
        assert_eq!(thread_groups(&names), [None, None, None]);
        // Ours is fastest on one thread, the peer on two: the verdict is the two-thread
        // rows', and each ratio is to its own group's fastest and `Box`.
        let rows = steady_rows(&[
            ("arena-kit Pool, 1 thread", 1.0),
            ("arena-kit Pool, 2 threads", 3.0),
            ("Box, 1 thread", 4.0),
            ("Box, 2 threads", 2.0),
        ]);
        let verdict = verdict(&rows).expect("both sides ran");
        assert_eq!(
            (verdict.ours.as_str(), verdict.peer.as_str()),
            (names_of(&rows)[1], "Box, 2 threads")
        );
        assert_eq!(verdict.standing, stats::Standing::Behind, "{}", verdict.words());
    }

    #[test]
    fn a_threaded_tables_ratios_are_within_its_thread_counts() {
        let w = ALL.iter().find(|w| w.id == "W4-2t").expect("W4-2t");
        // Two-thread rows take 1, one-thread rows 2 (second core in use), each contender
        // its own factor; the second core is busy in half the rounds, doubling the
        // two-thread rows there.
        let busy = [1.0, 2.0, 1.0, 2.0];
        let seconds: Vec<Vec<f64>> = w
            .contenders
            .iter()
            .enumerate()
            .map(|(i, c)| {
                #[expect(clippy::cast_precision_loss, reason = "a few contenders")]
                let own = 1.0 + i as f64 / 10.0;
                match threads_of(c.name) {
                    Some(2) => busy.iter().map(|b| own * b).collect(),
                    _ => vec![2.0 * own; busy.len()],
                }
            })
            .collect();
        let result = assemble(w, 1000, measured_for("W4-2t", seconds));
        for (i, row) in result.rows.iter().enumerate() {
            #[expect(clippy::cast_precision_loss, reason = "a few contenders")]
            let own = 1.0 + i as f64 / 10.0;
            // Contender 0 and 1 are the fastest one- and two-thread rows.
            let base = if threads_of(&row.contender) == Some(2) { 1.1 } else { 1.0 };
            let want = own / base;
            let got = row.vs_fastest;
            assert!((got.median - want).abs() < 1e-9, "{}: {got:?}", row.contender);
            assert!(got.q3 - got.q1 < 1e-9, "{}: the busy core cancels", row.contender);
        }
    }

    /// Rows of the given names that took the given ns in each of three rounds.
    fn steady_rows(spec: &[(&str, f64)]) -> Vec<Row> {
        spec.iter()
            .map(|&(name, ns)| Row { ns_per_op: ns, rounds: vec![ns; 3], ..row(name, 1) })
            .collect()
    }

    fn names_of(rows: &[Row]) -> Vec<&str> {
        rows.iter().map(|r| r.contender.as_str()).collect()
    }

    #[test]
    fn the_verdict_compares_crates_not_the_limit_or_hand_written_rows() {
        let rows = steady_rows(&[
            ("arena-kit Pool", 1.0),
            ("slab Slab", 1.25),
            ("hand-written Vec + u32 free list (seed 003)", 0.9),
            ("limit: in place", 0.5),
        ]);
        let verdict = verdict(&rows).expect("both sides ran");
        assert_eq!(verdict.peer, "slab Slab");
        assert_eq!(verdict.standing, stats::Standing::Ahead, "{}", verdict.words());
        assert!(is_hand_written(&rows[2].contender) && !is_hand_written("slab Slab"));
    }

    #[test]
    fn rows_are_medians_of_rounds_with_paired_ratios_and_a_verdict() {
        let w4 = ALL.iter().find(|w| w.id == "W4").expect("W4");
        let names: Vec<&str> = w4.contenders.iter().map(|c| c.name).collect();
        let ours = names.iter().position(|n| is_arena_kit(n)).expect("arena-kit rows");
        let boxed = names.iter().position(|n| n.starts_with("Box")).expect("a Box row");
        // Rounds in which the machine gets twice as slow halfway: arena-kit's row is
        // 0.8x the Box row in every round, every other row 1.25x.
        let load = [1.0, 1.0, 2.0, 2.0, 2.0];
        let seconds: Vec<Vec<f64>> = (0..names.len())
            .map(|i| {
                let base = if i == ours {
                    0.8
                } else if i == boxed {
                    1.0
                } else {
                    1.25
                };
                load.iter().map(|l| base * l).collect()
            })
            .collect();
        let size = 1000;
        let result = assemble(w4, size, measured(seconds));
        assert_eq!(result.rounds, 5);
        let row = &result.rows[ours];
        assert!((row.vs_box.expect("Box ran").median - 0.8).abs() < 1e-9);
        assert!((row.vs_fastest.median - 1.0).abs() < 1e-9, "arena-kit is the fastest");
        #[expect(clippy::cast_precision_loss, reason = "a small count")]
        let ops = (w4.ops)(size) as f64;
        assert!((row.ns_per_op - 1.6e9 / ops).abs() < 1e-6, "the median round");
        let verdict = result.verdict.expect("arena-kit and a peer ran");
        assert_eq!(verdict.ours, names[ours]);
        assert_eq!(verdict.standing, stats::Standing::Ahead, "{}", verdict.words());
        assert!((verdict.ratio.median - 0.8).abs() < 1e-9);
    }
}
