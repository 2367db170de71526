//! Every relative link of every Markdown file of the repository resolves.
//!
//! The test walks the repository from `CARGO_MANIFEST_DIR` (skipping `.git`,
//! `fuzz/corpus` and every directory whose name starts with `target`), reads
//! every `*.md` file, and takes its links: inline ones, `[text](path)`,
//! `[text](path#anchor)` and images `![alt](path)`, and reference
//! definitions, `[label]: path`. Links with a scheme (`https:`, `mailto:`,
//! ...) are skipped; so is everything inside fenced code blocks and inline
//! code spans. A path must name a file or directory relative to the linking
//! file's directory. An anchor into a Markdown file (`#anchor` alone for the
//! same file) must be one of its headings' anchors, by GitHub's rule:
//! the heading's text lowercased, every character that is not a letter, a
//! digit, a space, `-` or `_` dropped, spaces turned into `-`, and `-1`,
//! `-2`, ... appended to repeated headings. Every broken link is reported in
//! one failure message.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The repository: this crate's manifest directory.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `*.md` file under `dir`, sorted, skipping `.git`, `fuzz/corpus` and
/// `target*` directories.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.expect("a directory entry");
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let file_type = entry.file_type().expect("a file type");
            if file_type.is_dir() {
                let skipped = name == ".git"
                    || name.starts_with("target")
                    || (name == "corpus" && dir.file_name().is_some_and(|d| d == "fuzz"));
                if !skipped {
                    stack.push(path);
                }
            } else if name.ends_with(".md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The fence that opens or closes a fenced code block on this line, if any:
/// its character and length.
fn fence(line: &str) -> Option<(char, usize)> {
    let trimmed = line.trim_start();
    let c = trimmed.chars().next()?;
    if c != '`' && c != '~' {
        return None;
    }
    let n = trimmed.chars().take_while(|&x| x == c).count();
    (n >= 3).then_some((c, n))
}

/// The lines of a Markdown file outside fenced code blocks, numbered from 1.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut open: Option<(char, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        match (open, fence(line)) {
            (None, Some(f)) => open = Some(f),
            (Some((c, n)), Some((c2, n2))) if c == c2 && n2 >= n && line.trim().chars().all(|x| x == c) => open = None,
            (None, None) => out.push((i + 1, line)),
            _ => {}
        }
    }
    out
}

/// The line with its inline code spans blanked out (a span opens with a run
/// of backticks and closes with a run of the same length).
fn without_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '`' {
            let run = chars[i..].iter().take_while(|&&c| c == '`').count();
            let mut j = i + run;
            let mut close = None;
            while j < chars.len() {
                if chars[j] == '`' {
                    let r = chars[j..].iter().take_while(|&&c| c == '`').count();
                    if r == run {
                        close = Some(j + r);
                        break;
                    }
                    j += r;
                } else {
                    j += 1;
                }
            }
            match close {
                Some(end) => {
                    out.extend(std::iter::repeat_n(' ', end - i));
                    i = end;
                }
                None => {
                    out.extend(&chars[i..i + run]);
                    i += run;
                }
            }
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The destinations of the inline links and images of one line (code spans
/// already removed): what stands between `](` and its matching `)`, without
/// angle brackets or a title.
fn inline_destinations(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let mut depth = 0usize;
        let mut end = None;
        for (k, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(k);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let Some(end) = end else { break };
        out.push(clean_destination(&after[..end]));
        rest = &after[end + 1..];
    }
    out
}

/// A reference definition's destination (`[label]: path`), if the line is one.
fn reference_destination(line: &str) -> Option<String> {
    let t = line.trim_start();
    let rest = t.strip_prefix('[')?;
    let close = rest.find("]:")?;
    if close == 0 || rest[..close].contains('[') {
        return None;
    }
    Some(clean_destination(&rest[close + 2..]))
}

/// A link destination without surrounding space, angle brackets or title.
fn clean_destination(raw: &str) -> String {
    let raw = raw.trim();
    if let Some(inner) = raw.strip_prefix('<') {
        return inner.split('>').next().unwrap_or("").to_owned();
    }
    raw.split_whitespace().next().unwrap_or("").to_owned()
}

/// `%XX` escapes decoded (`%20` for a space, ...).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        if let (b'%', Some(Ok(b))) = (bytes[i], hex.map(|h| u8::from_str_radix(h, 16))) {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a destination has a URL scheme (`https:`, `mailto:`, ...): a colon
/// before any `/`, `#` or `?`.
fn has_scheme(dest: &str) -> bool {
    let head = dest.split(['/', '#', '?']).next().unwrap_or("");
    head.contains(':')
}

/// A heading's text as GitHub renders it for its anchor: code spans keep
/// their content, links keep their text, emphasis marks go.
fn heading_text(raw: &str) -> String {
    let mut text = String::new();
    let mut chars = raw.chars().peekable();
    let mut in_code = false;
    while let Some(c) = chars.next() {
        match c {
            '`' => in_code = !in_code,
            '*' if !in_code => {}
            '[' if !in_code => {}
            ']' if !in_code && chars.peek() == Some(&'(') => {
                // Skip the link's destination.
                let mut depth = 0;
                for d in chars.by_ref() {
                    match d {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => text.push(c),
        }
    }
    text
}

/// GitHub's anchor for a heading's text: lowercase, every character but
/// letters, digits, spaces, `-` and `_` dropped, spaces to `-`.
fn slug(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor of a Markdown file: its ATX headings' slugs (`-1`, `-2`, ...
/// on repeats) and the `id`/`name` attributes of its HTML.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = HashSet::new();
    for (_, line) in prose_lines(text) {
        let t = line.trim_start();
        let level = t.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&level) && line.len() - t.len() <= 3 {
            let rest = &t[level..];
            if rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t') {
                let rest = rest.trim().trim_end_matches('#').trim_end();
                let base = slug(&heading_text(rest));
                let n = seen.entry(base.clone()).or_insert(0);
                out.insert(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
                *n += 1;
            }
        }
        for attr in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(at) = rest.find(attr) {
                let after = &rest[at + attr.len()..];
                let Some(end) = after.find('"') else { break };
                out.insert(after[..end].to_owned());
                rest = &after[end..];
            }
        }
    }
    out
}

/// `path` with `.` and `..` resolved lexically (no symlinks followed).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Every broken link of the Markdown files under `root`, one line each:
/// `file:line: destination: why`.
fn broken_links(root: &Path) -> (usize, Vec<String>) {
    let files = markdown_files(root);
    let mut anchor_cache: BTreeMap<PathBuf, HashSet<String>> = BTreeMap::new();
    let mut anchors_of = |path: &Path| -> HashSet<String> {
        anchor_cache
            .entry(path.to_path_buf())
            .or_insert_with(|| anchors(&fs::read_to_string(path).unwrap_or_default()))
            .clone()
    };
    let mut checked = 0;
    let mut broken = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
        let shown = file.strip_prefix(root).unwrap_or(file).display().to_string();
        let dir = file.parent().expect("a file has a directory");
        for (number, line) in prose_lines(&text) {
            let line = without_code_spans(line);
            let mut dests = inline_destinations(&line);
            dests.extend(reference_destination(&line));
            for dest in dests {
                if dest.is_empty() || has_scheme(&dest) {
                    continue;
                }
                checked += 1;
                let (path_part, anchor) = match dest.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (dest.as_str(), None),
                };
                let path_part = path_part.split('?').next().unwrap_or("");
                let target =
                    if path_part.is_empty() { file.clone() } else { normalise(&dir.join(percent_decode(path_part))) };
                if !target.exists() {
                    broken.push(format!("{shown}:{number}: ({dest}): no such file or directory"));
                    continue;
                }
                let is_markdown = target.extension().is_some_and(|e| e == "md");
                if let (Some(anchor), true) = (anchor, is_markdown) {
                    let anchor = percent_decode(anchor);
                    if !anchor.is_empty() && !anchors_of(&target).contains(&anchor) {
                        broken.push(format!("{shown}:{number}: ({dest}): no heading with the anchor #{anchor}"));
                    }
                }
            }
        }
    }
    (checked, broken)
}

#[test]
fn every_relative_markdown_link_resolves() {
    let root = root();
    let files = markdown_files(&root);
    assert!(files.iter().any(|f| f.ends_with("README.md")), "no README.md found under {}", root.display());
    let (checked, broken) = broken_links(&root);
    assert!(checked > 0, "no relative link found in {} Markdown files", files.len());
    assert!(
        broken.is_empty(),
        "{} broken link(s) of {checked} relative links in {} Markdown files:\n{}",
        broken.len(),
        files.len(),
        broken.join("\n")
    );
}

#[test]
fn slugs_follow_githubs_rule() {
    assert_eq!(slug(&heading_text("The two commands")), "the-two-commands");
    assert_eq!(
        slug(&heading_text("Translation rules: MSVC `__asm` to `asm!`, as applied")),
        "translation-rules-msvc-__asm-to-asm-as-applied"
    );
    assert_eq!(
        slug(&heading_text("Reliability: fuzzing, memcheck, Miri, properties")),
        "reliability-fuzzing-memcheck-miri-properties"
    );
    assert_eq!(slug(&heading_text("Bad input, end to end")), "bad-input-end-to-end");
    assert_eq!(slug(&heading_text("See [the notes](asm_notes/README.md) now")), "see-the-notes-now");
    let repeated = anchors("# A\n## A\n```\n# not a heading\n```\n## A\n");
    assert!(repeated.contains("a") && repeated.contains("a-1") && repeated.contains("a-2"), "{repeated:?}");
}

#[test]
fn links_in_code_and_with_schemes_are_not_checked() {
    let line = without_code_spans("see `[x](nowhere.md)` and [y](here.md) and [z](https://example.com/a)");
    assert_eq!(inline_destinations(&line), ["here.md", "https://example.com/a"]);
    assert!(has_scheme("https://example.com/a") && has_scheme("mailto:someone@example.com"));
    assert!(!has_scheme("docs/results.md#results") && !has_scheme("#anchor"));
    assert_eq!(inline_destinations("![a picture](docs/x.png \"title\")"), ["docs/x.png"]);
    assert_eq!(reference_destination("[label]: <a b.md>"), Some("a b.md".to_owned()));
    assert_eq!(percent_decode("a%20b.md"), "a b.md");
}
