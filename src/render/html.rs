//! `index.html` of an output folder: the puzzle, the counts, and every
//! solution picture, with links to its PNG and text. The page needs no
//! network; a few lines of script record on `<body data-loaded="k/n">` how
//! many of its images loaded, for the browser test.

use std::fmt::Write;

use super::{Report, escape};

/// The page; `pictures` is the number of solution pictures (files `1.svg`
/// ... `k.svg` beside it).
pub(crate) fn index(r: &Report<'_>, pictures: usize) -> String {
    let p = r.puzzle;
    let res = r.result;
    let name = escape(p.title().unwrap_or(p.name()));
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{name}: solutions</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; }}
figure {{ display: inline-block; margin: 0 2em 2em 0; vertical-align: top; }}
img {{ max-width: 100%; border: 1px solid #ddd; }}
pre {{ background: #f6f6f6; padding: 0.5em; }}
td, th {{ text-align: left; padding: 0.1em 1em 0.1em 0; }}
</style>
</head>
<body data-pictures="{pictures}">
<h1>{name}</h1>
<table>
<tr><th>puzzle</th><td>{path}</td></tr>
<tr><th>board</th><td>{board}, {tiles} tiles</td></tr>
<tr><th>solver</th><td>{solver} {version} (model {model}, symmetry {symmetry})</td></tr>
<tr><th>search</th><td>{complete}</td></tr>
<tr><th>raw solutions</th><td>{raw}</td></tr>
<tr><th>classes ({under})</th><td>{classes}</td></tr>
<tr><th>pictures</th><td>{pics}</td></tr>
<tr><th>shown</th><td>{shown}</td></tr>
</table>
<p><a href="solutions.json">solutions.json</a></p>
<h2>The tiles</h2>
<figure><img src="unsolved.svg" alt="the tiles of {name}, unturned"><figcaption><a href="unsolved.png">PNG</a></figcaption></figure>
"#,
        path = escape(r.path),
        board = escape(&p.describe_board()),
        under = super::classes_under(p.shape().group),
        tiles = p.len(),
        solver = res.solver,
        version = escape(&res.solver_version),
        model = escape(&res.model.to_string()),
        symmetry = escape(&res.symmetry.name()),
        complete = escape(&r.completeness()),
        raw = res.counts.raw,
        classes = res.counts.classes,
        pics = res.counts.pictures,
        shown = if r.all {
            "every raw solution".to_string()
        } else {
            format!("one per class ({})", res.equivalence.name())
        },
    );
    let list = r.shown();
    let _ = writeln!(
        out,
        "<h2>{} solution{}</h2>",
        pictures,
        if pictures == 1 { "" } else { "s" }
    );
    if pictures < list.len() {
        let _ = writeln!(
            out,
            "<p class=\"note\">The first {pictures} of {} solutions; all are in \
             <a href=\"solutions.json\">solutions.json</a> (more pictures: \
             <code>--pictures N</code>).</p>",
            list.len()
        );
    }
    for (k, s) in list.iter().take(pictures).enumerate() {
        let k = k + 1;
        let _ = writeln!(
            out,
            r#"<figure id="s{k}"><img src="{k}.svg" alt="solution {k}"><figcaption>Solution {k} · <a href="{k}.png">PNG</a> · <a href="{k}.txt">text</a><pre>{}</pre></figcaption></figure>"#,
            escape(&s.to_seed_text())
        );
    }
    out.push_str(
        r#"<script>
addEventListener("load", () => {
  const all = [...document.images];
  const ok = all.filter((i) => i.complete && i.naturalWidth > 0).length;
  document.body.dataset.loaded = ok + "/" + all.length;
});
</script>
</body>
</html>
"#,
    );
    out
}
