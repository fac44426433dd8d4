//! 2025-09 `constants`: values a package's programs and files name as `{{name}}`, put in
//! before they are built or read.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

use serde_norway::Value;

use crate::error::{Error, Result};
use crate::toolchain::sources::Sources;

/// `constants` of `problem.yaml`: `name` and `name.variant` to the text they stand for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constants(BTreeMap<String, String>);

impl Constants {
    /// Errors name `path` and the `line` of `constants:`.
    pub fn parse(value: &Value, path: &Path, line: Option<usize>) -> Result<Constants> {
        let fail = |message: String| Error::parse(path, line, message);
        let Value::Mapping(map) = value else {
            return Err(fail("`constants` must be a map of names to values".into()));
        };
        let mut values = BTreeMap::new();
        for (name, constant) in map {
            let name = match name {
                Value::String(name) if is_name(name) => name,
                other => {
                    return Err(fail(format!(
                        "constant name {} must match [a-zA-Z_][a-zA-Z0-9_]*",
                        scalar(other).unwrap_or_else(|| "(not a scalar)".into())
                    )))
                }
            };
            // A scalar is a map holding only `value`.
            let variants = match constant {
                Value::Mapping(variants) => variants.clone(),
                scalar => [(Value::String("value".into()), scalar.clone())]
                    .into_iter()
                    .collect(),
            };
            if !variants.contains_key("value") {
                return Err(fail(format!("constant `{name}` has no `value`")));
            }
            for (variant, text) in &variants {
                let variant = match variant {
                    Value::String(variant) if is_name(variant) => variant,
                    _ => {
                        return Err(fail(format!(
                            "constant `{name}`: a variant's name must match [a-zA-Z_][a-zA-Z0-9_]*"
                        )))
                    }
                };
                let Some(text) = scalar(text) else {
                    return Err(fail(format!(
                        "constant `{name}.{variant}` must be an integer, a float or a string"
                    )));
                };
                if variant == "value" {
                    values.insert(name.clone(), text.clone());
                }
                values.insert(format!("{name}.{variant}"), text);
            }
        }
        Ok(Constants(values))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Replaces each `{{name}}` and `{{name.variant}}` of a known constant; an unknown one is
    /// left, as the format says.
    pub fn apply<'a>(&self, text: &'a [u8]) -> Cow<'a, [u8]> {
        if self.is_empty() || !text.windows(2).any(|pair| pair == b"{{") {
            return Cow::Borrowed(text);
        }
        let mut out = Vec::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.windows(2).position(|pair| pair == b"{{") {
            out.extend_from_slice(&rest[..start]);
            let after = &rest[start + 2..];
            // A name is short: a `{{` with no `}}` soon after is text, however long the file.
            let known = after[..after.len().min(256)]
                .windows(2)
                .position(|pair| pair == b"}}")
                .and_then(|end| {
                    let key = std::str::from_utf8(&after[..end]).ok()?;
                    Some((end, self.0.get(key)?))
                });
            match known {
                Some((end, value)) => {
                    out.extend_from_slice(value.as_bytes());
                    rest = &after[end + 2..];
                }
                None => {
                    out.push(b'{');
                    rest = &rest[start + 1..];
                }
            }
        }
        out.extend_from_slice(rest);
        Cow::Owned(out)
    }

    /// `apply` keeps text UTF-8: it puts in text and cuts only at ASCII braces.
    pub fn apply_text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match self.apply(text.as_bytes()) {
            Cow::Borrowed(_) => Cow::Borrowed(text),
            Cow::Owned(bytes) => Cow::Owned(String::from_utf8(bytes).expect("text in, text out")),
        }
    }

    pub fn apply_to(&self, mut sources: Sources) -> Sources {
        for (_, code) in &mut sources.files {
            if let Cow::Owned(replaced) = self.apply(code) {
                *code = replaced;
            }
        }
        sources
    }
}

fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A scalar's text as the YAML gave it (`5`, `1e-6`, `five`).
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constants(yaml: &str) -> Result<Constants> {
        let value: Value = serde_norway::from_str(yaml).unwrap();
        Constants::parse(&value, Path::new("problem.yaml"), Some(7))
    }

    #[test]
    fn constants_and_their_variants_replace_their_sequences_and_nothing_else() {
        let table =
            constants("n: 5\nk: {value: 5000000, tex: '5,000,000'}\neps: 1e-6\nw: five\n").unwrap();
        let text = "{{n}} {{n.value}} {{k}} {{k.tex}} {{eps}} {{w}} {{missing}} {{k.nope}} {n} {{{n}}} {{n";
        assert_eq!(
            table.apply_text(text),
            "5 5 5000000 5,000,000 1e-6 five {{missing}} {{k.nope}} {n} {5} {{n"
        );
        assert!(matches!(table.apply_text("no braces"), Cow::Borrowed(_)));
    }

    #[test]
    fn bad_constants_are_errors_at_their_line() {
        for (yaml, message) in [
            ("1x: 5\n", "constant name 1x must match"),
            ("k: {tex: '5'}\n", "constant `k` has no `value`"),
            (
                "k: [1, 2]\n",
                "constant `k.value` must be an integer, a float or a string",
            ),
            ("- 5\n", "`constants` must be a map"),
        ] {
            let error = constants(yaml).unwrap_err().to_string();
            assert!(
                error.contains("problem.yaml: line 7: ") && error.contains(message),
                "{error}"
            );
        }
    }
}
