//! What the pages take from the notes (`asm_notes/<routine>.md` and
//! `asm_notes/README.md`): the errata (heading, first paragraph, GitHub
//! anchor), the errata index's tests, the register maps and the deviations
//! tables. Text only.

/// One erratum of a routine's notes.
#[derive(Clone, Debug)]
pub struct Erratum {
    /// `E1`, `E2`, ...
    pub id: String,
    /// The heading without `### ` (`E1. Four joints take the one-wide loop`).
    pub heading: String,
    /// The first paragraph (or list) after the heading, as Markdown.
    pub first: String,
    /// GitHub's anchor of the heading (`e1-four-joints-take-the-one-wide-loop`).
    pub slug: String,
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, everything but
/// letters, digits, `-` and `_` dropped.
pub fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The lines of the section that starts with the line `heading` (exactly,
/// after trimming), up to the next heading of the same or a higher level.
pub fn section<'a>(md: &'a str, heading_prefix: &str) -> Option<Vec<&'a str>> {
    let lines: Vec<&str> = md.lines().collect();
    let start = lines.iter().position(|l| l.starts_with(heading_prefix))?;
    let level = lines[start].chars().take_while(|&c| c == '#').count();
    let mut in_code = false;
    let mut end = lines.len();
    for (k, l) in lines.iter().enumerate().skip(start + 1) {
        if l.trim_start().starts_with("```") {
            in_code = !in_code;
        }
        let h = l.chars().take_while(|&c| c == '#').count();
        if !in_code && h > 0 && h <= level && l[h..].starts_with(' ') {
            end = k;
            break;
        }
    }
    Some(lines[start..end].to_vec())
}

/// The errata of a routine's notes: every `### E<n>` under `## Errata`.
pub fn errata(md: &str) -> Vec<Erratum> {
    let Some(lines) = section(md, "## Errata") else { return Vec::new() };
    let mut out = Vec::new();
    for (k, l) in lines.iter().enumerate() {
        let Some(h) = l.strip_prefix("### ") else { continue };
        let id: String = h.chars().take_while(|c| *c != '.' && *c != ' ').collect();
        if !(id.starts_with('E') && id.len() > 1 && id[1..].bytes().all(|b| b.is_ascii_digit())) {
            continue;
        }
        let mut first = Vec::new();
        for l in lines[k + 1..].iter().skip_while(|l| l.trim().is_empty()) {
            if l.trim().is_empty() || l.starts_with('#') {
                break;
            }
            first.push(*l);
        }
        out.push(Erratum { id, heading: h.trim().to_owned(), first: first.join("\n"), slug: slug(h.trim()) });
    }
    out
}

/// The errata index of `asm_notes/README.md`: (routine, `E<n>`, test).
pub fn errata_tests(readme: &str) -> Vec<(String, String, String)> {
    let Some(lines) = section(readme, "## Errata index") else { return Vec::new() };
    lines
        .iter()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| routine"))
        .filter_map(|l| {
            let c: Vec<&str> = l.split(" | ").collect();
            if c.len() < 3 {
                return None;
            }
            let routine = c[0].trim_start_matches('|').trim();
            let id: String = c[1].trim_start_matches('[').chars().take_while(|c| !c.is_whitespace()).collect();
            let test = c[2..].join(" | ");
            Some((routine.to_owned(), id, test.trim_end_matches('|').trim().to_owned()))
        })
        .collect()
}

/// The register map of a routine: its section of `asm_notes/README.md`
/// (`### <routine>, ...`), or its own notes' `## Register map`.
pub fn register_map(readme: &str, notes: &str, routine_prefix: Option<&str>) -> Option<String> {
    match routine_prefix {
        Some(p) => section(readme, &format!("### {p},")).map(|l| l.join("\n")),
        // The page has its own heading: the section's body only.
        None => section(notes, "## Register map").map(|l| l[1..].join("\n")),
    }
}

/// The deviations table rows of a routine's notes: (`D<n>`, the cells).
pub fn deviations(md: &str) -> Vec<(String, Vec<String>)> {
    let Some(lines) = section(md, "## Deviations") else { return Vec::new() };
    lines
        .iter()
        .filter(|l| l.starts_with("| "))
        .filter_map(|l| {
            let cells: Vec<String> =
                l.trim().trim_matches('|').split(" | ").map(|c| c.trim().trim_matches('|').trim().to_owned()).collect();
            let id = cells.first()?.trim_matches(['*', '`']).to_owned();
            let ok = id.starts_with('D') && id.len() > 1 && id[1..].bytes().all(|b| b.is_ascii_digit());
            ok.then_some((id, cells))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_as_github() {
        assert_eq!(
            slug("E5. Translations are lerped as t + (b - t) lerp"),
            "e5-translations-are-lerped-as-t--b---t-lerp"
        );
        assert_eq!(slug("E1. `ALIGN4_INIT4` is not defined"), "e1-align4_init4-is-not-defined");
    }

    #[test]
    fn errata_sections() {
        let md =
            "## Errata\n\nintro\n\n### E1. One\n\nfirst para\nline two\n\nsecond\n\n### E2. Two\n- a\n\n## Accuracy\n";
        let e = errata(md);
        assert_eq!(e.len(), 2);
        assert_eq!((e[0].id.as_str(), e[0].first.as_str()), ("E1", "first para\nline two"));
        assert_eq!(e[1].first, "- a");
    }
}
