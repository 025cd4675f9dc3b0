/**
 * The PDF's points to check, each said once: flags whose words are the same but for the UK date they
 * start with (one per day or per event) become one point with a count and their dates.
 */
import type { PackFlag } from '../../uk-rules/cgt/cgt-transactions.js';

export interface GroupedFlag {
  /** The kind of its flags (the same words are raised by one kind). */
  kind: PackFlag['kind'];
  /** The point's words, without a leading date. */
  text: string;
  /** The UK dates it was raised on, oldest first, each once. */
  dates: string[];
  /** How many flags it stands for (an event or a position can raise it twice on one day). */
  count: number;
  /** Whether its flags' words began with their date (then a single one is shown with it). */
  dated: boolean;
}

const LEADING_DATE = /^(\d{4}-\d{2}-\d{2}): /;
/** The `Kind block/index` references an action's flag begins with, as events.csv's chain_events writes them. */
const LEADING_EVENTS = /^([A-Za-z]+ \d+\/\d+(?:, [A-Za-z]+ \d+\/\d+)*): /;

export function groupFlags(flags: readonly PackFlag[]): GroupedFlag[] {
  const groups = new Map<string, GroupedFlag>();
  for (const flag of flags) {
    const text = flag.text.replace(LEADING_DATE, '');
    const group = groups.get(text) ?? {
      kind: flag.kind,
      text,
      dates: [],
      count: 0,
      dated: text !== flag.text,
    };
    group.count += 1;
    if (!group.dates.includes(flag.date)) group.dates.push(flag.date);
    groups.set(text, group);
  }
  for (const group of groups.values()) group.dates.sort();
  return [...groups.values()];
}

/** One line of the PDF: the words with their date, and for a repeated point its count and dates (the first few, then a range). */
export function groupedFlagLine(group: GroupedFlag): string {
  if (group.count === 1) {
    if (group.dated) return `${group.dates[0]}: ${group.text}`;
    // An event's words start with its chain events (`Transfer 912/5: ...`), which tell a person no day.
    const refs = LEADING_EVENTS.exec(group.text);
    return refs ? `${group.dates[0]} (${refs[1]}): ${group.text.slice(refs[0].length)}` : group.text;
  }
  const dates =
    group.dates.length <= 4
      ? group.dates.join(', ')
      : `${group.dates.slice(0, 3).join(', ')} ... ${group.dates[group.dates.length - 1]}`;
  return `${group.text} (${group.count} times, on ${group.dates.length} day(s): ${dates})`;
}
