//! The seed-style text report.

use std::fmt::Write;

use crate::render::Report;

/// A header, then each solution in the seed text format, separated by
/// `=== Solution: k ===` lines.
pub(crate) fn render(r: &Report<'_>) -> String {
    let res = r.result;
    let mut out = String::new();
    let _ = writeln!(out, "puzzle: {}", r.path);
    if let Some(t) = &r.puzzle.title() {
        let _ = writeln!(out, "title: {t}");
    }
    let _ = writeln!(out, "board: {}", r.puzzle.describe_board());
    let _ = writeln!(
        out,
        "solver: {} {} (model: {}, symmetry: {}, equivalence: {})",
        res.solver,
        res.solver_version,
        res.model,
        res.symmetry,
        res.equivalence.name()
    );
    if let Some(race) = &res.stats.race {
        let entrants: Vec<String> = race
            .iter()
            .map(|e| {
                let head = format!("{} ({}) {}", e.engine, e.model, e.ended);
                if e.ended == crate::solve::Ended::NotStarted {
                    head
                } else {
                    format!("{head} after {:.3} s", e.wall_time_s)
                }
            })
            .collect();
        let _ = writeln!(out, "--solver auto: {}", entrants.join("; "));
    }
    if !res.symmetry_proven {
        let _ = writeln!(out, "{}", crate::render::unproven_warning(res));
    }
    let c = &res.counts;
    // Under symmetry breaking the raw solutions are the boards the
    // reduced model keeps, not every labelled solution: said so.
    let kept = match res.symmetry.is_none() {
        true => String::new(),
        false => format!(
            " (the boards --symmetry {} keeps, not every labelled solution)",
            res.symmetry.name()
        ),
    };
    let _ = writeln!(out, "raw solutions: {}{kept}", c.raw);
    let _ = writeln!(out, "canonical solutions: {}", c.under(res.equivalence));
    let _ = writeln!(
        out,
        "classes: {} ({}), pictures: {}",
        c.classes,
        crate::render::classes_under(r.puzzle.shape().group),
        c.pictures
    );
    let _ = writeln!(out, "search: {}", r.completeness());
    let _ = write!(out, "wall time: {:.3} s", res.wall_time.as_secs_f64());
    if let Some(first) = res.time_to_first {
        let _ = write!(out, " (first solution after {:.3} s)", first.as_secs_f64());
    }
    out.push('\n');
    if let Some(mb) = res.stats.count("memory_limit_mb") {
        let _ = write!(out, "memory limit: {mb} MB added to the process");
        if let Some(need) = res.stats.count("memory_needed_mb") {
            let _ = write!(
                out,
                " (CP-SAT would need about {need} MB to load the model)"
            );
        }
        out.push('\n');
    }
    let list = r.shown();
    if let Some(held) = r.cut_from {
        let _ = writeln!(
            out,
            "listed: the first {} of {held} solutions found (the time limit or the stop left no time to write more; the counts are whole)",
            list.len()
        );
    }
    for (k, s) in list.iter().enumerate() {
        let _ = writeln!(out, "=== Solution: {} ===", k + 1);
        out.push_str(&s.to_seed_text());
    }
    out
}
