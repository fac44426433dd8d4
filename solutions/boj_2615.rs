//! BOJ 2615 "Omok": on a 19x19 board, find a colour with exactly five stones in a line.
//!
//! Each run is measured once, from its first stone, in the directions right, down,
//! down-right and up-right; only a run of length exactly five wins. That first stone is the
//! leftmost one (the topmost for a vertical run, the lowest for an up-right run): the answer.

use std::io::{self, BufWriter, Read, Write};

const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (-1, 1)];

/// The winning colour and the 1-based row and column of its five's first stone.
fn winner(board: &[Vec<u8>]) -> Option<(u8, usize, usize)> {
    let n = board.len() as isize;
    let at = |r: isize, c: isize| {
        if (0..n).contains(&r) && (0..n).contains(&c) {
            board[r as usize][c as usize]
        } else {
            0
        }
    };
    for r in 0..n {
        for c in 0..n {
            let stone = at(r, c);
            if stone == 0 {
                continue;
            }
            for (dr, dc) in DIRECTIONS {
                if at(r - dr, c - dc) == stone {
                    continue; // not the first stone of its run
                }
                let mut length = 1;
                while at(r + length * dr, c + length * dc) == stone {
                    length += 1;
                }
                if length == 5 {
                    return Some((stone, r as usize + 1, c as usize + 1));
                }
            }
        }
    }
    None
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let cells: Vec<u8> = input
        .split_ascii_whitespace()
        .map(|token| token.parse().unwrap())
        .collect();
    let board: Vec<Vec<u8>> = cells.chunks(19).map(|row| row.to_vec()).collect();
    let mut out = BufWriter::new(io::stdout().lock());
    match winner(&board) {
        Some((stone, row, column)) => writeln!(out, "{}\n{} {}", stone, row, column).unwrap(),
        None => writeln!(out, "0").unwrap(),
    }
}

#[cfg(test)]
mod tests {
    use super::winner;

    /// A 19x19 board with the given stones (colour, 1-based row, 1-based column).
    fn board(stones: &[(u8, usize, usize)]) -> Vec<Vec<u8>> {
        let mut board = vec![vec![0; 19]; 19];
        for &(stone, row, column) in stones {
            board[row - 1][column - 1] = stone;
        }
        board
    }

    /// `length` stones of `stone` from (row, column), stepping by (dr, dc).
    fn run(
        stone: u8,
        row: usize,
        column: usize,
        (dr, dc): (isize, isize),
        length: usize,
    ) -> Vec<(u8, usize, usize)> {
        (0..length as isize)
            .map(|k| {
                (
                    stone,
                    (row as isize + k * dr) as usize,
                    (column as isize + k * dc) as usize,
                )
            })
            .collect()
    }

    #[test]
    fn official_example() {
        let text = "\
0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
0 1 2 0 0 2 2 2 1 0 0 0 0 0 0 0 0 0 0
0 0 1 2 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0
0 0 0 1 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 1 2 2 0 0 0 0 0 0 0 0 0 0 0 0
0 0 1 1 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 2 1 0 0 0 0 0 0 0 0 0 0 0";
        let mut board: Vec<Vec<u8>> = text
            .lines()
            .map(|line| line.split(' ').map(|t| t.parse().unwrap()).collect())
            .collect();
        board.resize(19, vec![0; 19]);
        assert_eq!(winner(&board), Some((1, 3, 2)));
    }

    #[test]
    fn empty_board() {
        assert_eq!(winner(&board(&[])), None);
    }

    #[test]
    fn six_or_seven_is_not_a_win() {
        assert_eq!(winner(&board(&run(1, 5, 3, (0, 1), 6))), None);
        assert_eq!(winner(&board(&run(2, 2, 9, (1, 0), 7))), None);
        assert_eq!(winner(&board(&run(1, 4, 4, (1, 1), 6))), None);
        assert_eq!(winner(&board(&run(2, 12, 2, (-1, 1), 6))), None);
    }

    #[test]
    fn four_is_not_a_win() {
        assert_eq!(winner(&board(&run(1, 10, 10, (0, 1), 4))), None);
    }

    #[test]
    fn five_against_the_edges() {
        assert_eq!(winner(&board(&run(1, 1, 15, (0, 1), 5))), Some((1, 1, 15)));
        assert_eq!(
            winner(&board(&run(2, 15, 19, (1, 0), 5))),
            Some((2, 15, 19))
        );
        assert_eq!(
            winner(&board(&run(1, 15, 15, (1, 1), 5))),
            Some((1, 15, 15))
        );
        assert_eq!(winner(&board(&run(2, 19, 1, (-1, 1), 5))), Some((2, 19, 1)));
    }

    #[test]
    fn five_bounded_by_the_other_colour() {
        let mut stones = run(1, 8, 4, (0, 1), 5);
        stones.push((2, 8, 3));
        stones.push((2, 8, 9));
        assert_eq!(winner(&board(&stones)), Some((1, 8, 4)));
    }

    #[test]
    fn answer_is_leftmost_or_topmost() {
        // Up-right diagonal from (10, 3) to (6, 7): the lowest stone is the leftmost.
        assert_eq!(winner(&board(&run(2, 10, 3, (-1, 1), 5))), Some((2, 10, 3)));
        // Placed from the top-right end going down-left: same five, same answer.
        assert_eq!(winner(&board(&run(2, 6, 7, (1, -1), 5))), Some((2, 10, 3)));
        // Vertical: the topmost stone.
        assert_eq!(winner(&board(&run(1, 9, 12, (-1, 0), 5))), Some((1, 5, 12)));
        // Down-right diagonal: the top-left stone.
        assert_eq!(winner(&board(&run(1, 7, 7, (-1, -1), 5))), Some((1, 3, 3)));
    }

    #[test]
    fn five_beside_a_six_of_the_same_colour() {
        let mut stones = run(1, 2, 2, (0, 1), 6);
        stones.extend(run(1, 12, 8, (1, 0), 5));
        assert_eq!(winner(&board(&stones)), Some((1, 12, 8)));
        // Crossing a six does not hide a five.
        let mut stones = run(2, 10, 5, (0, 1), 6);
        stones.extend(run(2, 8, 7, (1, 0), 5));
        assert_eq!(winner(&board(&stones)), Some((2, 8, 7)));
    }
}
