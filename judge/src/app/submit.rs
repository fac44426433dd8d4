//! `judge submit`: the hand-in in one command, with no password or cookie: the file checked
//! as its judge would, the exact text it takes put on the clipboard, its submit page opened.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::cli::SubmitArgs;
use crate::error::{Error, Outcome, Result};
use crate::report::{print_note, Notices};
use crate::toolchain::handin;
use crate::toolchain::language::Language;
use crate::toolchain::online_judges::{CallForm, OnlineJudge};

use super::check::check_file;
use super::Context;

pub fn submit(context: &Context, args: SubmitArgs) -> Result<Outcome> {
    let problem = context.problem(&args.problem)?;
    let profile = args.judge.unwrap_or(problem.profile);
    let judge = profile.online_judge();
    let file = match &args.solution {
        Some(file) => context.path(file),
        None => file_the_judge_takes(context, &problem.id, judge)?,
    };
    let page = problem
        .submit_url
        .clone()
        .map(|url| (url, None))
        .or_else(|| {
            judge
                .submit_page(&problem.id, problem.source_url.as_deref())
                .map(|page| (page.url, page.note))
        });
    // With --print, stdout is the text alone: check's notes go to stderr, and only on refusal.
    let mut notices = match args.print {
        true => Notices::kept("submit"),
        false => context.notices("submit"),
    };
    let outcome = check_file(context, &mut notices, &file, Ok(problem), profile)?;
    if outcome != Outcome::Accepted {
        for line in notices.said() {
            eprintln!("{line}");
        }
        print_note(&format_args!(
            "not handed in: {} is not ready for {} (nothing was copied)",
            context.repository.relative(&file).display(),
            judge.name
        ));
        return Ok(notices.finish(outcome));
    }
    let source = std::fs::read(&file).map_err(|error| Error::io(&file, error))?;
    let text = match judge.entry {
        CallForm::Program => source,
        CallForm::Function { .. } => {
            let mut pasted = handin::pasted_part(&String::from_utf8_lossy(&source));
            pasted.push('\n');
            pasted.into_bytes()
        }
    };
    if args.print {
        let mut out = std::io::stdout().lock();
        out.write_all(&text)
            .and_then(|()| out.flush())
            .map_err(|error| Error::io("stdout", error))?;
        return Ok(notices.finish(Outcome::Accepted));
    }
    hand_in(&mut notices, context, judge, &file, &text, page);
    Ok(notices.finish(Outcome::Accepted))
}

/// The first solution file the judge takes, in the repository's order (Rust first).
fn file_the_judge_takes(context: &Context, id: &str, judge: &OnlineJudge) -> Result<PathBuf> {
    let files = context.repository.solution_files(id);
    files
        .iter()
        .find(|file| Language::of(file).is_some_and(|language| judge.accepts(language.id)))
        .cloned()
        .ok_or_else(|| {
            let had: Vec<String> = files
                .iter()
                .map(|file| context.repository.relative(file).display().to_string())
                .collect();
            Error::usage(format!(
                "no solution of {id} is in a language {} takes ({}): it takes {}; name one \
                 with --solution",
                judge.name,
                match had.is_empty() {
                    true => "there is none".to_owned(),
                    false => format!("there are {}", had.join(", ")),
                },
                judge.menu()
            ))
        })
}

/// Puts `text` on the clipboard and opens the page, saying what was done and the language to
/// choose there.
fn hand_in(
    notices: &mut Notices,
    context: &Context,
    judge: &OnlineJudge,
    file: &Path,
    text: &[u8],
    page: Option<(String, Option<&'static str>)>,
) {
    let shown = context.repository.relative(file).display().to_string();
    let lines = text.iter().filter(|&&byte| byte == b'\n').count();
    let what = match judge.entry {
        CallForm::Program => format!("{shown}, {lines} lines"),
        CallForm::Function { name } => {
            format!("the `{name}` function of {shown} without its stdin adapter, {lines} lines")
        }
    };
    match copy_to_clipboard(text) {
        Some(how) => notices.result(format_args!("copied {what} ({how})")),
        None => notices.problem(format_args!(
            "no clipboard here (wl-copy, xclip, xsel, pbcopy, or a terminal for OSC 52): \
             hand in {shown} (`judge submit --print` prints the text)"
        )),
    }
    let language =
        Language::of(file).and_then(|language| judge.offers(language.id).first().copied());
    if let Some(offer) = language {
        notices.result(format_args!("choose {} on the page", offer.label));
    }
    match page {
        Some((url, note)) => {
            let opened = open_in_browser(&url);
            let note = note.map(|note| format!(" ({note})")).unwrap_or_default();
            match opened {
                Some(how) => notices.result(format_args!("opened {url}{note} with {how}")),
                None => notices.result(format_args!(
                    "no browser to open it with ($BROWSER, xdg-open, open): submit at {url}{note}"
                )),
            }
        }
        None => notices.problem(format_args!(
            "{} has no page to make from this problem's id or source: give it as `submit = \
             \"URL\"` in problem.toml",
            judge.name
        )),
    }
}

/// With the first tool that works, or the terminal's OSC 52 (which reaches the local
/// clipboard over SSH); the way it went.
fn copy_to_clipboard(text: &[u8]) -> Option<&'static str> {
    let wayland = std::env::var_os("WAYLAND_DISPLAY").is_some();
    let x11 = std::env::var_os("DISPLAY").is_some();
    let tools: [(&str, &[&str], bool); 4] = [
        ("wl-copy", &[], wayland),
        ("xclip", &["-selection", "clipboard"], x11),
        ("xsel", &["--clipboard", "--input"], x11),
        ("pbcopy", &[], true),
    ];
    for (tool, args, usable) in tools {
        if usable && pipe_into(tool, args, text) {
            return Some(tool);
        }
    }
    let mut terminal = std::io::stderr();
    if !terminal.is_terminal() {
        return None;
    }
    let encoded = base64(text);
    write!(terminal, "\x1b]52;c;{encoded}\x07").ok()?;
    Some("the terminal's OSC 52")
}

/// Whether `tool` took `text` on stdin.
fn pipe_into(tool: &str, args: &[&str], text: &[u8]) -> bool {
    let child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else { return false };
    let written = child
        .stdin
        .take()
        .is_some_and(|mut stdin| stdin.write_all(text).is_ok());
    written && child.wait().is_ok_and(|status| status.success())
}

/// The one of `$BROWSER`, `xdg-open` or `open` that opened it.
fn open_in_browser(url: &str) -> Option<String> {
    let from_env = std::env::var("BROWSER")
        .ok()
        .filter(|b| !b.trim().is_empty());
    let candidates = from_env
        .into_iter()
        .chain(["xdg-open".to_owned(), "open".to_owned()]);
    for browser in candidates {
        let started = Command::new(&browser)
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if started.is_ok_and(|status| status.success()) {
            return Some(browser);
        }
    }
    None
}

/// Standard base64, as OSC 52 takes it.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let word = chunk.iter().enumerate().fold(0u32, |word, (i, &byte)| {
            word | u32::from(byte) << (16 - 8 * i)
        });
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(word >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_is_the_standard_one() {
        // RFC 4648's test vectors.
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }
}
