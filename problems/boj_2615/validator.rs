//! Validator for boj_2615 ("Omok"): reads one input file on stdin, exits 0 when it is one the
//! statement allows, else 1 with the line and what is wrong on stderr.
//!
//! The input: 19 lines of 19 numbers, each 0, 1 or 2, separated by single spaces, and nothing
//! after them. The statement rules out two winners and one colour winning in two places: at
//! most one line of exactly five stones of one colour (six or more in a row is no win).

use std::io::Read;
use std::process::exit;

const SIZE: usize = 19;

fn reject(line: usize, what: &str) -> ! {
    eprintln!("line {line}: {what}");
    exit(1);
}

fn main() {
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        reject(1, "the input is not readable");
    }
    let text = match String::from_utf8(input) {
        Ok(text) => text,
        Err(_) => reject(1, "the input is not text"),
    };
    let Some(body) = text.strip_suffix('\n') else {
        reject(1, "the input must end with a newline");
    };
    let lines: Vec<&str> = body.split('\n').collect();
    if lines.len() != SIZE {
        let at = lines.len().min(SIZE) + 1;
        reject(at, &format!("expected {SIZE} rows, got {}", lines.len()));
    }
    let mut board = [[0u8; SIZE]; SIZE];
    for (row, line) in lines.iter().enumerate() {
        let cells: Vec<&str> = line.split(' ').collect();
        if cells.len() != SIZE {
            reject(row + 1, &format!("expected {SIZE} numbers separated by single spaces, got {line:?}"));
        }
        for (column, cell) in cells.iter().enumerate() {
            board[row][column] = match *cell {
                "0" => 0,
                "1" => 1,
                "2" => 2,
                other => reject(row + 1, &format!("column {}: expected 0, 1 or 2, got {other:?}", column + 1)),
            };
        }
    }
    // Every run of exactly five, found from its first stone in each of four directions.
    let at = |row: isize, column: isize| -> u8 {
        match (usize::try_from(row), usize::try_from(column)) {
            (Ok(r), Ok(c)) if r < SIZE && c < SIZE => board[r][c],
            _ => 0,
        }
    };
    let mut wins = Vec::new();
    for row in 0..SIZE as isize {
        for column in 0..SIZE as isize {
            let colour = at(row, column);
            if colour == 0 {
                continue;
            }
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (-1, 1)] {
                if at(row - dr, column - dc) == colour {
                    continue;
                }
                let length = (0..).take_while(|&k| at(row + k * dr, column + k * dc) == colour).count();
                if length == 5 {
                    wins.push((colour, row + 1, column + 1));
                }
            }
        }
    }
    if wins.len() > 1 {
        let shown: Vec<String> = wins
            .iter()
            .map(|(colour, row, column)| format!("{colour} from row {row}, column {column}"))
            .collect();
        reject(1, &format!("more than one five: {}", shown.join("; ")));
    }
}
