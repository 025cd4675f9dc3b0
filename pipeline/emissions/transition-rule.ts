/**
 * The verification rule, one sample at a time, per subnet (netuid, registered_at):
 *
 * - A subnet's status is *established* once two consecutive samples agree on it (its first status is
 *   never an event: no transition was observed).
 * - A sample whose status differs from the established one *detects* a transition; the next sample of
 *   the same subnet (necessarily at a later block) *verifies* it when it agrees. The event then spans
 *   (the sample before the detecting one, the detecting sample]: the change happened in that block range.
 * - When the next sample disagrees, the detecting sample was a flap: no event, nothing changes.
 *
 * Pure: the caller stores the returned track and event.
 */
import type { EmissionStatus } from './emission-status.js';

export interface TrackSample {
  block: number;
  timeMs: number;
  status: EmissionStatus;
}

export interface Track {
  established: EmissionStatus | null;
  last: TrackSample;
  /** Block of the sample before `last`, or null after the first sample. */
  prevBlock: number | null;
}

export type EventKind = 'suspended' | 'restored';

export interface VerifiedTransition {
  kind: EventKind;
  fromBlock: number;
  toBlock: number;
  detectedAtMs: number;
  verifiedBlock: number;
  verifiedAtMs: number;
}

/** A verified transition of one subnet (a netuid under one registration): a row of `emission_events`. */
export interface EmissionEvent extends VerifiedTransition {
  netuid: number;
  registeredAt: number;
}

export function applySample(
  track: Track | null,
  sample: TrackSample,
): { track: Track; event: VerifiedTransition | null } {
  if (track === null) return { track: { established: null, last: sample, prevBlock: null }, event: null };
  const { established, last } = track;
  let event: VerifiedTransition | null = null;
  let next = established;
  if (established === null) {
    if (sample.status === last.status) next = sample.status;
  } else if (last.status !== established && sample.status === last.status && track.prevBlock !== null) {
    event = {
      kind: sample.status === 'suspended' ? 'suspended' : 'restored',
      fromBlock: track.prevBlock,
      toBlock: last.block,
      detectedAtMs: last.timeMs,
      verifiedBlock: sample.block,
      verifiedAtMs: sample.timeMs,
    };
    next = sample.status;
  }
  return { track: { established: next, last: sample, prevBlock: last.block }, event };
}
