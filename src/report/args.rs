//! The report's command line.

use std::path::PathBuf;

/// What `cargo run --release -- [OPTIONS]` asked for.
#[derive(Debug, Clone, PartialEq)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent switches of the command line, each its own option"
)]
pub struct Options {
    /// Smaller sizes and fewer runs: the whole report in a few seconds.
    pub quick: bool,
    /// Only workloads whose id is this, or starts with it and a `-` (`W4` runs `W4-get`).
    pub only: Option<String>,
    /// Rounds at least per table (each round times every contender once).
    pub runs: usize,
    /// Seconds a table's rounds go on for, once `runs` rounds are done.
    pub seconds: f64,
    /// Times a table's child processes are started afresh, the rounds shared out among
    /// them.
    pub epochs: usize,
    /// Whether to count instructions per operation under callgrind as well.
    pub instructions: bool,
    /// Where `report.svg` and `report.json` are written.
    pub out: PathBuf,
    /// Divides every workload's size (for tests; 1 keeps the seed's sizes).
    pub scale: usize,
    /// What each child process measures.
    pub isolate: Isolation,
    /// Whether a single-thread table's children are pinned to one CPU (`--no-pin`
    /// turns it off).
    pub pin: bool,
    /// Whether each sample runs at a freshly moved heap and stack (`--no-shift` turns it
    /// off).
    pub shift: bool,
    /// Whether the children run with glibc's thresholds fixed, so that freed memory
    /// stays warm between runs (`--cold-malloc` turns it off).
    pub warm_malloc: bool,
}

/// How the report splits its measurements over child processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isolation {
    /// One child per workload: its contenders share that child's heap.
    Workload,
    /// One child per contender: every row starts from a fresh heap.
    Contender,
}

/// What the report asks one child process to serve (`--serve`, internal): the
/// contenders it warms up and times samples of, on request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeTask {
    /// The workload's full id (`W6-1M`).
    pub id: String,
    /// The size to run it at (already quick and scaled).
    pub size: usize,
    /// The contender's index in the workload's list; every contender when `None`.
    pub contender: Option<usize>,
    /// The CPU the child pins itself to before it warms up, if any.
    pub cpu: Option<usize>,
    /// Whether each sample runs with the heap and stack moved by a fresh amount
    /// ([`super::child::Layout`]).
    pub shift: bool,
}

/// `--help`'s text.
pub const HELP: &str = "\
arena-kit report: the seed workloads (docs/workloads.md), arena-kit against Box and the
best Rust crates, each contender in a child process of its own.

USAGE:
    cargo run --release -- [OPTIONS]
    cargo run --release -- --compare A.json B.json

OPTIONS:
    --quick         smaller sizes, fewer rounds: the whole report in a few seconds
    --only ID       run one workload and its variants: W1 (with W1-2t), W2, W3 (with W3-50k, W3-2t),
                    W4 (with W4-get, W4-2t), W5, W6 (with W6-1M), W7 (with W7-par), W8 (with W8-scan, W8-step, W8-retain), W9;
                    a full id (W6-1M) runs that table alone; ids separated by commas
                    (W1-2t,W7-par) run each
    --runs N        rounds at least per table (default: one per fresh set of child processes)
    --seconds S     seconds a table's rounds go on for once N are done (default 2, 0.3 with --quick)
    --epochs N      fresh sets of child processes per table, the rounds shared out among them
                    (default 3; at most one per round)
    --no-pin        leave single-thread tables' child processes unpinned (by default each is
                    pinned to the last CPU the report may use; Linux only)
    --no-shift      time every sample at the child's one memory layout (by default each sample
                    runs with the heap and the stack moved by a fresh amount, so a layout that
                    favours one row is drawn again every round instead of once per process)
    --cold-malloc   run the children with glibc's own mmap and trim thresholds (by default they are
                    fixed, so memory a run frees is still warm for the next; docs/workloads.md)
    --instructions  also count instructions per operation under callgrind (needs valgrind on the PATH;
                    takes minutes): every single-thread table, each contender at two sizes
    --out DIR       where report.svg and report.json go (default target/report)
    --scale N       divide every workload's size by N (tests; default 1)
    --isolate WHAT  a child process per `contender` (default) or per `workload`
    --once ID I N   run contender I of workload ID once at size N, untimed, print its checksum
                    (for an instruction counter: docs/workloads.md, \"Counting instructions\")
    --compare A B   print the tables whose verdict, and the rows whose ratio to the fastest,
                    differ between two saved runs (report.json files) by more than 5 %
    -h, --help      this text

Each contender runs in a child process of its own, once to warm up (its checksum must equal
the first contender's: a mismatch is an error, not a row), then in rounds: each round times
one sample of every contender, in a rotating order, so a slow moment of the machine hits every
row alike, and at a memory layout moved afresh (heap and stack), so a layout that favours
one row is drawn again every round. A row's time is the median of its rounds, with the interquartile range; a ratio is
the median of the per-round ratios of two rows, with theirs. A verdict says ahead or behind
only where the ratio's interquartile range lies wholly on one side of 1 and its median is
more than 5 % away; otherwise the rows are level. `peak` and `held` are the bytes a contender
took at most and still held after its warm-up run, counted by the report's own global
allocator. W6 also prints each string's capacity and the bytes its allocator holds; the -2t
tables run two jobs on one thread, then on two.";

/// What parsing produced: options to run with, or a request for help.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Run the report.
    Run(Options),
    /// Print [`HELP`].
    Help,
    /// Serve timed samples of one workload's contenders on request: what the report
    /// runs in each child process (`--serve ID --size N [--contender I]`).
    Serve(ServeTask),
    /// Run one contender once, untimed, and print its checksum (`--once ID I N`): what
    /// an instruction counter measures, free of timing loops.
    Once(OnceTask),
    /// Compare two saved runs (`--compare A B`).
    Compare(std::path::PathBuf, std::path::PathBuf),
}

/// One contender run once at one size (`--once`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnceTask {
    /// The workload's full id (`W6-1M`).
    pub id: String,
    /// The contender's index in the workload's list (as `--child`'s `--contender`).
    pub contender: usize,
    /// The size to run it at.
    pub size: usize,
}

/// Parses the arguments after the program name.
///
/// # Errors
///
/// An unknown option, a missing value, or a value that is not a positive number, as a
/// message naming it.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut options = Options {
        quick: false,
        only: None,
        runs: 0,
        seconds: -1.0,
        epochs: 0,
        instructions: false,
        out: PathBuf::from("target/report"),
        scale: 1,
        isolate: Isolation::Contender,
        pin: true,
        shift: true,
        warm_malloc: true,
    };
    let mut args = args.into_iter().peekable();
    if args.peek().is_some_and(|a| a == "--serve") {
        return parse_serve(args.skip(1)).map(Command::Serve);
    }
    if args.peek().is_some_and(|a| a == "--compare") {
        let mut args = args.skip(1);
        let (Some(a), Some(b), None) = (args.next(), args.next(), args.next()) else {
            return Err(String::from("--compare takes two report.json files"));
        };
        return Ok(Command::Compare(PathBuf::from(a), PathBuf::from(b)));
    }
    if args.peek().is_some_and(|a| a == "--once") {
        let mut args = args.skip(1);
        let mut next =
            |what: &str| args.next().ok_or(format!("--once needs ID, INDEX and SIZE ({what})"));
        let id = next("ID")?;
        let index = next("INDEX")?;
        let contender =
            index.parse().map_err(|_| format!("--once takes a contender index, not `{index}`"))?;
        let size = positive("--once", &next("SIZE")?)?;
        return Ok(Command::Once(OnceTask { id, contender, size }));
    }
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--quick" => options.quick = true,
            "--only" => options.only = Some(value("--only")?),
            "--runs" => options.runs = positive("--runs", &value("--runs")?)?,
            "--seconds" => {
                let text = value("--seconds")?;
                options.seconds = match text.parse::<f64>() {
                    Ok(s) if s >= 0.0 && s.is_finite() => s,
                    _ => return Err(format!("--seconds takes a number of seconds, not `{text}`")),
                };
            }
            "--epochs" => options.epochs = positive("--epochs", &value("--epochs")?)?,
            "--instructions" => options.instructions = true,
            "--no-pin" => options.pin = false,
            "--no-shift" => options.shift = false,
            "--cold-malloc" => options.warm_malloc = false,
            "--scale" => options.scale = positive("--scale", &value("--scale")?)?,
            "--out" => options.out = PathBuf::from(value("--out")?),
            "--isolate" => {
                options.isolate = match value("--isolate")?.as_str() {
                    "workload" => Isolation::Workload,
                    "contender" => Isolation::Contender,
                    other => {
                        return Err(format!(
                            "--isolate takes `workload` or `contender`, not `{other}`"
                        ));
                    }
                }
            }
            other => return Err(format!("unknown option `{other}` (see --help)")),
        }
    }
    if options.epochs == 0 {
        options.epochs = 3;
    }
    // At least a round per set of children: fewer rounds would start fewer sets.
    if options.runs == 0 {
        options.runs = options.epochs;
    }
    if options.seconds < 0.0 {
        options.seconds = if options.quick { 0.3 } else { 2.0 };
    }
    Ok(Command::Run(options))
}

/// The arguments after `--serve`: the workload id, then `--size` and optionally
/// `--contender`.
fn parse_serve(mut args: impl Iterator<Item = String>) -> Result<ServeTask, String> {
    let id = args.next().ok_or("--serve needs a workload id")?;
    let mut task = ServeTask { id, size: 0, contender: None, cpu: None, shift: false };
    while let Some(arg) = args.next() {
        let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--size" => task.size = positive("--size", &value)?,
            "--cpu" => {
                task.cpu = Some(
                    value
                        .parse()
                        .map_err(|_| format!("--cpu takes a CPU number, not `{value}`"))?,
                );
            }
            "--shift" => {
                task.shift = match value.as_str() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("--shift takes `on` or `off`, not `{value}`")),
                };
            }
            "--contender" => {
                task.contender = Some(
                    value
                        .parse()
                        .map_err(|_| format!("--contender takes an index, not `{value}`"))?,
                );
            }
            other => return Err(format!("unknown serve option `{other}`")),
        }
    }
    if task.size == 0 {
        return Err(String::from("--serve needs --size"));
    }
    Ok(task)
}

/// The arguments that make a child process serve `task`: what [`parse`] reads back.
#[must_use]
pub fn serve_args(task: &ServeTask) -> Vec<String> {
    let mut args = vec![
        String::from("--serve"),
        task.id.clone(),
        String::from("--size"),
        task.size.to_string(),
    ];
    if let Some(index) = task.contender {
        args.extend([String::from("--contender"), index.to_string()]);
    }
    if let Some(cpu) = task.cpu {
        args.extend([String::from("--cpu"), cpu.to_string()]);
    }
    if task.shift {
        args.extend([String::from("--shift"), String::from("on")]);
    }
    args
}

fn positive(name: &str, text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("{name} takes a positive whole number, not `{text}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_strs(args: &[&str]) -> Result<Command, String> {
        parse(args.iter().map(|s| (*s).to_owned()))
    }

    #[test]
    fn defaults_are_three_rounds_into_target_report() {
        let Command::Run(o) = parse_strs(&[]).unwrap() else { panic!("not a run") };
        assert_eq!((o.quick, o.runs, o.epochs, o.scale, o.only), (false, 3, 3, 1, None));
        assert!((o.seconds - 2.0).abs() < 1e-9 && !o.instructions);
        assert_eq!(o.out, PathBuf::from("target/report"));
    }

    #[test]
    fn quick_defaults_to_three_runs_unless_told() {
        let Command::Run(o) = parse_strs(&["--quick"]).unwrap() else { panic!("not a run") };
        assert_eq!(o.runs, 3);
        assert!((o.seconds - 0.3).abs() < 1e-9);
        let Command::Run(o) = parse_strs(&["--quick", "--runs", "5"]).unwrap() else {
            panic!("not a run")
        };
        assert_eq!(o.runs, 5);
        let Command::Run(o) = parse_strs(&["--epochs", "8"]).unwrap() else { panic!("not a run") };
        assert_eq!((o.runs, o.epochs), (8, 8), "a round per set of children unless told");
    }

    #[test]
    fn every_option_is_read() {
        let Command::Run(o) = parse_strs(&[
            "--only",
            "W4",
            "--out",
            "/tmp/x",
            "--scale",
            "10",
            "--seconds",
            "0",
            "--instructions",
            "--epochs",
            "8",
        ])
        .unwrap() else {
            panic!("not a run")
        };
        assert_eq!((o.only.as_deref(), o.scale, o.epochs), (Some("W4"), 10, 8));
        assert_eq!(o.out, PathBuf::from("/tmp/x"));
        assert!(o.seconds == 0.0 && o.instructions);
        assert!(parse_strs(&["--seconds", "-1"]).unwrap_err().contains("`-1`"));
        assert!(parse_strs(&["--epochs", "0"]).unwrap_err().contains("positive"));
    }

    #[test]
    fn isolation_is_per_contender_unless_told() {
        let Command::Run(o) = parse_strs(&[]).unwrap() else { panic!("not a run") };
        assert_eq!(o.isolate, Isolation::Contender);
        let Command::Run(o) = parse_strs(&["--isolate", "workload"]).unwrap() else {
            panic!("not a run")
        };
        assert_eq!(o.isolate, Isolation::Workload);
        assert!(parse_strs(&["--isolate", "thread"]).unwrap_err().contains("`thread`"));
    }

    #[test]
    fn a_serve_task_round_trips_through_its_arguments() {
        for (contender, cpu) in [(None, None), (Some(3), None), (None, Some(1)), (Some(0), Some(0))]
        {
            for shift in [false, true] {
                let task =
                    ServeTask { id: String::from("W6-1M"), size: 100, contender, cpu, shift };
                assert_eq!(parse(serve_args(&task)), Ok(Command::Serve(task)));
            }
        }
        assert!(parse_strs(&["--serve", "W1", "--shift", "yes"]).unwrap_err().contains("`yes`"));
        assert!(parse_strs(&["--serve", "W1", "--cpu", "one"]).unwrap_err().contains("`one`"));
        assert!(parse_strs(&["--serve"]).unwrap_err().contains("workload id"));
        assert!(parse_strs(&["--serve", "W1"]).unwrap_err().contains("--size"));
        assert!(parse_strs(&["--serve", "W1", "--contender", "x"]).unwrap_err().contains("`x`"));
    }

    #[test]
    fn compare_takes_two_files() {
        assert_eq!(
            parse_strs(&["--compare", "a.json", "b.json"]),
            Ok(Command::Compare(PathBuf::from("a.json"), PathBuf::from("b.json")))
        );
        assert!(parse_strs(&["--compare", "a.json"]).unwrap_err().contains("two"));
    }

    #[test]
    fn help_wins() {
        assert_eq!(parse_strs(&["--quick", "-h"]), Ok(Command::Help));
    }

    #[test]
    fn bad_input_is_named() {
        assert!(parse_strs(&["--bogus"]).unwrap_err().contains("--bogus"));
        assert!(parse_strs(&["--runs"]).unwrap_err().contains("needs a value"));
        assert!(parse_strs(&["--runs", "0"]).unwrap_err().contains("positive"));
        assert!(parse_strs(&["--scale", "x"]).unwrap_err().contains("`x`"));
    }

    #[test]
    fn once_names_a_workload_a_contender_and_a_size() {
        let task = OnceTask { id: String::from("W1"), contender: 2, size: 1000 };
        assert_eq!(parse_strs(&["--once", "W1", "2", "1000"]), Ok(Command::Once(task)));
        assert!(parse_strs(&["--once", "W1", "2"]).unwrap_err().contains("SIZE"));
        assert!(parse_strs(&["--once", "W1", "x", "5"]).unwrap_err().contains("`x`"));
        assert!(parse_strs(&["--once", "W1", "0", "0"]).is_err());
    }
}
