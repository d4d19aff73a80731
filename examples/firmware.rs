//! A device's command loop with no heap: each message a UART delivers is handled in a
//! scope over a fixed RAM buffer (`BufferBlockPool`), the sessions of its clients live in
//! a keyed pool over fixed storage, kept in the device's state between messages
//! (`FixedKeyPool`, four at most, the capacity `#[arena(capacity = 4)]` gives the
//! session's storage type), every register write is logged as a row of a
//! struct-of-arrays vector over fixed storage (`ColumnVec::in_storage`: a column of
//! registers and one of values, eight rows at most, scanned one column at a time), the
//! watches clients set on registers are a struct-of-arrays pool over fixed storage
//! (`#[arena(soa, capacity = 4)]`: each write scans the register and limit columns of
//! every watch), and each reply goes out through a fixed transmit buffer. Nothing here allocates: the binary's global allocator
//! counts the calls made while messages are handled, and the loop checks there were none.
//!
//! The commands: `READ r`, `WRITE r v` (the reply counts the watches it fired), `WATCH r
//! limit` (fires when a write takes register `r` past `limit`), `UNWATCH r`, `STATS` (the
//! writes logged, their largest value and how many registers they touched), `AVG a b
//! ...`, `ECHO words...`, and `LOGIN`,
//! `PING token`, `LOGOUT token` for sessions, whose token is the session's key as 16 hex
//! digits: a token from a closed session, or made up, names no session (the key's
//! generation is checked). A message too big for the RAM left gets `ERR busy`, a fifth
//! session `ERR full` (a `try_` call failing, never a panic or a `malloc`); each
//! message's scope gives its blocks back when the reply is sent, and a guard in the
//! scope (a destructor) switches the activity LED off again.
//!
//! On a microcontroller the same code runs with `arena-kit = { default-features = false }`
//! (`cargo build -p arena-kit --no-default-features --target thumbv7em-none-eabihf`
//! builds the crate so); here it runs on the host. `cargo run --example firmware`;
//! `cargo test --example firmware`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt::Write as _;
use std::mem::MaybeUninit;

use arena_kit::pool::soa::{ColumnStorage, ColumnVec};
use arena_kit::pool::{Fixed, FixedKeyPool, KeyData};
use arena_kit::{ArenaAlloc, ArenaString, ArenaVec, BufferBlockPool, PoolKey, Scope};

/// The system allocator, counting this thread's calls.
struct Counting;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

thread_local! {
    static HEAP_CALLS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    let _ = HEAP_CALLS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call goes to `System` unchanged; `count` touches a const-initialised
// thread local without a destructor, which allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded from the caller.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count();
        // SAFETY: forwarded from the caller.
        unsafe { System.dealloc(ptr, layout) }
    }
}

fn heap_calls() -> u64 {
    HEAP_CALLS.with(Cell::get)
}

/// The device: eight 16-bit registers and an activity LED (hardware state: written
/// through shared references, as memory-mapped registers are).
struct Device {
    registers: [Cell<u16>; 8],
    led_on: Cell<bool>,
    led_flashes: Cell<u32>,
}

/// Switches the LED on while a message is handled, and off when its scope ends: a value
/// with a destructor, dropped by the scope.
struct Activity<'d>(&'d Device);

impl<'d> Activity<'d> {
    fn start(device: &'d Device) -> Self {
        device.led_on.set(true);
        device.led_flashes.set(device.led_flashes.get() + 1);
        Activity(device)
    }
}

impl Drop for Activity<'_> {
    fn drop(&mut self) {
        self.0.led_on.set(false);
    }
}

/// The UART's transmit buffer: replies are copied in, one per line, until it is full.
struct Transmit {
    bytes: [u8; 512],
    len: usize,
}

impl Transmit {
    fn send(&mut self, reply: &str) {
        let room = self.bytes.len() - self.len;
        let n = (reply.len() + 1).min(room);
        if n == 0 {
            return;
        }
        self.bytes[self.len..self.len + n - 1].copy_from_slice(&reply.as_bytes()[..n - 1]);
        self.bytes[self.len + n - 1] = b'\n';
        self.len += n;
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("<not UTF-8>")
    }
}

/// A client's session: how many pings it sent. The device takes four clients at most,
/// chosen here: the derive names the storage for four, `SessionStorage`.
#[derive(ArenaAlloc)]
#[arena(capacity = 4)]
struct Session {
    pings: u32,
}

arena_kit::new_key_type! {
    /// A session's key: what its token is the hex digits of.
    struct SessionId;
}

/// A watch on a register: a write that takes it past `limit` fires it. Four at most, one
/// column per field, so a write scans two small arrays of all the watches.
#[derive(ArenaAlloc)]
#[arena(soa, capacity = 4)]
struct Watch {
    register: u8,
    limit: u16,
    fired: u32,
}

/// The watches, over their storage for the whole loop.
type Watches<'id, 's> = WatchPool<'id, Fixed<'s>>;

/// Counts a write of `value` to `register` in every watch it fires; returns how many.
fn fire(watches: &mut Watches<'_, '_>, register: u8, value: u16) -> usize {
    let WatchColumnsMut { register: registers, limit, fired } = watches.columns_mut();
    let mut count = 0;
    for ((&r, &limit), fired) in registers.iter().zip(limit.iter()).zip(fired) {
        if r == register && value > limit {
            *fired += 1;
            count += 1;
        }
    }
    count
}

/// The write log's columns: the register written, and the value.
type WriteRow = (u8, (u16, ()));

/// Room for eight logged writes, set aside at start-up.
type WriteLogStorage = ColumnStorage<WriteRow, 8>;

/// The device's state between messages, in memory set aside for it at start-up: the
/// sessions, as a keyed pool over that storage, and the write log, a column per field
/// over its own (no closure around the loop: both are fields, and their types carry
/// the storages' lifetimes).
struct State<'s> {
    sessions: FixedKeyPool<'s, Session, SessionId>,
    writes: ColumnVec<WriteRow, Fixed<'s>>,
}

/// The session a token names: parsed, never trusted.
fn session(state: &State<'_>, token: Option<&&str>) -> Result<SessionId, &'static str> {
    let raw = token.and_then(|t| u64::from_str_radix(t, 16).ok()).ok_or("bad token")?;
    let key = SessionId::from(KeyData::from_raw(raw));
    if state.sessions.contains_key(key) { Ok(key) } else { Err("no session") }
}

/// Handles one message in `scope`, returning the reply (in the scope too).
fn handle<'s>(
    scope: &'s Scope<'_>,
    device: &Device,
    state: &mut State<'_>,
    watches: &mut Watches<'_, '_>,
    message: &str,
) -> Result<ArenaString<'s>, &'static str> {
    let mut words: ArenaVec<'_, &str> = ArenaVec::new_in(scope);
    for word in message.split_whitespace() {
        words.try_push(word).map_err(|_| "busy")?;
    }
    let number = |i: usize| -> Result<u16, &'static str> {
        words.get(i).ok_or("missing argument")?.parse().map_err(|_| "not a number")
    };
    let mut reply = ArenaString::new_in(scope);
    match words.first().copied() {
        Some("READ") => {
            let r = usize::from(number(1)?);
            let value = device.registers.get(r).ok_or("no such register")?.get();
            write!(reply, "R{r}={value}").map_err(|_| "busy")?;
        }
        Some("WRITE") => {
            let (r, value) = (usize::from(number(1)?), number(2)?);
            device.registers.get(r).ok_or("no such register")?.set(value);
            let register = u8::try_from(r).map_err(|_| "no such register")?;
            // A full log refuses the row (handed back, dropped here); the write stands.
            let logged = state.writes.try_push((register, (value, ()))).is_ok();
            reply.try_push_str(if logged { "OK" } else { "OK, log full" }).map_err(|_| "busy")?;
            let fired = fire(watches, register, value);
            if fired > 0 {
                write!(reply, " FIRED {fired}").map_err(|_| "busy")?;
            }
        }
        Some("WATCH") => {
            let (r, limit) = (number(1)?, number(2)?);
            let register = u8::try_from(r).ok().filter(|&r| usize::from(r) < 8);
            let register = register.ok_or("no such register")?;
            // A full pool hands the watch back: the client hears `ERR full`.
            watches.try_insert_keyed(Watch { register, limit, fired: 0 }).map_err(|_| "full")?;
            write!(reply, "WATCHING {}", watches.len()).map_err(|_| "busy")?;
        }
        Some("UNWATCH") => {
            let r = number(1)?;
            let before = watches.len();
            watches.retain(|_, watch| u16::from(*watch.register) != r);
            write!(reply, "UNWATCHED {}", before - watches.len()).map_err(|_| "busy")?;
        }
        Some("STATS") => {
            // Each figure scans one column: the values for the largest, the registers
            // for which were touched.
            let (registers, (values, ())) = state.writes.slices();
            let touched = registers.iter().fold(0_u8, |seen, &r| seen | 1 << r);
            let largest = values.iter().copied().max().unwrap_or(0);
            write!(reply, "WRITES={} MAX={largest} REGS={}", values.len(), touched.count_ones())
                .map_err(|_| "busy")?;
        }
        Some("AVG") => {
            // The arguments, parsed into the scope: a slice that lives for this message.
            let values = scope
                .try_alloc_slice_fill_with(words.len() - 1, |i| number(i + 1).unwrap_or(0))
                .map_err(|_| "busy")?;
            if values.is_empty() {
                return Err("missing argument");
            }
            let sum: u32 = values.iter().map(|&v| u32::from(v)).sum();
            let count = u32::try_from(values.len()).map_err(|_| "busy")?;
            write!(reply, "AVG={}", sum / count).map_err(|_| "busy")?;
        }
        Some("ECHO") => {
            for (i, word) in words.iter().skip(1).enumerate() {
                if i > 0 {
                    reply.try_push(' ').map_err(|_| "busy")?;
                }
                reply.try_push_str(word).map_err(|_| "busy")?;
            }
        }
        Some("LOGIN") => {
            let key = state.sessions.try_insert(Session { pings: 0 }).map_err(|_| "full")?;
            write!(reply, "TOKEN {:016x}", key.data().to_raw()).map_err(|_| "busy")?;
        }
        Some("PING") => {
            let key = session(state, words.get(1))?;
            let pings = state.sessions.get_mut(key).map(|s| {
                s.pings += 1;
                s.pings
            });
            write!(reply, "PONG {}", pings.unwrap_or(0)).map_err(|_| "busy")?;
        }
        Some("LOGOUT") => {
            let key = session(state, words.get(1))?;
            let pings = state.sessions.remove(key).map_or(0, |s| s.pings);
            write!(reply, "BYE after {pings} pings").map_err(|_| "busy")?;
        }
        _ => return Err("unknown command"),
    }
    Ok(reply)
}

/// The command loop: one scope per message over `ram`; returns what was transmitted and
/// the heap calls made while messages were handled.
///
/// The client remembers the last token it was sent and writes it back where a message
/// says `$T`.
fn run(messages: &[&str], ram: &mut [MaybeUninit<u8>]) -> (String, Device, u64) {
    let device = Device {
        registers: Default::default(),
        led_on: Cell::new(false),
        led_flashes: Cell::new(0),
    };
    let mut tx = Transmit { bytes: [0; 512], len: 0 };
    let mut token = *b"0000000000000000";
    let mut storage = SessionStorage::new();
    let mut log = WriteLogStorage::new();
    let mut watch_storage = WatchStorage::new();
    let before = heap_calls();
    let mut state = State {
        sessions: FixedKeyPool::in_storage_with_key(&mut storage),
        writes: ColumnVec::in_storage(&mut log),
    };
    WatchPool::with_storage(&mut watch_storage, |mut watches| {
        // Four blocks of 480 bytes: a message's words, its reply and its values.
        let pool = BufferBlockPool::with_block_size(ram, 480);
        for message in messages {
            let scope = pool.scope();
            // The LED is on while the message is handled: the scope drops the guard at
            // its end, after the reply is sent.
            if scope.try_alloc(Activity::start(&device)).is_err() {
                tx.send("ERR busy");
                continue;
            }
            // The client's message as it sends it, its token written in (in the scope).
            let mut sent = ArenaString::new_in(&scope);
            let mut fits = true;
            for (i, part) in message.split("$T").enumerate() {
                if i > 0 {
                    let token = std::str::from_utf8(&token).unwrap_or("");
                    fits &= sent.try_push_str(token).is_ok();
                }
                fits &= sent.try_push_str(part).is_ok();
            }
            if !fits {
                tx.send("ERR busy");
                continue;
            }
            match handle(&scope, &device, &mut state, &mut watches, &sent) {
                Ok(reply) => {
                    if let Some(new) = reply.strip_prefix("TOKEN ") {
                        token.copy_from_slice(new.as_bytes());
                    }
                    tx.send(&reply);
                }
                Err(error) => {
                    let mut line = ArenaString::new_in(&scope);
                    let _ = write!(line, "ERR {error}");
                    tx.send(&line);
                }
            }
            // The scope ends: the LED guard drops, the blocks go back to the pool.
        }
    });
    drop(state); // the sessions and the log are dropped; their storage is free again
    let calls = heap_calls() - before;
    (tx.as_str().to_owned(), device, calls)
}

const SESSION: &[&str] = &[
    "WRITE 3 700",
    "READ 3",
    "AVG 10 20 30 40",
    "ECHO hello from the device",
    "READ 9",
    "FLY",
    "LOGIN",
    "PING $T",
    "PING $T",
    "LOGOUT $T",
    "PING $T", // the closed session's token names nothing
    "PING 00000001ffffffff",
    "WRITE 5 9",
    "STATS",
];

fn main() {
    let mut ram = [MaybeUninit::uninit(); 2048];
    let (sent, device, calls) = run(SESSION, &mut ram);
    print!("{sent}");
    println!("LED flashes: {}, heap calls while handling: {calls}", device.led_flashes.get());
}

#[test]
fn the_commands_reply_and_nothing_touches_the_heap() {
    let mut ram = [MaybeUninit::uninit(); 2048];
    let (sent, device, calls) = run(SESSION, &mut ram);
    let lines: Vec<&str> = sent.lines().collect();
    assert_eq!(
        lines[..6],
        [
            "OK",
            "R3=700",
            "AVG=25",
            "hello from the device",
            "ERR no such register",
            "ERR unknown command"
        ]
    );
    assert!(lines[6].starts_with("TOKEN "));
    assert_eq!(
        lines[7..],
        [
            "PONG 1",
            "PONG 2",
            "BYE after 2 pings",
            "ERR no session",
            "ERR no session",
            "OK",
            "WRITES=2 MAX=700 REGS=2"
        ]
    );
    assert_eq!(device.registers[3].get(), 700);
    assert_eq!(device.led_flashes.get(), 14);
    assert!(!device.led_on.get(), "every message's guard switched the LED off");
    assert_eq!(calls, 0);
}

#[test]
fn a_message_too_big_for_the_ram_is_refused_and_the_next_one_served() {
    let mut ram = [MaybeUninit::uninit(); 2048];
    let long = format!("ECHO {}", "word ".repeat(400));
    let messages = [long.as_str(), "READ 0"];
    let (sent, _, calls) = run(&messages, &mut ram);
    assert_eq!(sent.lines().collect::<Vec<_>>(), ["ERR busy", "R0=0"]);
    assert_eq!(calls, 0);
}

#[test]
fn a_fifth_session_is_refused_until_one_logs_out() {
    let mut ram = [MaybeUninit::uninit(); 2048];
    let messages = ["LOGIN", "LOGIN", "LOGIN", "LOGIN", "LOGIN", "LOGOUT $T", "LOGIN", "PING $T"];
    let (sent, _, calls) = run(&messages, &mut ram);
    let lines: Vec<&str> = sent.lines().collect();
    assert!(lines[..4].iter().all(|l| l.starts_with("TOKEN ")));
    assert_eq!(lines[4..6], ["ERR full", "BYE after 0 pings"]);
    assert!(lines[6].starts_with("TOKEN "));
    assert_ne!(lines[6], lines[3], "the freed slot comes back under a new generation");
    assert_eq!(lines[7], "PONG 1");
    assert_eq!(calls, 0);
}

#[test]
fn a_full_write_log_keeps_the_first_eight_and_the_writes_still_land() {
    let mut ram = [MaybeUninit::uninit(); 2048];
    let writes: Vec<String> = (0..9_u16).map(|i| format!("WRITE {} {}", i % 3, 100 + i)).collect();
    let mut messages: Vec<&str> = writes.iter().map(String::as_str).collect();
    messages.extend(["STATS", "READ 2"]);
    let (sent, _, calls) = run(&messages, &mut ram);
    let lines: Vec<&str> = sent.lines().collect();
    assert_eq!(lines[..8], ["OK"; 8]);
    assert_eq!(lines[8..], ["OK, log full", "WRITES=8 MAX=107 REGS=3", "R2=108"]);
    assert_eq!(calls, 0);
}

#[test]
fn watches_fire_on_the_writes_past_their_limits() {
    let mut ram = [MaybeUninit::uninit(); 2048];
    let messages = [
        "WATCH 1 100",
        "WATCH 1 500",
        "WATCH 2 0",
        "WATCH 9 0",
        "WRITE 1 300",
        "WRITE 1 600",
        "WRITE 3 600",
        "WATCH 3 10",
        "WATCH 3 20",
        "UNWATCH 1",
        "WRITE 1 900",
        "WRITE 2 1",
    ];
    let (sent, _, calls) = run(&messages, &mut ram);
    let lines: Vec<&str> = sent.lines().collect();
    assert_eq!(
        lines,
        [
            "WATCHING 1",
            "WATCHING 2",
            "WATCHING 3",
            "ERR no such register",
            "OK FIRED 1",
            "OK FIRED 2",
            "OK",
            "WATCHING 4",
            "ERR full",
            "UNWATCHED 2",
            "OK",
            "OK FIRED 1"
        ]
    );
    assert_eq!(calls, 0);
}
