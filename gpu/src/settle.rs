//! Settling the heaps the `verify` kernel flags: each is checked exactly, in order, by the `mex`
//! kernel where the device holds all of its options (the heaps of a batch shared out over the
//! devices that verify the run) and by the CPU's verifier elsewhere; the first wrong candidate
//! ends its batch with its true value.

use crate::error::GpuError;
use crate::launch::{Buffers, Kernels};
use crate::mirror::Mirror;
use cudarc::driver::CudaStream;
use octal_core::{exact, Kept};
use octal_engines::stretch::EngineError;
use octal_engines::verify::{Failure, Refuted, Verifier};
use std::ops::Range;
use std::sync::Arc;

/// A verdict on heaps taken in order: the first refuted (every heap before it stood), and how many
/// stood.
pub(crate) type Settled = (Result<(), Refuted>, usize);

/// A device holding a run's values, with its kernels and the stream the `mex` kernel runs on.
pub(crate) struct OnDevice<'a> {
    pub kernels: &'a Kernels,
    pub stream: &'a Arc<CudaStream>,
    pub buf: &'a mut Buffers,
}

impl<'a> OnDevice<'a> {
    /// The device of `mirror`, on its stream.
    pub fn of(mirror: &'a mut Mirror) -> OnDevice<'a> {
        OnDevice {
            kernels: &mirror.kernels,
            stream: &mirror.gpu.stream,
            buf: &mut mirror.buf,
        }
    }

    /// G(n) of each of `heaps` by the `mex` kernel ([`Kernels::mex`]).
    fn mex(&mut self, heaps: &[u64]) -> Result<Vec<Option<u16>>, GpuError> {
        self.kernels.mex(self.stream, self.buf, heaps)
    }
}

/// Checks the candidates of `heaps` (flagged, in increasing order; `g` holds the candidates up to
/// the last, and every device of `devices` the same) exactly, in batches that double from one
/// heap ([`in_doubling_batches`]): a wrong candidate ends the batch, and the exact values of the
/// heaps listed after it would be thrown away. A batch goes to the `mex` kernel for every heap
/// whose options the devices hold ([`mex_shared`]), to the CPU for the others. Returns the first
/// that is wrong (every heap before it stands), and how many stood.
pub(crate) fn settle(
    devices: &mut [OnDevice<'_>],
    verifier: &Verifier,
    g: Kept<'_>,
    heaps: &[u64],
) -> Result<Settled, EngineError> {
    let resident = devices[0].buf.resident;
    in_doubling_batches(heaps.len(), |batch| {
        let heaps = &heaps[batch];
        let held: Vec<bool> = heaps
            .iter()
            .map(|&h| resident.holds_options_of(h as usize))
            .collect();
        let on_device: Vec<u64> = heaps
            .iter()
            .zip(&held)
            .filter(|p| *p.1)
            .map(|p| *p.0)
            .collect();
        let mut exact_values = mex_shared(devices, &on_device)?.into_iter();
        for (stood, (&h, &held)) in heaps.iter().zip(&held).enumerate() {
            let heap = h as usize;
            let on_device = if held {
                exact_values.next().flatten()
            } else {
                None
            };
            let verdict = match on_device {
                Some(v) if v == g.at(heap) => Ok(()),
                Some(value) => Err(Refuted::Wrong(Failure { heap, value })),
                None => exact::with_marks(|m| verifier.check(g, heap, m)),
            };
            if verdict.is_err() {
                return Ok((verdict, stood));
            }
        }
        Ok((Ok(()), heaps.len()))
    })
}

/// G(n) of each of `heaps` by the `mex` kernel, device d of the k taking heaps d, d + k, ...,
/// all at once (a thread a device).
fn mex_shared(devices: &mut [OnDevice<'_>], heaps: &[u64]) -> Result<Vec<Option<u16>>, GpuError> {
    let k = devices.len().min(heaps.len()).max(1);
    if k == 1 {
        return devices[0].mex(heaps);
    }
    let shares = std::thread::scope(|scope| {
        let running: Vec<_> = devices[..k]
            .iter_mut()
            .enumerate()
            .map(|(d, device)| {
                let share: Vec<u64> = heaps.iter().skip(d).step_by(k).copied().collect();
                scope.spawn(move || device.mex(&share))
            })
            .collect();
        running
            .into_iter()
            .map(|r| r.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect::<Result<Vec<_>, _>>()
    })?;
    let mut values = vec![None; heaps.len()];
    for (d, share) in shares.into_iter().enumerate() {
        for (j, v) in share.into_iter().enumerate() {
            values[d + j * k] = v;
        }
    }
    Ok(values)
}

/// Runs `settle` on consecutive ranges of `0 .. len`, of 1, 2, 4, ... items, until one is refuted;
/// its verdict, with how many items of all stood. A refutation at item k costs at most 2k + 1
/// items settled instead of `len`, a list that stands ceil(log2(len + 1)) calls instead of one.
fn in_doubling_batches<E>(
    len: usize,
    mut settle: impl FnMut(Range<usize>) -> Result<Settled, E>,
) -> Result<Settled, E> {
    let (mut from, mut batch) = (0, 1);
    while from < len {
        let to = (from + batch).min(len);
        let (verdict, stood) = settle(from..to)?;
        if verdict.is_err() {
            return Ok((verdict, from + stood));
        }
        (from, batch) = (to, 2 * batch);
    }
    Ok((Ok(()), len))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Doubling batches settle every item, in order and once each, up to the first refuted one,
    /// at most 2k + 1 of them when item k is refuted, and report how many stood.
    #[test]
    fn doubling_batches_stop_at_the_first_refuted_item() {
        for len in 0..70 {
            for wrong in (0..len).map(Some).chain([None]) {
                let mut settled = Vec::new();
                let (verdict, stood) = in_doubling_batches::<()>(len, |batch| {
                    for i in batch.clone() {
                        if Some(i) == wrong {
                            let failure = Failure { heap: i, value: 0 };
                            return Ok((Err(Refuted::Wrong(failure)), i - batch.start));
                        }
                        settled.push(i);
                    }
                    Ok((Ok(()), batch.len()))
                })
                .unwrap();
                match wrong {
                    Some(k) => {
                        assert!(matches!(verdict, Err(Refuted::Wrong(f)) if f.heap == k));
                        assert_eq!(stood, k);
                        assert_eq!(settled, (0..k).collect::<Vec<_>>());
                    }
                    None => {
                        assert!(verdict.is_ok());
                        assert_eq!(stood, len);
                        assert_eq!(settled, (0..len).collect::<Vec<_>>());
                    }
                }
            }
        }
    }

    /// A refutation at item k leaves at most 2k + 1 items handed to `settle`.
    #[test]
    fn doubling_batches_hand_out_at_most_twice_the_items_before_a_refutation() {
        for len in 1..300 {
            for k in 0..len {
                let mut handed = 0;
                let _ = in_doubling_batches::<()>(len, |batch| {
                    handed += batch.len();
                    Ok(if batch.contains(&k) {
                        let failure = Failure { heap: k, value: 0 };
                        (Err(Refuted::Wrong(failure)), k - batch.start)
                    } else {
                        (Ok(()), batch.len())
                    })
                });
                assert!(handed <= 2 * k + 1, "len {len}, k {k}: {handed} handed out");
            }
        }
    }
}
