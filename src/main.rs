//! `cargo run --release`: the comparison report. Runs every seed workload for every
//! contender, each in a child process of this binary (`--serve`, internal), prints the
//! tables and a summary, and writes an SVG chart and a JSON file of the figures (paths
//! printed). `--help` lists the options.

use std::process::ExitCode;

use arena_kit_report::report::memory::CountingAlloc;
use arena_kit_report::report::{self, args, child};
use arena_kit_report::workloads::mi_alloc;

/// Every allocation of the report, counted: each row's peak and held bytes come from it.
/// Only this binary registers it; the library and the benches use the system allocator.
#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

fn main() -> ExitCode {
    let options = match args::parse(std::env::args().skip(1)) {
        Ok(args::Command::Run(options)) => options,
        Ok(args::Command::Help) => {
            println!("{}", args::HELP);
            return ExitCode::SUCCESS;
        }
        Ok(args::Command::Serve(task)) => {
            // mimalloc's blocks bypass the global allocator; count them in it too.
            mi_alloc::set_meter(&GLOBAL);
            let stdin = std::io::stdin().lock();
            return match child::serve(&task, &GLOBAL, stdin, std::io::stdout().lock()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::FAILURE
                }
            };
        }
        Ok(args::Command::Compare(a, b)) => {
            return match report::compare::compare_files(&a, &b) {
                Ok(text) => {
                    print!("{text}");
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::FAILURE
                }
            };
        }
        Ok(args::Command::Once(task)) => {
            return match child::once(&task) {
                Ok(checksum) => {
                    println!("{checksum}");
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::FAILURE
                }
            };
        }
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    match report::run(&options) {
        Ok((_, outputs)) => {
            println!("chart: {}", outputs.svg.display());
            println!("normalised chart: {}", outputs.normalised_svg.display());
            println!("figures: {}", outputs.json.display());
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
