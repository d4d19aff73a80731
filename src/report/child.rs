//! The child processes of the report. The report re-runs its own binary with
//! `--serve ID --size N [--contender I]` ([`serve_args`](super::args::serve_args)); the child warms up the
//! contenders it hosts in its own fresh process, says so in one [`Ready`] line on stdout,
//! then times one sample per `sample I` line it reads on stdin and answers with the
//! seconds per run, until `quit` or the end of its input. The report keeps every child of
//! a table alive for the whole table and asks them for samples in rounds
//! ([`super::rounds`]). A heap that earlier tables left fragmented, or glibc's dynamic
//! mmap and trim thresholds raised by them, thus cannot change a row's figures.
//!
//! The parent side ([`super::rounds`]) turns everything that can go wrong in a child (a
//! panic, an unknown id, output that is not the expected line) into an error naming the
//! workload; [`read_ready`] and [`read_sample`] are where it reads the two kinds of line.

use std::io::{BufRead, Write};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::MemoryRow;
use super::args::{OnceTask, ServeTask};
use super::memory::CountingAlloc;
use crate::workloads::{ALL, Contender, Workload};

/// Seconds a timed stretch lasts at least (it repeats the run as needed), so that short
/// runs (W1's 60 000 rounds take a tenth of a millisecond) are not timer noise.
pub const SAMPLE: f64 = 0.002;

/// Timed stretches per sample of a short run (one that a stretch repeats); the sample is
/// the fastest of them. A shared machine adds
/// time (another process, the hypervisor) and never takes any away, so the fastest of a
/// few stretches taken in a row is the one least disturbed, and a burst that lands on
/// one stretch does not reach the sample.
pub const STRETCHES: usize = 3;

/// Where a sample's memory lands: before each sample the child moves its heap and its
/// stack by a fresh amount ([`Layout`]), so that the cache sets, page offsets and 4 KiB
/// aliasing a process's addresses happen to give one contender are drawn again every
/// round instead of once per process (the randomisation of Curtsinger and Berger's
/// Stabilizer, 2013, in the two places a report can reach without a custom linker).
/// A layout that makes a row a few percent slower for a whole process then shows as
/// spread between rounds, which the paired ratios' median sees through, instead of as a
/// difference between two runs.
#[derive(Debug, Clone)]
pub struct Layout {
    state: u64,
}

impl Layout {
    /// The largest heap shift, in bytes: 64 KiB, beyond the L1 and L2 set-index bits of
    /// 4 KiB pages' worth of lines.
    pub const MAX_HEAP: usize = 64 << 10;
    /// The largest stack shift, in frames of [`FRAME`](Self::FRAME) bytes: past 4 KiB.
    pub const MAX_FRAMES: usize = 72;
    /// The bytes a stack frame of `on_shifted_stack` holds at least.
    pub const FRAME: usize = 64;

    /// A sequence of layouts starting from `seed` (any value; 0 is made non-zero).
    #[must_use]
    pub fn new(seed: u64) -> Layout {
        Layout { state: seed | 1 }
    }

    /// The next sample's shifts: heap bytes (a multiple of 64 below `MAX_HEAP`) and stack
    /// frames (below `MAX_FRAMES`).
    #[expect(clippy::cast_possible_truncation, reason = "values reduced below 2^16")]
    pub fn next_shift(&mut self) -> (usize, usize) {
        // xorshift64
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        let heap = (self.state % (Self::MAX_HEAP / 64) as u64) as usize * 64;
        let frames = ((self.state >> 32) % Self::MAX_FRAMES as u64) as usize;
        (heap, frames)
    }

    /// Runs `f` with the heap and stack moved by the next shift: a block of the heap shift's
    /// size is held while `f` runs (so `f`'s allocations land past it), and `f` runs that
    /// many frames deeper on the stack.
    pub fn run<R>(&mut self, f: &mut dyn FnMut() -> R) -> R {
        let (heap, frames) = self.next_shift();
        let pad: Vec<u8> = Vec::with_capacity(heap);
        let result = on_shifted_stack(frames, f);
        drop(std::hint::black_box(pad));
        result
    }
}

/// Calls `f` `frames` frames deeper than this call, each frame holding
/// [`Layout::FRAME`] bytes that stay live across the call (so the calls are not a loop).
#[inline(never)]
fn on_shifted_stack<R>(frames: usize, f: &mut dyn FnMut() -> R) -> R {
    if frames == 0 {
        return f();
    }
    let pad = std::hint::black_box([0_u8; Layout::FRAME]);
    let result = on_shifted_stack(frames - 1, f);
    std::hint::black_box(&pad);
    result
}

/// What a serving child says once its contenders are warm: its process id, one
/// [`Warm`] per contender it hosts, and what the probed ones hold (W6).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ready {
    /// The child's process id.
    pub pid: u32,
    /// One entry per contender hosted, in the workload's order.
    pub rows: Vec<Warm>,
    /// What the probed contenders among them hold once done (W6).
    pub memory: Vec<MemoryRow>,
}

/// One contender after its warm-up run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Warm {
    /// Contender name.
    pub contender: String,
    /// The checksum of what its warm-up run built.
    pub checksum: u64,
    /// The most bytes held at once during the warm-up run, above what was held before.
    pub peak_bytes: u64,
    /// Bytes still held once that run is done, against right before it.
    pub held_bytes: i64,
    /// Runs per timed sample, so that a sample lasts at least [`SAMPLE`].
    pub repeats: usize,
}

/// Seconds that `repeats` runs of `run` at `size` take.
fn time_runs(run: fn(usize) -> u64, size: usize, repeats: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..repeats {
        std::hint::black_box(run(std::hint::black_box(size)));
    }
    start.elapsed().as_secs_f64()
}

/// Warms `contender` up at `size`: one run counted by `meter` (its checksum and memory
/// are the row's), and for a run shorter than a stretch one more, uncounted, to see how
/// many runs a stretch needs.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "repeat counts are clamped to 1..=10 000"
)]
fn warm_up(contender: &Contender, size: usize, meter: &CountingAlloc) -> Warm {
    meter.start();
    let start = Instant::now();
    let checksum = (contender.run)(std::hint::black_box(size));
    let counted_run = start.elapsed().as_secs_f64();
    let counted = meter.stop();
    // A run as long as a stretch is one stretch; a shorter one is timed again uncounted
    // (counting slows allocation down) to see how many a stretch needs.
    let once = if counted_run >= SAMPLE { counted_run } else { time_runs(contender.run, size, 1) };
    Warm {
        contender: contender.name.to_owned(),
        checksum,
        peak_bytes: counted.peak,
        held_bytes: counted.held,
        repeats: ((SAMPLE / once.max(1e-9)).ceil() as usize).clamp(1, 10_000),
    }
}

/// Serves `task` in this process: what a child does. Warms up its contenders, writes the
/// [`Ready`] line to `output`, then answers each `sample I` line of `input` (I: the
/// contender's place among those hosted) with the seconds per run of one timed sample,
/// until `quit` or the end of `input`. `meter` is the process's global allocator, which
/// the warm-up runs are counted by (the timed runs pay no counting).
///
/// # Errors
///
/// No workload has the task's id, its contender index is out of range, a request is not
/// `sample I` for a hosted contender, or `output` cannot be written.
pub fn serve(
    task: &ServeTask,
    meter: &CountingAlloc,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), String> {
    let workload = find(&task.id)?;
    if let Some(cpu) = task.cpu {
        super::affinity::pin(cpu)?;
    }
    let contenders = match task.contender {
        None => workload.contenders,
        Some(i) => contender_slice(workload, i)?,
    };
    let rows: Vec<Warm> = contenders.iter().map(|c| warm_up(c, task.size, meter)).collect();
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
    let repeats: Vec<usize> = rows.iter().map(|w| w.repeats).collect();
    let ready = Ready { pid: std::process::id(), rows, memory };
    let line = serde_json::to_string(&ready).map_err(|e| e.to_string())?;
    let write_err = |e: std::io::Error| format!("cannot answer the report: {e}");
    writeln!(output, "{line}").and_then(|()| output.flush()).map_err(write_err)?;
    let mut layout = Layout::new(u64::from(std::process::id()).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    for request in input.lines() {
        let request = request.map_err(|e| format!("cannot read a request: {e}"))?;
        let request = request.trim();
        if request == "quit" {
            break;
        }
        let index = request
            .strip_prefix("sample ")
            .and_then(|i| i.parse::<usize>().ok())
            .filter(|&i| i < contenders.len())
            .ok_or_else(|| format!("{}: not a request: `{request}`", task.id))?;
        // A run longer than a stretch is its own sample: disturbances average out within it.
        let stretches = if repeats[index] > 1 { STRETCHES } else { 1 };
        let mut sample = || {
            (0..stretches)
                .map(|_| time_runs(contenders[index].run, task.size, repeats[index]))
                .fold(f64::INFINITY, f64::min)
        };
        #[expect(clippy::cast_precision_loss, reason = "repeat counts are small")]
        let seconds =
            if task.shift { layout.run(&mut sample) } else { sample() } / repeats[index] as f64;
        writeln!(output, "{seconds:e}").and_then(|()| output.flush()).map_err(write_err)?;
    }
    Ok(())
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

/// Reads a child's [`Ready`] line, the first it prints.
///
/// # Errors
///
/// The line is not a [`Ready`] (the message quotes it).
pub fn read_ready(line: &str) -> Result<Ready, String> {
    serde_json::from_str(line.trim())
        .map_err(|e| format!("the child process printed no ready line ({e}): {}", line.trim()))
}

/// Reads a child's answer to `sample I`: seconds per run, positive.
///
/// # Errors
///
/// The line is not a positive number.
pub fn read_sample(line: &str) -> Result<f64, String> {
    match line.trim().parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds.is_finite() => Ok(seconds),
        _ => Err(format!("the child process answered `{}` to a sample request", line.trim())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str, contender: Option<usize>) -> ServeTask {
        ServeTask { id: id.to_owned(), size: 10, contender, cpu: None, shift: true }
    }

    /// Serves `requests` for `task` in this process; what it printed.
    fn served(task: &ServeTask, requests: &str) -> Result<Vec<String>, String> {
        // Not the global allocator here: it counts nothing, which these tests do not read.
        let meter = CountingAlloc::new();
        let mut out = Vec::new();
        serve(task, &meter, requests.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).expect("text").lines().map(str::to_owned).collect())
    }

    #[test]
    fn a_child_says_it_is_ready_then_answers_each_sample() {
        let lines = served(&task("W1", Some(3)), "sample 0\nsample 0\nquit\nsample 0\n").unwrap();
        assert_eq!(lines.len(), 3, "ready, two samples, nothing after quit: {lines:?}");
        let ready = read_ready(&lines[0]).unwrap();
        assert_eq!(ready.pid, std::process::id());
        assert_eq!(ready.rows.len(), 1);
        assert_eq!(ready.rows[0].contender, ALL[0].contenders[3].name);
        assert_eq!(ready.rows[0].checksum, 45, "0 + 1 + ... + 9");
        assert!(ready.rows[0].repeats >= 1);
        assert!(read_sample(&lines[1]).unwrap() > 0.0 && read_sample(&lines[2]).unwrap() > 0.0);
    }

    #[test]
    fn a_child_hosting_a_whole_workload_serves_any_of_its_contenders() {
        let n = ALL[0].contenders.len();
        let lines = served(&task("W1", None), &format!("sample {}\n", n - 1)).unwrap();
        let ready = read_ready(&lines[0]).unwrap();
        assert_eq!(ready.rows.len(), n);
        assert!(ready.rows.iter().all(|r| r.checksum == 45));
        assert!(read_sample(&lines[1]).is_ok());
    }

    #[test]
    fn bad_tasks_and_requests_are_named() {
        assert!(served(&task("W99", None), "").unwrap_err().contains("no workload `W99`"));
        assert!(served(&task("W1", Some(999)), "").unwrap_err().contains("not 1000"));
        let error = served(&task("W1", Some(0)), "sample 1\n").unwrap_err();
        assert!(error.contains("W1: not a request: `sample 1`"), "{error}");
        assert!(served(&task("W1", Some(0)), "bogus\n").unwrap_err().contains("`bogus`"));
    }

    #[test]
    fn layouts_move_the_heap_and_the_stack_within_their_bounds() {
        let mut layout = Layout::new(7);
        let shifts: Vec<(usize, usize)> = (0..200).map(|_| layout.next_shift()).collect();
        assert!(
            shifts
                .iter()
                .all(|&(h, f)| h < Layout::MAX_HEAP && h % 64 == 0 && f < Layout::MAX_FRAMES)
        );
        let heaps: std::collections::BTreeSet<usize> = shifts.iter().map(|s| s.0).collect();
        let frames: std::collections::BTreeSet<usize> = shifts.iter().map(|s| s.1).collect();
        assert!(heaps.len() > 150 && frames.len() > 50, "the shifts vary");
        // Deeper frames put the callee's locals lower on the stack, by a frame's bytes
        // each at least.
        let depth_of = |frames: usize| {
            on_shifted_stack(frames, &mut || {
                let local = 0_u8;
                std::hint::black_box(&raw const local) as usize
            })
        };
        let (shallow, deep) = (depth_of(0), depth_of(40));
        assert!(shallow - deep >= 40 * Layout::FRAME, "{shallow:#x} {deep:#x}");
        let mut layout = Layout::new(0);
        assert_eq!(layout.run(&mut || 41 + 1), 42);
    }

    #[test]
    fn lines_that_are_not_the_protocol_are_errors() {
        assert!(read_ready("hello").unwrap_err().contains("no ready line"));
        assert!(read_sample("hello").unwrap_err().contains("`hello`"));
        assert!(read_sample("-1").is_err() && read_sample("0").is_err());
        assert!((read_sample("2.5e-3\n").unwrap() - 0.0025).abs() < 1e-12);
    }
}
