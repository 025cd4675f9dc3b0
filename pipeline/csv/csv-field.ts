/** One CSV field as RFC 4180 writes it: quoted (with quotes doubled) only when it must be. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
