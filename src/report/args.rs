//! The report's command line.

use std::path::PathBuf;

/// What `cargo run --release -- [OPTIONS]` asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Smaller sizes and fewer runs: the whole report in a few seconds.
    pub quick: bool,
    /// Only workloads whose id is this, or starts with it and a `-` (`W4` runs `W4-get`).
    pub only: Option<String>,
    /// Timed runs per contender; the median is reported.
    pub runs: usize,
    /// Where `report.svg` and `report.json` are written.
    pub out: PathBuf,
    /// Divides every workload's size (for tests; 1 keeps the seed's sizes).
    pub scale: usize,
}

/// `--help`'s text.
pub const HELP: &str = "\
arena-kit report: the seed workloads (docs/workloads.md), arena-kit against Box and the
best Rust crates, side by side in one process.

USAGE:
    cargo run --release -- [OPTIONS]

OPTIONS:
    --quick        smaller sizes and 3 runs: the whole report in a few seconds
    --only ID      run one workload and its variants: W1 (with W1-2t), W2, W3 (with W3-50k, W3-2t),
                   W4 (with W4-get, W4-2t), W5, W6 (with W6-1M), W7, W8 (with W8-scan), W9;
                   a full id (W6-1M) runs that table alone
    --runs N       timed runs per contender, median reported (default 7, 3 with --quick)
    --out DIR      where report.svg and report.json go (default target/report)
    --scale N      divide every workload's size by N (tests; default 1)
    -h, --help     this text

Each contender runs once to warm up, then N times; its checksum must equal the first
contender's (a mismatch is an error, not a row). Times are per operation; ratios are to
Box (where Box takes part) and to the fastest contender. W6 also prints each string's
capacity and the bytes its allocator holds; the -2t tables run two jobs on one thread,
then on two.";

/// What parsing produced: options to run with, or a request for help.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Run the report.
    Run(Options),
    /// Print [`HELP`].
    Help,
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
        out: PathBuf::from("target/report"),
        scale: 1,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--quick" => options.quick = true,
            "--only" => options.only = Some(value("--only")?),
            "--runs" => options.runs = positive("--runs", &value("--runs")?)?,
            "--scale" => options.scale = positive("--scale", &value("--scale")?)?,
            "--out" => options.out = PathBuf::from(value("--out")?),
            other => return Err(format!("unknown option `{other}` (see --help)")),
        }
    }
    if options.runs == 0 {
        options.runs = if options.quick { 3 } else { 7 };
    }
    Ok(Command::Run(options))
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
    fn defaults_are_seven_runs_into_target_report() {
        let Command::Run(o) = parse_strs(&[]).unwrap() else { panic!("not a run") };
        assert_eq!((o.quick, o.runs, o.scale, o.only), (false, 7, 1, None));
        assert_eq!(o.out, PathBuf::from("target/report"));
    }

    #[test]
    fn quick_defaults_to_three_runs_unless_told() {
        let Command::Run(o) = parse_strs(&["--quick"]).unwrap() else { panic!("not a run") };
        assert_eq!(o.runs, 3);
        let Command::Run(o) = parse_strs(&["--quick", "--runs", "5"]).unwrap() else {
            panic!("not a run")
        };
        assert_eq!(o.runs, 5);
    }

    #[test]
    fn every_option_is_read() {
        let Command::Run(o) =
            parse_strs(&["--only", "W4", "--out", "/tmp/x", "--scale", "10"]).unwrap()
        else {
            panic!("not a run")
        };
        assert_eq!((o.only.as_deref(), o.scale), (Some("W4"), 10));
        assert_eq!(o.out, PathBuf::from("/tmp/x"));
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
}
