//! Classes of a survey. Two codes are one class when their values are equal up to a shift of
//! heap sizes *and* that is proved: by the rules on codes ([`crate::rules`]), or by both
//! games having proved periods with the same values. A game's values are compared with its
//! leading zeros stripped, so that a shift is the difference of where the first nonzero value
//! stands. Games that agree over everything computed, or far, without proof are listed apart
//! ([`Agreement`]), never merged.

use crate::codes::{codes, order};
use crate::record::GameRecord;
use crate::rules::normal_form;
use octal_core::Code;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Codes of one normal form: one class by the rules on codes. The first is the one computed.
#[derive(Debug, Clone)]
pub struct RuleClass {
    /// Each member with its depth offset from the first: `G_member(n) = G_first(n - offset)`.
    pub members: Vec<(Code, i64)>,
    /// The normal form (possibly longer than the survey's codes).
    pub normal: Code,
}

impl RuleClass {
    /// The code computed for the class.
    pub fn first(&self) -> &Code {
        &self.members[0].0
    }
}

/// The rule classes of a survey of `digits` digits, in the order of their first codes.
pub fn rule_classes(digits: usize) -> Vec<RuleClass> {
    let mut by_normal: BTreeMap<String, usize> = BTreeMap::new();
    let mut classes: Vec<(RuleClass, i64)> = Vec::new();
    for c in codes(digits) {
        let (normal, depth) = normal_form(&c);
        let depth = depth as i64;
        match by_normal.get(&normal.to_string()) {
            Some(&i) => {
                let first_depth = classes[i].1;
                classes[i].0.members.push((c, depth - first_depth));
            }
            None => {
                by_normal.insert(normal.to_string(), classes.len());
                classes.push((
                    RuleClass {
                        members: vec![(c, 0)],
                        normal,
                    },
                    depth,
                ));
            }
        }
    }
    classes.into_iter().map(|(c, _)| c).collect()
}

/// How a member is known to have its class's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Proof {
    /// It is the representative.
    Representative,
    /// The rules on codes (lone token, redundant moves).
    Rule,
    /// Proved periods with the same values.
    Period,
}

/// A code of a class: `G_code(n) = G_rep(n - shift)` for every heap `n`, taking `G_rep` of a
/// negative heap as 0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Member {
    pub code: String,
    pub shift: i64,
    pub proof: Proof,
}

/// A class of codes with proved equal values.
#[derive(Debug, Clone, Serialize)]
pub struct Class {
    /// The representative: the first member in [`order`].
    pub rep: String,
    pub members: Vec<Member>,
    /// The representative's computation.
    pub record: GameRecord,
    /// OEIS sequences of the class (a code of the sequence's title has the class's normal form).
    pub oeis: Vec<String>,
}

/// Two classes whose values agree far, without a proof that they are equal:
/// `G_b(n) = G_a(n - shift)` for every heap `n < agree_to` of `a`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Agreement {
    pub a: String,
    pub b: String,
    pub shift: i64,
    /// Heaps of `a` over which they agree.
    pub agree_to: usize,
    /// The first heap of `a` where they differ, if they were computed that far.
    pub first_difference: Option<usize>,
}

/// The classes of a survey.
#[derive(Debug, Clone, Serialize)]
pub struct Classes {
    pub classes: Vec<Class>,
    pub agreements: Vec<Agreement>,
}

/// Agreements this long (in heaps, leading zeros stripped) or longer are listed.
pub const LISTED_AGREEMENT: usize = 256;

/// Stripped values compared to find candidate pairs.
const KEY: usize = 16;

/// Why classes could not be formed.
#[derive(Debug, thiserror::Error)]
pub enum ClassifyError {
    #[error("no record of {0}: the survey is not complete")]
    Missing(String),
    #[error("cannot compute {code} again to compare it: {message}")]
    Values { code: String, message: String },
}

/// Computes values `0..n` of a code again, to compare games beyond their records' heads.
pub type ValuesOf<'a> = dyn FnMut(&Code, usize) -> Result<Vec<u16>, String> + 'a;

/// A rule class with its record, as compared.
struct Game<'a> {
    rule: &'a RuleClass,
    record: &'a GameRecord,
    /// Leading zeros.
    z: usize,
}

impl Game<'_> {
    /// Stripped values known from the record.
    fn known(&self) -> usize {
        self.record.known().saturating_sub(self.z)
    }

    /// Stripped values known once computed again.
    fn extent(&self) -> usize {
        self.record.extent().saturating_sub(self.z)
    }

    fn stripped(&self, k: usize) -> Option<u16> {
        self.record.value(self.z + k)
    }
}

/// Forms the classes of a survey of `digits` digits from the records of its rule classes
/// (keyed by code), computing games again through `values` where records do not decide.
pub fn classify(
    digits: usize,
    records: &BTreeMap<String, GameRecord>,
    values: &mut ValuesOf,
) -> Result<Classes, ClassifyError> {
    let rules = rule_classes(digits);
    let mut games = Vec::with_capacity(rules.len());
    for rule in &rules {
        let key = rule.first().to_string();
        let record = records.get(&key).ok_or(ClassifyError::Missing(key))?;
        games.push(Game {
            rule,
            record,
            z: record.zeros(),
        });
    }
    let mut buckets: HashMap<Vec<u16>, Vec<usize>> = HashMap::new();
    for (i, g) in games.iter().enumerate() {
        let key: Vec<u16> = (0..KEY.min(g.known()))
            .filter_map(|k| g.stripped(k))
            .collect();
        buckets.entry(key).or_default().push(i);
    }
    let mut roots: Vec<usize> = (0..games.len()).collect();
    let mut pairs: Vec<(usize, usize, usize, Option<usize>)> = Vec::new();
    let mut again: HashMap<String, Vec<u16>> = HashMap::new();
    let mut buckets: Vec<Vec<usize>> = buckets.into_values().collect();
    buckets.sort();
    for bucket in &buckets {
        for (x, &i) in bucket.iter().enumerate() {
            for &j in &bucket[x + 1..] {
                if find(&mut roots, i) == find(&mut roots, j) {
                    continue;
                }
                let (a, b) = (&games[i], &games[j]);
                let proved_periodic = a.record.period.zip(b.record.period).map(|(p, q)| {
                    let pre = p
                        .preperiod
                        .saturating_sub(a.z)
                        .max(q.preperiod.saturating_sub(b.z));
                    pre + p.period + q.period
                });
                let span = proved_periodic.unwrap_or(a.extent().min(b.extent()));
                let head = a.known().min(b.known()).min(span);
                let difference = match first_difference(head, |k| a.stripped(k), |k| b.stripped(k))
                {
                    Some(d) => Some(d),
                    None if head < span => {
                        values_again(&mut again, values, a, span)?;
                        values_again(&mut again, values, b, span)?;
                        let va = &again[&a.rule.first().to_string()];
                        let vb = &again[&b.rule.first().to_string()];
                        first_difference(
                            span,
                            |k| va.get(a.z + k).copied(),
                            |k| vb.get(b.z + k).copied(),
                        )
                    }
                    None => None,
                };
                match (difference, proved_periodic) {
                    (None, Some(_)) => {
                        let (ri, rj) = (find(&mut roots, i), find(&mut roots, j));
                        roots[ri.max(rj)] = ri.min(rj);
                    }
                    (None, None) => pairs.push((i, j, span, None)),
                    (Some(d), _) if d >= LISTED_AGREEMENT => pairs.push((i, j, d, Some(d))),
                    _ => {}
                }
            }
        }
    }
    // Offsets: G_code(n) = X(n - off(code)), X the class's values with leading zeros stripped.
    let mut members: BTreeMap<usize, Vec<(usize, Code, i64)>> = BTreeMap::new();
    for (i, g) in games.iter().enumerate() {
        let root = find(&mut roots, i);
        for (c, offset) in &g.rule.members {
            members
                .entry(root)
                .or_default()
                .push((i, c.clone(), offset + g.z as i64));
        }
    }
    let oeis = oeis_numbers();
    let mut class_of: HashMap<usize, (String, i64)> = HashMap::new();
    let mut classes = Vec::new();
    for (root, mut list) in members {
        list.sort_by_key(|(_, c, _)| order(c));
        let (rep_game, rep, rep_off) = list[0].clone();
        class_of.insert(root, (rep.to_string(), rep_off));
        let normals: Vec<String> = list
            .iter()
            .map(|(i, _, _)| games[*i].rule.normal.to_string())
            .collect();
        let mut numbers: Vec<String> = oeis
            .iter()
            .filter(|(_, normal)| normals.contains(normal))
            .map(|(a, _)| a.clone())
            .collect();
        numbers.sort();
        numbers.dedup();
        classes.push(Class {
            rep: rep.to_string(),
            members: list
                .iter()
                .map(|(i, c, off)| Member {
                    code: c.to_string(),
                    shift: off - rep_off,
                    proof: if c == &rep {
                        Proof::Representative
                    } else if *i == rep_game {
                        Proof::Rule
                    } else {
                        Proof::Period
                    },
                })
                .collect(),
            record: games[rep_game].record.clone(),
            oeis: numbers,
        });
    }
    classes.sort_by_key(|c| order(&c.rep.parse::<Code>().expect("a surveyed code")));
    let mut agreements: BTreeMap<(String, String), Agreement> = BTreeMap::new();
    for (i, j, len, diff) in pairs {
        let (a, a_off) = class_of[&find(&mut roots, i)].clone();
        let (b, b_off) = class_of[&find(&mut roots, j)].clone();
        if a == b {
            continue;
        }
        let ((a, a_off), (b, b_off)) =
            if order(&a.parse().expect("a code")) <= order(&b.parse().expect("a code")) {
                ((a, a_off), (b, b_off))
            } else {
                ((b, b_off), (a, a_off))
            };
        let heap = |k: usize| (k as i64 + a_off).max(0) as usize;
        let entry = Agreement {
            a: a.clone(),
            b: b.clone(),
            shift: b_off - a_off,
            agree_to: heap(len),
            first_difference: diff.map(heap),
        };
        match agreements.get(&(a.clone(), b.clone())) {
            Some(e) if e.agree_to >= entry.agree_to => {}
            _ => {
                agreements.insert((a, b), entry);
            }
        }
    }
    Ok(Classes {
        classes,
        agreements: agreements.into_values().collect(),
    })
}

/// The first `k < len` where the two differ (or where one is unknown).
fn first_difference(
    len: usize,
    a: impl Fn(usize) -> Option<u16>,
    b: impl Fn(usize) -> Option<u16>,
) -> Option<usize> {
    (0..len).find(|&k| match (a(k), b(k)) {
        (Some(x), Some(y)) => x != y,
        _ => true,
    })
}

/// Computes the values of `game` again to cover `span` stripped heaps, unless `cache` has them.
fn values_again(
    cache: &mut HashMap<String, Vec<u16>>,
    values: &mut ValuesOf,
    game: &Game,
    span: usize,
) -> Result<(), ClassifyError> {
    let code = game.rule.first();
    let n = game.z + span;
    let key = code.to_string();
    if cache.get(&key).is_none_or(|v| v.len() < n) {
        let v = values(code, n).map_err(|message| ClassifyError::Values {
            code: key.clone(),
            message,
        })?;
        cache.insert(key, v);
    }
    Ok(())
}

fn find(roots: &mut [usize], mut i: usize) -> usize {
    while roots[i] != i {
        roots[i] = roots[roots[i]];
        i = roots[i];
    }
    i
}

/// OEIS A-numbers with the normal form of the code in their title (tests/data/oeis-sequences.tsv).
fn oeis_numbers() -> Vec<(String, String)> {
    include_str!("../../tests/data/oeis-sequences.tsv")
        .lines()
        .filter(|l| l.starts_with('A'))
        .filter_map(|l| {
            let mut f = l.split('\t');
            let a = f.next()?;
            let code: Code = f.next()?.parse().ok()?;
            Some((a.to_string(), normal_form(&code).0.to_string()))
        })
        .collect()
}
