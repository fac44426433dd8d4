//! Reference for swea_11545 ("Tic-Tac-Toe-Tomek"), written to be obviously correct rather
//! than fast.
//!
//! For each board it spells out the ten lines (4 rows, 4 columns, 2 diagonals) as lists of
//! cells and checks, for each player, whether every cell of some line is that player's
//! symbol or `T`. Then: a winner; else `Draw` if no cell is `.`; else not completed.
//!
//! Input: the number of boards, then each board as 4 rows of 4 characters; rows are read
//! as whitespace-separated tokens, so blank lines, CRLF and trailing spaces do not matter.

use std::io::{self, Read, Write};

/// Cells of a line as (row, column) pairs.
fn all_lines() -> Vec<Vec<(usize, usize)>> {
    let mut lines = Vec::new();
    for row in 0..4 {
        lines.push((0..4).map(|col| (row, col)).collect());
    }
    for col in 0..4 {
        lines.push((0..4).map(|row| (row, col)).collect());
    }
    lines.push((0..4).map(|i| (i, i)).collect());
    lines.push((0..4).map(|i| (i, 3 - i)).collect());
    lines
}

fn has_won(board: &[Vec<u8>], lines: &[Vec<(usize, usize)>], player: u8) -> bool {
    lines.iter().any(|line| {
        line.iter().all(|&(row, col)| {
            let cell = board[row][col];
            cell == player || cell == b'T'
        })
    })
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read stdin");
    let mut tokens = input.split_whitespace();
    let cases: usize = tokens
        .next()
        .expect("missing case count")
        .parse()
        .expect("case count");
    let lines = all_lines();
    assert_eq!(lines.len(), 10);
    let mut out = String::new();
    for case in 1..=cases {
        let board: Vec<Vec<u8>> = (0..4)
            .map(|_| {
                let row = tokens
                    .next()
                    .expect("missing board row")
                    .as_bytes()
                    .to_vec();
                assert_eq!(row.len(), 4, "board row of length {}", row.len());
                row
            })
            .collect();
        let x_won = has_won(&board, &lines, b'X');
        let o_won = has_won(&board, &lines, b'O');
        let any_empty = board.iter().flatten().any(|&cell| cell == b'.');
        let verdict = if x_won {
            "X won"
        } else if o_won {
            "O won"
        } else if any_empty {
            "Game has not completed"
        } else {
            "Draw"
        };
        out.push_str(&format!("#{case} {verdict}\n"));
    }
    io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .expect("write stdout");
}
