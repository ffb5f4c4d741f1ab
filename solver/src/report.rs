//! What a finished run prints: the human summary in the style of the literature, the JSON object
//! (a contract: users' scripts read these field names), and the OEIS b-file.

use crate::outcome::Outcome;
use octal_core::period::Period;
use octal_core::stats::{AtPower, Summary};
use octal_core::{Code, SparseSpace};
use octal_engines::games::GAMES;
use octal_gpu::GpuTimings;
use serde_json::{json, Value};
use std::io::{self, Write};

/// A finished run with the facts around it.
pub struct Report<'a> {
    pub code: &'a Code,
    pub solution: &'a Outcome,
    pub summary: Summary,
    pub threads: usize,
    pub seconds: f64,
    /// Heaps whose candidate the verifier corrected (new rare values and the like).
    pub corrections: usize,
    /// For a run that holds only its first and last values: the heap from which it does, its
    /// front and its least tail.
    pub bounded: Option<(usize, usize, usize)>,
    /// Whether the run stopped at its `--for` deadline, short of the heaps asked for.
    pub time_up: bool,
}

impl Report<'_> {
    fn rate(&self) -> f64 {
        self.summary.n as f64 / self.seconds.max(1e-9)
    }

    /// The JSON object of `octal solve --json`.
    pub fn json(&self) -> Value {
        let s = &self.solution;
        let period = if s.verified { s.period } else { None };
        let mut j = summary_json(self.code, &self.summary, s.space.as_ref(), period);
        j["engine"] = json!(s.engine.name());
        j["stretches"] = s
            .stretches
            .iter()
            .map(|x| json!({"from": x.from, "to": x.to, "engine": x.engine.name()}))
            .collect();
        j["sparse"]["changes"] = s
            .changes
            .iter()
            .map(|c| match c.space {
                Some(space) => json!({
                    "heap": c.heap,
                    "kind": space.kind_name(),
                    "mask": format!("{:#x}", space.mask),
                }),
                None => json!({"heap": c.heap, "kind": "none", "mask": null}),
            })
            .collect();
        j["bounded"] = match self.bounded {
            Some((from, front, tail)) => json!({"from": from, "front": front, "tail": tail}),
            None => Value::Null,
        };
        j["time_up"] = json!(self.time_up);
        j["verified"] = json!(s.verified);
        j["threads"] = json!(self.threads);
        j["table_corrections"] = json!(self.corrections);
        j["seconds"] = json!(self.seconds);
        j["values_per_second"] = json!(self.rate());
        j
    }

    /// The human summary.
    pub fn human(&self) -> String {
        let (s, sol) = (&self.summary, self.solution);
        let status = if sol.verified {
            "verified"
        } else {
            "UNVERIFIED (--speculate-only)"
        };
        let mut out = format!(
            "octal game {}: G(0) .. G({}) ({} values, {status})\n",
            self.code,
            s.n - 1,
            s.n
        );
        out += &summary_lines(s, sol.space.as_ref(), sol.period, sol.verified);
        out += &format!(
            "  engine          {}, {} threads, {:.3} s, {:.0} values/s\n",
            sol.engine.name(),
            self.threads,
            self.seconds,
            self.rate()
        );
        if sol.stretches.len() > 1 {
            let list: Vec<String> = sol
                .stretches
                .iter()
                .map(|x| format!("{} {}..{}", x.engine.name(), x.from, x.to))
                .collect();
            out += &format!("  stretches       {}\n", list.join(", "));
        }
        if !sol.changes.is_empty() {
            let list: Vec<String> = sol
                .changes
                .iter()
                .map(|c| match c.space {
                    Some(space) => format!("{space} from {}", c.heap),
                    None => format!("none from {}", c.heap),
                })
                .collect();
            out += &format!("  space changes   {}\n", list.join(", "));
        }
        if self.time_up {
            out += "  stopped         at its --for deadline (octal resume goes on)\n";
        }
        if let Some((from, front, tail)) = self.bounded {
            out += &format!(
                "  held            from heap {from} on, the first {front} values and at least the last {tail}\n"
            );
        }
        out
    }
}

/// The facts about a game's values (the fields of `solve --json` that do not depend on how they
/// were computed).
pub fn summary_json(
    code: &Code,
    s: &Summary,
    space: Option<&SparseSpace>,
    period: Option<Period>,
) -> Value {
    let sparse = match (space, s.rare) {
        (Some(space), Some((count, last, last_value))) => json!({
            "kind": space.kind_name(),
            "mask": format!("{:#x}", space.mask),
            "rare_count": count,
            "last_rare": last,
            "last_rare_value": last_value,
        }),
        _ => json!({"kind": "none", "mask": null, "rare_count": null, "last_rare": null}),
    };
    let mut j = json!({
        "code": code.to_string(),
        "n": s.n,
        "fnv1a64": format!("{:016x}", s.fnv1a64),
        "max_value": s.max_value,
        "max_value_at": s.max_value_at,
        "p_positions": s.p_positions,
        "last_p_position": s.last_p_position,
        "sparse": sparse,
        "period": period.map(|p| json!({
            "period": p.period,
            "preperiod": p.preperiod,
            "last_exception": p.last_exception(),
            "proved": true,
            "checked_to": p.checked_to,
        })),
    });
    if period.is_none() {
        j["searched_to"] = json!(s.n);
    }
    // The statistics at every power of two, as long computations are quoted (rare counts under
    // the space above, whose mask each entry repeats).
    j["powers_of_two"] = s.powers.iter().map(|p| power_json(p, space)).collect();
    j
}

/// The statistics at one power of two: its histogram as `[value, count]` pairs.
pub fn power_json(p: &AtPower, space: Option<&SparseSpace>) -> Value {
    json!({
        "n": p.n,
        "max_value": p.max_value,
        "max_value_at": p.max_value_at,
        "mask": p.rare.and(space).map(|s| format!("{:#x}", s.mask)),
        "rare_count": p.rare.map(|r| r.0),
        "last_rare": p.rare.map(|r| r.1),
        "p_positions": p.p_positions,
        "last_p_position": p.last_p_position,
        "fnv1a64": format!("{:016x}", p.fnv1a64),
        "segment_fnv1a64": format!("{:016x}", p.segment_fnv1a64),
        "histogram": p.histogram,
    })
}

/// The lines of the human summary about a game's values; `checked` says whether the values
/// were verified, so that periodicity could be looked at.
pub fn summary_lines(
    s: &Summary,
    space: Option<&SparseSpace>,
    period: Option<Period>,
    checked: bool,
) -> String {
    let mut out = format!(
        "  largest value   {} (first at n = {})\n",
        s.max_value, s.max_value_at
    );
    out += &format!(
        "  P-positions     {} (the last at n = {})\n",
        s.p_positions, s.last_p_position
    );
    out += &match (space, s.rare) {
        (Some(space), Some((count, last, v))) => {
            format!("  sparse space    {space}: {count} rare values, the last G({last}) = {v}\n")
        }
        _ => "  sparse space    none found\n".to_string(),
    };
    out += &match period {
        Some(p) => format!(
            "  period          {}, preperiod {} (last exception {}): proved by the Octal Periodicity Theorem on heaps 0 .. {}\n",
            p.period,
            p.preperiod,
            if p.preperiod == 0 { "none".to_string() } else { p.last_exception().to_string() },
            p.checked_to - 1
        ),
        None if checked => format!("  period          none proved in {} heaps\n", s.n),
        None => "  period          not checked (values unverified)\n".to_string(),
    };
    out + &format!("  fnv1a64         {:016x}\n", s.fnv1a64)
}

/// Writes values as an OEIS b-file: one line "n G(n)" per heap.
pub fn write_bfile(mut w: impl Write, values: &[u16]) -> io::Result<()> {
    for (n, v) in values.iter().enumerate() {
        writeln!(w, "{n} {v}")?;
    }
    w.flush()
}

/// The table of `octal games`: each definition with its sparse space, table and engine.
pub fn games_table() -> String {
    let mut out = format!(
        "{:<22} {:<7} {:<18} {:<7} {:>6} {:>8}  {}\n",
        "file", "code", "name", "kind", "mask", "rare", "specialised"
    );
    for g in GAMES {
        let (kind, mask) = match g.space {
            Some(s) => (s.kind_name().to_string(), format!("{:#x}", s.mask)),
            None => ("none".to_string(), "-".to_string()),
        };
        let special = match &g.unrolled {
            Ok(k) => format!("unrolled ({} entries)", k.entries),
            Err(why) => format!("no: {why}"),
        };
        out += &format!(
            "{:<22} {:<7} {:<18} {:<7} {:>6} {:>8}  {}\n",
            g.file,
            g.code,
            g.name,
            kind,
            mask,
            g.table.len(),
            special
        );
    }
    out + &format!(
        "(tables from heaps 0 .. {} at build time; aliases: {})\n",
        GAMES.first().map_or(0, |g| g.built_to) - 1,
        GAMES
            .iter()
            .flat_map(|g| g.aliases.iter().map(move |a| format!("{a} = {}", g.code)))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The line a GPU run prints on stderr: where the device's time went.
pub fn gpu_timings_line(t: &GpuTimings, verified: bool) -> String {
    // What the marking engine and the host's cores did, each a clause.
    let mut host = Vec::new();
    if t.exact > 0 {
        host.push(format!(
            "the device computed {} heaps by exact marking (marking engine; {:.3} s of device time marking far splits, {:.3} s heap by heap)",
            t.exact,
            t.mark_far.as_secs_f64(),
            t.mark_block.as_secs_f64()
        ));
    }
    if t.host_classic > 0 {
        host.push(format!(
            "the host's cores computed {} heaps by the classic marking (timed faster there)",
            t.host_classic
        ));
    }
    if t.starting > 0 {
        host.push(format!(
            "{} heaps on the host's cores while the device started",
            t.starting
        ));
    }
    if t.speculated == 0 && t.exact == 0 && t.host_classic == 0 && t.starting > 0 {
        return format!(
            "gpu: the device computed nothing: the host's cores finished the run ({} heaps) sooner than it could have",
            t.starting
        );
    }
    if t.speculated == 0 && !host.is_empty() {
        return format!("gpu: {}", host.join("; "));
    }
    let clauses: String = host.iter().map(|c| format!("; {c}")).collect();
    let verification = if verified && t.devices > 1 {
        format!(
            "verified {} on {} devices beside it (device 0's share in {:.3} s of its time)",
            t.verified,
            t.devices,
            t.verify.as_secs_f64(),
        )
    } else if verified {
        format!(
            "verified {} in {:.3} s of device time ({:.0}/s) beside it",
            t.verified,
            t.verify.as_secs_f64(),
            t.verified_per_second()
        )
    } else {
        "none verified (--speculate-only)".to_string()
    };
    if t.host_chain {
        return format!(
            "gpu: the CPU speculated {} heaps in {:.3} s ({:.0}/s), {verification}; {} kernel modules compiled{clauses}",
            t.speculated,
            t.speculate.as_secs_f64(),
            t.speculated_per_second(),
            t.compiled,
        );
    }
    format!(
        "gpu: speculated {} heaps in {:.3} s of device time ({:.0}/s, {} rounds, {:.1} heaps a round), {verification}; the host took {} batches in {:.3} s: it waited {:.3} s for the device, {:.3} s for {} flagged heaps checked exactly and {:.3} s for verifying again past them; corrections written in {:.3} s; {} kernel modules compiled and buffers filled in {:.3} s, {} heaps on the CPU while the table settled{clauses}",
        t.speculated,
        t.speculate.as_secs_f64(),
        t.speculated_per_second(),
        t.rounds,
        t.heaps_per_round(),
        t.batches,
        t.taking.as_secs_f64(),
        t.waited.as_secs_f64(),
        t.check.as_secs_f64(),
        t.checked,
        t.reverify.as_secs_f64(),
        t.correct.as_secs_f64(),
        t.compiled,
        t.setup.as_secs_f64(),
        t.on_cpu
    )
}
