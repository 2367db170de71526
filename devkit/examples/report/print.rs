//! Plain-text layout for a 100-column terminal: tables that are also
//! markdown pipe tables, wrapped paragraphs and list items, headings, and
//! the progress lines on stderr. Every line of the report goes through
//! [`out`] (the `outln!` macro of `main.rs`), which also keeps it for the
//! HTML site when `--html` asked for it ([`start_capture`]).

use std::sync::Mutex;

/// The report's text so far, when it is being captured.
static CAPTURE: Mutex<Option<String>> = Mutex::new(None);

/// From now on, keep every line of the report (for `--html`).
pub(crate) fn start_capture() {
    *CAPTURE.lock().unwrap_or_else(|e| e.into_inner()) = Some(String::new());
}

/// The report's text captured since [`start_capture`] (empty without it).
pub(crate) fn captured() -> String {
    CAPTURE.lock().unwrap_or_else(|e| e.into_inner()).clone().unwrap_or_default()
}

/// Prints one line of the report on stdout, and keeps it when capturing.
pub(crate) fn out(line: &str) {
    println!("{line}");
    if let Some(buf) = CAPTURE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        buf.push_str(line);
        buf.push('\n');
    }
}

/// The terminal width the report is laid out for.
pub(crate) const WIDTH: usize = 100;

/// A column's alignment.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Align {
    Left,
    Right,
}
use Align::{Left as L, Right as R};

/// Prints an aligned table (a markdown pipe table whose columns line up).
pub(crate) fn print_grid(head: &[&str], align: &[Align], rows: &[Vec<String>]) {
    let mut w: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, c) in row.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |cells: &mut dyn Iterator<Item = String>| {
        let mut s = String::from("|");
        for (i, c) in cells.enumerate() {
            let pad = " ".repeat(w[i].saturating_sub(c.chars().count()));
            match align[i] {
                L => s.push_str(&format!(" {c}{pad} |")),
                R => s.push_str(&format!(" {pad}{c} |")),
            }
        }
        outln!("{s}");
    };
    line(&mut head.iter().map(|h| h.to_string()));
    let sep: String = w
        .iter()
        .zip(align)
        .map(|(&w, &a)| if a == L { format!(":{}|", "-".repeat(w + 1)) } else { format!("{}:|", "-".repeat(w + 1)) })
        .collect();
    outln!("|{sep}");
    for row in rows {
        line(&mut row.iter().cloned());
    }
    outln!();
}

/// `text` wrapped to [`WIDTH`] columns, the first line after `first`, the
/// others indented by `indent` spaces.
pub(crate) fn wrap(first: &str, text: &str, indent: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && cur.chars().count() + 1 + word.chars().count() > WIDTH {
            lines.push(std::mem::replace(&mut cur, " ".repeat(indent)));
            empty = true;
        }
        if !empty {
            cur.push(' ');
        }
        cur.push_str(word);
        empty = false;
    }
    lines.push(cur);
    lines
}

/// Prints a paragraph wrapped to [`WIDTH`] columns, then a blank line.
pub(crate) fn para(text: &str) {
    for l in wrap("", text, 0) {
        outln!("{l}");
    }
    outln!();
}

/// Prints a list item wrapped to [`WIDTH`] columns, continuation lines
/// indented under the text.
pub(crate) fn item(text: &str) {
    for l in wrap("- ", text, 2) {
        outln!("{l}");
    }
}

/// Prints a section heading (markdown `##`).
pub(crate) fn heading(text: &str) {
    outln!("## {text}\n");
}

/// When the report started (for the progress lines).
pub(crate) static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// A progress line on stderr: `[  1.2 s] measuring slerp_joints ...`.
pub(crate) fn progress(what: &str) {
    let t = START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64();
    eprintln!("[{t:5.1} s] {what} ...");
}
