//! Interleaved rounds: how the report times a table.
//!
//! Every contender of the table gets a child process of its own (or one child hosts them
//! all, `--isolate workload`), started once and kept alive for the whole table. Each
//! child warms its contenders up and says so ([`child::Ready`]); then the report asks for
//! samples in *rounds*: one sample of every contender per round, in an order that rotates
//! from round to round (and runs backwards every other round), so that no contender
//! always follows the same neighbour and a slow moment of the machine lands on every row
//! alike. Rounds go on until the plan's minimum is done and its time is up.
//!
//! The children are started afresh a few times per table ([`Plan::epochs`]), the rounds
//! shared out among them: what one process's memory placement does to a contender for
//! its whole life then shows as spread, not as a difference between two runs.
//!
//! Each row then has one time per round; [`super::stats`] turns them into a median with
//! its spread, and two rows into paired ratios.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use super::MemoryRow;
use super::args::{self, Isolation, ServeTask};
use super::child::{self, Ready};
use crate::workloads::Workload;

/// How many rounds a table gets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plan {
    /// Rounds at least.
    pub min_rounds: usize,
    /// Once `min_rounds` are done, rounds go on until the table has taken this long.
    pub seconds: f64,
    /// Rounds at most, however short they are.
    pub max_rounds: usize,
    /// Times the children are started afresh, the rounds shared out among them (at most
    /// one per round). A process's heap, addresses and page placement make a contender a
    /// few percent faster or slower for that process's whole life; fresh processes put
    /// that difference into the spread instead of into the verdict.
    pub epochs: usize,
    /// Whether each sample runs at a freshly moved heap and stack
    /// ([`child::Layout`]).
    pub shift: bool,
    /// Whether the children run with glibc's thresholds fixed ([`super::warm_malloc`]).
    pub warm_malloc: bool,
}

/// The order round `round` asks `n` contenders in: a rotation of `0..n` that starts one
/// further each round, backwards every other round.
#[must_use]
pub fn order(n: usize, round: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).map(|k| (k + round / 2) % n).collect();
    if round % 2 == 1 {
        order.reverse();
    }
    order
}

/// What a table's rounds measured: per contender, its warm-up and its seconds per run in
/// each round; what the probed contenders hold; each contender's child pid.
#[derive(Debug, Clone)]
pub struct Measured {
    /// Per contender, in the workload's order: its warm-up and the child's pid.
    pub warm: Vec<(child::Warm, u32)>,
    /// Per contender, seconds per run, one per round.
    pub seconds: Vec<Vec<f64>>,
    /// Per round, the epoch (set of child processes) it ran in, counting from 0.
    pub epoch_of: Vec<usize>,
    /// What the probed contenders hold once done (W6).
    pub memory: Vec<MemoryRow>,
}

/// One serving child: its pipes and the contenders it hosts (their indices in the
/// workload).
struct Server {
    process: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    id: String,
}

impl Server {
    fn start(exe: &Path, task: &ServeTask, warm_malloc: bool) -> Result<(Server, Ready), String> {
        let mut command = Command::new(exe);
        super::warm_malloc::configure(&mut command, warm_malloc);
        let mut process = command
            .args(args::serve_args(task))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                format!("{}: cannot start a child process {}: {e}", task.id, exe.display())
            })?;
        let stdin = process.stdin.take().expect("stdin is piped");
        let stdout = BufReader::new(process.stdout.take().expect("stdout is piped"));
        let mut server = Server { process, stdin, stdout, id: task.id.clone() };
        let line = server.read_line()?;
        let ready = child::read_ready(&line).map_err(|e| server.failed(&e))?;
        Ok((server, ready))
    }

    /// The next line the child prints; its failure (with its stderr) if there is none.
    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(n) if n > 0 => Ok(line),
            Ok(_) => Err(self.failed("the child process ended")),
            Err(e) => Err(self.failed(&format!("cannot read the child process: {e}"))),
        }
    }

    /// One timed sample of hosted contender `local`: seconds per run.
    fn sample(&mut self, local: usize) -> Result<f64, String> {
        writeln!(self.stdin, "sample {local}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.failed(&format!("cannot ask the child process: {e}")))?;
        let line = self.read_line()?;
        child::read_sample(&line).map_err(|e| self.failed(&e))
    }

    /// An error naming the workload, with what the child said on stderr once it ended.
    fn failed(&mut self, what: &str) -> String {
        // Closing stdin ends a child that is still waiting for requests.
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let status = self.process.wait().map_or(String::from("unknown status"), |s| s.to_string());
        let mut stderr = String::new();
        if let Some(mut pipe) = self.process.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
        }
        format!("{}: {what} ({status}):\n{}", self.id, stderr.trim())
    }

    /// Tells the child to quit and waits for it.
    fn quit(mut self) -> Result<(), String> {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let status = self.process.wait().map_err(|e| format!("{}: {e}", self.id))?;
        if status.success() { Ok(()) } else { Err(self.failed("the child process failed")) }
    }
}

/// Each contender's warm-up with its child's pid, and what the probed ones hold.
type Warmed = (Vec<(child::Warm, u32)>, Vec<MemoryRow>);

/// Starts a serving child for each of `tasks`: the children, which child hosts each
/// contender (and its place there), each contender's warm-up with its child's pid, and
/// what the probed contenders hold.
#[expect(clippy::type_complexity, reason = "a private helper's four results")]
fn start_all(
    exe: &Path,
    workload: &Workload,
    tasks: &[ServeTask],
    warm_malloc: bool,
) -> Result<(Vec<Server>, Vec<(usize, usize)>, Vec<(child::Warm, u32)>, Vec<MemoryRow>), String> {
    let n = workload.contenders.len();
    let mut servers = Vec::with_capacity(tasks.len());
    let mut host = Vec::with_capacity(n);
    let mut warm = Vec::with_capacity(n);
    let mut memory = Vec::new();
    for task in tasks {
        let (server, ready) = Server::start(exe, task, warm_malloc)?;
        for (local, row) in ready.rows.into_iter().enumerate() {
            host.push((servers.len(), local));
            warm.push((row, ready.pid));
        }
        memory.extend(ready.memory);
        servers.push(server);
    }
    if warm.len() != n {
        return Err(format!(
            "{}: the children hosted {} contenders, not {n}",
            workload.id,
            warm.len()
        ));
    }
    Ok((servers, host, warm, memory))
}

/// Times `workload` at `size` in rounds, as `plan` says, in child processes of `exe`
/// (this binary), one per contender or one for all as `isolate` says, each pinned to
/// `cpu` if given.
///
/// # Errors
///
/// A child that could not start, failed, or answered outside the protocol; every message
/// starts with the workload id.
pub fn measure(
    exe: &Path,
    workload: &Workload,
    size: usize,
    plan: &Plan,
    isolate: Isolation,
    cpu: Option<usize>,
) -> Result<Measured, String> {
    let n = workload.contenders.len();
    let tasks: Vec<ServeTask> = match isolate {
        Isolation::Workload => {
            vec![ServeTask {
                id: workload.id.to_owned(),
                size,
                contender: None,
                cpu,
                shift: plan.shift,
            }]
        }
        Isolation::Contender => (0..n)
            .map(|i| ServeTask {
                id: workload.id.to_owned(),
                size,
                contender: Some(i),
                cpu,
                shift: plan.shift,
            })
            .collect(),
    };
    let epochs = plan.epochs.clamp(1, plan.min_rounds.max(1));
    let per_epoch = plan.min_rounds.max(1).div_ceil(epochs);
    #[expect(clippy::cast_precision_loss, reason = "a handful of epochs")]
    let budget = Duration::from_secs_f64(plan.seconds / epochs as f64);
    let max_per_epoch = plan.max_rounds.max(1).div_ceil(epochs);
    let mut seconds = vec![Vec::new(); n];
    let mut first: Option<Warmed> = None;
    let mut round = 0;
    let mut epoch_of = Vec::new();
    for epoch in 0..epochs {
        let (mut servers, host, warm, memory) = start_all(exe, workload, &tasks, plan.warm_malloc)?;
        let start = Instant::now();
        for in_epoch in 0..max_per_epoch {
            if in_epoch >= per_epoch && start.elapsed() >= budget {
                break;
            }
            for i in order(n, round) {
                let (s, local) = host[i];
                seconds[i].push(servers[s].sample(local)?);
            }
            epoch_of.push(epoch);
            round += 1;
        }
        for server in servers {
            server.quit()?;
        }
        // The first epoch's warm-up is the row's (checksum, memory, pid); later epochs
        // must build the same.
        match &first {
            None => first = Some((warm, memory)),
            Some((w, _)) => {
                if let Some(((a, _), (b, _))) =
                    w.iter().zip(&warm).find(|((a, _), (b, _))| a.checksum != b.checksum)
                {
                    return Err(format!(
                        "{}: {} built checksum {} in one child and {} in another",
                        workload.id, a.contender, a.checksum, b.checksum
                    ));
                }
            }
        }
    }
    let Some((warm, memory)) = first else { unreachable!("at least one epoch ran") };
    Ok(Measured { warm, seconds, epoch_of, memory })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_round_asks_every_contender_once_in_a_rotating_order() {
        for n in 1..6 {
            for round in 0..12 {
                let mut o = order(n, round);
                o.sort_unstable();
                assert_eq!(o, (0..n).collect::<Vec<_>>(), "n {n} round {round}");
            }
        }
        assert_eq!(order(3, 0), [0, 1, 2]);
        assert_eq!(order(3, 1), [2, 1, 0]);
        assert_eq!(order(3, 2), [1, 2, 0]);
        assert_eq!(order(3, 3), [0, 2, 1]);
        // Over 2n rounds, each contender comes first and last.
        let n = 4;
        let firsts: std::collections::BTreeSet<usize> =
            (0..2 * n).map(|r| order(n, r)[0]).collect();
        assert_eq!(firsts.len(), n);
    }
}
