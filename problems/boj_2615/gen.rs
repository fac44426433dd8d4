//! Generator for boj_2615 ("Omok"): one 19 x 19 board per invocation.
//!
//! Usage: `gen SEED [KEY=VALUE ...]`. Prints 19 lines of 19 numbers (`0` empty, `1` black,
//! `2` white) separated by single spaces. The same arguments always give the same bytes:
//! the PRNG is splitmix64, seeded from SEED mixed with the other arguments.
//!
//! The board is built from a plan (the planted runs, with the cells just before and after
//! each run fixed too) plus random filler stones on the free cells. A checker lists every
//! exact five on the board; a board whose fives are not exactly the intended ones (none, or
//! the planted five) is rejected and redrawn, with fewer filler stones each time. So the
//! input is always valid: never two winners, never one colour winning in two places.
//!
//! Keys:
//! - `kind=...` (default `five`):
//!   - `five`: one winning five; each cell just beyond its ends is empty or the other colour;
//!   - `capped`: one winning five whose both neighbours (where on the board) are the other
//!     colour;
//!   - `six`, `seven`, `long`: a run of 6, 7, or `len` (default: random 8..=19) stones of
//!     one colour, which is not a win; no five anywhere (answer 0);
//!   - `five_and_six`: a winning five plus a run of six (see `layout`, `partner`);
//!   - `none`: decoys (fours, fives with a hole, sixes) and filler, no five (answer 0);
//!   - `random`: filler only; at most one five (either answer);
//!   - `any`: one of the above, drawn from SEED (for `judge stress`).
//! - `color=1|2`: colour of the planted run (default random). Not for `none` / `random`.
//! - `dir=right|down|down_right|up_right`: direction of the planted run (default random
//!   among those that can meet `at`). `up_right` runs go up and to the right.
//! - `at=any|top|bottom|left|right|top_left|top_right|bottom_left|bottom_right|interior`
//!   (default `any`): an edge means some stone of the planted run lies on that edge; a
//!   corner means the run holds that corner cell; `interior` means no stone on any edge.
//!   `down_right` runs can only hold the top-left / bottom-right corners, `up_right` runs
//!   the bottom-left / top-right ones.
//! - `row=R col=C` (1..=19, both or neither): the planted run's first stone (the one the
//!   answer reports: leftmost; topmost for `down`; lowest-left for `up_right`).
//! - `len=L` (`long` only, 8..=19).
//! - `layout=gap|parallel|cross|random` (`five_and_six` only, default `random`): the six is
//!   on the five's line beyond a gap of 0..=2 cells (`gap`), on an adjacent parallel line
//!   (`parallel`), or crosses it in another direction (`cross`: through one of the five's
//!   stones, or for `partner=other` through the cell just beyond one of its ends).
//! - `partner=same|other` (`five_and_six` only, default `same`): the six's colour.
//! - `density=P` (0..=60): percent of free cells given filler stones at the first try
//!   (default random, 10..=45).
//!
//! Unknown keys, repeated keys, bad values or impossible combinations: a message on stderr
//! and exit code 2.

use std::io::{self, Write};
use std::process;

const N: i32 = 19;

const USAGE: &str = "usage: gen SEED [kind=five|capped|six|seven|long|five_and_six|none|random] \
                     [color=1|2] [dir=right|down|down_right|up_right] [at=...] [row=R col=C] \
                     [len=L] [layout=gap|parallel|cross|random] [partner=same|other] \
                     [density=P]";

fn fail(message: &str) -> ! {
    eprintln!("gen: {message}");
    eprintln!("{USAGE}");
    process::exit(2);
}

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// FNV-1a, to mix the key=value arguments into the seed.
fn fnv1a(text: &str) -> u64 {
    let mut hash = 0xCBF2_9CE4_8422_2325_u64;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01B3);
    }
    hash
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Five,
    Capped,
    Six,
    Seven,
    Long,
    FiveAndSix,
    None,
    Random,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dir {
    Right,
    Down,
    DownRight,
    UpRight,
}

const DIRS: [Dir; 4] = [Dir::Right, Dir::Down, Dir::DownRight, Dir::UpRight];

impl Dir {
    fn step(self) -> (i32, i32) {
        match self {
            Dir::Right => (0, 1),
            Dir::Down => (1, 0),
            Dir::DownRight => (1, 1),
            Dir::UpRight => (-1, 1),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Any,
    Top,
    Bottom,
    Left,
    Right,
    TopLeft,
    TopRight,
    BottomLeft,
    BottomRight,
    Interior,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    Gap,
    Parallel,
    Cross,
}

type Cell = (i32, i32);
type Board = [[u8; 19]; 19];
/// Planted cells: `Some(value)` is fixed, `None` is free for filler stones.
type Plan = [[Option<u8>; 19]; 19];

fn on_board((row, col): Cell) -> bool {
    (0..N).contains(&row) && (0..N).contains(&col)
}

fn offset((row, col): Cell, dir: Dir, k: i32) -> Cell {
    let (dr, dc) = dir.step();
    (row + k * dr, col + k * dc)
}

fn run_cells(start: Cell, dir: Dir, len: i32) -> Vec<Cell> {
    (0..len).map(|k| offset(start, dir, k)).collect()
}

fn at_ok(cells: &[Cell], at: At) -> bool {
    let last = N - 1;
    let any = |f: &dyn Fn(&Cell) -> bool| cells.iter().any(f);
    match at {
        At::Any => true,
        At::Top => any(&|c| c.0 == 0),
        At::Bottom => any(&|c| c.0 == last),
        At::Left => any(&|c| c.1 == 0),
        At::Right => any(&|c| c.1 == last),
        At::TopLeft => cells.contains(&(0, 0)),
        At::TopRight => cells.contains(&(0, last)),
        At::BottomLeft => cells.contains(&(last, 0)),
        At::BottomRight => cells.contains(&(last, last)),
        At::Interior => !any(&|c| c.0 == 0 || c.0 == last || c.1 == 0 || c.1 == last),
    }
}

/// Every start cell of a run of `len` in `dir` that lies on the board and meets `at` (and
/// equals `fixed` if given), in row-major order.
fn starts(dir: Dir, len: i32, at: At, fixed: Option<Cell>) -> Vec<Cell> {
    let mut found = Vec::new();
    for row in 0..N {
        for col in 0..N {
            if fixed.is_some_and(|cell| cell != (row, col)) {
                continue;
            }
            let cells = run_cells((row, col), dir, len);
            if cells.iter().all(|&c| on_board(c)) && at_ok(&cells, at) {
                found.push((row, col));
            }
        }
    }
    found
}

/// A planted run of stones.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Run {
    colour: u8,
    start: Cell,
    dir: Dir,
    len: i32,
}

fn other(colour: u8) -> u8 {
    3 - colour
}

/// Puts a stone of `colour` on `cell`; false if the plan already holds something else.
fn set_stone(plan: &mut Plan, (row, col): Cell, colour: u8) -> bool {
    if !on_board((row, col)) {
        return false;
    }
    let slot = &mut plan[row as usize][col as usize];
    match *slot {
        None => {
            *slot = Some(colour);
            true
        }
        Some(value) => value == colour,
    }
}

/// Makes `cell` anything but `colour` (`value` if still free); off the board is fine.
fn set_end(plan: &mut Plan, (row, col): Cell, colour: u8, value: u8) -> bool {
    if !on_board((row, col)) {
        return true;
    }
    let slot = &mut plan[row as usize][col as usize];
    match *slot {
        None => {
            *slot = Some(value);
            true
        }
        Some(existing) => existing != colour,
    }
}

/// Plants the run's stones, then its two end cells (`ends` = values before, after).
fn plant(plan: &mut Plan, run: Run, ends: [u8; 2]) -> bool {
    for cell in run_cells(run.start, run.dir, run.len) {
        if !set_stone(plan, cell, run.colour) {
            return false;
        }
    }
    set_end(plan, offset(run.start, run.dir, -1), run.colour, ends[0])
        && set_end(
            plan,
            offset(run.start, run.dir, run.len),
            run.colour,
            ends[1],
        )
}

/// Empty or the other colour, at random.
fn random_end(rng: &mut Rng, colour: u8) -> u8 {
    if rng.below(2) == 0 {
        0
    } else {
        other(colour)
    }
}

fn random_ends(rng: &mut Rng, colour: u8) -> [u8; 2] {
    [random_end(rng, colour), random_end(rng, colour)]
}

/// Every exact five on the board, as runs, in row-major order of their first stone.
fn fives(board: &Board) -> Vec<Run> {
    let at = |cell: Cell| {
        if on_board(cell) {
            board[cell.0 as usize][cell.1 as usize]
        } else {
            0
        }
    };
    let mut found = Vec::new();
    for row in 0..N {
        for col in 0..N {
            let colour = at((row, col));
            if colour == 0 {
                continue;
            }
            for dir in DIRS {
                let five = (0..5).all(|k| at(offset((row, col), dir, k)) == colour);
                if five
                    && at(offset((row, col), dir, -1)) != colour
                    && at(offset((row, col), dir, 5)) != colour
                {
                    found.push(Run {
                        colour,
                        start: (row, col),
                        dir,
                        len: 5,
                    });
                }
            }
        }
    }
    found
}

fn board_of(plan: &Plan) -> Board {
    let mut board = [[0u8; 19]; 19];
    for row in 0..19 {
        for col in 0..19 {
            board[row][col] = plan[row][col].unwrap_or(0);
        }
    }
    board
}

/// The settings after parsing and validating the arguments.
struct Settings {
    kind: Kind,
    colour: Option<u8>,
    dir: Option<Dir>,
    at: At,
    start: Option<Cell>,
    len: Option<i32>,
    layout: Option<Layout>,
    same_partner: bool,
    density: Option<usize>,
}

fn parse_args(args: &[String]) -> Settings {
    let mut settings = Settings {
        kind: Kind::Five,
        colour: None,
        dir: None,
        at: At::Any,
        start: None,
        len: None,
        layout: None,
        same_partner: true,
        density: None,
    };
    let mut seen: Vec<&str> = Vec::new();
    let mut row = None;
    let mut col = None;
    let number = |key: &str, value: &str, low: i32, high: i32| match value.parse::<i32>() {
        Ok(n) if (low..=high).contains(&n) => n,
        _ => fail(&format!(
            "{key}={value}: expected a number in {low}..={high}"
        )),
    };
    for arg in args {
        let Some((key, value)) = arg.split_once('=') else {
            fail(&format!("expected KEY=VALUE, got {arg:?}"));
        };
        if seen.contains(&key) {
            fail(&format!("key {key:?} given twice"));
        }
        seen.push(key);
        let bad = || -> ! { fail(&format!("bad value for {key}: {value:?}")) };
        match key {
            "kind" => {
                settings.kind = match value {
                    "five" => Kind::Five,
                    "capped" => Kind::Capped,
                    "six" => Kind::Six,
                    "seven" => Kind::Seven,
                    "long" => Kind::Long,
                    "five_and_six" => Kind::FiveAndSix,
                    "none" => Kind::None,
                    "random" => Kind::Random,
                    _ => bad(),
                }
            }
            "color" => {
                settings.colour = match value {
                    "1" => Some(1),
                    "2" => Some(2),
                    _ => bad(),
                }
            }
            "dir" => {
                settings.dir = match value {
                    "right" => Some(Dir::Right),
                    "down" => Some(Dir::Down),
                    "down_right" => Some(Dir::DownRight),
                    "up_right" => Some(Dir::UpRight),
                    _ => bad(),
                }
            }
            "at" => {
                settings.at = match value {
                    "any" => At::Any,
                    "top" => At::Top,
                    "bottom" => At::Bottom,
                    "left" => At::Left,
                    "right" => At::Right,
                    "top_left" => At::TopLeft,
                    "top_right" => At::TopRight,
                    "bottom_left" => At::BottomLeft,
                    "bottom_right" => At::BottomRight,
                    "interior" => At::Interior,
                    _ => bad(),
                }
            }
            "row" => row = Some(number(key, value, 1, N) - 1),
            "col" => col = Some(number(key, value, 1, N) - 1),
            "len" => settings.len = Some(number(key, value, 8, N)),
            "layout" => {
                settings.layout = match value {
                    "gap" => Some(Layout::Gap),
                    "parallel" => Some(Layout::Parallel),
                    "cross" => Some(Layout::Cross),
                    "random" => None,
                    _ => bad(),
                }
            }
            "partner" => {
                settings.same_partner = match value {
                    "same" => true,
                    "other" => false,
                    _ => bad(),
                }
            }
            "density" => settings.density = Some(number(key, value, 0, 60) as usize),
            _ => fail(&format!("unknown key {key:?}")),
        }
    }
    settings.start = match (row, col) {
        (Some(row), Some(col)) => Some((row, col)),
        (None, None) => None,
        _ => fail("row and col go together"),
    };
    let planted = !matches!(settings.kind, Kind::None | Kind::Random);
    for key in &seen {
        let allowed = match *key {
            "color" | "dir" | "at" | "row" | "col" => planted,
            "len" => settings.kind == Kind::Long,
            "layout" | "partner" => settings.kind == Kind::FiveAndSix,
            _ => true,
        };
        if !allowed {
            fail(&format!("key {key:?} does not apply to this kind"));
        }
    }
    settings
}

/// Length of the planted run for the kind; `long` without `len` gets `None`.
fn run_length(settings: &Settings) -> Option<i32> {
    match settings.kind {
        Kind::Five | Kind::Capped | Kind::FiveAndSix => Some(5),
        Kind::Six => Some(6),
        Kind::Seven => Some(7),
        Kind::Long => settings.len,
        Kind::None | Kind::Random => None,
    }
}

/// The (direction, length) pairs the planted run can take, given `dir`, `len`, `at`, start.
fn run_shapes(settings: &Settings) -> Vec<(Dir, i32)> {
    let lens: Vec<i32> = match run_length(settings) {
        Some(len) => vec![len],
        None => (8..=N).collect(),
    };
    let mut shapes = Vec::new();
    for dir in DIRS {
        if settings.dir.is_some_and(|wanted| wanted != dir) {
            continue;
        }
        for &len in &lens {
            if !starts(dir, len, settings.at, settings.start).is_empty() {
                shapes.push((dir, len));
            }
        }
    }
    shapes
}

/// Places the partner six of `five` according to `layout`; false on a conflict.
fn plant_partner(rng: &mut Rng, plan: &mut Plan, five: Run, layout: Layout, same: bool) -> bool {
    let colour = if same {
        five.colour
    } else {
        other(five.colour)
    };
    let ends = random_ends(rng, colour);
    let six = match layout {
        Layout::Gap => {
            let gap = if same {
                1 + rng.below(2) as i32
            } else {
                rng.below(3) as i32
            };
            let start = if rng.below(2) == 0 {
                offset(five.start, five.dir, 5 + gap)
            } else {
                offset(five.start, five.dir, -gap - 6)
            };
            Run {
                colour,
                start,
                dir: five.dir,
                len: 6,
            }
        }
        Layout::Parallel => {
            let sides: &[Cell] = match five.dir {
                Dir::Right => &[(-1, 0), (1, 0)],
                Dir::Down => &[(0, -1), (0, 1)],
                Dir::DownRight | Dir::UpRight => &[(-1, 0), (1, 0), (0, -1), (0, 1)],
            };
            let side = rng.pick(sides);
            let shift = rng.below(6) as i32 - 3;
            let base = offset(five.start, five.dir, shift);
            Run {
                colour,
                start: (base.0 + side.0, base.1 + side.1),
                dir: five.dir,
                len: 6,
            }
        }
        Layout::Cross => {
            let through = if same {
                offset(five.start, five.dir, rng.below(5) as i32)
            } else if rng.below(2) == 0 {
                offset(five.start, five.dir, -1)
            } else {
                offset(five.start, five.dir, 5)
            };
            let dirs: Vec<Dir> = DIRS.iter().copied().filter(|&d| d != five.dir).collect();
            let dir = rng.pick(&dirs);
            Run {
                colour,
                start: offset(through, dir, -(rng.below(6) as i32)),
                dir,
                len: 6,
            }
        }
    };
    plant(plan, six, ends)
}

/// Decoys for `kind=none`: fours, fives with a hole, sixes, none of them a win.
fn plant_decoys(rng: &mut Rng, plan: &mut Plan) -> bool {
    let decoys = 1 + rng.below(4);
    for _ in 0..decoys {
        let colour = 1 + rng.below(2) as u8;
        let dir = rng.pick(&DIRS);
        let start = (rng.below(19) as i32, rng.below(19) as i32);
        let ends = random_ends(rng, colour);
        let ok = match rng.below(3) {
            0 => plant(
                plan,
                Run {
                    colour,
                    start,
                    dir,
                    len: 4,
                },
                ends,
            ),
            1 => {
                // Six cells with one hole inside: e.g. 1 1 0 1 1 1.
                let hole = 1 + rng.below(4) as i32;
                let hole_value = random_end(rng, colour);
                let mut ok = set_end(plan, offset(start, dir, hole), colour, hole_value);
                for k in (0..6).filter(|&k| k != hole) {
                    ok = ok && set_stone(plan, offset(start, dir, k), colour);
                }
                ok && set_end(plan, offset(start, dir, -1), colour, ends[0])
                    && set_end(plan, offset(start, dir, 6), colour, ends[1])
            }
            _ => plant(
                plan,
                Run {
                    colour,
                    start,
                    dir,
                    len: 6,
                },
                ends,
            ),
        };
        if !ok {
            return false;
        }
    }
    true
}

/// Builds the plan for one attempt: the planted cells and the fives the board must hold.
fn build_plan(
    rng: &mut Rng,
    settings: &Settings,
    shapes: &[(Dir, i32)],
) -> Option<(Plan, Vec<Run>)> {
    let mut plan: Plan = [[None; 19]; 19];
    match settings.kind {
        Kind::Random => return Some((plan, Vec::new())),
        Kind::None => return plant_decoys(rng, &mut plan).then_some((plan, Vec::new())),
        _ => {}
    }
    let (dir, len) = rng.pick(shapes);
    let start = rng.pick(&starts(dir, len, settings.at, settings.start));
    let colour = settings.colour.unwrap_or_else(|| 1 + rng.below(2) as u8);
    let run = Run {
        colour,
        start,
        dir,
        len,
    };
    let ends = if settings.kind == Kind::Capped {
        [other(colour); 2]
    } else {
        random_ends(rng, colour)
    };
    if settings.kind == Kind::FiveAndSix {
        // The six goes first so that, with `partner=other`, it may cap the five.
        let layout = settings
            .layout
            .unwrap_or_else(|| rng.pick(&[Layout::Gap, Layout::Parallel, Layout::Cross]));
        if !plant_partner(rng, &mut plan, run, layout, settings.same_partner) {
            return None;
        }
    }
    if !plant(&mut plan, run, ends) {
        return None;
    }
    let expected = if len == 5 { vec![run] } else { Vec::new() };
    Some((plan, expected))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(seed_text) = args.first() else {
        fail("missing SEED");
    };
    let Ok(seed) = seed_text.parse::<u64>() else {
        fail(&format!(
            "SEED must be a non-negative integer, got {seed_text:?}"
        ));
    };
    // `kind=any` draws the kind from the seed: stress runs then see every shape.
    const KINDS: [&str; 8] = [
        "five",
        "capped",
        "six",
        "seven",
        "long",
        "five_and_six",
        "none",
        "random",
    ];
    let args: Vec<String> = args
        .iter()
        .map(|arg| match arg.as_str() {
            "kind=any" => format!("kind={}", KINDS[(seed % KINDS.len() as u64) as usize]),
            _ => arg.clone(),
        })
        .collect();
    let settings = parse_args(&args[1..]);
    let planted = !matches!(settings.kind, Kind::None | Kind::Random);
    let shapes = if planted {
        run_shapes(&settings)
    } else {
        Vec::new()
    };
    if planted && shapes.is_empty() {
        fail("no run of this kind fits the given dir / at / row / col");
    }
    let mut rng = Rng(seed ^ fnv1a(&args[1..].join(" ")));
    let density = settings.density.unwrap_or_else(|| 10 + rng.below(36));

    for _ in 0..10_000 {
        let Some((plan, expected)) = build_plan(&mut rng, &settings, &shapes) else {
            continue;
        };
        let acceptable = |found: &[Run]| {
            if settings.kind == Kind::Random {
                found.len() <= 1
            } else {
                found == expected.as_slice()
            }
        };
        if !acceptable(&fives(&board_of(&plan))) {
            continue;
        }
        // Filler: fewer stones at each try; the last try adds none, so this always ends.
        const TRIES: usize = 40;
        for attempt in 0..TRIES {
            let percent = density * (TRIES - 1 - attempt) / (TRIES - 1);
            let mut board = board_of(&plan);
            for row in 0..19 {
                for col in 0..19 {
                    if plan[row][col].is_none() && rng.below(100) < percent {
                        board[row][col] = 1 + rng.below(2) as u8;
                    }
                }
            }
            if acceptable(&fives(&board)) {
                let mut out = String::new();
                for row in &board {
                    let cells: Vec<String> = row.iter().map(|v| v.to_string()).collect();
                    out.push_str(&cells.join(" "));
                    out.push('\n');
                }
                io::stdout()
                    .lock()
                    .write_all(out.as_bytes())
                    .expect("write stdout");
                return;
            }
        }
    }
    fail("could not build a board for these arguments");
}
