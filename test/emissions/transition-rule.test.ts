import { describe, expect, it } from 'vitest';
import type { EmissionStatus } from '../../pipeline/emissions/emission-status.js';
import {
  applySample,
  type Track,
  type VerifiedTransition,
} from '../../pipeline/emissions/transition-rule.js';

/** Runs the rule over statuses sampled at blocks 10, 20, 30, ... and returns the events. */
function run(statuses: string): VerifiedTransition[] {
  let track: Track | null = null;
  const events: VerifiedTransition[] = [];
  [...statuses].forEach((letter, i) => {
    const status: EmissionStatus = letter === 'F' ? 'flowing' : 'suspended';
    const step = applySample(track, { block: (i + 1) * 10, timeMs: (i + 1) * 1000, status });
    track = step.track;
    if (step.event) events.push(step.event);
  });
  return events;
}

describe('verification rule', () => {
  it('verifies a change when the next sample agrees, spanning the block range it happened in', () => {
    expect(run('FFSS')).toEqual([
      {
        kind: 'suspended',
        fromBlock: 20,
        toBlock: 30,
        detectedAtMs: 3000,
        verifiedBlock: 40,
        verifiedAtMs: 4000,
      },
    ]);
    expect(run('SSSFF').map((e) => [e.kind, e.fromBlock, e.toBlock, e.verifiedBlock])).toEqual([
      ['restored', 30, 40, 50],
    ]);
  });

  it('ignores a one-sample flap, including one right before a real change', () => {
    expect(run('FFSFF')).toEqual([]);
    expect(run('FFSFSS').map((e) => [e.kind, e.toBlock])).toEqual([['suspended', 50]]);
  });

  it('never reports the first status, nor a change seen in the last sample only', () => {
    expect(run('SS')).toEqual([]);
    expect(run('SFF')).toEqual([]);
    expect(run('FFFS')).toEqual([]);
  });

  it('reports a suspension and the restoration that follows', () => {
    expect(run('FFSSSFF').map((e) => e.kind)).toEqual(['suspended', 'restored']);
  });
});
