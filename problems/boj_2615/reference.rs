//! Reference for boj_2615 ("Omok"), written to be obviously correct rather than fast.
//!
//! For every cell and each of the four directions (right, down, down-right, up-right) it
//! takes the window of five cells starting there and accepts it when all five hold the same
//! colour and neither the cell just before the window nor the cell just after it (along
//! that direction) holds that colour (cells off the board count as not that colour). The
//! window's start is the stone to report: the leftmost one, the topmost for a vertical five,
//! and for up-right (the window grows up and to the right) the lowest-left one.
//!
//! Input: 19 x 19 numbers (`0`, `1`, `2`) read as whitespace-separated tokens. Output: the
//! winning colour and, on a second line, the row and column (1-based) of that stone; or `0`.

use std::io::{self, Read, Write};

const SIZE: i64 = 19;

/// (row step, column step): right, down, down-right, up-right.
const DIRECTIONS: [(i64, i64); 4] = [(0, 1), (1, 0), (1, 1), (-1, 1)];

/// The colour at (row, col), or 0 off the board.
fn colour_at(board: &[Vec<u8>], row: i64, col: i64) -> u8 {
    if (0..SIZE).contains(&row) && (0..SIZE).contains(&col) {
        board[row as usize][col as usize]
    } else {
        0
    }
}

/// The winner as (colour, row, column), all 1-based, if some window is an exact five.
fn find_five(board: &[Vec<u8>]) -> Option<(u8, i64, i64)> {
    for row in 0..SIZE {
        for col in 0..SIZE {
            for &(dr, dc) in &DIRECTIONS {
                let colour = colour_at(board, row, col);
                if colour == 0 {
                    continue;
                }
                let five = (0..5).all(|k| colour_at(board, row + k * dr, col + k * dc) == colour);
                let before = colour_at(board, row - dr, col - dc);
                let after = colour_at(board, row + 5 * dr, col + 5 * dc);
                if five && before != colour && after != colour {
                    return Some((colour, row + 1, col + 1));
                }
            }
        }
    }
    None
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read stdin");
    let numbers: Vec<u8> = input
        .split_whitespace()
        .map(|token| token.parse().expect("board cell"))
        .collect();
    assert_eq!(numbers.len(), 361, "expected 19 x 19 numbers");
    let board: Vec<Vec<u8>> = numbers.chunks(19).map(|row| row.to_vec()).collect();
    let out = match find_five(&board) {
        Some((colour, row, col)) => format!("{colour}\n{row} {col}\n"),
        None => "0\n".to_string(),
    };
    io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .expect("write stdout");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty() -> Vec<Vec<u8>> {
        vec![vec![0; 19]; 19]
    }

    #[test]
    fn up_right_five_reports_lowest_left_stone() {
        let mut board = empty();
        for k in 0..5 {
            board[18 - k][k] = 2;
        }
        assert_eq!(find_five(&board), Some((2, 19, 1)));
    }

    #[test]
    fn six_does_not_count() {
        let mut board = empty();
        board[0][..6].fill(1);
        assert_eq!(find_five(&board), None);
        board[0][5] = 2;
        assert_eq!(find_five(&board), Some((1, 1, 1)));
    }
}
