//! Names in the order people expect: `2` before `10`.

use std::cmp::Ordering;

/// Digit runs compare by their value.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let (x_digits, x_rest) = split_digits(a);
                let (y_digits, y_rest) = split_digits(b);
                let x_value = trim_zeros(x_digits);
                let y_value = trim_zeros(y_digits);
                let order = x_value
                    .len()
                    .cmp(&y_value.len())
                    .then_with(|| x_value.cmp(y_value))
                    .then_with(|| x_digits.len().cmp(&y_digits.len()));
                if order != Ordering::Equal {
                    return order;
                }
                (a, b) = (x_rest, y_rest);
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                (a, b) = (&a[1..], &b[1..]);
            }
        }
    }
}

fn split_digits(text: &[u8]) -> (&[u8], &[u8]) {
    let count = text.iter().take_while(|b| b.is_ascii_digit()).count();
    text.split_at(count)
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let zeros = digits.iter().take_while(|&&b| b == b'0').count();
    &digits[zeros..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_puts_2_before_10() {
        let mut names = vec!["10", "2", "a10", "a2", "b", "a02", "1"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(names, ["1", "2", "10", "a2", "a02", "a10", "b"]);
    }
}
