//! A function-form problem's function, as `problem.toml` declares it
//! (`function = "solution(board: string[], k: int) -> int"`); `harness` writes each
//! language's caller from it.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Type {
    Int,
    Long,
    Double,
    Boolean,
    String,
    /// `T[]`.
    Array(Box<Type>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    pub name: String,
    pub parameters: Vec<(String, Type)>,
    pub returns: Type,
}

impl Type {
    fn parse(text: &str) -> Result<Type, String> {
        let text = text.trim();
        if let Some(element) = text.strip_suffix("[]") {
            return Ok(Type::Array(Box::new(Type::parse(element)?)));
        }
        Ok(match text {
            "int" => Type::Int,
            "long" => Type::Long,
            "double" => Type::Double,
            "boolean" => Type::Boolean,
            "string" => Type::String,
            other => {
                return Err(format!(
                    "unknown type `{other}`: int, long, double, boolean, string, or one of \
                     them with [] (or [][])"
                ))
            }
        })
    }

    /// How many `[]` it has, and the innermost type.
    pub fn depth(&self) -> (usize, &Type) {
        match self {
            Type::Array(element) => {
                let (depth, inner) = element.depth();
                (depth + 1, inner)
            }
            scalar => (0, scalar),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Int => f.write_str("int"),
            Type::Long => f.write_str("long"),
            Type::Double => f.write_str("double"),
            Type::Boolean => f.write_str("boolean"),
            Type::String => f.write_str("string"),
            Type::Array(element) => write!(f, "{element}[]"),
        }
    }
}

impl Signature {
    /// `name(parameter: type, ...) -> type`.
    pub fn parse(text: &str) -> Result<Signature, String> {
        let shape = "expected `name(parameter: type, ...) -> type`, like `solution(board: string[]) -> int`";
        let (head, returns) = text.split_once("->").ok_or(shape)?;
        let (name, rest) = head.split_once('(').ok_or(shape)?;
        let list = rest.trim_end().strip_suffix(')').ok_or(shape)?;
        let name = name.trim();
        if !is_identifier(name) {
            return Err(format!("`{name}` is not a function name"));
        }
        let mut parameters: Vec<(String, Type)> = Vec::new();
        for parameter in list.split(',').filter(|p| !p.trim().is_empty()) {
            let (parameter, kind) = parameter
                .split_once(':')
                .ok_or(format!("`{}`: expected `name: type`", parameter.trim()))?;
            let parameter = parameter.trim();
            if !is_identifier(parameter) || parameters.iter().any(|(known, _)| known == parameter) {
                return Err(format!(
                    "`{parameter}` is not a parameter name, or is given twice"
                ));
            }
            parameters.push((parameter.to_owned(), Type::parse(kind)?));
        }
        Ok(Signature {
            name: name.to_owned(),
            parameters,
            returns: Type::parse(returns)?,
        })
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parameters: Vec<String> = self
            .parameters
            .iter()
            .map(|(name, kind)| format!("{name}: {kind}"))
            .collect();
        write!(
            f,
            "{}({}) -> {}",
            self.name,
            parameters.join(", "),
            self.returns
        )
    }
}

fn is_identifier(word: &str) -> bool {
    let mut chars = word.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_read_as_written() {
        let signature = Signature::parse("solution(board: string[], k: int) -> long[][]").unwrap();
        assert_eq!(signature.name, "solution");
        assert_eq!(
            signature.parameters,
            [
                ("board".to_owned(), Type::Array(Box::new(Type::String))),
                ("k".to_owned(), Type::Int)
            ]
        );
        assert_eq!(signature.returns.depth(), (2, &Type::Long));
        assert_eq!(
            signature.to_string(),
            "solution(board: string[], k: int) -> long[][]"
        );
        assert!(Signature::parse("solution() -> boolean")
            .unwrap()
            .parameters
            .is_empty());
        for bad in [
            "solution(board: string[])",
            "solution(board) -> int",
            "solution(a: int, a: int) -> int",
            "solution(a: float) -> int",
            "2x(a: int) -> int",
        ] {
            assert!(Signature::parse(bad).is_err(), "{bad}");
        }
    }
}
