//! The classic rare-value algorithm (Grossman 2019, Figure 2), single-threaded and exact for any
//! sparse space: for each heap, mark the common option values reachable through the rare heaps,
//! take the least unmarked common value c, then scan all splits until every rare value below c
//! is covered (or find that one is not: a new rare value). It extends rare tables at build time
//! and is the baseline the fast engines are measured against.

use crate::code::Rules;
use crate::exact::{Marks, ValueOverflow};
use crate::sparse::{RareTable, SparseSpace};

/// Exact values heap by heap, keeping the list of rare heaps current.
pub struct Classic<'a> {
    rules: &'a Rules,
    space: SparseSpace,
    /// Rare heaps seen so far (heap >= 1), with their values.
    rare: Vec<(usize, u16)>,
    marks: Marks,
}

impl<'a> Classic<'a> {
    /// Starts after the exact values `g` (the rare heaps among them are taken from `g`).
    pub fn new(rules: &'a Rules, space: SparseSpace, g: &[u16]) -> Self {
        let rare = RareTable::from_values(&space, g)
            .entries()
            .iter()
            .copied()
            .filter(|e| e.0 >= 1)
            .collect();
        Classic {
            rules,
            space,
            rare,
            marks: Marks::default(),
        }
    }

    /// G(n), given the exact values `g[0..n]`.
    pub fn value(&mut self, g: &[u16], n: usize) -> Result<u16, ValueOverflow> {
        let (rules, space, marks) = (self.rules, self.space, &mut self.marks);
        marks.clear();
        let common_at_n = |v: u16| !space.is_rare(n, v);
        // 1. Common options: a single heap, or a rare heap beside a common one.
        for &i in &rules.whole {
            if n == i && common_at_n(0) {
                marks.insert(0);
            }
        }
        for &i in &rules.single {
            if n > i && common_at_n(g[n - i]) {
                marks.insert(g[n - i]);
            }
        }
        for &i in &rules.breaking {
            let Some(h) = n.checked_sub(i) else { continue };
            for &(a, ra) in &self.rare {
                if a >= h {
                    break;
                }
                let b = h - a;
                if !space.is_rare(b, g[b]) {
                    marks.insert(g[b] ^ ra);
                }
            }
        }
        let mut c = 0u32;
        while c <= u32::from(u16::MAX) && (!common_at_n(c as u16) || marks.contains(c as u16)) {
            c += 1;
        }
        let c = u16::try_from(c).map_err(|_| ValueOverflow { heap: n })?;
        // 2. Every rare value below c must be an option too.
        let mut missing = (0..c).filter(|&v| !common_at_n(v)).count();
        let cover = |v: u16, marks: &mut Marks| {
            let new = v < c && !common_at_n(v) && !marks.contains(v);
            if new {
                marks.insert(v);
            }
            usize::from(new)
        };
        for &i in &rules.whole {
            if n == i {
                missing -= cover(0, marks);
            }
        }
        for &i in &rules.single {
            if n > i {
                missing -= cover(g[n - i], marks);
            }
        }
        'scan: for &i in &rules.breaking {
            if n < i + 2 {
                continue;
            }
            let h = n - i;
            for a in 1..=h / 2 {
                if missing == 0 {
                    break 'scan;
                }
                missing -= cover(g[a] ^ g[h - a], marks);
            }
        }
        if missing == 0 {
            return Ok(c);
        }
        let v = (0..c)
            .find(|&v| !common_at_n(v) && !marks.contains(v))
            .expect("a rare value below c is missing");
        self.rare.push((n, v));
        Ok(v)
    }

    /// Extends `g` with exact values until it holds heaps `0..n`.
    pub fn extend(&mut self, g: &mut Vec<u16>, n: usize) -> Result<(), ValueOverflow> {
        g.reserve(n.saturating_sub(g.len()));
        while g.len() < n {
            let v = self.value(g, g.len())?;
            g.push(v);
        }
        Ok(())
    }

    /// The rare heaps found so far (heap >= 1).
    pub fn rare(&self) -> &[(usize, u16)] {
        &self.rare
    }
}
