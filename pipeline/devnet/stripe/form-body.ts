/**
 * Stripe's request encoding (`application/x-www-form-urlencoded` with bracketed keys, as stripe-node
 * writes it): `line_items[0][price_data][currency]=gbp&metadata[order_id]=ord_…` → nested objects,
 * where an object whose keys are exactly 0..n-1 becomes an array.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

export function parseStripeForm(body: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = keyPath(key);
    if (!path) continue;
    let node: Record<string, FormValue> = root;
    for (const [i, segment] of path.entries()) {
      if (i === path.length - 1) {
        node[segment] = value;
        break;
      }
      const next = node[segment];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[segment] = {};
      node = node[segment] as Record<string, FormValue>;
    }
  }
  return arraysOf(root) as Record<string, FormValue>;
}

/** `a[b][0]` → `['a', 'b', '0']`; null for a key that is not of that form. */
function keyPath(key: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return null;
  const rest = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!);
  return [match[1]!, ...rest];
}

function arraysOf(value: FormValue): FormValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(arraysOf);
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((key) => [key, arraysOf(value[key]!)]));
  const isList = keys.length > 0 && keys.every((key, i) => key === String(i));
  return isList ? keys.map((key) => converted[key]!) : converted;
}
