//! The tables of a survey: `survey.md` in the layout of the literature (short periodic classes in
//! `prefix(period)` notation, the harder periodic classes and the open classes with their
//! statistics, the classes that agree far without proof, a lookup from every code to its
//! class), and the same facts as CSV (`survey.csv`, `lookup.csv`) and JSON (`survey.json`).
//! Nothing in them depends on the machine: times go to `times.csv`.

use crate::classes::{Class, Classes, Proof};
use crate::record::GameRecord;
use serde_json::{json, Value};
use std::fmt::Write;

/// Periodic classes whose preperiod and period together are at most this many heaps are printed
/// with all their values.
pub const SHORT: usize = 1000;

/// What a survey's tables describe.
#[derive(Debug, Clone)]
pub struct About<'a> {
    pub digits: usize,
    pub max_n: usize,
    /// The most heaps a game whose sparse space holds goes on to ([`crate::growth`]).
    pub grow_to: Option<usize>,
    pub codes: usize,
    pub version: &'a str,
}

fn is_short(c: &Class) -> bool {
    c.record
        .period
        .is_some_and(|p| p.preperiod + p.period <= SHORT.min(c.record.head.len()))
}

/// `prefix(period)` as the literature prints it: one character a value (0-9, then A-Z for 10 to
/// 35), or values separated by commas when one is 36 or more.
pub fn notation(r: &GameRecord) -> Option<String> {
    let p = r.period?;
    let values: Vec<u16> = (0..p.preperiod + p.period)
        .map(|n| r.value(n))
        .collect::<Option<_>>()?;
    let join = |s: &[u16]| -> String {
        if values.iter().all(|&v| v < 36) {
            s.iter()
                .map(|&v| {
                    char::from_digit(u32::from(v), 36)
                        .expect("below 36")
                        .to_ascii_uppercase()
                })
                .collect()
        } else {
            s.iter().map(u16::to_string).collect::<Vec<_>>().join(",")
        }
    };
    Some(format!(
        "{}({})",
        join(&values[..p.preperiod]),
        join(&values[p.preperiod..])
    ))
}

/// "0.07, 0.137 (-1)": the members but the representative, each with its shift when not 0.
fn members(c: &Class) -> String {
    let list: Vec<String> = c
        .members
        .iter()
        .filter(|m| m.proof != Proof::Representative)
        .map(|m| match m.shift {
            0 => m.code.clone(),
            s => format!("{} ({s:+})", m.code),
        })
        .collect();
    if list.is_empty() {
        "-".to_string()
    } else {
        list.join(", ")
    }
}

/// A count that is infinite when its last heap lies in the period.
fn count(c: &Class, count: usize, last: usize) -> String {
    match c.record.period {
        Some(p) if count > 0 && last >= p.preperiod => "infinite".to_string(),
        _ => count.to_string(),
    }
}

fn space(r: &GameRecord) -> (String, String, String) {
    match &r.sparse {
        Some(s) => (
            format!("{} {}", s.kind, s.mask),
            s.rare_count.to_string(),
            s.last_rare.to_string(),
        ),
        None => ("none".into(), "-".into(), "-".into()),
    }
}

/// `survey.md`.
pub fn markdown(about: &About, c: &Classes) -> String {
    let periodic: Vec<&Class> = c
        .classes
        .iter()
        .filter(|c| c.record.period.is_some())
        .collect();
    let short: Vec<&Class> = periodic.iter().copied().filter(|c| is_short(c)).collect();
    let harder: Vec<&Class> = periodic.iter().copied().filter(|c| !is_short(c)).collect();
    let open: Vec<&Class> = c
        .classes
        .iter()
        .filter(|c| c.record.period.is_none())
        .collect();
    let mut s = String::new();
    let _ = writeln!(s, "# Octal games of up to {} digits\n", about.digits);
    let _ = writeln!(
        s,
        "{} codes (`d0.d1..dk` with d0 in {{0, 4}}, 1 <= k <= {}, dk nonzero, and `4.0`) in {} \
         classes: {} periodic ({} with preperiod + period <= {SHORT}, {} harder) and {} open \
         within the budget of {} heaps a game{}. Computed by octal {}.\n",
        about.codes,
        about.digits,
        c.classes.len(),
        periodic.len(),
        short.len(),
        harder.len(),
        open.len(),
        about.max_n,
        about.grow_to.map_or(String::new(), |g| format!(
            " (a game whose sparse space holds goes on past it, doubling its heaps while the \
             last half of them hold at most a sixteenth of its rare heaps, to at most {g} heaps \
             and at most heaps x rare heaps = 2^{})",
            crate::growth::GROWTH_WORK.trailing_zeros()
        )),
        about.version
    );
    s.push_str(
        "A class's members have the representative's values, proved by rules on codes \
         (a game whose lone token cannot be taken plays as its cousin one heap on; a move that \
         only gives options the game has anyway changes nothing) or by proved periods with the \
         same values. A member with shift s has G(n) = G_rep(n - s). Periods \
         are proved by the Octal Periodicity Theorem on computed values. Counts are over the \
         heaps computed; a count whose last heap lies in the period is infinite.\n\n",
    );
    s.push_str("## Periodic classes\n\n| class | members | preperiod | period | values |\n|:--|:--|--:|--:|:--|\n");
    for c in &short {
        let p = c.record.period.expect("periodic");
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            c.rep,
            members(c),
            p.preperiod,
            p.period,
            notation(&c.record).unwrap_or_default()
        );
    }
    s.push_str(
        "\n## Harder periodic classes\n\n| class | members | preperiod | period | largest | first at \
         | P-positions | last P | space | rare | last rare | checked to | fnv1a64 | OEIS |\n\
         |:--|:--|--:|--:|--:|--:|--:|--:|:--|--:|--:|--:|:--|:--|\n",
    );
    for c in &harder {
        let r = &c.record;
        let p = r.period.expect("periodic");
        let (sp, rare, last) = space(r);
        let rare = match &r.sparse {
            Some(x) => count(c, x.rare_count, x.last_rare),
            None => rare,
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            c.rep,
            members(c),
            p.preperiod,
            p.period,
            r.max_value,
            r.max_value_at,
            count(c, r.p_positions, r.last_p_position),
            r.last_p_position,
            sp,
            rare,
            last,
            p.checked_to,
            r.fnv1a64,
            c.oeis.join(" ")
        );
    }
    s.push_str(
        "\n## Open classes\n\nNo period proved within the budget; statistics over heaps 0 .. n-1.\n\n\
         | class | members | n | stopped by | largest | first at | P-positions | last P | space \
         | rare | last rare | fnv1a64 | OEIS |\n\
         |:--|:--|--:|:--|--:|--:|--:|--:|:--|--:|--:|:--|:--|\n",
    );
    for c in &open {
        let r = &c.record;
        let (sp, rare, last) = space(r);
        let _ = writeln!(
            s,
            "| {} | {} | {} | max-n {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            c.rep,
            members(c),
            r.n,
            r.max_n,
            r.max_value,
            r.max_value_at,
            r.p_positions,
            r.last_p_position,
            sp,
            rare,
            last,
            r.fnv1a64,
            c.oeis.join(" ")
        );
    }
    s.push_str(
        "\n## Classes that agree far without proof\n\nG_b(n) = G_a(n - shift) for every heap \
         n of a below `agree to`; they are not merged.\n\n\
         | a | b | shift | agree to | first difference |\n|:--|:--|--:|--:|--:|\n",
    );
    for a in &c.agreements {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            a.a,
            a.b,
            a.shift,
            a.agree_to,
            a.first_difference
                .map_or("none computed".to_string(), |d| d.to_string())
        );
    }
    s.push_str("\n## Lookup\n\n| code | class | shift | proof |\n|:--|:--|--:|:--|\n");
    for (code, class, shift, proof) in lookup(c) {
        let _ = writeln!(s, "| {code} | {class} | {shift} | {proof} |");
    }
    s
}

/// Every code with its class, shift and proof, in code order.
fn lookup(c: &Classes) -> Vec<(String, String, i64, &'static str)> {
    let mut rows: Vec<_> = c
        .classes
        .iter()
        .flat_map(|cl| {
            cl.members.iter().map(move |m| {
                let proof = match m.proof {
                    Proof::Representative => "representative",
                    Proof::Rule => "rule",
                    Proof::Period => "period",
                };
                (m.code.clone(), cl.rep.clone(), m.shift, proof)
            })
        })
        .collect();
    rows.sort_by_key(|r| crate::codes::order(&r.0.parse().expect("a code")));
    rows
}

fn class_json(c: &Class) -> Value {
    let r = &c.record;
    json!({
        "class": c.rep,
        "status": if r.period.is_some() { "periodic" } else { "open" },
        "members": c.members,
        "n": r.n,
        // The budget that stopped an open class (a periodic one stands at any budget).
        "max_n": if r.period.is_some() { Value::Null } else { json!(r.max_n) },
        "stopped_by": if r.period.is_some() { Value::Null } else { json!("max-n") },
        "period": r.period.map(|p| json!({
            "period": p.period,
            "preperiod": p.preperiod,
            "last_exception": p.last_exception(),
            "checked_to": p.checked_to,
            "proved": true,
        })),
        "values": notation(r).filter(|_| is_short(c)),
        "max_value": r.max_value,
        "max_value_at": r.max_value_at,
        "p_positions": r.p_positions,
        "last_p_position": r.last_p_position,
        "sparse": r.sparse,
        "fnv1a64": r.fnv1a64,
        "engine": r.engine,
        "oeis": c.oeis,
    })
}

/// `survey.json`.
pub fn json(about: &About, c: &Classes) -> String {
    let v = json!({
        "digits": about.digits,
        "max_n": about.max_n,
        "grow_to": about.grow_to,
        "codes": about.codes,
        "version": about.version,
        "classes": c.classes.iter().map(class_json).collect::<Vec<_>>(),
        "agreements": c.agreements,
        "lookup": lookup(c).into_iter().map(|(code, class, shift, proof)| json!({
            "code": code, "class": class, "shift": shift, "proof": proof,
        })).collect::<Vec<_>>(),
    });
    let mut s = serde_json::to_string_pretty(&v).expect("JSON of plain data");
    s.push('\n');
    s
}

/// `survey.csv`: one line a class.
pub fn csv(c: &Classes) -> String {
    let mut s = String::from(
        "class,status,members,n,max_n,preperiod,period,last_exception,max_value,max_value_at,\
         p_positions,last_p_position,space,mask,rare_count,last_rare,fnv1a64,engine,oeis\n",
    );
    for cl in &c.classes {
        let r = &cl.record;
        let members: Vec<String> = cl
            .members
            .iter()
            .map(|m| format!("{}:{}", m.code, m.shift))
            .collect();
        let (pre, per, last) = match r.period {
            Some(p) => (
                p.preperiod.to_string(),
                p.period.to_string(),
                p.last_exception().to_string(),
            ),
            None => Default::default(),
        };
        let (kind, mask, rare, last_rare) = match &r.sparse {
            Some(x) => (
                x.kind.clone(),
                x.mask.clone(),
                x.rare_count.to_string(),
                x.last_rare.to_string(),
            ),
            None => Default::default(),
        };
        let _ = writeln!(
            s,
            "{},{},{},{},{},{pre},{per},{last},{},{},{},{},{kind},{mask},{rare},{last_rare},{},{},{}",
            cl.rep,
            if r.period.is_some() { "periodic" } else { "open" },
            members.join(" "),
            r.n,
            if r.period.is_some() { String::new() } else { r.max_n.to_string() },
            r.max_value,
            r.max_value_at,
            r.p_positions,
            r.last_p_position,
            r.fnv1a64,
            r.engine,
            cl.oeis.join(" ")
        );
    }
    s
}

/// `lookup.csv`: one line a code.
pub fn lookup_csv(c: &Classes) -> String {
    let mut s = String::from("code,class,shift,proof\n");
    for (code, class, shift, proof) in lookup(c) {
        let _ = writeln!(s, "{code},{class},{shift},{proof}");
    }
    s
}

/// `times.csv`: what each computed game took (apart from the tables, which must not depend on
/// the machine).
pub fn times(records: &[&GameRecord]) -> String {
    let mut s = String::from("code,n,engine,seconds\n");
    for r in records {
        let _ = writeln!(s, "{},{},{},{:.3}", r.code, r.n, r.engine, r.seconds);
    }
    s
}
