//! `scramble count` as text: one row per method, then the counts and how
//! they were obtained.

use crate::count::{CountReport, Estimate, Estimates, MethodResult, Status};
use crate::symmetry::Equivalence;

use crate::render::table;

/// `n` and the noun that fits it: "1 class", "2 classes".
fn counted(n: u128, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The report as text; `equivalence` picks the count on the last line.
pub fn text(r: &CountReport, equivalence: Equivalence) -> String {
    let per = r
        .labellings_per_picture
        .map_or("more than 2^128".to_string(), |l| l.to_string());
    // Reports written before boards had columns of their own say 0.
    let cols = if r.cols == 0 { r.n } else { r.cols };
    let boards = if r.labellings_per_picture == Some(1) {
        "board"
    } else {
        "boards"
    };
    let mut out = format!(
        "{}: {}x{cols}, {} tiles of {} kinds, {per} labelled {boards} per picture\n",
        r.puzzle, r.n, r.tiles, r.kinds
    );
    let rows: Vec<Vec<String>> = r.methods.iter().map(row).collect();
    out.push_str(&table::text(
        &[
            "method", "status", "time_s", "labelled", "classes", "pictures", "notes",
        ],
        &rows,
    ));
    if let Some(d) = &r.disagreement {
        out.push_str(&format!("DISAGREEMENT: {d}\n"));
    } else if let Some(c) = r.counts {
        let by: Vec<&str> = r.agreed_by.iter().map(|m| m.name()).collect();
        let how = if by.len() > 1 {
            format!("{} agree", by.join(" and "))
        } else {
            format!("{} only", by.join(""))
        };
        out.push_str(&format!(
            "exact ({how}): {}, {} under board turns, {}\n",
            counted(c.raw, "labelled solution", "labelled solutions"),
            counted(c.classes, "class", "classes"),
            counted(c.pictures, "picture class", "picture classes"),
        ));
        out.push_str(&format!(
            "{}: {}\n",
            equivalence_name(equivalence),
            c.under(equivalence)
        ));
    } else {
        out.push_str("no exact count");
        if let Some(e) = r.methods.iter().find_map(|m| m.estimate) {
            let p = match equivalence {
                Equivalence::Rotation => e.classes,
                Equivalence::Picture => e.pictures,
            };
            match p.interval() {
                Some((lo, hi)) => out.push_str(&format!(
                    "; estimated {} {:.3e} (95% interval {} to {hi:.3e}, {})",
                    equivalence_name(equivalence),
                    p.mean,
                    lower_bound(lo, p.at_least),
                    probes_behind(&e, equivalence)
                )),
                None => out.push_str(&format!(
                    "; no estimate: {} of {} probes reached a full board, {} are needed for an interval (full boards are too rare for so few probes; more with --probes or a longer --time-limit)",
                    p.complete_probes,
                    p.probes,
                    crate::engines::backtrack::Mean::HITS_NEEDED
                )),
            }
        }
        if let Some(c) = r.found_before_stopping() {
            out.push_str(&format!(
                "; at least {} (found before stopping)",
                c.under(equivalence)
            ));
        }
        out.push('\n');
    }
    out
}

fn equivalence_name(e: Equivalence) -> &'static str {
    match e {
        Equivalence::Rotation => "classes under board turns",
        Equivalence::Picture => "picture classes",
    }
}

fn row(m: &MethodResult) -> Vec<String> {
    let status = match m.status {
        Status::Complete => "complete",
        Status::Stopped => "stopped",
        Status::Estimated => "estimate",
        Status::Failed => "failed",
    };
    let mut cells = vec![
        m.method.name().to_string(),
        status.to_string(),
        format!("{:.3}", m.time_s),
    ];
    let prefix = if m.status == Status::Stopped {
        ">="
    } else {
        ""
    };
    match (m.counts, m.estimate) {
        (Some(c), _) => {
            cells.extend([c.raw, c.classes, c.pictures].map(|v| format!("{prefix}{v}")));
        }
        (None, Some(e)) => cells.extend([e.raw, e.classes, e.pictures].map(approx)),
        (None, None) => cells.extend(["-".to_string(), "-".into(), "-".into()]),
    }
    let mut notes: Vec<String> = Vec::new();
    if let Some(f) = m.fixed {
        // The pictures column counts classes under board turns; these are
        // the pictures before that (Burnside's terms).
        notes.push(format!(
            "{} pictures before board turns, {} fixed by a half turn, {} by a quarter turn; \
             peak {} states",
            f.pictures, f.half_turn, f.quarter_turn, f.peak_states
        ));
    }
    if let Some(n) = m.nodes {
        notes.push(format!("{n} nodes"));
    }
    if let Some(e) = m.estimate {
        notes.push(format!(
            "{}; {} reached a full board",
            probes_note(&e),
            e.pictures.complete_probes
        ));
    }
    if let Some(msg) = &m.message {
        notes.push(msg.clone());
    }
    cells.push(notes.join("; "));
    cells
}

/// An interval's lower end: exact where it is the proven count (rounded to
/// four digits it could read below it), else in scientific notation.
fn lower_bound(lo: f64, proven: f64) -> String {
    if lo == proven && proven > 0.0 {
        format!("{proven:.0}")
    } else {
        format!("{lo:.3e}")
    }
}

/// The probes behind an estimate, as the table's notes and the summary
/// both say them: the labelled and class counts come from the full tree,
/// the picture count also from the trees of pictures a turn fixes.
fn probes_note(e: &Estimates) -> String {
    if e.pictures.probes == e.classes.probes {
        format!("{} probes", e.classes.probes)
    } else {
        format!(
            "{} probes of the full tree, {} with the trees of turned pictures",
            e.classes.probes, e.pictures.probes
        )
    }
}

/// The probes behind the estimate of the count `equivalence` picks, in the
/// words of [`probes_note`].
fn probes_behind(e: &Estimates, equivalence: Equivalence) -> String {
    match equivalence {
        _ if e.pictures.probes == e.classes.probes => format!("{} probes", e.classes.probes),
        Equivalence::Rotation => format!("{} probes of the full tree", e.classes.probes),
        Equivalence::Picture => format!(
            "{} probes with the trees of turned pictures",
            e.pictures.probes
        ),
    }
}

/// `~mean±error` in scientific notation; `?` where no probe reached a
/// full board (no estimate).
fn approx(e: Estimate) -> String {
    match e.interval() {
        Some(_) => format!("~{:.3e}±{:.1e}", e.mean, e.std_error),
        None => "?".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular() {
        assert_eq!(counted(1, "class", "classes"), "1 class");
        assert_eq!(counted(0, "class", "classes"), "0 classes");
        assert_eq!(counted(56, "class", "classes"), "56 classes");
    }
}
