/**
 * Pages of the emissions events. A run publishes, per window and per netuid (or all), the whole
 * newest-first list, ordered by (to_block desc, netuid desc); the gateway cuts pages from it.
 *
 * Cursor rule: a page holds the events with `to_block < before_block` (all when absent), at most
 * `EMISSION_EVENTS_PAGE_SIZE` of them, except that events sharing a `to_block` are never split across
 * pages: when the page would end inside such a group, it ends before the group, and when one group alone
 * is larger than a page, the page holds that whole group. `next_before_block` is the `to_block` of the
 * page's last event while older events remain, so following it neither repeats nor skips an event.
 */
import type { EmissionEvents } from '../../pipeline/contract/emissions.js';
import type { SnapshotCache } from '../snapshots/snapshot-cache.js';

type EventItem = EmissionEvents['events'][number];

export interface EventsPage {
  events: EventItem[];
  nextBeforeBlock: number | null;
}

export function eventsPage(all: EventItem[], beforeBlock: number | undefined, pageSize: number): EventsPage {
  const eligible = beforeBlock === undefined ? all : all.filter((event) => event.to_block < beforeBlock);
  if (eligible.length <= pageSize) return { events: eligible, nextBeforeBlock: null };
  let end = pageSize;
  const boundary = eligible[pageSize - 1]!.to_block;
  if (eligible[pageSize]!.to_block === boundary) {
    const groupStart = eligible.findIndex((event) => event.to_block === boundary);
    if (groupStart > 0) end = groupStart;
    else while (end < eligible.length && eligible[end]!.to_block === boundary) end += 1;
  }
  const events = eligible.slice(0, end);
  return {
    events,
    nextBeforeBlock: end < eligible.length ? events[events.length - 1]!.to_block : null,
  };
}

export interface ParsedEvents {
  document: EmissionEvents;
  sha256: string;
}

/**
 * The published event lists, parsed once per run (keyed by the manifest version), not per request.
 * Events hold only integers and strings, so plain `JSON.parse` is exact here.
 */
export class EmissionEventLists {
  #version: string | null = null;
  #parsed = new Map<string, ParsedEvents | null>();

  constructor(private readonly cache: SnapshotCache) {}

  get(path: string, nowMs: number): ParsedEvents | null {
    const manifest = this.cache.manifest;
    if (!manifest) return null;
    if (manifest.version !== this.#version) {
      this.#version = manifest.version;
      this.#parsed = new Map();
    }
    if (this.#parsed.has(path)) return this.#parsed.get(path) ?? null;
    const object = this.cache.get(path, nowMs);
    const entry = manifest.objects.find((candidate) => candidate.path === path);
    const parsed =
      object && entry
        ? {
            document: JSON.parse(new TextDecoder().decode(object.body)) as EmissionEvents,
            sha256: entry.sha256,
          }
        : null;
    this.#parsed.set(path, parsed);
    return parsed;
  }
}
