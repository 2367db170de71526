//! The asm kernels, disassembled, are the paper's listings.
//!
//! For every routine of `animasm::roster` with an asm listing form
//! ([`Origin::Listing`](animasm::Origin::Listing)) this test disassembles
//! the running test binary with `objdump -d -M intel` and checks that the
//! kernel, `animasm::<module>::asm::<routine>`, contains, as one contiguous
//! run, exactly the instructions of its listing file (`asm_notes/<routine>.listing.s`
//! where the routine has its own, otherwise its module's
//! `asm_notes/<module>.listing.s`; see `common::roster_checks::listing`):
//! the same mnemonics (`jz`/`je` and
//! `jnz`/`jne` are the same instruction) and the same xmm register numbers in
//! the same operand order, modulo the `//@ D<n>` deviations the listing file
//! declares. Operand widths, addressing forms, immediates and labels are not
//! compared. The compiler's prologue and epilogue surround the run.
//!
//! It also checks that every `//@ D<n>` marker is a row of the deviations
//! table in `asm_notes/<module>.md`. The instruction counts the paper
//! states (and those the transcription settled) are pinned by each
//! routine's test file (`common::roster_checks::listing::assert_counts`).
//!
//! `objdump` (GNU binutils) is required: without it the test fails. Set
//! `OBJDUMP` to use another binary.
//!
//! Listing file format (see the header of each file): one instruction per
//! line indented by whitespace, labels alone on an unindented line
//! (`loopJoint4:`), `//` comment lines (the `TRANSPOSE_4x4( ... )` line is a
//! comment followed by the twelve instructions of the macro), trailing `//`
//! comments, and the markers `//@ rebuilt: <why>`, `//@ D<n> asm: <instr> ;
//! <instr>` (or `-`) in a trailing comment and `//@ D<n> insert: <instr>` on
//! its own line.

#![cfg(all(target_arch = "x86_64", target_os = "linux"))]

mod common;

use animasm::roster::Routine;
use common::roster_checks::listing::{
    asm_symbol, crate_path, listing_file, listing_kernel_address, note_file, read, routines_with_listing,
};
use devkit::listing::{Edit, Expected, align, parse_listing};
use devkit::objdump::{Disasm, Instr, disassemble, normalize_symbol, parse_instr, parse_objdump_line};

/// One asm kernel (the [`Origin::Listing`](animasm::Origin::Listing) form of
/// a routine) and where its listing is, by the rules of
/// `common::roster_checks::listing`.
struct Kernel {
    /// The routine.
    routine: &'static Routine,
    /// The demangled path of the kernel.
    symbol: String,
    /// The listing, relative to the crate root.
    listing: String,
    /// The note whose deviations table lists the listing's markers.
    note: String,
    /// The kernel's address (taking it links the kernel into this binary).
    address: usize,
}

/// Every asm kernel of the roster, in the roster's order.
fn kernels() -> Vec<Kernel> {
    let kernels: Vec<Kernel> = routines_with_listing()
        .map(|r| Kernel {
            routine: r,
            symbol: asm_symbol(r),
            listing: listing_file(r),
            note: note_file(r),
            address: listing_kernel_address(r).expect("a listing form"),
        })
        .collect();
    assert!(!kernels.is_empty(), "no routine of the roster has an asm listing here");
    kernels
}

// ---------------------------------------------------------------------------
// Instructions as compared (mnemonic and xmm register numbers) and objdump:
// `devkit::objdump`.

// ---------------------------------------------------------------------------
// Matching.

/// The start of the contiguous run of `dis` equal to `exp`.
fn find_window(dis: &[Instr], exp: &[Instr]) -> Option<usize> {
    if exp.is_empty() {
        return Some(0);
    }
    dis.windows(exp.len()).position(|w| w == exp)
}

/// The window start with the most positions equal (windows may run past the
/// end of `dis`), and that number.
fn best_window(dis: &[Instr], exp: &[Instr]) -> (usize, usize) {
    (0..dis.len().max(1))
        .map(|s| {
            let score = exp.iter().zip(dis.iter().skip(s)).filter(|(e, d)| e == d).count();
            (s, score)
        })
        .max_by_key(|&(s, score)| (score, std::cmp::Reverse(s)))
        .unwrap_or((0, 0))
}

/// The failure message: where the listing comes closest, side by side, and an
/// alignment diff.
fn mismatch_report(k: &Kernel, exp: &[Expected], dis: &[Disasm]) -> String {
    use std::fmt::Write as _;
    let ei: Vec<Instr> = exp.iter().map(|e| e.instr.clone()).collect();
    let di: Vec<Instr> = dis.iter().map(|d| d.instr.clone()).collect();
    let (start, score) = best_window(&di, &ei);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: the disassembly of `{}` ({} instructions, {:#x}..) does not contain the {} instructions of {} \
         as one contiguous run.\nBest window: disassembly instruction #{start} ({:#x}), {score}/{} positions equal. \
         First mismatches there (listing line: expected | disassembly):",
        k.routine.name,
        k.symbol,
        dis.len(),
        dis[0].addr,
        exp.len(),
        k.listing,
        dis.get(start).map_or(0, |d| d.addr),
        exp.len()
    );
    let mut shown = 0;
    for (n, e) in exp.iter().enumerate() {
        let d = dis.get(start + n);
        if d.is_some_and(|d| d.instr == e.instr) {
            continue;
        }
        let right = d.map_or("(past the end of the function)".to_owned(), |d| {
            format!("{:#x}: {} [{}]", d.addr, d.text, d.instr)
        });
        let _ = writeln!(s, "  {:>4}: {:<44} | {right}", e.line, format!("{} [{}]", e.source, e.instr));
        shown += 1;
        if shown == 10 {
            let _ = writeln!(s, "  ...");
            break;
        }
    }
    // Alignment diff, trimmed to the span between the first and the last
    // matched instruction (the prologue and epilogue are not differences).
    let edits = align(&ei, &di);
    let first = edits.iter().position(|e| matches!(e, Edit::Same(..)));
    let last = edits.iter().rposition(|e| matches!(e, Edit::Same(..)));
    let _ = writeln!(
        s,
        "Alignment (LCS) of listing and disassembly, first differences (- listing only, + disassembly only):"
    );
    let (lo, hi) = match (first, last) {
        (Some(f), Some(l)) => (f, l + 1),
        _ => (0, edits.len()),
    };
    let mut hunks = 0;
    let mut prev_same = true;
    for (x, e) in edits.iter().enumerate() {
        let outside = x < lo || x >= hi;
        match *e {
            Edit::Same(..) => prev_same = true,
            Edit::Extra(_) if outside => {}
            Edit::Missing(i) => {
                if prev_same {
                    hunks += 1;
                    if hunks > 6 {
                        break;
                    }
                    let _ = writeln!(s, "  @@");
                }
                prev_same = false;
                let _ = writeln!(s, "  - {:>4}: {} [{}]", exp[i].line, exp[i].source, exp[i].instr);
            }
            Edit::Extra(j) => {
                if prev_same {
                    hunks += 1;
                    if hunks > 6 {
                        break;
                    }
                    let _ = writeln!(s, "  @@");
                }
                prev_same = false;
                let _ = writeln!(s, "  + {:#x}: {} [{}]", dis[j].addr, dis[j].text, dis[j].instr);
            }
        }
    }
    if hunks == 0 {
        let _ = writeln!(s, "  (none inside the matched span: the listing is cut off at an end)");
    }
    s
}

// ---------------------------------------------------------------------------
// The tests.

#[test]
fn asm_kernels_match_their_listings() {
    let mut failures = Vec::new();
    for k in kernels() {
        assert_ne!(k.address, 0);
        let listing = parse_listing(&k.listing, &read(&k.listing));
        let dis = disassemble(&k.symbol);
        let ei: Vec<Instr> = listing.expected.iter().map(|e| e.instr.clone()).collect();
        let di: Vec<Instr> = dis.iter().map(|d| d.instr.clone()).collect();
        match find_window(&di, &ei) {
            Some(s) => println!(
                "{}: {} listing instructions found at {:#x} (instruction #{s} of {}; {} deviation markers)",
                k.routine.name,
                ei.len(),
                dis[s].addr,
                dis.len(),
                listing.deviations.len()
            ),
            None => failures.push(mismatch_report(&k, &listing.expected, &dis)),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn deviation_markers_are_documented() {
    for k in kernels() {
        let listing = parse_listing(&k.listing, &read(&k.listing));
        let md_rel = &k.note;
        let md_path = crate_path(md_rel);
        if !md_path.exists() {
            println!(
                "NOTE: {md_rel} does not exist; skipping the check of {} deviation marker(s) of {}",
                listing.deviations.len(),
                k.listing
            );
            continue;
        }
        let md = read(md_rel);
        let rows: Vec<String> = md
            .lines()
            .filter(|l| l.trim_start().starts_with('|'))
            .filter_map(|l| l.split('|').nth(1))
            .map(|c| c.trim().trim_matches(['*', '`']).trim().to_owned())
            .collect();
        for (id, line) in &listing.deviations {
            assert!(rows.contains(id), "{}:{line}: marker `{id}` has no row `| {id} |` in {md_rel}", k.listing);
        }
    }
}

/// The parser on a small listing with every construct of the format.
#[test]
fn listing_parser() {
    let text = "\
// A header; `//@ D<n> asm: ...` in backticks is prose, not a marker.
//
    movss       xmm7, lerp          // xmm7 = lerp
    jz          done1
loopA:
    // TRANSPOSE_4x4( xmm0, xmm1, xmm2, xmm3, xmm7 )
    movaps      xmm7, xmm2          // reg4 = 8, 9, 10, 11
    unpcklps    xmm2, xmm3
    shufps      xmm0, xmm2, R_SHUFFLE_PS( 0, 1, 0, 1 )  //@ rebuilt: garbled OCR
    mulps       xmm0, xmm4          // xmm0 = x //@ D1 asm: mulps xmm1, xmm4 ; addps xmm1, xmm1

    //@ D2 insert: xorps xmm5, xmm5
    andps       xmm3, SIMD_SP_signBit   //@ D3 asm: -
    add         eax, 4*4
    movlps      [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm12
    jle         loopA
    jnz         loopA
done1:
";
    let l = parse_listing("inline", text);
    let i = |m: &str, x: &[u8]| Instr { mnemonic: m.to_owned(), xmm: x.to_vec() };
    let exp: Vec<Instr> = l.expected.iter().map(|e| e.instr.clone()).collect();
    assert_eq!(
        exp,
        [
            i("movss", &[7]),
            i("je", &[]),
            i("movaps", &[7, 2]),
            i("unpcklps", &[2, 3]),
            i("shufps", &[0, 2]),
            i("mulps", &[1, 4]),
            i("addps", &[1, 1]),
            i("xorps", &[5, 5]),
            i("add", &[]),
            i("movlps", &[12]),
            i("jle", &[]),
            i("jne", &[]),
        ]
    );
    assert_eq!(l.expected[5].line, 10);
    assert_eq!(l.expected[7].line, 12);
    assert_eq!(l.original.len(), 11);
    assert_eq!(l.original[6].instr, i("andps", &[3]));
    assert_eq!(l.labels, [("loopA".to_owned(), 2), ("done1".to_owned(), 11)]);
    assert_eq!(l.count("total"), 11);
    assert_eq!(l.count("loopA"), 8);
    assert_eq!(l.rebuilt, [9]);
    let ids: Vec<&str> = l.deviations.iter().map(|(d, _)| d.as_str()).collect();
    assert_eq!(ids, ["D1", "D2", "D3"]);
}

#[test]
#[should_panic(expected = "must be a label")]
fn listing_parser_rejects_unindented_instructions() {
    parse_listing("inline", "movaps xmm0, xmm1\n");
}

#[test]
#[should_panic(expected = "unknown trailing marker")]
fn listing_parser_rejects_unknown_markers() {
    parse_listing("inline", "    movaps xmm0, xmm1 //@ D1 ins: xorps xmm0, xmm0\n");
}

/// The objdump line parser, the symbol normaliser and the matcher.
#[test]
fn objdump_parser_and_matcher() {
    let d = parse_objdump_line(
        "   4a2b3:\tmovaps xmm0,XMMWORD PTR [rip+0x1234]        # 4b000 <animasm::consts::SIMD_SP_ONE>",
    )
    .unwrap();
    assert_eq!((d.addr, d.instr.mnemonic.as_str(), d.instr.xmm.as_slice()), (0x4a2b3, "movaps", &[0u8][..]));
    let d = parse_objdump_line("   4a2b9:\tshufps xmm13,xmm13,0x0").unwrap();
    assert_eq!(d.instr.xmm, [13, 13]);
    let d = parse_objdump_line("   4a2c0:\tje     4a400 <animasm::slerp_joints::asm::slerp_joints+0x150>").unwrap();
    assert_eq!(d.instr, Instr { mnemonic: "je".into(), xmm: vec![] });
    let d = parse_objdump_line("   4a2c6:\tcs nop WORD PTR [rax+rax*1+0x0]").unwrap();
    assert_eq!(d.instr.mnemonic, "nop");
    assert!(parse_objdump_line("000000000004a2b0 <animasm::slerp_joints::asm::slerp_joints>:").is_none());
    assert!(parse_objdump_line("Disassembly of section .text:").is_none());

    assert_eq!(
        normalize_symbol("animasm::lerp_joints::asm::lerp_joints::h0123456789abcdef"),
        "animasm::lerp_joints::asm::lerp_joints"
    );
    assert_eq!(
        normalize_symbol("animasm[5c0e0b7f7e2f3e1a]::lerp_joints::asm::lerp_joints"),
        "animasm::lerp_joints::asm::lerp_joints"
    );

    let p = |s: &str| parse_instr(s);
    let exp = [p("movaps xmm1, xmm2"), p("addps xmm1, xmm3")];
    let dis = [p("push rbp"), p("movaps xmm1, xmm2"), p("addps xmm1, xmm3"), p("pop rbp"), p("ret")];
    assert_eq!(find_window(&dis, &exp), Some(1));
    let bad = [p("push rbp"), p("movaps xmm1, xmm2"), p("addps xmm1, xmm4"), p("ret")];
    assert_eq!(find_window(&bad, &exp), None);
    assert_eq!(best_window(&bad, &exp), (1, 1));
    let edits = align(&exp, &bad);
    assert!(edits.contains(&Edit::Missing(1)) && edits.contains(&Edit::Extra(2)) && edits.contains(&Edit::Same(0, 1)));
}
