//! The reading room's HTML (`animasm-reading-room`), generated from fixed
//! measurements into a temporary directory (no timing run), checked as
//! text: every listing instruction is one row of its page, exactly once;
//! every internal link resolves; nothing is loaded from outside the site;
//! every erratum of the notes has its anchor; the slerp_joints page aligns
//! its 359 instructions with their `asm!` and intrinsics lines except the
//! rows it marks as having none. The gungraun counts are read through the
//! bench's `cases.tsv` (a fixture directory).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use animasm_reading_room::{self as reading_room, FormTicks, LoopPressure, PressureRow, SiteInput, notes, tables};
use asmkit::listing::parse_listing;

/// Rows of the slerp_joints page marked without an intrinsics line
/// (`data-none="intrinsics"`): none. Every instruction is named by a trailing
/// comment of the twin (`src/slerp_joints/intrinsics.rs`) or of the shared
/// slerp core it calls (`src/x86/slerp_core.rs`, `slerp4` and `slerp1`).
const SLERP_JOINTS_WITHOUT_INTRINSICS: usize = 0;
/// Rows of the slerp_joints page marked without an `asm!` line: none, the
/// port keeps all 359 (no `//@ D<n>` marker).
const SLERP_JOINTS_WITHOUT_ASM: usize = 0;

fn root() -> PathBuf {
    reading_room::workspace_root()
}

/// Fixed measurements: ticks, an llvm-mca loop per kernel whose row count
/// is the port's loop, a successor loop, a plot and a report text.
fn fixed_input() -> SiteInput {
    let mut pressure = Vec::new();
    for spec in tables::SPECS {
        for ls in spec.listings {
            let text = std::fs::read_to_string(root().join("asm_notes").join(ls.listing)).unwrap();
            let l = parse_listing(ls.listing, &text);
            let r = l.loop_range(ls.loop_label);
            // The port's loop: its expected instructions from the label's to the
            // branch's, inserted ones included.
            let at: Vec<usize> =
                (0..l.expected.len()).filter(|&k| l.expected[k].original.is_some_and(|o| r.contains(&o))).collect();
            let n = at.last().unwrap() - at.first().unwrap() + 1;
            pressure.push(LoopPressure {
                kernel: ls.kernel.to_owned(),
                loop_label: ls.loop_label.to_owned(),
                model: "znver3".to_owned(),
                resources: vec!["P0".to_owned(), "P1".to_owned()],
                rows: (0..n).map(|k| PressureRow { instruction: format!("i{k}"), pressure: vec![0.5, 0.0] }).collect(),
                block_rthroughput: 50.0,
                elements_per_iteration: 4.0,
            });
        }
    }
    SiteInput {
        cpu: "Test CPU @ 1 GHz".to_owned(),
        report_text: "# animasm report\n\n## Section\n\nSome text with `code`.\n\n| a | b |\n|:--|--:|\n| x | 1.0 |\n\n- item\n  continued\n".to_owned(),
        kernel_ticks: vec![("slerp_joints".to_owned(), 50.0)],
        form_ticks: vec![FormTicks { routine: "slerp_joints".to_owned(), form: "asm".to_owned(), elements: 1024, ticks: 50.0 }],
        pressure,
        successor_loops: vec![("slerp_joints".to_owned(), vec!["vmovaps ymm0, ymmword ptr [rsi]".to_owned()])],
        gungraun_dir: None,
        plots: vec!["speedups.svg".to_owned()],
    }
}

/// Every value of `attr="..."` in `html`.
fn attrs<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    let pat = format!(" {attr}=\"");
    html.match_indices(&pat)
        .filter_map(|(p, _)| {
            let rest = &html[p + pat.len()..];
            rest.find('"').map(|e| &rest[..e])
        })
        .collect()
}

/// A directory for this process's files named `name`: under the system's
/// temporary directory with the process id; on WASI, which has neither
/// (`temp_dir` and `process::id` panic there), under cargo's
/// `CARGO_TARGET_TMPDIR`, named for the target.
fn scratch(name: &str) -> std::path::PathBuf {
    #[cfg(not(target_os = "wasi"))]
    return std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    #[cfg(target_os = "wasi")]
    return std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-wasi"));
}

/// The site, written to a temporary directory and read back.
fn site() -> BTreeMap<String, String> {
    // One directory per call: the tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = scratch(&format!("animasm-reading-room-{n}"));
    let written = reading_room::write_site(&root(), &dir, &fixed_input()).unwrap_or_else(|e| panic!("{e}"));
    let files = written
        .iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(p).unwrap()))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    files
}

/// The listing tables of a page: (file, table html).
fn listing_tables(html: &str) -> Vec<(String, &str)> {
    html.split("<table class=\"listing\" data-file=\"")
        .skip(1)
        .map(|t| {
            let file = t[..t.find('"').unwrap()].to_owned();
            (file, &t[..t.find("</table>").unwrap()])
        })
        .collect()
}

#[test]
fn every_listing_instruction_is_one_row() {
    let site = site();
    for spec in tables::SPECS {
        let html = &site[&format!("{}.html", spec.page)];
        let found = listing_tables(html);
        assert_eq!(found.len(), spec.listings.len(), "{}: listing tables", spec.page);
        assert!(!html.contains("not shown per row"), "{}: the fixed llvm-mca loops fit the port's loops", spec.page);
        for (ls, (file, table)) in spec.listings.iter().zip(found) {
            assert_eq!(file, ls.listing);
            let text = std::fs::read_to_string(root().join("asm_notes").join(ls.listing)).unwrap();
            let n = parse_listing(ls.listing, &text).original.len();
            let mut seen = vec![0usize; n];
            for v in attrs(table, "data-listing") {
                let i: usize = v.parse().unwrap();
                assert!(i < n, "{}: row data-listing={i} beyond the listing's {n} instructions", spec.page);
                seen[i] += 1;
            }
            let bad: Vec<(usize, usize)> = seen.iter().copied().enumerate().filter(|&(_, c)| c != 1).collect();
            assert!(
                bad.is_empty(),
                "{} ({}): instructions not shown exactly once (index, times): {bad:?}",
                spec.page,
                ls.listing
            );
            println!(
                "{}: {n} rows for the {n} instructions of {} ({} without an asm! line, {} without an intrinsics line)",
                spec.page,
                ls.listing,
                table.matches("data-none=\"asm\"").count(),
                table.matches("data-none=\"intrinsics\"").count()
            );
            if spec.page == "slerp_joints" {
                assert_eq!(n, 359);
            }
        }
    }
}

#[test]
fn links_resolve_and_nothing_is_external() {
    let site = site();
    let ids: BTreeMap<&str, BTreeSet<&str>> =
        site.iter().map(|(name, html)| (name.as_str(), attrs(html, "id").into_iter().collect())).collect();
    for (name, html) in site.iter().filter(|(n, _)| n.ends_with(".html")) {
        let all = attrs(html, "id");
        assert_eq!(all.len(), ids[name.as_str()].len(), "{name}: an id is given twice");
        // scripts/reading_room.sh tells a page from a browser error page by this.
        assert!(
            html.contains(r#"<meta name="generator" content="animasm reading room">"#),
            "{name}: no generator marker"
        );
        for (k, v) in ["href", "src"].iter().flat_map(|a| attrs(html, a).into_iter().map(move |v| (*a, v))) {
            let lower = v.to_ascii_lowercase();
            assert!(
                !(lower.starts_with("http:")
                    || lower.starts_with("https:")
                    || lower.starts_with("//")
                    || lower.contains("://")),
                "{name}: {k}=\"{v}\" points outside the site"
            );
        }
        let mut n = 0;
        for v in attrs(html, "href") {
            let (file, frag) = v.split_once('#').unwrap_or((v, ""));
            let target = if file.is_empty() { name.as_str() } else { file };
            if target == "style.css" {
                continue;
            }
            let page = ids.get(target).unwrap_or_else(|| panic!("{name}: href=\"{v}\": no page `{target}`"));
            assert!(frag.is_empty() || page.contains(frag), "{name}: href=\"{v}\": no id=\"{frag}\" on {target}");
            n += 1;
        }
        println!("{name}: {n} links resolve");
    }
}

#[test]
fn every_erratum_has_its_anchor() {
    let site = site();
    let mut total = 0;
    for page in reading_room::pages().0.iter().map(|p| (p.name(), p.name())) {
        let md = std::fs::read_to_string(root().join(format!("asm_notes/{}.md", page.1))).unwrap();
        let html = &site[&format!("{}.html", page.0)];
        let ids: BTreeSet<&str> = attrs(html, "id").into_iter().collect();
        for e in notes::errata(&md) {
            assert!(ids.contains(e.id.as_str()), "{}.html: no anchor id=\"{}\" ({})", page.0, e.id, e.heading);
            assert!(ids.contains(format!("{}-note", e.id).as_str()), "{}.html: no {}-note", page.0, e.id);
            total += 1;
        }
    }
    println!("{total} errata anchored");
    assert!(total >= 40);
}

#[test]
fn slerp_joints_rows_have_asm_and_intrinsics_lines() {
    let site = site();
    let html = &site["slerp_joints.html"];
    let (_, table) = listing_tables(html).into_iter().next().unwrap();
    let rows: Vec<&str> = table.split("<tr data-listing=\"").skip(1).collect();
    assert_eq!(rows.len(), 359);
    assert!(table.contains("<th>llvm-mca pressure</th>"), "the fixed llvm-mca loop is shown per row");
    assert_eq!(table.matches("<td class=\"pressure\">P0 0.50</td>").count(), 212, "loopJoint4's 212 rows");
    let (mut no_asm, mut no_intr) = (0, 0);
    for r in &rows {
        let row = &r[..r.find("</tr>").unwrap()];
        let cells: Vec<&str> = row.split("<td").skip(1).collect();
        assert!(cells.len() >= 5, "a row with {} cells: {row}", cells.len());
        for (cell, what) in [(cells[2], "asm"), (cells[3], "intrinsics")] {
            let marked = cell.contains(&format!("data-none=\"{what}\""));
            assert!(marked || cell.contains("class=\"lineno\""), "a row without its {what} line, not marked: {row}");
        }
        no_asm += usize::from(row.contains("data-none=\"asm\""));
        no_intr += usize::from(row.contains("data-none=\"intrinsics\""));
    }
    println!(
        "slerp_joints: {} rows, {no_asm} marked without an asm! line, {no_intr} marked without an intrinsics line",
        rows.len()
    );
    assert_eq!(no_asm, SLERP_JOINTS_WITHOUT_ASM);
    assert_eq!(no_intr, SLERP_JOINTS_WITHOUT_INTRINSICS);
}

#[test]
fn the_json_handoff_changes_no_page() {
    // What the report writes (`asmkit::site_input`) and the binary reads back.
    let input = fixed_input();
    let dir = scratch("animasm-reading-room-json");
    let path = input.write(&dir).unwrap_or_else(|e| panic!("{e}"));
    let back = SiteInput::read(&dir).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(path.file_name().unwrap(), asmkit::site_input::FILE);
    assert_eq!(back, input);
    assert_eq!(reading_room::generate(&root(), &back), reading_room::generate(&root(), &input));
}

/// `tests/fixtures/gungraun`: a gungraun home as `cargo bench --bench
/// instr_count` leaves it (`cases.tsv` and a result directory per
/// benchmark, `callgrind.<function>.<id>.out` with its `summary:` line, a
/// `.log`, and a previous run's `.out.old`), in part.
fn gungraun_fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gungraun")
}

#[test]
fn gungraun_counts_are_read_through_cases_tsv() {
    let home = gungraun_fixture();
    let counts = |routine| reading_room::gungraun_counts(&home, routine);
    let owned = |v: &[(&str, u64)]| v.iter().map(|&(n, ir)| (n.to_owned(), ir)).collect::<Vec<_>>();
    // The table's order; the variant's benchmarks are its own; a listed
    // benchmark without a result (transform_skeleton::glam) is left out, and
    // a previous run's `.out.old` is not read.
    assert_eq!(
        counts("transform_skeleton"),
        owned(&[("transform_skeleton::asm", 31000), ("transform_skeleton::scalar", 52000)])
    );
    assert_eq!(counts("transform_skeleton_movss_shufps"), owned(&[("transform_skeleton_movss_shufps::asm", 33000)]));
    assert_eq!(counts("untransform_skeleton"), owned(&[("untransform_skeleton::asm", 41000)]));
    assert_eq!(counts("slerp_quats_as_published"), owned(&[("slerp_quats_as_published::avx::n64", 9000)]));
    assert_eq!(counts("slerp_joints"), owned(&[]));
    // No cases.tsv: no counts.
    assert_eq!(reading_room::gungraun_counts(&home.join("elsewhere"), "transform_skeleton"), owned(&[]));
}

#[test]
fn a_page_shows_its_routines_gungraun_counts() {
    let mut input = fixed_input();
    input.gungraun_dir = Some(gungraun_fixture());
    let files: BTreeMap<String, String> =
        reading_room::generate(&root(), &input).unwrap_or_else(|e| panic!("{e}")).into_iter().collect();
    let html = &files["transform_skeleton.html"];
    let rows = [
        "transform_skeleton::asm</td><td class=\"num\">31000<",
        "transform_skeleton::scalar</td><td class=\"num\">52000<",
        "transform_skeleton_movss_shufps::asm</td><td class=\"num\">33000<",
    ];
    for row in rows {
        assert!(html.contains(row), "transform_skeleton.html: no row `{row}`");
    }
    assert!(!html.contains("untransform_skeleton::asm"), "transform_skeleton.html shows another routine's count");
    assert!(files["untransform_skeleton.html"].contains("untransform_skeleton::asm</td><td class=\"num\">41000<"));
    let none = "gungraun: no result found";
    assert!(files["slerp_joints.html"].contains(none), "slerp_joints has no benchmark in the fixture");
    assert!(!html.contains(none));
    // Without a gungraun directory, every page says so.
    let site = site();
    assert!(site.iter().filter(|(n, _)| n.ends_with(".html") && *n != "index.html").all(|(_, h)| h.contains(none)));
}

#[test]
fn every_module_of_the_roster_has_a_page() {
    let (pages, skipped) = reading_room::pages();
    assert!(skipped.is_empty(), "modules with a listing form and no table: {skipped:?}");
    let site = site();
    for r in animasm::roster::ROUTINES {
        assert!(pages.iter().any(|p| p.name() == r.module), "{}: no page for its module {}", r.name, r.module);
        assert!(site.contains_key(&format!("{}.html", r.module)), "{}: no {}.html", r.name, r.module);
    }
}

/// Every module with a form for another target (`src/<module>/neon.rs`,
/// `src/<module>/simd128.rs`) shows each one's documentation and source on
/// its page, whatever target renders the site.
#[test]
fn the_forms_of_other_targets_are_on_their_pages() {
    let site = site();
    let mut shown = 0;
    for r in animasm::roster::ROUTINES {
        for file in ["neon.rs", "simd128.rs"] {
            let rel = format!("src/{}/{file}", r.module);
            let html = &site[&format!("{}.html", r.module)];
            let on_page = html.contains(&format!("<code>{rel}</code></h3>"));
            assert_eq!(on_page, root().join(&rel).exists(), "{rel} on {}.html", r.module);
            shown += usize::from(on_page);
        }
    }
    assert!(shown >= 8, "only {shown} forms of other targets shown");
}

/// The reading room builds without the measuring kit: its normal and build
/// dependencies (`cargo tree`, offline, from the lock file) hold no
/// criterion, plotters, ultraviolet, gltf, glam or devkit; it depends on
/// `animasm` and `asmkit` only. Where cargo cannot be run from a test (an
/// emulated target), it says so.
#[test]
fn builds_without_the_measuring_kit() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(&cargo)
        .current_dir(root())
        .args(["tree", "-p", "animasm-reading-room", "-e", "normal,build", "--prefix", "none", "--offline"])
        .output();
    let out = match out {
        Ok(o) if o.status.success() => String::from_utf8(o.stdout).expect("cargo tree prints UTF-8"),
        other => {
            eprintln!("SKIPPED: builds_without_the_measuring_kit: `{cargo} tree` did not run here: {other:?}");
            return;
        }
    };
    let crates: BTreeSet<&str> = out.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert!(crates.contains("animasm") && crates.contains("asmkit"), "{crates:?}");
    for heavy in ["criterion", "plotters", "ultraviolet", "gltf", "glam", "devkit", "animasm-testkit"] {
        assert!(!crates.contains(heavy), "the reading room depends on {heavy}:\n{out}");
    }
}
