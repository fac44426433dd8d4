//! Generator for swea_11545 ("Tic-Tac-Toe-Tomek").
//!
//! Usage: `gen SEED [KEY=VALUE ...]`. Prints one input file to stdout: the number of boards,
//! then each board as 4 lines of 4 characters followed by one blank line (as the original
//! data). The same arguments always give the same bytes: the PRNG is splitmix64, seeded
//! from SEED mixed with the other arguments.
//!
//! Every board is one the statement allows: at most one `T`, and a state reached by play (X
//! and O alternate, X first, and the game stops at the first win; see `legal`). A board
//! that is not is redrawn, so each kind below holds only such boards.
//!
//! Keys:
//! - `count=N` (1..=100000, default 100): number of boards.
//! - `kind=...` (default `mixed`):
//!   - `win`: board k (0-based) is a win of player k % 2 on line (k / 2) % 10 (rows,
//!     columns, main diagonal, anti-diagonal) with `T` at position (k / 20) % 5 of the line
//!     (4 = no `T` on it), so 100 boards cover every player x line x `T` position; the other
//!     cells are random (sometimes full, sometimes with a `T` elsewhere);
//!   - `tomek`: exactly one `T`, with a line through it holding three of one player (a win)
//!     or two of one player and something else (no win through it);
//!   - `blocked`: board k has a near-win of player k % 2 on line (k / 2) % 10, blocked by
//!     the other player at position (k / 20) % 4 of the line; on odd (k / 80) one of the
//!     player's three marks is a `T`; no one has won (full boards are draws);
//!   - `draw`: full boards (8 + 8 marks, or 8 + 7 and a `T`) where no one has won;
//!   - `open`: boards with at least one `.` where no one has won;
//!   - `uniform`: cells uniformly over `X`, `O`, `.` (and at most one `T`);
//!   - `mixed`: each board picks one of the above.
//!
//! Unknown keys, repeated keys or bad values: a message on stderr and exit code 2.

use std::io::{self, Write};
use std::process;

type Board = [u8; 16];

const USAGE: &str = "usage: gen SEED [count=N] [kind=mixed|win|tomek|blocked|draw|open|uniform]";

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

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
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

#[derive(Clone, Copy)]
enum Kind {
    Mixed,
    Win,
    Tomek,
    Blocked,
    Draw,
    Open,
    Uniform,
}

/// The ten lines as cell indices (row * 4 + column): rows, columns, two diagonals.
const LINES: [[usize; 4]; 10] = [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [8, 9, 10, 11],
    [12, 13, 14, 15],
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
    [0, 5, 10, 15],
    [3, 6, 9, 12],
];

const PLAYERS: [u8; 2] = [b'X', b'O'];

fn other(player: u8) -> u8 {
    if player == b'X' {
        b'O'
    } else {
        b'X'
    }
}

fn has_won(board: &Board, player: u8) -> bool {
    LINES.iter().any(|line| {
        line.iter()
            .all(|&cell| board[cell] == player || board[cell] == b'T')
    })
}

fn count(board: &Board, symbol: u8) -> usize {
    board.iter().filter(|&&cell| cell == symbol).count()
}

/// Whether play reaches the board: the counts fit whoever moved last (X = O + 1 after X, X = O
/// after O), nobody else has won, and all of the winner's lines share one of its stones (its
/// last, before which nobody had won).
fn legal(board: &Board) -> bool {
    let (x, o) = (count(board, b'X'), count(board, b'O'));
    let counts_fit = |last: u8| match last {
        b'X' => x == o + 1,
        _ => x == o,
    };
    if count(board, b'T') > 1 {
        return false;
    }
    match (has_won(board, b'X'), has_won(board, b'O')) {
        (true, true) => false,
        (false, false) => counts_fit(b'X') || counts_fit(b'O'),
        (true, false) => counts_fit(b'X') && one_stone_in_every_win(board, b'X'),
        (false, true) => counts_fit(b'O') && one_stone_in_every_win(board, b'O'),
    }
}

/// Whether some stone of `player` lies on every line `player` has won.
fn one_stone_in_every_win(board: &Board, player: u8) -> bool {
    let won = |line: &&[usize; 4]| {
        line.iter()
            .all(|&cell| board[cell] == player || board[cell] == b'T')
    };
    (0..16).any(|cell| {
        board[cell] == player && LINES.iter().filter(won).all(|line| line.contains(&cell))
    })
}

fn any_winner(board: &Board) -> bool {
    has_won(board, b'X') || has_won(board, b'O')
}

/// Fills every cell still 0 with `X` / `O` at random, leaving it `.` with probability
/// `empty_percent` %.
fn fill(rng: &mut Rng, board: &mut Board, empty_percent: usize) {
    for cell in board.iter_mut() {
        if *cell == 0 {
            *cell = if rng.below(100) < empty_percent {
                b'.'
            } else {
                PLAYERS[rng.below(2)]
            };
        }
    }
}

/// 0 (full board) a third of the time, otherwise 10..=60 % of the free cells empty.
fn random_empty_percent(rng: &mut Rng) -> usize {
    if rng.below(3) == 0 {
        0
    } else {
        10 + rng.below(51)
    }
}

fn win_board(rng: &mut Rng, index: usize) -> Board {
    let player = PLAYERS[index % 2];
    let line = LINES[(index / 2) % 10];
    let t_position = (index / 20) % 5;
    loop {
        let mut board = [0u8; 16];
        for (position, &cell) in line.iter().enumerate() {
            board[cell] = if position == t_position { b'T' } else { player };
        }
        if t_position == 4 && rng.below(3) == 0 {
            let free: Vec<usize> = (0..16).filter(|&cell| board[cell] == 0).collect();
            board[free[rng.below(free.len())]] = b'T';
        }
        let empty_percent = random_empty_percent(rng);
        fill(rng, &mut board, empty_percent);
        if legal(&board) {
            return board;
        }
    }
}

fn tomek_board(rng: &mut Rng) -> Board {
    loop {
        let mut board = [0u8; 16];
        let t_cell = rng.below(16);
        board[t_cell] = b'T';
        let through: Vec<&[usize; 4]> = LINES.iter().filter(|l| l.contains(&t_cell)).collect();
        let line = through[rng.below(through.len())];
        let player = PLAYERS[rng.below(2)];
        let mut rest: Vec<usize> = line.iter().copied().filter(|&c| c != t_cell).collect();
        rng.shuffle(&mut rest);
        for (i, &cell) in rest.iter().enumerate() {
            board[cell] = player;
            if i == 2 {
                board[cell] = match rng.below(4) {
                    0 | 1 => player,
                    2 => other(player),
                    _ => b'.',
                };
            }
        }
        let empty_percent = random_empty_percent(rng);
        fill(rng, &mut board, empty_percent);
        if legal(&board) {
            return board;
        }
    }
}

fn blocked_board(rng: &mut Rng, index: usize) -> Board {
    let player = PLAYERS[index % 2];
    let line = LINES[(index / 2) % 10];
    let blocker = (index / 20) % 4;
    let with_t = (index / 80) % 2 == 1;
    loop {
        let mut board = [0u8; 16];
        let mut own: Vec<usize> = (0..4).filter(|&p| p != blocker).collect();
        rng.shuffle(&mut own);
        for (position, &cell) in line.iter().enumerate() {
            board[cell] = if position == blocker {
                other(player)
            } else if with_t && position == own[0] {
                b'T'
            } else {
                player
            };
        }
        let empty_percent = random_empty_percent(rng);
        fill(rng, &mut board, empty_percent);
        if !with_t && rng.below(4) == 0 {
            // Sometimes a T elsewhere too, where it does not complete a line.
            let free: Vec<usize> = (0..16).filter(|c| !line.contains(c)).collect();
            board[free[rng.below(free.len())]] = b'T';
        }
        if legal(&board) && !any_winner(&board) {
            return board;
        }
    }
}

fn draw_board(rng: &mut Rng) -> Board {
    loop {
        let mut cells: Vec<u8> = Vec::with_capacity(16);
        let with_t = rng.below(2) == 0;
        let (first, second) = if rng.below(2) == 0 {
            (b'X', b'O')
        } else {
            (b'O', b'X')
        };
        cells.extend([first; 8]);
        cells.extend(vec![second; if with_t { 7 } else { 8 }]);
        if with_t {
            cells.push(b'T');
        }
        rng.shuffle(&mut cells);
        let mut board = [0u8; 16];
        board.copy_from_slice(&cells);
        if legal(&board) && !any_winner(&board) {
            return board;
        }
    }
}

fn open_board(rng: &mut Rng) -> Board {
    loop {
        let mut board = [0u8; 16];
        let empty = 1 + rng.below(15);
        let mut cells: Vec<usize> = (0..16).collect();
        rng.shuffle(&mut cells);
        for &cell in &cells[..empty] {
            board[cell] = b'.';
        }
        if empty < 16 && rng.below(3) == 0 {
            board[cells[empty]] = b'T';
        }
        fill(rng, &mut board, 0);
        if legal(&board) && !any_winner(&board) {
            return board;
        }
    }
}

fn uniform_board(rng: &mut Rng) -> Board {
    loop {
        let mut board = [0u8; 16];
        for cell in board.iter_mut() {
            *cell = [b'X', b'O', b'.', b'T'][rng.below(4)];
        }
        if legal(&board) {
            return board;
        }
    }
}

fn board_of(rng: &mut Rng, kind: Kind, index: usize) -> Board {
    match kind {
        Kind::Mixed => {
            let kind = match rng.below(100) {
                0..=29 => Kind::Win,
                30..=44 => Kind::Tomek,
                45..=64 => Kind::Blocked,
                65..=79 => Kind::Draw,
                80..=94 => Kind::Open,
                _ => Kind::Uniform,
            };
            // A random index keeps the coverage cycles of `win` / `blocked` spread out.
            let index = rng.below(1 << 20);
            board_of(rng, kind, index)
        }
        Kind::Win => win_board(rng, index),
        Kind::Tomek => tomek_board(rng),
        Kind::Blocked => blocked_board(rng, index),
        Kind::Draw => draw_board(rng),
        Kind::Open => open_board(rng),
        Kind::Uniform => uniform_board(rng),
    }
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
    let mut count = None;
    let mut kind = None;
    for arg in &args[1..] {
        let Some((key, value)) = arg.split_once('=') else {
            fail(&format!("expected KEY=VALUE, got {arg:?}"));
        };
        let repeated = match key {
            "count" => {
                let parsed = match value.parse::<usize>() {
                    Ok(n) if (1..=100_000).contains(&n) => n,
                    _ => fail(&format!("count={value}: expected a number in 1..=100000")),
                };
                count.replace(parsed).is_some()
            }
            "kind" => {
                let parsed = match value {
                    "mixed" => Kind::Mixed,
                    "win" => Kind::Win,
                    "tomek" => Kind::Tomek,
                    "blocked" => Kind::Blocked,
                    "draw" => Kind::Draw,
                    "open" => Kind::Open,
                    "uniform" => Kind::Uniform,
                    _ => fail(&format!("unknown kind {value:?}")),
                };
                kind.replace(parsed).is_some()
            }
            _ => fail(&format!("unknown key {key:?}")),
        };
        if repeated {
            fail(&format!("key {key:?} given twice"));
        }
    }
    let count = count.unwrap_or(100);
    let kind = kind.unwrap_or(Kind::Mixed);
    let mut rng = Rng(seed ^ fnv1a(&args[1..].join(" ")));

    let mut out = format!("{count}\n");
    for index in 0..count {
        let board = board_of(&mut rng, kind, index);
        for row in board.chunks(4) {
            out.push_str(&String::from_utf8_lossy(row));
            out.push('\n');
        }
        out.push('\n');
    }
    io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .expect("write stdout");
}
