/**
 * `atEndOfTurn`: the fast path's answers are written together once the turn that decided them is over
 * (gateway/http/end-of-turn.ts). Nothing is written early, nothing is lost or reordered, and a turn's
 * batch does not wait for the next turn's calls.
 */
import { expect, it } from 'vitest';
import { atEndOfTurn } from '../../gateway/http/end-of-turn.js';

const turnOver = () => new Promise((resolve) => setImmediate(resolve));

it('runs the calls of one turn after it, together and in order, and each turn its own', async () => {
  const ran: string[] = [];
  const later = atEndOfTurn((what: string, n: number, last: boolean) => {
    ran.push(`${what}${n}${last ? '.' : ''}`);
  });
  later('a', 1, false);
  later('b', 2, false);
  later('c', 3, true);
  ran.push('the turn goes on');
  await Promise.resolve();
  expect(ran).toEqual(['the turn goes on']);
  await turnOver();
  expect(ran).toEqual(['the turn goes on', 'a1', 'b2', 'c3.']);
  later('d', 4, true);
  await turnOver();
  expect(ran).toEqual(['the turn goes on', 'a1', 'b2', 'c3.', 'd4.']);
  await turnOver();
  expect(ran).toHaveLength(5);
});
