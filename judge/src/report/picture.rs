//! Boards found in a case's input, drawn as SVG for the HTML report: a wrong answer on a
//! 19x19 board is seen at a glance where 19 lines of digits are not.
//!
//! A board is two or more lines of the same width of one-character cells (`XO.X`, `0 1 2 0`),
//! or a line of quoted strings of one length (`["O.X", ".O.", "..X"]`); boards written flat,
//! one per line, need their shape in `problem.toml` (`[picture] rows = 3, cols = 3`).

pub type Board = Vec<Vec<char>>;

/// At most this many boards are drawn for one input.
const MOST_BOARDS: usize = 8;

/// The boards of `text`; `shape` is the problem's `[picture]` (rows, columns), if it has one.
pub fn boards(text: &str, shape: Option<(usize, usize)>) -> Vec<Board> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut at = 0;
    while at < lines.len() && found.len() < MOST_BOARDS {
        let line = lines[at].trim();
        if let Some(board) = shape.and_then(|(rows, cols)| flat_board(line, rows, cols)) {
            found.push(board);
            at += 1;
            continue;
        }
        if let Some(board) = quoted_rows(line) {
            found.push(board);
            at += 1;
            continue;
        }
        let Some(first) = cells(line) else {
            at += 1;
            continue;
        };
        let mut board = vec![first];
        while let Some(row) = lines
            .get(at + board.len())
            .and_then(|line| cells(line.trim()))
        {
            if row.len() != board[0].len() {
                break;
            }
            board.push(row);
        }
        at += board.len();
        if board.len() >= 2 {
            found.push(board);
        }
    }
    found
}

/// A line's cells when it is a row: two or more one-character cells, with single spaces
/// between them or none, not all of them digits run together (a number is not a row).
fn cells(line: &str) -> Option<Vec<char>> {
    let tokens: Vec<&str> = line.split(' ').collect();
    let row: Vec<char> = if tokens.len() > 1 {
        tokens
            .iter()
            .map(|token| {
                let mut chars = token.chars();
                match (chars.next(), chars.next()) {
                    (Some(cell), None) => Some(cell),
                    _ => None,
                }
            })
            .collect::<Option<_>>()?
    } else {
        let row: Vec<char> = line.chars().collect();
        if row.iter().all(char::is_ascii_digit) {
            return None;
        }
        row
    };
    (row.len() >= 2 && row.iter().all(|c| c.is_ascii_graphic())).then_some(row)
}

/// `["O.X", ".O.", "..X"]`: a board of the strings' characters.
fn quoted_rows(line: &str) -> Option<Board> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let rows: Vec<Vec<char>> = inner
        .split(',')
        .map(|item| {
            let item = item.trim();
            let text = item.strip_prefix('"')?.strip_suffix('"')?;
            Some(text.chars().collect())
        })
        .collect::<Option<_>>()?;
    let width = rows.first()?.len();
    (rows.len() >= 2 && width >= 2 && rows.iter().all(|row| row.len() == width)).then_some(rows)
}

/// A board written flat: `rows * cols` cells on one line.
fn flat_board(line: &str, rows: usize, cols: usize) -> Option<Board> {
    let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    (rows > 0 && cols > 0 && cells.len() == rows * cols)
        .then(|| cells.chunks(cols).map(<[char]>::to_vec).collect())
}

/// Cells that are empty whatever the problem: drawn as an empty square.
fn is_blank(cell: char) -> bool {
    matches!(cell, '.' | '0' | '_' | '-')
}

/// Colours for the marks, in the order they first appear on the board.
const MARK_COLOURS: [&str; 6] = [
    "#222", "#f5f5f5", "#c0392b", "#2e86c1", "#27ae60", "#8e44ad",
];

/// A cell marked on a board: (row, column), 0-based, and what it is.
pub type Marked = ((usize, usize), CellMark);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellMark {
    /// The cell the expected answer names.
    Expected,
    /// The cell the program's answer names.
    Given,
}

/// The cell a line of an answer names, `row col` (1-based), as 0-based.
pub fn named_cell(line: &str) -> Option<(usize, usize)> {
    let mut numbers = line.split_whitespace().map(|n| n.parse::<usize>().ok());
    match (numbers.next()??, numbers.next()??, numbers.next()) {
        (row, col, None) if row > 0 && col > 0 => Some((row - 1, col - 1)),
        _ => None,
    }
}

/// The board as an SVG picture: each cell a square, each mark a disc with its letter;
/// `marked` cells ringed (green the expected answer's, red the program's).
pub fn svg(board: &Board, marked: &[Marked]) -> String {
    const CELL: usize = 22;
    let rows = board.len();
    let cols = board.iter().map(Vec::len).max().unwrap_or(0);
    let mut marks: Vec<char> = Vec::new();
    for &cell in board.iter().flatten() {
        if !is_blank(cell) && !marks.contains(&cell) {
            marks.push(cell);
        }
    }
    let mut out = format!(
        "<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{rows} by {cols} board\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#e8c98f\"/>",
        w = cols * CELL,
        h = rows * CELL
    );
    for (y, row) in board.iter().enumerate() {
        for (x, &cell) in row.iter().enumerate() {
            let (left, top) = (x * CELL, y * CELL);
            out.push_str(&format!(
                "<rect x=\"{left}\" y=\"{top}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"none\" \
                 stroke=\"#7a5c2e\" stroke-width=\"1\"/>"
            ));
            if is_blank(cell) {
                continue;
            }
            let index = marks.iter().position(|&mark| mark == cell).unwrap_or(0);
            let fill = MARK_COLOURS[index % MARK_COLOURS.len()];
            let ink = if index == 0 { "#fff" } else { "#000" };
            let (cx, cy) = (left + CELL / 2, top + CELL / 2);
            out.push_str(&format!(
                "<circle class=\"mark\" cx=\"{cx}\" cy=\"{cy}\" r=\"9\" fill=\"{fill}\" stroke=\"#000\" \
                 stroke-width=\"0.5\"/><text x=\"{cx}\" y=\"{}\" font-size=\"11\" \
                 text-anchor=\"middle\" fill=\"{ink}\" font-family=\"monospace\">{}</text>",
                cy + 4,
                super::html::escape(&cell.to_string())
            ));
        }
    }
    for &((row, col), mark) in marked {
        if row >= rows || col >= cols {
            continue;
        }
        let (colour, class, inset) = match mark {
            CellMark::Expected => ("#1e8e3e", "expected-cell", 1),
            CellMark::Given => ("#d6334a", "given-cell", 4),
        };
        out.push_str(&format!(
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" \
             stroke=\"{colour}\" stroke-width=\"3\"/>",
            col * CELL + inset,
            row * CELL + inset,
            CELL - 2 * inset,
            CELL - 2 * inset
        ));
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        rows.iter().map(|row| row.chars().collect()).collect()
    }

    #[test]
    fn boards_are_found_in_each_of_our_problems_inputs() {
        // BOJ 2615: 19 rows of 19 cells, spaces between.
        let omok: String = (0..19)
            .map(|_| "0 1 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n")
            .collect();
        let found = boards(&omok, None);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].len(), found[0][0].len()), (19, 19));
        // SW Expert Academy 11545: a count, then 4x4 boards with blank lines between.
        let tomek = "2\nXXXT\n....\nOO..\n....\n\nXOXT\nXXOO\nOXOX\nXXOO\n";
        assert_eq!(
            boards(tomek, None),
            vec![
                board(&["XXXT", "....", "OO..", "...."]),
                board(&["XOXT", "XXOO", "OXOX", "XXOO"])
            ]
        );
        // Programmers 160585: one call's argument.
        assert_eq!(
            boards(r#"["O.X", ".O.", "..X"]"#, None),
            vec![board(&["O.X", ".O.", "..X"])]
        );
        // BOJ 7682: flat boards, one per line, shaped by [picture].
        let flat = "XXXOO.XXX\nend\n";
        assert_eq!(
            boards(flat, Some((3, 3))),
            vec![board(&["XXX", "OO.", "XXX"])]
        );
        assert!(boards(flat, None).is_empty());
    }

    #[test]
    fn the_cells_an_answer_names_are_ringed_on_the_board() {
        assert_eq!(named_cell("3 2"), Some((2, 1)));
        assert_eq!(named_cell("0 2"), None);
        assert_eq!(named_cell("1"), None);
        assert_eq!(named_cell("1 2 3"), None);
        let picture = svg(
            &board(&["X.O", "...", "O.X"]),
            &[
                ((2, 1), CellMark::Expected),
                ((0, 0), CellMark::Given),
                ((5, 5), CellMark::Given),
            ],
        );
        assert_eq!(
            picture
                .matches("class=\"expected-cell\" x=\"23\" y=\"45\"")
                .count(),
            1
        );
        assert_eq!(
            picture
                .matches("class=\"given-cell\" x=\"4\" y=\"4\"")
                .count(),
            1
        );
        assert_eq!(
            picture.matches("given-cell").count(),
            1,
            "a cell off the board is not drawn"
        );
    }

    #[test]
    fn numbers_and_prose_are_not_boards() {
        assert!(boards("3\n10 20\n30 40\n", None).is_empty());
        assert!(boards("12\n34\n", None).is_empty());
        assert!(boards("hello world\nfoo bar\n", None).is_empty());
    }

    #[test]
    fn a_board_is_drawn_cell_by_cell_with_a_disc_per_mark() {
        let picture = svg(&board(&["X.O", "...", "O.X"]), &[]);
        assert_eq!(picture.matches("<rect").count(), 1 + 9);
        assert_eq!(picture.matches("class=\"mark\"").count(), 4);
        assert!(picture.starts_with("<svg") && picture.ends_with("</svg>"));
    }
}
