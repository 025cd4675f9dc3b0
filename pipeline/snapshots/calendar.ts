const DAY_MS = 86_400_000;

/** The `count` UTC days ending with `lastDay` (YYYY-MM-DD), oldest first. */
export function daysEnding(lastDay: string, count: number): string[] {
  const end = Date.parse(`${lastDay}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) =>
    new Date(end - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
