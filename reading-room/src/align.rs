//! The alignment of one listing with its port: for every listing
//! instruction, the `asm!` line(s) that implement it, the intrinsics line
//! whose trailing comment names it, its block, its errata and its
//! deviation. No HTML here: [`super::page`] renders the rows.

use super::sources::{Cand, SrcLine, normalize, same_instruction};
use super::tables::{ErratumSpec, Occ};
use asmkit::listing::{Item, Listing, parse_deviation};
use asmkit::objdump::{Instr, parse_instr};

/// One row of a listing table, in file order.
#[derive(Clone, Debug)]
pub enum Row {
    /// A label line: a block heading.
    Label(String),
    /// A comment line of the listing.
    Comment(String),
    /// A listing instruction.
    Instr(Box<InstrRow>),
    /// An instruction the port has and the listing has not (`//@ D<n> insert:`).
    Insert { id: String, text: String, asm: Vec<SrcLine> },
}

/// A listing instruction and what the port has for it.
#[derive(Clone, Debug)]
pub struct InstrRow {
    /// Its index among the listing's instructions (0-based).
    pub index: usize,
    /// Its line in the listing file.
    pub line: usize,
    pub text: String,
    /// The paper's trailing comment (markers removed).
    pub comment: String,
    /// `//@ rebuilt: <why>`.
    pub rebuilt: Option<String>,
    /// `//@ D<n> asm: ...`: (`D<n>`, what the port has).
    pub deviation: Option<(String, String)>,
    /// The `asm!` lines (several for a deviation that replaces one by two).
    pub asm: Vec<SrcLine>,
    /// The intrinsics line whose comment names it, and that line's code.
    pub intrinsics: Option<Cand>,
    /// The block (label; `""` before the first).
    pub block: String,
    /// In the main loop (label to the branch back).
    pub in_loop: bool,
    /// The expected-instruction indices (into `Listing::expected`) it maps to.
    pub expected: Vec<usize>,
    /// The errata that concern it.
    pub errata: Vec<String>,
}

/// Splits a trailing comment into the paper's text, `rebuilt` and `D<n> asm:`.
fn split_comment(comment: &str) -> (String, Option<String>, Option<(String, String)>) {
    let mut parts = comment.split("//@");
    let text = parts.next().unwrap_or("").trim().trim_start_matches("//").trim().to_owned();
    let (mut rebuilt, mut dev) = (None, None);
    for m in parts {
        let m = m.trim();
        if let Some(why) = m.strip_prefix("rebuilt:") {
            rebuilt = Some(why.trim().to_owned());
        } else if let Some((id, "asm", rest)) = parse_deviation(m) {
            dev = Some((id.to_owned(), rest.to_owned()));
        }
    }
    (text, rebuilt, dev)
}

/// A longest-common-subsequence matching of `a` against `b`
/// ([`asmkit::listing::align`]): for each `a[i]` the `b[j]` it is matched with.
pub fn lcs(a: &[Instr], b: &[Instr]) -> Vec<Option<usize>> {
    let mut out = vec![None; a.len()];
    for e in asmkit::listing::align(a, b) {
        if let asmkit::listing::Edit::Same(i, j) = e {
            out[i] = Some(j);
        }
    }
    out
}

/// How far ahead of the last match an intrinsics comment may be.
const WINDOW: usize = 80;

/// The first candidate at or after `from` (within [`WINDOW`]) that names
/// one of `wanted` (normalized).
fn find_candidate(cands: &[Cand], from: usize, wanted: &[String]) -> Option<usize> {
    (from..cands.len().min(from + WINDOW))
        .find(|&k| wanted.iter().any(|w| same_instruction(&normalize(&cands[k].text), w)))
}

/// The first candidate at or after `from` (within [`WINDOW`]) that starts
/// with the listing's comment (the C statement an instruction implements,
/// as in `slerp_quats`, whose twin is the article's C with intrinsics).
fn find_comment(cands: &[Cand], from: usize, comment: &str) -> Option<usize> {
    let squeeze = |s: &str| s.split_whitespace().collect::<String>().to_ascii_lowercase();
    let c = squeeze(comment.split(';').next().unwrap_or(""));
    if c.len() < 8 {
        return None;
    }
    (from..cands.len().min(from + WINDOW)).find(|&k| squeeze(&cands[k].text).starts_with(&c))
}

/// The rows of a listing aligned with the asm lines and the intrinsics
/// candidates.
pub fn rows(l: &Listing, asm: &[SrcLine], cands: &[Cand], loop_label: &str) -> Vec<Row> {
    let exp: Vec<Instr> = l.expected.iter().map(|e| e.instr.clone()).collect();
    let asm_instr: Vec<Instr> = asm.iter().map(|s| parse_instr(&s.text)).collect();
    let matched = lcs(&exp, &asm_instr);
    let asm_of = |k: usize| matched[k].map(|j| asm[j].clone());
    let loop_range = l.loop_range(loop_label);
    let mut block = String::new();
    let mut cursor = 0;
    let mut macro_line: Option<Cand> = None;
    let mut out = Vec::new();
    let mut expected_seen = 0;
    for item in &l.items {
        match item {
            Item::Label(name) => {
                block = name.clone();
                out.push(Row::Label(name.clone()));
            }
            Item::Comment(c) => out.push(Row::Comment(c.clone())),
            Item::Insert(id, text) => {
                let n = text.split(';').filter(|s| !s.trim().is_empty() && text.trim() != "-").count();
                let asm_lines = (expected_seen..expected_seen + n).filter_map(asm_of).collect();
                expected_seen += n;
                out.push(Row::Insert { id: id.clone(), text: text.clone(), asm: asm_lines });
            }
            Item::Instr(i) => {
                let o = &l.original[*i];
                let expected: Vec<usize> =
                    (expected_seen..l.expected.len()).take_while(|&k| l.expected[k].original == Some(*i)).collect();
                expected_seen += expected.len();
                let (comment, rebuilt, deviation) = split_comment(&o.comment);
                let intrinsics = match &o.macro_call {
                    Some((call, 0)) => {
                        macro_line = find_candidate(cands, cursor, &[normalize(call)]).map(|k| {
                            cursor = k + 1;
                            cands[k].clone()
                        });
                        macro_line.clone()
                    }
                    Some(_) => macro_line.clone(),
                    None => {
                        let mut wanted = vec![normalize(&o.text)];
                        if let Some((_, rest)) = &deviation {
                            wanted.extend(rest.split(';').map(normalize).filter(|w| !w.is_empty() && w != "-"));
                        }
                        find_candidate(cands, cursor, &wanted).or_else(|| find_comment(cands, cursor, &comment)).map(
                            |k| {
                                cursor = k + 1;
                                cands[k].clone()
                            },
                        )
                    }
                };
                out.push(Row::Instr(Box::new(InstrRow {
                    index: *i,
                    line: o.line,
                    text: o.text.clone(),
                    comment,
                    rebuilt,
                    deviation,
                    asm: expected.iter().filter_map(|&k| asm_of(k)).collect(),
                    intrinsics,
                    block: block.clone(),
                    in_loop: loop_range.contains(i),
                    expected,
                    errata: Vec::new(),
                })));
            }
        }
    }
    out
}

/// Marks the rows each erratum concerns; fails if a needle matches no row.
pub fn mark_errata(rows: &mut [Row], specs: &[ErratumSpec], what: &str) -> Result<(), String> {
    for spec in specs {
        for &(block, needle, occ) in spec.rows {
            let n = normalize(needle).replace(' ', "");
            let hits: Vec<usize> = rows
                .iter()
                .enumerate()
                .filter_map(|(k, r)| match r {
                    Row::Instr(r) if r.block == block && normalize(&r.text).replace(' ', "").contains(&n) => Some(k),
                    _ => None,
                })
                .collect();
            let chosen: Vec<usize> = match occ {
                Occ::All => hits,
                Occ::Nth(i) => hits.get(i).copied().into_iter().collect(),
            };
            if chosen.is_empty() {
                return Err(format!(
                    "{what}: erratum {}: no instruction containing `{needle}` in block `{block}` (occurrence {}): \
                     the reading room's errata table (reading-room/src/tables.rs) needs updating",
                    spec.id,
                    match occ {
                        Occ::All => "any".to_owned(),
                        Occ::Nth(i) => i.to_string(),
                    }
                ));
            }
            for k in chosen {
                if let Row::Instr(r) = &mut rows[k]
                    && !r.errata.iter().any(|e| e == spec.id)
                {
                    r.errata.push(spec.id.to_owned());
                }
            }
        }
    }
    Ok(())
}

/// The listing instructions of `rows`.
pub fn instr_rows(rows: &[Row]) -> impl Iterator<Item = &InstrRow> {
    rows.iter().filter_map(|r| match r {
        Row::Instr(r) => Some(r.as_ref()),
        _ => None,
    })
}
