//! The index page: this CPU, links to the routine pages (with their
//! alignment figures), the errata index of every routine linking to the
//! anchors, the SVG plots and the report's text with its tables as HTML.

use std::fmt::Write as _;

use super::SiteInput;
use super::html::{esc, inline, markdown, page};
use super::notes;
use super::page::{PageSummary, nav};

/// The index page.
pub fn index_page(readme: &str, input: &SiteInput, pages: &[PageSummary]) -> String {
    let cpu = if input.cpu.is_empty() { "(not named in this input)" } else { input.cpu.as_str() };
    let mut b = format!(
        "<h1>animasm: the reading room</h1>\n<p class=\"box\">Measured on <strong>{}</strong>. Every figure not \
         labelled \"published\" was measured in the run that wrote this site.</p>\n",
        esc(cpu)
    );
    b.push_str(
        "<h2 id=\"routines\">Routines</h2>\n<table><tr><th>page</th><th>paper</th><th>listing</th>\
                <th>instructions</th><th>rows without <code>asm!</code></th><th>rows without intrinsics</th></tr>\n",
    );
    for p in pages {
        if p.listings.is_empty() {
            let _ = writeln!(
                b,
                "<tr><td><a href=\"{}.html\">{}</a></td><td>{}</td><td>none</td><td></td><td></td><td></td></tr>",
                esc(&p.page),
                esc(&p.routine),
                esc(&p.paper)
            );
        }
        for (k, (file, n, a, i)) in p.listings.iter().enumerate() {
            let first = if k == 0 {
                format!("<a href=\"{}.html\">{}</a>", esc(&p.page), esc(&p.routine))
            } else {
                String::new()
            };
            let _ = writeln!(
                b,
                "<tr><td>{first}</td><td>{}</td><td><code>{}</code></td><td class=\"num\">{n}</td>\
                 <td class=\"num\">{a}</td><td class=\"num\">{i}</td></tr>",
                if k == 0 { esc(&p.paper) } else { String::new() },
                esc(file)
            );
        }
    }
    b.push_str("</table>\n");
    b.push_str(&errata_index(readme, pages));
    if !input.plots.is_empty() {
        b.push_str("<h2 id=\"plots\">Plots</h2>\n");
        for p in &input.plots {
            let _ = writeln!(b, "<p><img class=\"plot\" src=\"{}\" alt=\"{}\"></p>", esc(p), esc(p));
        }
    }
    b.push_str("<h2 id=\"report\">The report</h2>\n");
    if input.report_text.trim().is_empty() {
        b.push_str("<p class=\"none\">No report text in this input.</p>\n");
    } else {
        b.push_str(&markdown(&input.report_text, 1));
    }
    page("animasm reading room", &nav(), &b)
}

/// Every erratum of every routine, linking to its anchor on its page.
fn errata_index(readme: &str, pages: &[PageSummary]) -> String {
    let tests = notes::errata_tests(readme);
    let mut h = String::from(
        "<h2 id=\"errata\">Errata index</h2>\n<p>From <code>asm_notes/README.md</code>, \"Errata index\": every \
         erratum links to its rows on the routine's page (or to the page's list of errata without a row).</p>\n\
         <table><tr><th>routine</th><th>erratum</th><th>where</th><th>test</th></tr>\n",
    );
    let all: Vec<(String, String, String, bool)> = pages
        .iter()
        .flat_map(|p| p.errata.iter().map(|(id, head, row)| (p.page.clone(), id.clone(), head.clone(), *row)))
        .collect();
    for (page, id, head, row) in all {
        let test = tests.iter().find(|(r, i, _)| *r == page && *i == id).map_or(String::new(), |t| inline(&t.2));
        let _ = writeln!(
            h,
            "<tr><td>{page}</td><td><a href=\"{page}.html#{id}\">{}</a></td><td>{}</td><td>{test}</td></tr>",
            inline(&head),
            if row { "listing rows" } else { "no row" }
        );
    }
    h.push_str("</table>\n");
    h
}
