import { fixedToText } from '../../amounts/rao.js';
import { csvField } from '../../csv/csv-field.js';
import type { ColdkeyFigures } from './pack-figures.js';
import type { PackInputs } from './pack-inputs.js';

/** RFC 4180 with CRLF, UTF-8, an empty field for a missing value: the project's CSV form. */
function csv(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  const line = (fields: readonly (string | number | null)[]) =>
    fields.map((field) => csvField(field === null ? '' : String(field))).join(',');
  return [line(header), ...rows.map(line)].map((row) => `${row}\r\n`).join('');
}

export function figuresCsv(inputs: PackInputs, figures: readonly ColdkeyFigures[]): string {
  const yields = inputs.yields;
  return csv(
    [
      'coldkey',
      'tax_year',
      'events',
      'tao_staked',
      'tao_unstaked',
      'fees_tao',
      'yield_root',
      'yield_alpha',
      'yield_source',
    ],
    figures.map((f) => [
      f.coldkey,
      inputs.taxYear.label,
      f.events,
      f.taoStaked,
      f.taoUnstaked,
      f.feesTao,
      yields?.root.yield ?? null,
      yields?.alpha.yield ?? null,
      yields?.source ?? null,
    ]),
  );
}

const tao = (rao: string | null) => (rao === null ? null : fixedToText(BigInt(rao), 9));

export function eventsCsv(inputs: PackInputs): string {
  const rows = [...inputs.events.entries()].flatMap(([coldkey, events]) =>
    (events ?? []).map((event) => [
      coldkey,
      event.time,
      event.block,
      event.event_index,
      event.kind,
      event.role,
      event.netuid,
      event.hotkey,
      tao(event.tao_rao),
      tao(event.alpha_rao),
      tao(event.fee_rao),
    ]),
  );
  return csv(
    [
      'coldkey',
      'time',
      'block',
      'event_index',
      'kind',
      'role',
      'netuid',
      'hotkey',
      'tao',
      'alpha',
      'fee_tao',
    ],
    rows,
  );
}
