//! Plain-text tables whose columns are as wide as their widest cell, so that a long name
//! never pushes the columns after it out of line.

/// Rows of cells under a header; numbers right-aligned, text left-aligned.
pub struct Table {
    header: Vec<String>,
    right_aligned: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// Columns as (title, right-aligned).
    pub fn new(columns: &[(&str, bool)]) -> Table {
        Table {
            header: columns.iter().map(|(title, _)| title.to_string()).collect(),
            right_aligned: columns.iter().map(|(_, right)| *right).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Every line, each starting with `indent`; two spaces between columns, and no trailing
    /// spaces after the last one.
    pub fn render(&self, indent: &str) -> String {
        let lines = std::iter::once(&self.header).chain(&self.rows);
        let mut widths = vec![0; self.header.len()];
        for cells in lines.clone() {
            for (width, cell) in widths.iter_mut().zip(cells) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let mut text = String::new();
        for cells in lines {
            let mut line = indent.to_owned();
            for (i, cell) in cells.iter().enumerate() {
                if i > 0 {
                    line.push_str("  ");
                }
                let pad = " ".repeat(widths[i] - cell.chars().count());
                if self.right_aligned[i] {
                    line.push_str(&pad);
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.push_str(&pad);
                }
            }
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_as_wide_as_their_widest_cell() {
        let mut table = Table::new(&[("name", false), ("n", true), ("note", false)]);
        table.row(vec!["a-very-long-name".into(), "7".into(), "x".into()]);
        table.row(vec!["b".into(), "1234".into(), "".into()]);
        assert_eq!(
            table.render("  "),
            "  name                 n  note\n  \
               a-very-long-name     7  x\n  \
               b                 1234\n"
        );
    }
}
