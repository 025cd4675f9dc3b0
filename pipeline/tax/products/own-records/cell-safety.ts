/**
 * What a cell may hold. The buyer's cells come back to them and to others: in the order page, in the PDF,
 * in the pack's CSVs opened in a spreadsheet. So a cell that a spreadsheet would run as a formula (OWASP
 * "CSV injection": a leading `=`, `+`, `-`, `@`, tab or carriage return) or that a page could take as
 * markup (`<`, `>`) is refused, never quietly altered: the buyer sees which cell and corrects it.
 *
 * A number column is the exception for the leading `-`: `-2` there is a number (refused later as
 * negative, with that reason); `-2+3` is not a number and is refused here as a formula.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?(\d+(\.\d*)?|\.\d+)$/;
/**
 * An amount of money as an exchange writes it in a column of pounds (Coinbase: `£1,500.00`, `-£960.00`):
 * a sign, a currency sign, digits in groups of three. Nothing a spreadsheet runs.
 */
export const MONEY_AMOUNT = /^-?[£$€]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;

/**
 * Why the cell is refused, or null when it is safe. `raw` as in the file, untrimmed; `money`: a column of
 * amounts written with a currency sign (`MONEY_AMOUNT`).
 */
export function unsafeCell(raw: string, numeric: boolean, money = false): string | null {
  const text = raw.trim();
  if (numeric && PLAIN_NUMBER.test(text)) return null;
  if (money && MONEY_AMOUNT.test(text)) return null;
  // Leading tab or CR counts before trimming (a spreadsheet sees it); =+-@ after leading spaces too.
  const start = FORMULA_START.exec(raw)?.[0] ?? FORMULA_START.exec(text)?.[0];
  if (start !== undefined) {
    return `starts with ${describe(start)}: a spreadsheet would run it as a formula; remove that character`;
  }
  const markup = /[<>]/.exec(text)?.[0];
  if (markup !== undefined) return `holds "${markup}": markup characters are not accepted in a cell`;
  if (hasControl(text)) return 'holds a control character (a line break or other): write it on one line';
  return null;
}

function describe(char: string): string {
  if (char === '\t') return 'a tab';
  if (char === '\r') return 'a carriage return';
  return `"${char}"`;
}

/** C0 controls other than tab (a tab inside a cell is harmless; one at its start is a formula start), and DEL. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
}
