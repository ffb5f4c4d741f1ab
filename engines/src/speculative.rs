//! The speculate-verify loop on the CPU: batches of heaps are speculated from the rare table
//! (by the generic loop or a game's unrolled loop) while the batch before is verified on the
//! other threads. A failed heap gets its true value, the table is corrected (a new rare value,
//! usually), the speculative engine is rebuilt and work resumes right after that heap with a
//! small batch that grows again. [`Speculative`] keeps the loop between stretches, so that a
//! driver can look at the values between them.

use crate::games::UnrolledLoop;
use crate::speculate::{KeyOverflow, Speculator};
use crate::stretch::{reads_back, Ended, Engine, EngineError, Notice, Stretch, StretchEngine};
use crate::verify::{Prove, Refuted, Verifier};
use octal_core::codec::value_bits;
use octal_core::exact::ValueOverflow;
use octal_core::{Kept, RareTable, Rules, SparseSpace};

/// Batches start small after a correction (little is wasted if another follows) and double, up
/// to what the prover takes.
const MIN_BATCH: usize = 1 << 6;

/// The speculative engine at either key width.
enum AnySpeculator {
    Narrow(Speculator<u8>),
    Wide(Speculator<u16>),
}

impl AnySpeculator {
    fn new(
        rules: &Rules,
        space: SparseSpace,
        table: RareTable,
        bits: u32,
        unrolled: Option<&'static UnrolledLoop>,
    ) -> Self {
        if bits <= 9 {
            AnySpeculator::Narrow(Speculator::new(rules, space, table, bits, unrolled))
        } else {
            AnySpeculator::Wide(Speculator::new(rules, space, table, bits, unrolled))
        }
    }

    fn unrolled(&self) -> bool {
        matches!(self, AnySpeculator::Narrow(s) if s.unrolled())
    }

    fn speculate(&mut self, prior: Kept<'_>, out: &mut [u16]) -> Result<(), KeyOverflow> {
        match self {
            AnySpeculator::Narrow(s) => s.speculate(prior, out),
            AnySpeculator::Wide(s) => s.speculate(prior, out),
        }
    }

    fn table(&self) -> &RareTable {
        match self {
            AnySpeculator::Narrow(s) => s.table(),
            AnySpeculator::Wide(s) => s.table(),
        }
    }

    fn add_rare(&mut self, g: Kept<'_>, n: usize, v: u16) -> bool {
        match self {
            AnySpeculator::Narrow(s) => s.add_rare(g, n, v),
            AnySpeculator::Wide(s) => s.add_rare(g, n, v),
        }
    }
}

/// The speculate-verify loop for one game, sparse space and table; it keeps its table, key
/// width and batch size from one stretch ([`StretchEngine::extend`]) to the next.
pub struct Speculative<'a> {
    rules: &'a Rules,
    space: SparseSpace,
    bits: u32,
    spec: AnySpeculator,
    prover: Box<dyn Prove + 'a>,
    unrolled: Option<&'static UnrolledLoop>,
    /// The unrolled loop was dropped because its table turned out incomplete.
    stale: bool,
    /// The size of the next batch.
    batch: usize,
    /// Wrong candidates corrected so far.
    corrections: usize,
}

impl<'a> Speculative<'a> {
    /// The loop seeded with `table` and keys for values below 2^bits (at least
    /// [`octal_core::codec::MIN_VALUE_BITS`]); `unrolled`, the game's unrolled loop, serves
    /// while the table is the one it was generated for.
    pub fn new(
        rules: &'a Rules,
        space: SparseSpace,
        table: RareTable,
        bits: u32,
        unrolled: Option<&'static UnrolledLoop>,
    ) -> Self {
        let prover = Box::new(Verifier::new(rules, space));
        Self::with_prover(rules, space, table, bits, unrolled, prover)
    }

    /// The loop with its candidates proved by `prover`.
    pub fn with_prover(
        rules: &'a Rules,
        space: SparseSpace,
        table: RareTable,
        bits: u32,
        unrolled: Option<&'static UnrolledLoop>,
        prover: Box<dyn Prove + 'a>,
    ) -> Self {
        let bits = bits.max(value_bits(0));
        Speculative {
            rules,
            space,
            bits,
            spec: AnySpeculator::new(rules, space, table, bits, unrolled),
            prover,
            unrolled,
            stale: false,
            batch: MIN_BATCH,
            corrections: 0,
        }
    }

    /// The rare table as corrected so far.
    pub fn table(&self) -> &RareTable {
        self.spec.table()
    }

    /// Wrong candidates corrected so far, over every call.
    pub fn corrections(&self) -> usize {
        self.corrections
    }

    /// Whether the game's unrolled loop has served every heap so far.
    pub fn unrolled(&self) -> bool {
        self.unrolled.is_some() && !self.stale
    }

    /// A new engine for `table`; says once when the unrolled loop no longer fits the table.
    fn rebuild(&mut self, table: RareTable, notify: &mut dyn FnMut(Notice)) {
        let was_unrolled = self.spec.unrolled();
        self.spec = AnySpeculator::new(self.rules, self.space, table, self.bits, self.unrolled);
        self.said_stale(was_unrolled, notify);
    }

    /// Says once when the unrolled loop, which served until now, no longer fits the table.
    fn said_stale(&mut self, was_unrolled: bool, notify: &mut dyn FnMut(Notice)) {
        if was_unrolled && !self.spec.unrolled() && !self.stale {
            self.stale = true;
            notify(Notice::StaleBuildTable);
        }
    }
}

impl StretchEngine for Speculative<'_> {
    /// Extends the values (proved, or candidates when `s.verify` is off) to `s.to` heaps, or
    /// until the watcher says stop or the table has needed `s.corrections` corrections. Each
    /// round verifies the batch speculated last round while the next batch is speculated on
    /// another thread.
    fn extend(&mut self, s: &mut Stretch<'_>) -> Result<Ended, EngineError> {
        let (g, n, verify) = (&mut *s.values, s.to, s.verify);
        let (notify, watch) = (&mut *s.notify, &mut *s.watch);
        let mut verified = g.len();
        if verify && watch.proved(g.kept())? {
            return Ok(Ended::Stopped);
        }
        g.seen(verified);
        let mut corrected = 0;
        let mut batch = self.batch;
        while verified < n {
            let spec_from = g.len();
            let heaps = batch.min(watch.batch_limit());
            g.resize((spec_from + heaps).min(n), 0)?;
            let (head, tail) = g.split_at_mut(spec_from);
            let (prover, spec) = (&mut self.prover, &mut self.spec);
            let mut speculated = Ok(());
            // The batch before is proved, and shown to the watcher, while this one is speculated.
            let (checked, stopped) = if verify {
                rayon::in_place_scope(|s| {
                    s.spawn(|_| speculated = spec.speculate(head, tail));
                    let checked = prover.prove(head, verified..spec_from);
                    let stopped = match &checked {
                        Ok(Ok(())) => watch.proved(head),
                        _ => Ok(false),
                    };
                    (checked, stopped)
                })
            } else {
                speculated = spec.speculate(head, tail);
                (Ok(Ok(())), Ok(false))
            };
            match checked? {
                Ok(()) => {
                    verified = spec_from;
                    if stopped? {
                        g.truncate(verified);
                        return Ok(Ended::Stopped);
                    }
                    g.seen(verified);
                }
                Err(Refuted::Overflow(o)) => return Err(o.into()),
                Err(Refuted::Unsettled { heap }) => {
                    // Every heap below it is proved; the watcher sees them before the run stops.
                    g.truncate(heap);
                    if heap > verified {
                        watch.proved(g.kept())?;
                    }
                    let front = g.kept().front().len();
                    return Err(EngineError::Unsettled { heap, front });
                }
                Err(Refuted::Wrong(f)) => {
                    g.truncate(f.heap);
                    g.push(f.value)?;
                    verified = g.len();
                    let rare = self.space.is_rare(f.heap, f.value);
                    self.bits = self.bits.max(value_bits(f.value));
                    // A new rare heap past the table joins the loop in place; anything else
                    // (an entry that was wrong, wider keys) builds a new engine.
                    let was_unrolled = self.spec.unrolled();
                    if !(rare && self.spec.add_rare(g.kept(), f.heap, f.value)) {
                        let mut table = self.spec.table().clone();
                        table.set(f.heap, rare.then_some(f.value));
                        self.spec = AnySpeculator::new(
                            self.rules,
                            self.space,
                            table,
                            self.bits,
                            self.unrolled,
                        );
                    }
                    notify(Notice::TableCorrected {
                        heap: f.heap,
                        value: f.value,
                        rare,
                        table_len: self.spec.table().len(),
                    });
                    self.said_stale(was_unrolled, notify);
                    // A bounded run goes on once it holds every heap the rare heap's options
                    // read.
                    let back = reads_back(self.rules, f.heap);
                    if rare && !g.holds_back(back) {
                        return Err(EngineError::Unheld {
                            heap: g.len(),
                            back,
                        });
                    }
                    batch = MIN_BATCH;
                    self.batch = batch;
                    self.corrections += 1;
                    corrected += 1;
                    if corrected >= s.corrections {
                        return Ok(Ended::Corrected);
                    }
                    continue;
                }
            }
            if let Err(KeyOverflow { .. }) = speculated {
                g.truncate(spec_from);
                if self.bits >= 16 {
                    return Err(ValueOverflow { heap: spec_from }.into());
                }
                self.bits += 1;
                self.rebuild(self.spec.table().clone(), notify);
                notify(Notice::Widened { bits: self.bits });
                continue;
            }
            if !verify {
                verified = g.len();
            }
            batch = (batch * 2).min(self.prover.max_batch());
            self.batch = batch;
        }
        Ok(Ended::Reached)
    }

    fn engine(&self) -> Engine {
        if self.unrolled() {
            Engine::Unrolled
        } else {
            Engine::Generic
        }
    }

    fn table(&self) -> Option<&RareTable> {
        Some(self.spec.table())
    }
}
