import { InvalidArgumentError } from 'commander';
import { InvalidUtcDayError, isUtcDay } from './utc-day.js';

/**
 * Commander's parser for a `--from`/`--to` day option. It throws commander's own error type so that
 * commander names the option in its one-line message; the wording is the day module's.
 */
export function utcDayOption(value: string): string {
  if (!isUtcDay(value)) throw new InvalidArgumentError(new InvalidUtcDayError(value).message);
  return value;
}
