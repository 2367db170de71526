//! The routine pages: the aligned listing table, the C per block, the
//! register map, the errata, the deviations, the measurements and the
//! successor's inner loop.

use std::fmt::Write as _;
use std::path::Path;

use super::LoopPressure;
use super::align::{self, InstrRow, Row};
use super::html::{esc, inline, markdown, page};
use super::notes::{self, Erratum};
use super::sources::{self, SrcLine};
use super::tables::{ListingSpec, PageSpec};
use super::{SiteInput, gungraun_counts, pages, read, routines_of, tables};
use asmkit::listing::parse_listing;

/// What the index needs from a routine page.
#[derive(Clone, Debug)]
pub struct PageSummary {
    pub page: String,
    pub routine: String,
    pub paper: String,
    /// Per listing: (file, instructions, rows without an asm! line, rows
    /// without an intrinsics line).
    pub listings: Vec<(String, usize, usize, usize)>,
    /// The errata: (id, heading, has a row).
    pub errata: Vec<(String, String, bool)>,
}

/// The navigation bar: the index and every page.
pub fn nav() -> String {
    let mut s = String::from("<a href=\"index.html\">index</a>");
    for p in pages().0.iter().map(|p| p.name()) {
        let _ = write!(s, "<a href=\"{p}.html\">{p}</a>");
    }
    s
}

/// The C lines of each block: (block, heading, code) in the table's order.
fn scalar_blocks(root: &Path, spec: &PageSpec) -> Result<Vec<(String, String)>, String> {
    let rel = format!("src/{}/scalar.rs", spec.routine);
    let text = read(root, &rel)?;
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for b in spec.scalar {
        let mut h = String::new();
        if b.ranges.is_empty() {
            let _ = write!(h, "<p class=\"none\">C: none ({})</p>", inline(b.none));
        }
        for &(start, end) in b.ranges {
            let (a, z) = sources::range(&rel, &text, start, end)?;
            let code = lines[a - 1..z].join("\n");
            let _ = write!(
                h,
                "<details><summary>C: <code>{}</code> lines {a}-{z}</summary><pre>{}</pre></details>",
                esc(&rel),
                esc(&code)
            );
        }
        out.push((b.block.to_owned(), h));
    }
    Ok(out)
}

fn src_cell(lines: &[SrcLine]) -> String {
    lines
        .iter()
        .map(|l| format!("<span class=\"lineno\">{}</span>{}", l.line, esc(&l.text)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The asm! cell, or why there is none (`data-none`).
fn asm_cell(r: &InstrRow) -> String {
    if !r.asm.is_empty() {
        return format!("<td>{}</td>", src_cell(&r.asm));
    }
    let why = match &r.deviation {
        Some((id, rest)) => format!("none: <a href=\"#{id}\">{id}</a> ({})", esc(rest)),
        None => "none: no asm! line matched".to_owned(),
    };
    format!("<td class=\"none\" data-none=\"asm\">{why}</td>")
}

/// The intrinsics cell, or why there is none (`data-none`).
fn intrinsics_cell(r: &InstrRow) -> String {
    match &r.intrinsics {
        Some(c) => format!(
            "<td><span class=\"lineno\">{}{}</span>{}</td>",
            if c.file.ends_with("/intrinsics.rs") { "" } else { c.file.rsplit('/').next().unwrap_or("") },
            if c.file.ends_with("/intrinsics.rs") { c.line.to_string() } else { format!(":{}", c.line) },
            if c.code.is_empty() { format!("<span class=\"cmt\">// {}</span>", esc(&c.text)) } else { esc(&c.code) }
        ),
        None => {
            let why = match &r.deviation {
                Some((id, _)) => format!("none: <a href=\"#{id}\">{id}</a>: the twin writes the port's instructions"),
                None => {
                    "none: no intrinsics line names it (a count or loop-control step the twin writes as plain Rust)"
                        .to_owned()
                }
            };
            format!("<td class=\"none\" data-none=\"intrinsics\">{why}</td>")
        }
    }
}

/// The pressure of each listing row in the loop, when llvm-mca's loop has
/// as many instructions as the port's loop: expected index -> row.
fn pressure_of(rows: &[Row], p: Option<&LoopPressure>) -> Option<(usize, usize)> {
    let p = p?;
    let exp: Vec<usize> = align::instr_rows(rows).filter(|r| r.in_loop).flat_map(|r| r.expected.clone()).collect();
    let (first, last) = (*exp.iter().min()?, *exp.iter().max()?);
    (p.rows.len() == last - first + 1).then_some((first, last))
}

fn pressure_cell(r: &InstrRow, p: Option<&LoopPressure>, span: Option<(usize, usize)>) -> String {
    let (Some(p), Some((first, last))) = (p, span) else { return String::new() };
    let mut cells = Vec::new();
    for &k in r.expected.iter().filter(|&&k| k >= first && k <= last) {
        let row = &p.rows[k - first];
        let busy: Vec<String> = p
            .resources
            .iter()
            .zip(&row.pressure)
            .filter(|(_, v)| **v >= 0.005)
            .map(|(n, v)| format!("{} {v:.2}", esc(n)))
            .collect();
        cells.push(if busy.is_empty() { "-".to_owned() } else { busy.join(" · ") });
    }
    format!("<td class=\"pressure\">{}</td>", cells.join("<br>"))
}

/// One listing's table; returns (html, instructions, without asm!, without
/// intrinsics).
fn listing_table(
    root: &Path,
    spec: &PageSpec,
    ls: &ListingSpec,
    input: &SiteInput,
    blocks: &[(String, String)],
    anchored: &mut Vec<String>,
) -> Result<(String, usize, usize, usize), String> {
    let rel = format!("asm_notes/{}", ls.listing);
    let listing = parse_listing(&rel, &read(root, &rel)?);
    let asm_rel = format!("src/{}/asm.rs", spec.routine);
    let asm = sources::asm_lines(&asm_rel, &read(root, &asm_rel)?, ls.asm_anchor, &read(root, "src/x86/shuffle.rs")?)?;
    let intr_rel = format!("src/{}/intrinsics.rs", spec.routine);
    let mut calls = Vec::new();
    for &(pattern, file, anchor) in ls.intrinsics_calls {
        calls.push((pattern, sources::intrinsics_candidates(file, &read(root, file)?, anchor, &[])?));
    }
    let cands = sources::intrinsics_candidates(&intr_rel, &read(root, &intr_rel)?, ls.intrinsics_anchor, &calls)?;
    let mut rows = align::rows(&listing, &asm, &cands, ls.loop_label);
    align::mark_errata(&mut rows, spec.errata, &rel)?;
    let pressure = input.pressure.iter().find(|p| p.kernel == ls.kernel);
    let span = pressure_of(&rows, pressure);
    let ncol = if span.is_some() { 6 } else { 5 };
    let block_c = |b: &str| blocks.iter().find(|(n, _)| n == b).map(|(_, h)| h.clone());
    let mut h = String::new();
    let _ = write!(
        h,
        "<table class=\"listing\" data-file=\"{}\">\n<tr><th>#</th><th>listing <code>{}</code></th>\
         <th><code>asm!</code> <code>{}</code></th><th>intrinsics <code>{}</code></th><th>notes</th>{}</tr>\n",
        esc(ls.listing),
        esc(&rel),
        esc(&asm_rel),
        esc(&intr_rel),
        if span.is_some() { "<th>llvm-mca pressure</th>" } else { "" }
    );
    if let Some(c) = block_c("") {
        let _ = writeln!(h, "<tr class=\"c\"><td colspan=\"{ncol}\">(before the first label) {c}</td></tr>");
    }
    let mut seen_instr = false;
    let (mut total, mut no_asm, mut no_intr) = (0, 0, 0);
    for row in &rows {
        match row {
            Row::Label(name) => {
                let _ = writeln!(h, "<tr class=\"label\"><th colspan=\"{ncol}\">{}:</th></tr>", esc(name));
                if let Some(c) = block_c(name) {
                    let _ = writeln!(h, "<tr class=\"c\"><td colspan=\"{ncol}\">{c}</td></tr>");
                }
            }
            Row::Comment(c) if seen_instr || c.starts_with(asmkit::listing::MACRO_PREFIX) => {
                let _ = writeln!(h, "<tr class=\"comment\"><td></td><td colspan=\"{}\">{}</td></tr>", ncol - 1, esc(c));
            }
            Row::Comment(_) => {}
            Row::Insert { id, text, asm } => {
                let _ = writeln!(
                    h,
                    "<tr class=\"insert\"><td></td><td><span class=\"none\">not in the listing:</span> {} \
                     <a class=\"tag d\" href=\"#{id}\">{id} insert</a></td><td>{}</td><td></td><td></td>{}</tr>",
                    esc(text),
                    src_cell(asm),
                    if span.is_some() { "<td></td>" } else { "" }
                );
            }
            Row::Instr(r) => {
                seen_instr = true;
                total += 1;
                no_asm += usize::from(r.asm.is_empty());
                no_intr += usize::from(r.intrinsics.is_none());
                h.push_str(&instr_row(r, pressure, span, anchored));
            }
        }
    }
    h.push_str("</table>\n");
    if let (Some(p), None) = (pressure, span) {
        let _ = writeln!(
            h,
            "<p class=\"none\">llvm-mca's loop has {} instructions, the port's loop another count: its pressure is \
             not shown per row.</p>",
            p.rows.len()
        );
    }
    let header: Vec<String> = listing
        .items
        .iter()
        .take_while(|i| matches!(i, asmkit::listing::Item::Comment(_)))
        .map(|i| match i {
            asmkit::listing::Item::Comment(c) => c.clone(),
            _ => String::new(),
        })
        .collect();
    let head = format!(
        "<details><summary>The listing file's header</summary><pre>{}</pre></details>\n",
        esc(&header.join("\n"))
    );
    Ok((head + &h, total, no_asm, no_intr))
}

fn instr_row(
    r: &InstrRow,
    p: Option<&LoopPressure>,
    span: Option<(usize, usize)>,
    anchored: &mut Vec<String>,
) -> String {
    let mut class = Vec::new();
    if !r.errata.is_empty() {
        class.push("erratum");
    }
    if r.deviation.is_some() {
        class.push("dev");
    }
    if r.in_loop {
        class.push("inloop");
    }
    let mut notes = String::new();
    for e in &r.errata {
        if !anchored.contains(e) {
            anchored.push(e.clone());
            let _ = write!(notes, "<span id=\"{e}\"></span>");
        }
        let _ = write!(notes, "<a class=\"tag e\" href=\"#{e}-note\">{e}</a>");
    }
    if let Some((id, rest)) = &r.deviation {
        let _ = write!(notes, "<a class=\"tag d\" href=\"#{id}\" title=\"{}\">{id}</a>", esc(rest));
    }
    if let Some(why) = &r.rebuilt {
        let _ = write!(notes, "<span class=\"tag r\" title=\"{}\">rebuilt</span>", esc(why));
    }
    let comment = if r.comment.is_empty() {
        String::new()
    } else {
        format!("  <span class=\"cmt\">// {}</span>", esc(&r.comment))
    };
    format!(
        "<tr data-listing=\"{}\" class=\"{}\"><td class=\"n\">{}<br><span class=\"lineno\">:{}</span></td>\
         <td class=\"lst\">{}{comment}</td>{}{}<td>{notes}</td>{}</tr>\n",
        r.index,
        class.join(" "),
        r.index,
        r.line,
        esc(&r.text),
        asm_cell(r),
        intrinsics_cell(r),
        pressure_cell(r, p, span)
    )
}

/// The errata section: each erratum's heading, first paragraph, path and
/// test; `anchored` are the ids that have a row.
fn errata_section(
    spec_routine: &str,
    errata: &[Erratum],
    tests: &[(String, String, String)],
    no_row: &[(&str, &str)],
    anchored: &[String],
) -> String {
    let mut h = String::from("<h2 id=\"errata\">Errata</h2>\n");
    if errata.is_empty() {
        let _ = writeln!(
            h,
            "<p>None found: the notes (<code>asm_notes/{spec_routine}.md</code>, \"Errata\") say the listing computes \
             exactly what the C computes.</p>"
        );
    }
    for e in errata {
        let test = tests.iter().find(|(r, id, _)| r == spec_routine && *id == e.id).map(|t| t.2.as_str());
        let at = if anchored.contains(&e.id) {
            format!("<a href=\"#{}\">its first row in the listing</a>", e.id)
        } else {
            let why = no_row.iter().find(|(id, _)| *id == e.id).map_or("", |(_, w)| w);
            format!("<a href=\"#{}\">no row</a>: {}", e.id, inline(why))
        };
        let _ = writeln!(
            h,
            "<div class=\"erratum\" id=\"{}-note\"><h3>{}</h3>{}<p>Notes: <code>asm_notes/{spec_routine}.md#{}</code>. \
             Test: {}. At: {at}.</p></div>",
            e.id,
            inline(&e.heading),
            markdown(&e.first, 3),
            esc(&e.slug),
            test.map_or("(not in the errata index)".to_owned(), inline)
        );
    }
    h
}

/// The measurements box of a page: the ticks of `spec_routine`, the
/// `kernels`' ticks and llvm-mca loops, and the gungraun counts of every
/// routine of the module `spec_routine`.
fn measurements(spec_routine: &str, kernels: &[&str], input: &SiteInput) -> String {
    let mut h = String::from("<div class=\"box\" id=\"measurements\"><h2>Measurements (this run)</h2>\n");
    let ticks: Vec<_> = input.form_ticks.iter().filter(|t| t.routine == spec_routine).collect();
    for k in kernels {
        if let Some((_, t)) = input.kernel_ticks.iter().find(|(n, _)| n == k) {
            let _ =
                writeln!(h, "<p><code>{}</code> asm kernel, the paper's table: {t:.2} ticks per element.</p>", esc(k));
        }
    }
    if ticks.is_empty() {
        h.push_str("<p class=\"none\">No per-form ticks in this input (the report's successors section).</p>\n");
    } else {
        h.push_str("<table><tr><th>form</th><th>elements</th><th>ticks per element</th></tr>\n");
        for t in ticks {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.2}</td></tr>",
                esc(&t.form),
                t.elements,
                t.ticks
            );
        }
        h.push_str("</table>\n");
    }
    h.push_str(&gungraun_table(spec_routine, input));
    for k in kernels {
        match input.pressure.iter().find(|p| p.kernel == *k) {
            Some(p) => {
                let _ = writeln!(
                    h,
                    "<p>llvm-mca (<code>-mcpu={}</code>), <code>{}</code> loop <code>{}</code>: {:.2} cycles per \
                     iteration, {:.2} per element ({} per iteration).</p>",
                    esc(&p.model),
                    esc(k),
                    esc(&p.loop_label),
                    p.block_rthroughput,
                    p.block_rthroughput / p.elements_per_iteration.max(1.0),
                    p.elements_per_iteration
                );
            }
            None => {
                let _ = writeln!(h, "<p class=\"none\">llvm-mca for <code>{}</code>: not available.</p>", esc(k));
            }
        }
    }
    h.push_str("</div>\n");
    h
}

/// gungraun's counts of every routine of the module `module`, or a line
/// saying there are none.
fn gungraun_table(module: &str, input: &SiteInput) -> String {
    let mut h = String::new();
    let counts: Vec<(String, u64)> = input
        .gungraun_dir
        .as_ref()
        .map(|d| routines_of(module).flat_map(|r| gungraun_counts(d, r.name)).collect())
        .unwrap_or_default();
    if counts.is_empty() {
        h.push_str(
            "<p class=\"none\">gungraun: no result found: run <code>cargo bench -p devkit --bench instr_count</code>.</p>\n",
        );
    } else {
        h.push_str("<p>gungraun (<code>cargo bench -p devkit --bench instr_count</code>), instructions (Ir) of the whole benchmark run:</p><table><tr><th>benchmark</th><th>Ir</th></tr>\n");
        for (n, ir) in counts {
            let _ = writeln!(h, "<tr><td>{}</td><td class=\"num\">{ir}</td></tr>", esc(&n));
        }
        h.push_str("</table>\n");
    }
    h
}

/// A routine page and its summary for the index.
pub fn routine_page(
    root: &Path,
    readme: &str,
    spec: &PageSpec,
    input: &SiteInput,
) -> Result<(String, PageSummary), String> {
    let notes_md = read(root, &format!("asm_notes/{}.md", spec.routine))?;
    let errata = notes::errata(&notes_md);
    for s in spec.errata {
        if !errata.iter().any(|e| e.id == s.id) {
            return Err(format!("{}: the errata table names {}, which the notes do not have", spec.routine, s.id));
        }
    }
    let missing: Vec<&str> =
        errata.iter().filter(|e| !spec.errata.iter().any(|s| s.id == e.id)).map(|e| e.id.as_str()).collect();
    if !missing.is_empty() {
        return Err(format!("{}: errata {missing:?} of the notes have no entry in tables.rs", spec.routine));
    }
    let blocks = scalar_blocks(root, spec)?;
    let mut anchored = Vec::new();
    let mut tables = String::new();
    let mut listings = Vec::new();
    for ls in spec.listings {
        let (t, n, a, i) = listing_table(root, spec, ls, input, &blocks, &mut anchored)?;
        let _ = writeln!(
            tables,
            "<h2 id=\"listing-{}\">Listing <code>asm_notes/{}</code></h2>\n<p>{n} instructions; without an \
             <code>asm!</code> line: {a}; without an intrinsics line: {i}. Rows in the main loop \
             (<code>{}</code>) are shaded in the first column.</p>\n{t}",
            esc(ls.listing.trim_end_matches(".listing.s")),
            esc(ls.listing),
            esc(ls.loop_label)
        );
        listings.push((ls.listing.to_owned(), n, a, i));
    }
    let no_row: Vec<(&str, &str)> = spec.errata.iter().filter(|s| s.rows.is_empty()).map(|s| (s.id, s.none)).collect();
    let mut top = String::new();
    if !no_row.is_empty() {
        top.push_str("<div class=\"box\"><p>Errata without a row in the listing:</p><ul>\n");
        for (id, why) in &no_row {
            let heading = errata.iter().find(|e| e.id == *id).map_or(String::new(), |e| inline(&e.heading));
            let _ = writeln!(top, "<li id=\"{id}\"><a href=\"#{id}-note\">{heading}</a>: {}</li>", inline(why));
        }
        top.push_str("</ul></div>\n");
    }
    let tests = notes::errata_tests(readme);
    let other = other_targets_section(root, spec.routine)?;
    let mut body = format!(
        "<h1><code>{}</code></h1>\n<p>{}. Notes: <code>asm_notes/{}.md</code>. Sources: <code>src/{}/</code> \
         (<code>scalar.rs</code>, <code>intrinsics.rs</code>, <code>asm.rs</code>).</p>\n<p>Jump to: \
         <a href=\"#measurements\">measurements</a> · <a href=\"#register-map\">register map</a> · \
         <a href=\"#deviations\">deviations</a> · <a href=\"#errata\">errata</a> · <a href=\"#successor\">successor</a>{}</p>\n",
        esc(spec.routine),
        esc(spec.paper),
        esc(spec.routine),
        esc(spec.routine),
        if other.is_empty() { "" } else { " · <a href=\"#other-targets\">other targets</a>" }
    );
    body.push_str(&top);
    let kernels: Vec<&str> = spec.listings.iter().map(|l| l.kernel).collect();
    body.push_str(&measurements(spec.routine, &kernels, input));
    let notes_md_ref = &notes_md;
    body.push_str("<h2 id=\"register-map\">Register map</h2>\n");
    match notes::register_map(readme, notes_md_ref, spec.register_map) {
        Some(m) => body.push_str(&markdown(&m, 1)),
        None => body.push_str("<p class=\"none\">The notes have no register map for this routine.</p>\n"),
    }
    body.push_str(&tables);
    body.push_str(&deviations_section(spec.routine, &notes_md));
    body.push_str(&errata_section(spec.routine, &errata, &tests, &no_row, &anchored));
    body.push_str(&successor_section(spec.routine, input));
    body.push_str(&other);
    let summary = PageSummary {
        page: spec.page.to_owned(),
        routine: spec.routine.to_owned(),
        paper: spec.paper.to_owned(),
        listings,
        errata: errata.iter().map(|e| (e.id.clone(), e.heading.clone(), anchored.contains(&e.id))).collect(),
    };
    Ok((page(spec.routine, &nav(), &body), summary))
}

fn deviations_section(routine: &str, notes_md: &str) -> String {
    let mut h = String::from("<h2 id=\"deviations\">Deviations</h2>\n");
    let rows = notes::deviations(notes_md);
    if rows.is_empty() {
        let _ = writeln!(h, "<p class=\"none\">No deviations table in <code>asm_notes/{routine}.md</code>.</p>");
        return h;
    }
    let _ = writeln!(h, "<p>From <code>asm_notes/{routine}.md</code>, \"Deviations\".</p><table>");
    for (id, cells) in rows {
        let _ = write!(h, "<tr id=\"{}\">", esc(&id));
        for c in cells {
            let _ = write!(h, "<td>{}</td>", inline(&c));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
    h
}

fn successor_section(routine: &str, input: &SiteInput) -> String {
    let mut h = String::from("<h2 id=\"successor\">Successor: <code>Impl::Avx2</code>, the built inner loop</h2>\n");
    match input.successor_loops.iter().find(|(r, _)| r == routine) {
        Some((_, lines)) => {
            let _ = writeln!(
                h,
                "<p>Disassembled from the built kernel (<code>src/{routine}/avx2.rs</code>), {} instructions:</p>\
                 <table class=\"listing\"><tr><th>#</th><th>instruction</th></tr>",
                lines.len()
            );
            for (k, l) in lines.iter().enumerate() {
                let _ = writeln!(h, "<tr><td class=\"n\">{k}</td><td>{}</td></tr>", esc(l));
            }
            h.push_str("</table>\n");
        }
        None => h.push_str("<p class=\"none\">Not available in this input (the report's run disassembles it).</p>\n"),
    }
    h
}

/// The 4-lane forms of other targets (`src/<module>/neon.rs` for aarch64,
/// `src/<module>/simd128.rs` for wasm32 with SIMD128), which the build
/// that renders the site (x86_64) neither compiles nor disassembles: each
/// one's module documentation (what it is, what changed from the form it
/// follows) and its source, folded, read from the file. Empty where the
/// module has neither.
fn other_targets_section(root: &Path, module: &str) -> Result<String, String> {
    const FILES: [(&str, &str, &str); 2] = [
        ("neon.rs", "Impl::Neon", "NEON, aarch64"),
        ("simd128.rs", "Impl::Simd128", "wasm SIMD128, wasm32 built with <code>-C target-feature=+simd128</code>"),
    ];
    let mut h = String::new();
    for (file, imp, isa) in FILES {
        let rel = format!("src/{module}/{file}");
        if !root.join(&rel).exists() {
            continue;
        }
        let text = read(root, &rel)?;
        let doc: String = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .map(|l| l.trim_start_matches("//!").strip_prefix(' ').unwrap_or(l.trim_start_matches("//!")))
            .collect::<Vec<_>>()
            .join("\n");
        let code: Vec<&str> = text.lines().skip_while(|l| l.starts_with("//!")).collect();
        let _ = writeln!(
            h,
            "<h3><code>{imp}</code> ({isa}): <code>{}</code></h3>\n{}<details><summary>The source ({} lines)</summary>             <pre><code>{}</code></pre></details>",
            esc(&rel),
            markdown(&doc, 2),
            code.len(),
            esc(code.join("\n").trim())
        );
    }
    if h.is_empty() {
        return Ok(h);
    }
    Ok(format!(
        "<h2 id=\"other-targets\">The 4-lane forms of other targets</h2>\n<p>Compiled for their own targets \
         only, so not disassembled here: their documentation and source.</p>\n{h}"
    ))
}

/// The page of a module none of whose routines has a listing (nlerp's):
/// the notes' errata and the measurements.
pub fn notes_page(root: &Path, readme: &str, module: &str, input: &SiteInput) -> Result<(String, PageSummary), String> {
    let md = read(root, &format!("asm_notes/{module}.md"))?;
    let errata = notes::errata(&md);
    let tests = notes::errata_tests(readme);
    let routines: Vec<_> = routines_of(module).collect();
    let paper = routines.first().map_or("", |r| r.source.title());
    let why = format!("{module} has no listing");
    let no_row: Vec<(&str, &str)> = errata.iter().map(|e| (e.id.as_str(), why.as_str())).collect();
    let names: Vec<String> = routines.iter().map(|r| format!("<code>{}</code>", esc(r.name))).collect();
    let forms: Vec<String> = routines
        .first()
        .map(|r| r.all_forms().map(|f| format!("<code>{}</code> ({})", f.imp.name(), f.isa.name())).collect())
        .unwrap_or_default();
    let mut body = format!(
        "<h1>{}</h1>\n<p><em>{}</em>. No listing and no <code>asm!</code> kernel; the forms: {}. Notes: \
         <code>asm_notes/{module}.md</code>; sources <code>src/{module}/</code>.</p>\n<div class=\"box\"><p>Errata \
         (none has a listing row):</p><ul>\n",
        names.join(", "),
        esc(paper),
        forms.join(", ")
    );
    for e in &errata {
        let _ = writeln!(body, "<li id=\"{}\"><a href=\"#{}-note\">{}</a></li>", e.id, e.id, inline(&e.heading));
    }
    body.push_str("</ul></div>\n");
    body.push_str(&measurements(module, &[], input));
    let ids: Vec<String> = Vec::new();
    body.push_str(&errata_section(module, &errata, &tests, &no_row, &ids));
    body.push_str(&other_targets_section(root, module)?);
    let summary = PageSummary {
        page: module.to_owned(),
        routine: module.to_owned(),
        paper: paper.to_owned(),
        listings: Vec::new(),
        errata: errata.iter().map(|e| (e.id.clone(), e.heading.clone(), false)).collect(),
    };
    Ok((page(module, &nav(), &body), summary))
}

/// A link to the page of the roster's routine `name` (its module's page),
/// at its listing when the page shows one and `listing` asks for it.
fn routine_link(name: &str, listing: bool) -> String {
    let Some(r) = animasm::roster::find(name) else { return format!("<code>{}</code>", esc(name)) };
    let anchor = match tables::find(r.module) {
        Some(spec) if listing => {
            // The listing of the routine itself where the page has several
            // (a variant's), else the page's first.
            let own = spec.listings.iter().find(|l| l.listing.trim_end_matches(".listing.s") == name);
            own.or(spec.listings.first())
                .map(|l| format!("#listing-{}", l.listing.trim_end_matches(".listing.s")))
                .unwrap_or_default()
        }
        _ => String::new(),
    };
    format!("<a href=\"{}.html{anchor}\"><code>{}</code></a>", esc(r.module), esc(name))
}

/// The page of a module of composites (`pose`): the chain each routine
/// runs, linked to the chained routines' pages; each form and what it
/// chains (the `Asm` form the listings, linked to their rows); this run's
/// measurements of the routines; the notes, `asm_notes/<module>.md`.
pub fn composite_page(root: &Path, module: &str, input: &SiteInput) -> Result<(String, PageSummary), String> {
    let md = read(root, &format!("asm_notes/{module}.md"))?;
    let routines: Vec<_> = routines_of(module).collect();
    let paper = routines.first().map_or("", |r| r.source.title());
    let names: Vec<String> = routines.iter().map(|r| format!("<code>{}</code>", esc(r.name))).collect();
    let mut body = format!(
        "<h1>{}</h1>\n<p><em>{}</em>. Composites: no listing of their own; every form runs the forms of the same \
         name of the routines it chains, a chunk of joints at a time (the <code>asm</code> form chains their \
         listings). Notes: <code>asm_notes/{module}.md</code>; sources <code>src/{module}/</code>.</p>\n<p>Jump \
         to: <a href=\"#chain\">chain</a> · <a href=\"#forms\">forms</a> · <a href=\"#measurements\">measurements</a> \
         · <a href=\"#notes\">notes</a></p>\n",
        names.join(", "),
        esc(paper)
    );
    body.push_str("<h2 id=\"chain\">The chain</h2>\n<table><tr><th>routine</th><th>what it reproduces</th><th>chains, in order</th></tr>\n");
    for r in &routines {
        let chain: Vec<String> = r.chain().iter().map(|c| routine_link(c, false)).collect();
        let _ = writeln!(
            body,
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            esc(r.name),
            esc(r.listing),
            chain.join(" → ")
        );
    }
    body.push_str("</table>\n");
    body.push_str(
        "<h2 id=\"forms\">The forms</h2>\n<table><tr><th>form</th><th>origin</th><th>instruction set</th>\
         <th>what each routine chains</th></tr>\n",
    );
    let mut forms: Vec<animasm::roster::FormInfo> = Vec::new();
    for f in routines.iter().flat_map(|r| r.all_forms()) {
        if !forms.iter().any(|g| g.imp == f.imp) {
            forms.push(f);
        }
    }
    for f in &forms {
        let listing = f.origin == animasm::Origin::Listing;
        let per: Vec<String> = routines
            .iter()
            .filter(|r| r.all_forms().any(|g| g.imp == f.imp))
            .map(|r| {
                let chain: Vec<String> = r.chain().iter().map(|c| routine_link(c, listing)).collect();
                format!("<code>{}</code>: {}", esc(r.name), chain.join(" → "))
            })
            .collect();
        let what = if listing {
            "the listings (each link goes to the listing's rows)"
        } else {
            "each routine's form of this name"
        };
        let _ = writeln!(
            body,
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{what}:<br>{}</td></tr>",
            f.imp.name(),
            f.origin.name(),
            esc(f.isa.name()),
            per.join("<br>")
        );
    }
    body.push_str("</table>\n");
    body.push_str("<div class=\"box\" id=\"measurements\"><h2>Measurements (this run)</h2>\n");
    let ticks: Vec<_> = input.form_ticks.iter().filter(|t| routines.iter().any(|r| r.name == t.routine)).collect();
    if ticks.is_empty() {
        body.push_str("<p class=\"none\">No figures in this input (the report's section 8b, the whole pose).</p>\n");
    } else {
        body.push_str(
            "<p>From the report's section 8b: ticks per joint of one call and of the same form's routines \
             chained, Fox poses, no skin.</p><table><tr><th>routine</th><th>form</th><th>joints</th>\
             <th>ticks per joint</th></tr>\n",
        );
        for t in ticks {
            let _ = writeln!(
                body,
                "<tr><td><code>{}</code></td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.2}</td></tr>",
                esc(&t.routine),
                esc(&t.form),
                t.elements,
                t.ticks
            );
        }
        body.push_str("</table>\n");
    }
    body.push_str(&gungraun_table(module, input));
    body.push_str("</div>\n");
    body.push_str(&other_targets_section(root, module)?);
    body.push_str("<h2 id=\"notes\">The notes</h2>\n");
    body.push_str(&markdown(&md, 1));
    let summary = PageSummary {
        page: module.to_owned(),
        routine: module.to_owned(),
        paper: paper.to_owned(),
        listings: Vec::new(),
        errata: Vec::new(),
    };
    Ok((page(module, &nav(), &body), summary))
}
