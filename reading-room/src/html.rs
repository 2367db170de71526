//! HTML writing: escaping, the page shell, the style sheet, and a small
//! Markdown-to-HTML converter for the report's text and the notes' excerpts
//! (headings, pipe tables, lists, fenced code, paragraphs; inline code,
//! bold and links). Links are rendered as their text only, except a notes'
//! link to one of its errata (`#e3-...`), which becomes a link to the
//! erratum's text on the page (`#E3-note`): the site links nowhere outside
//! itself.

use std::fmt::Write as _;

/// `s` with `& < > " '` escaped, for text and attribute values.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}

/// A whole page: `title`, the navigation bar, `body`. The `generator` meta
/// tag is the marker `scripts/reading_room.sh` looks for in the DOM
/// Chromium builds, to tell the page from a browser error page.
pub fn page(title: &str, nav: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"generator\" content=\"animasm reading room\">\n<title>{}</title>\n\
         <link rel=\"stylesheet\" href=\"style.css\">\n</head>\n<body>\n<nav>{nav}</nav>\n<main>\n{body}</main>\n\
         </body>\n</html>\n",
        esc(title)
    )
}

/// The style sheet (`style.css`).
pub const CSS: &str = "\
body { font-family: system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #fbfbf8; }
nav { background: #23303b; padding: 0.5em 1em; position: sticky; top: 0; z-index: 2; }
nav a { color: #e6eef5; margin-right: 1em; text-decoration: none; font-size: 0.9em; }
nav a:hover { text-decoration: underline; }
main { padding: 1em 2em; max-width: 110em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; border-bottom: 1px solid #ccc; margin-top: 1.6em; }
code, pre, .mono { font-family: ui-monospace, 'DejaVu Sans Mono', monospace; font-size: 0.86em; }
pre { background: #f0f0ea; padding: 0.6em; overflow-x: auto; }
table { border-collapse: collapse; margin: 0.5em 0 1em 0; }
th, td { border: 1px solid #d4d4cc; padding: 0.15em 0.45em; vertical-align: top; text-align: left; }
th { background: #e9ece6; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.listing { width: 100%; }
table.listing td { font-family: ui-monospace, 'DejaVu Sans Mono', monospace; font-size: 0.8em; white-space: pre-wrap; }
table.listing tr.label th { background: #23303b; color: #fff; text-align: left; font-size: 1em; }
table.listing tr.comment td { color: #5b6b3a; font-style: italic; background: #f6f8ef; }
table.listing tr.insert td { background: #fff4dc; }
table.listing tr.dev td { background: #fff4dc; }
table.listing tr.erratum td.lst { border-left: 4px solid #c0392b; }
table.listing tr.inloop td.n { background: #dde8f3; }
.none { color: #9a4a00; font-style: italic; }
.lineno { color: #888; margin-right: 0.4em; }
.cmt { color: #5b6b3a; }
.tag { display: inline-block; border-radius: 3px; padding: 0 0.3em; margin-left: 0.3em; font-size: 0.85em; }
.tag.e { background: #fde2df; color: #8e1b10; }
.tag.d { background: #ffe8b3; color: #6b4500; }
.tag.r { background: #e0e8ff; color: #203a8a; }
.box { border: 1px solid #ccd; background: #f4f6fb; padding: 0.5em 1em; margin: 0.8em 0; }
.erratum { border-left: 4px solid #c0392b; padding: 0.2em 1em; margin: 0.8em 0; background: #fff; }
.pressure { font-size: 0.75em; color: #334; }
img.plot { max-width: 100%; border: 1px solid #ddd; background: #fff; }
details > summary { cursor: pointer; }
";

/// Inline Markdown: `code`, **bold**, `[text](url)` (the text only, or a link
/// to the erratum's text on the page when the url is a same-page erratum
/// anchor `#e<n>-...`). Escapes everything else.
pub fn inline(s: &str) -> String {
    let mut o = String::new();
    let mut rest = s;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('`')
            && let Some(end) = r.find('`')
        {
            let _ = write!(o, "<code>{}</code>", esc(&r[..end]));
            rest = &r[end + 1..];
            continue;
        }
        if let Some(r) = rest.strip_prefix("**")
            && let Some(end) = r.find("**")
        {
            let _ = write!(o, "<strong>{}</strong>", inline(&r[..end]));
            rest = &r[end + 2..];
            continue;
        }
        if let Some(r) = rest.strip_prefix('[')
            && let Some((text, after)) = r.split_once("](")
            && let Some(end) = after.find(')')
            && text.matches('`').count() % 2 == 0
        {
            match erratum_anchor(&after[..end]) {
                Some(id) => {
                    let _ = write!(o, "<a href=\"#{id}-note\">{}</a>", inline(text));
                }
                None => o.push_str(&inline(text)),
            }
            rest = &after[end + 1..];
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        o.push_str(&esc(&c.to_string()));
        rest = &rest[c.len_utf8()..];
    }
    o
}

/// A same-page link to a notes' erratum (`#e3-a-dot-product-...`): the
/// page's id of its text (`E3`).
fn erratum_anchor(url: &str) -> Option<String> {
    let rest = url.strip_prefix("#e")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (!digits.is_empty() && rest[digits.len()..].starts_with('-')).then(|| format!("E{digits}"))
}

/// The cells of a pipe-table line (`| a | b |`), `\|` kept as `|`.
fn cells(line: &str) -> Vec<String> {
    let t = line.trim().trim_start_matches('|');
    let t = t.strip_suffix('|').unwrap_or(t);
    let mut out = vec![String::new()];
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => out.push(String::new()),
            _ => out.last_mut().unwrap().push(c),
        }
    }
    out.into_iter().map(|c| c.trim().to_owned()).collect()
}

fn is_separator(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('|') && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

/// Markdown to HTML. `heading_shift` is added to the heading levels (so a
/// note's `###` can become an `h4`).
pub fn markdown(md: &str, heading_shift: usize) -> String {
    let lines: Vec<&str> = md.lines().collect();
    let mut o = String::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let t = l.trim();
        if t.is_empty() {
            i += 1;
        } else if t.starts_with("```") {
            let mut j = i + 1;
            let mut code = String::new();
            while j < lines.len() && !lines[j].trim().starts_with("```") {
                code.push_str(lines[j]);
                code.push('\n');
                j += 1;
            }
            let _ = writeln!(o, "<pre>{}</pre>", esc(&code));
            i = j + 1;
        } else if t.starts_with('#') {
            let level = t.chars().take_while(|&c| c == '#').count();
            let text = t[level..].trim();
            let h = (level + heading_shift).min(6);
            let _ = writeln!(o, "<h{h}>{}</h{h}>", inline(text));
            i += 1;
        } else if t.starts_with('|') && lines.get(i + 1).is_some_and(|n| is_separator(n)) {
            o.push_str("<table>\n<tr>");
            for c in cells(t) {
                let _ = write!(o, "<th>{}</th>", inline(&c));
            }
            o.push_str("</tr>\n");
            let right: Vec<bool> =
                cells(lines[i + 1]).iter().map(|c| c.ends_with(':') && !c.starts_with(':')).collect();
            let mut j = i + 2;
            while j < lines.len() && lines[j].trim().starts_with('|') {
                o.push_str("<tr>");
                for (k, c) in cells(lines[j]).iter().enumerate() {
                    let class = if right.get(k).copied().unwrap_or(false) { " class=\"num\"" } else { "" };
                    let _ = write!(o, "<td{class}>{}</td>", inline(c));
                }
                o.push_str("</tr>\n");
                j += 1;
            }
            o.push_str("</table>\n");
            i = j;
        } else if t.starts_with("- ") || t.starts_with("* ") {
            o.push_str("<ul>\n");
            let indent = l.len() - l.trim_start().len();
            let mut j = i;
            while j < lines.len() {
                let lj = lines[j];
                let tj = lj.trim();
                let ind = lj.len() - lj.trim_start().len();
                if (tj.starts_with("- ") || tj.starts_with("* ")) && ind == indent {
                    let mut item = tj[2..].to_owned();
                    j += 1;
                    while j < lines.len() {
                        let n = lines[j];
                        let nt = n.trim();
                        let nind = n.len() - n.trim_start().len();
                        if nt.is_empty() || nind <= indent || nt.starts_with('|') {
                            break;
                        }
                        item.push(' ');
                        item.push_str(nt);
                        j += 1;
                    }
                    let _ = writeln!(o, "<li>{}</li>", inline(&item));
                } else {
                    break;
                }
            }
            o.push_str("</ul>\n");
            i = j;
        } else {
            let mut para = String::new();
            let mut j = i;
            while j < lines.len() {
                let tj = lines[j].trim();
                if tj.is_empty() || tj.starts_with('#') || tj.starts_with("```") || tj.starts_with("- ") {
                    break;
                }
                if tj.starts_with('|') && lines.get(j + 1).is_some_and(|n| is_separator(n)) {
                    break;
                }
                if !para.is_empty() {
                    para.push(' ');
                }
                para.push_str(tj);
                j += 1;
            }
            let _ = writeln!(o, "<p>{}</p>", inline(&para));
            i = j;
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_blocks() {
        let h = markdown(
            "## Title\n\ntext `a<b` and **bold**\nmore\n\n| a | b |\n|:--|--:|\n| x | 1 |\n\n- one\n  two\n- three\n",
            0,
        );
        assert!(h.contains("<h2>Title</h2>"));
        assert!(h.contains("<p>text <code>a&lt;b</code> and <strong>bold</strong> more</p>"));
        assert!(h.contains("<tr><td>x</td><td class=\"num\">1</td></tr>"));
        assert!(h.contains("<li>one two</li>") && h.contains("<li>three</li>"));
        assert_eq!(inline("[x](https://a.b/c) [y](#e1-z) [w](#x)"), "x <a href=\"#E1-note\">y</a> w");
    }
}
