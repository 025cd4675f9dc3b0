/**
 * Box-and-arrow diagrams as SVG, for the pictures of the docs (test/tools/architecture-picture.ts holds
 * their data). Every box is placed by hand (x, y, width); its height follows from its lines, and long
 * prose wraps. The drawing refuses a line wider than its box and two boxes that overlap, so an edit to the
 * data cannot quietly spill. The same data always gives the same bytes.
 */

/** A box's colours by what it stands for; the same tone means the same part of the house in every picture. */
export const TONES = {
  gateway: { fill: '#e8f1fb', stroke: '#3d6fb0' },
  batch: { fill: '#f1ecf8', stroke: '#6f55a0' },
  products: { fill: '#fdf1e2', stroke: '#c07a22' },
  rules: { fill: '#fbeaee', stroke: '#b2475f' },
  record: { fill: '#e9f5e9', stroke: '#3f8a3f' },
  base: { fill: '#f3f3f3', stroke: '#7a7a7a' },
  outside: { fill: '#ffffff', stroke: '#555555' },
  frame: { fill: '#fffaf3', stroke: '#c07a22' },
} as const;
export type Tone = keyof typeof TONES;

/**
 * One line of a box. `names`: monospace, and every word is a folder (`actions/`), a file (`checkout.ts`) or
 * a module (`stake-at-blocks`, its `.ts` anywhere under the folder named) of the repository, relative to
 * the box's `folder` unless it starts with `pipeline/` or `gateway/`; the test checks each exists.
 * `code`: monospace, not a repository name (a route, a command, a stored object's key). `text`: prose.
 */
export type Line = { names: string } | { code: string } | { text: string };

export interface Box {
  id: string;
  x: number;
  y: number;
  w: number;
  tone: Tone;
  title: string;
  /** The repository folder the box's `names` are relative to (and which must exist). */
  folder?: string;
  lines: Line[];
  /** A step number, drawn in a circle at the box's top-left corner. */
  step?: number;
  dashed?: boolean;
  /** A frame drawn behind other boxes (it may hold them); at least this tall. */
  frame?: { minHeight: number };
}

type Side = 'left' | 'right' | 'top' | 'bottom';

export interface Arrow {
  from: string;
  to: string;
  /** Sides of the two boxes, and where along them (0 to 1; default the middle). */
  fromSide: Side;
  toSide: Side;
  fromAt?: number;
  toAt?: number;
  /** Corners between the two ends, if the arrow is not a straight line. */
  via?: Array<[number, number]>;
  label?: string;
  /** Where the label sits: a point of the drawing (default: the middle of the first segment). */
  labelAt?: [number, number];
  dashed?: boolean;
}

export interface Caption {
  x: number;
  y: number;
  text: string;
  kind: 'heading' | 'lane' | 'legend';
}

export interface Picture {
  file: string;
  /** How to redraw it, written into the SVG: it is generated, not edited. */
  madeBy: string;
  title: string;
  width: number;
  captions: Caption[];
  /** Tinted columns behind the boxes (the flow picture's lanes). */
  lanes?: Array<{ x: number; w: number; tone: Tone }>;
  boxes: Box[];
  arrows: Arrow[];
}

const FONT_SANS = "'Helvetica Neue', Helvetica, Arial, 'DejaVu Sans', sans-serif";
const FONT_MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace";
const TITLE_SIZE = 14;
const BODY_SIZE = 12.5;
const LINE_GAP = 17;
const PAD = 10;
/** Widths per character, on the wide side (DejaVu Sans is among the widest fallbacks a reader may get). */
const SANS_EM = 0.58;
const BOLD_EM = 0.64;
const MONO_EM = 0.61;

// ---------------------------------------------------------------------------------------------------
// What a picture names, for the test.

export interface NamedPath {
  picture: string;
  box: string;
  /** Repository-relative; a folder ends with `/`. */
  path: string;
  /** `module`: `path` is a folder and `module` a file name that must be somewhere under it. */
  kind: 'folder' | 'file' | 'module';
  module?: string;
}

/** A folder of the repository written out in prose, a title or a caption (`pipeline/snapshots/`). */
const FOLDER_IN_TEXT = /(?<![\w/])(?:pipeline|gateway)\/(?:[\w-]+\/)*/g;

/** Every repository folder, file and module a picture names. */
export function namedPaths(picture: Picture): NamedPath[] {
  const named: NamedPath[] = [];
  const inText = (at: { picture: string; box: string }, text: string) => {
    for (const match of text.matchAll(FOLDER_IN_TEXT)) named.push({ ...at, path: match[0], kind: 'folder' });
  };
  for (const caption of picture.captions) inText({ picture: picture.file, box: 'caption' }, caption.text);
  for (const box of picture.boxes) {
    const at = { picture: picture.file, box: box.id };
    if (box.folder) named.push({ ...at, path: box.folder, kind: 'folder' });
    inText(at, box.title);
    for (const line of box.lines) if ('text' in line) inText(at, line.text);
    for (const line of box.lines) {
      if (!('names' in line)) continue;
      for (const word of line.names.split(/\s+/).filter(Boolean)) {
        const full = /^(pipeline|gateway)\//.test(word) ? word : `${box.folder ?? ''}${word}`;
        if (full.endsWith('/')) named.push({ ...at, path: full, kind: 'folder' });
        else if (full.endsWith('.ts')) named.push({ ...at, path: full, kind: 'file' });
        else {
          const slash = full.lastIndexOf('/');
          named.push({
            ...at,
            path: full.slice(0, slash + 1),
            kind: 'module',
            module: `${full.slice(slash + 1)}.ts`,
          });
        }
      }
    }
  }
  return named;
}

// ---------------------------------------------------------------------------------------------------
// The drawing.

interface Placed {
  box: Box;
  h: number;
  rows: Array<{ kind: 'names' | 'code' | 'text'; text: string }>;
}

const xmlText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const widthOf = (text: string, em: number, size: number) => text.length * em * size;

/** Prose wrapped to the box's inner width, word by word. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    const next = current === '' ? word : `${current} ${word}`;
    if (current !== '' && widthOf(next, SANS_EM, BODY_SIZE) > width) {
      lines.push(current);
      current = word;
    } else current = next;
  }
  if (current !== '') lines.push(current);
  return lines;
}

function place(box: Box): Placed {
  const inner = box.w - 2 * PAD;
  const rows: Placed['rows'] = [];
  for (const line of box.lines) {
    if ('text' in line) for (const text of wrap(line.text, inner)) rows.push({ kind: 'text', text });
    else rows.push('names' in line ? { kind: 'names', text: line.names } : { kind: 'code', text: line.code });
  }
  const titleRoom = box.step === undefined ? inner : inner - 22;
  const tooWide = [
    widthOf(box.title, BOLD_EM, TITLE_SIZE) > titleRoom ? box.title : null,
    ...rows.map((row) =>
      widthOf(row.text, row.kind === 'text' ? SANS_EM : MONO_EM, BODY_SIZE) > inner ? row.text : null,
    ),
  ].filter((text) => text !== null);
  if (tooWide.length > 0) throw new Error(`${box.id}: wider than the box: ${tooWide.join(' | ')}`);
  const h = Math.max(28 + rows.length * LINE_GAP + 4, box.frame?.minHeight ?? 0);
  return { box, h, rows };
}

function overlaps(a: Placed, b: Placed): boolean {
  return (
    a.box.x < b.box.x + b.box.w &&
    b.box.x < a.box.x + a.box.w &&
    a.box.y < b.box.y + b.h &&
    b.box.y < a.box.y + a.h
  );
}

function contains(outer: Placed, inner: Placed): boolean {
  return (
    outer.box.x <= inner.box.x &&
    outer.box.y <= inner.box.y &&
    inner.box.x + inner.box.w <= outer.box.x + outer.box.w &&
    inner.box.y + inner.h <= outer.box.y + outer.h
  );
}

function anchor(placed: Placed, side: Side, at = 0.5): [number, number] {
  const { x, y, w } = placed.box;
  const h = placed.h;
  if (side === 'left') return [x, y + h * at];
  if (side === 'right') return [x + w, y + h * at];
  if (side === 'top') return [x + w * at, y];
  return [x + w * at, y + h];
}

const round = (n: number) => Math.round(n * 10) / 10;

function drawBox(placed: Placed): string {
  const { box, h, rows } = placed;
  const tone = TONES[box.tone];
  const parts: string[] = [];
  const dash = box.dashed ? ' stroke-dasharray="5 4"' : '';
  parts.push(
    `<rect x="${box.x}" y="${box.y}" width="${box.w}" height="${round(h)}" rx="6" fill="${tone.fill}" stroke="${tone.stroke}" stroke-width="${box.frame ? 1.5 : 1.2}"${dash}/>`,
  );
  const titleX = box.x + PAD + (box.step === undefined ? 0 : 22);
  if (box.step !== undefined) {
    parts.push(
      `<circle cx="${box.x + PAD + 8}" cy="${box.y + 17}" r="9" fill="${tone.stroke}"/>`,
      `<text x="${box.x + PAD + 8}" y="${box.y + 21}" class="step">${box.step}</text>`,
    );
  }
  parts.push(`<text x="${titleX}" y="${box.y + 21}" class="title">${xmlText(box.title)}</text>`);
  rows.forEach((row, index) => {
    // Monospace rows keep their spaces (two between names); prose is single-spaced anyway.
    const cls = row.kind === 'text' ? 'note' : 'mono" xml:space="preserve';
    parts.push(
      `<text x="${box.x + PAD}" y="${box.y + 40 + index * LINE_GAP}" class="${cls}">${xmlText(row.text)}</text>`,
    );
  });
  return parts.join('\n  ');
}

function drawArrow(arrow: Arrow, placed: Map<string, Placed>): string {
  const from = placed.get(arrow.from);
  const to = placed.get(arrow.to);
  if (!from || !to) throw new Error(`arrow ${arrow.from} → ${arrow.to}: no such box`);
  const start = anchor(from, arrow.fromSide, arrow.fromAt);
  let end = anchor(to, arrow.toSide, arrow.toAt);
  // Side to side with no corners and no point given on the far box: level, so it reads as one step.
  const sideways = (side: Side) => side === 'left' || side === 'right';
  if (sideways(arrow.fromSide) && sideways(arrow.toSide) && !arrow.via && arrow.toAt === undefined) {
    const level = Math.min(Math.max(start[1], to.box.y + 8), to.box.y + to.h - 8);
    end = [end[0], level];
  }
  const points = [start, ...(arrow.via ?? []), end];
  const d = points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${round(x)} ${round(y)}`).join(' ');
  const dash = arrow.dashed ? ' stroke-dasharray="5 4"' : '';
  const parts = [`<path d="${d}" class="arrow"${dash} marker-end="url(#head)"/>`];
  if (arrow.label) {
    const [a, b] = [points[0]!, points[1]!];
    const [lx, ly] = arrow.labelAt ?? [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    const w = widthOf(arrow.label, SANS_EM, BODY_SIZE) + 8;
    parts.push(
      `<rect x="${round(lx - w / 2)}" y="${round(ly - 10)}" width="${round(w)}" height="16" rx="3" fill="#ffffff" fill-opacity="0.92"/>`,
      `<text x="${round(lx)}" y="${round(ly + 2)}" class="label">${xmlText(arrow.label)}</text>`,
    );
  }
  return parts.join('\n  ');
}

function drawCaption(caption: Caption): string {
  return `<text x="${caption.x}" y="${caption.y}" class="${caption.kind}">${xmlText(caption.text)}</text>`;
}

/** The picture as SVG text: the same bytes for the same data. */
export function renderSvg(picture: Picture): string {
  const placed = new Map(picture.boxes.map((box) => [box.id, place(box)] as const));
  const all = [...placed.values()];
  for (const [i, a] of all.entries()) {
    for (const b of all.slice(i + 1)) {
      if (overlaps(a, b) && !contains(a, b) && !contains(b, a))
        throw new Error(`${picture.file}: boxes ${a.box.id} and ${b.box.id} overlap`);
    }
    if (a.box.x + a.box.w > picture.width - 10)
      throw new Error(`${picture.file}: box ${a.box.id} runs off the right edge`);
  }
  const bottom = Math.max(
    ...all.map((p) => p.box.y + p.h),
    ...picture.captions.map((c) => c.y),
    ...picture.arrows.flatMap((a) => (a.via ?? []).map(([, y]) => y)),
  );
  const height = Math.ceil(bottom + 20);
  const frames = all.filter((p) => p.box.frame);
  const boxes = all.filter((p) => !p.box.frame);
  const lanes = (picture.lanes ?? []).map((l) => {
    const tone = TONES[l.tone];
    return `<rect x="${l.x}" y="44" width="${l.w}" height="${height - 54}" rx="8" fill="${tone.fill}" fill-opacity="0.45" stroke="${tone.stroke}" stroke-opacity="0.35"/>`;
  });
  return `${[
    `<svg xmlns="http://www.w3.org/2000/svg" width="${picture.width}" height="${height}" viewBox="0 0 ${picture.width} ${height}" role="img" aria-labelledby="title">`,
    `<title id="title">${xmlText(picture.title)}</title>`,
    `<!-- Generated by ${xmlText(picture.madeBy)}; do not edit. -->`,
    '<defs>',
    '  <marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">',
    '    <path d="M0 0 L10 5 L0 10 z" fill="#333333"/>',
    '  </marker>',
    '  <style>',
    `    text { font-family: ${FONT_SANS}; fill: #1a1a1a; }`,
    `    .heading { font-size: 17px; font-weight: 700; }`,
    `    .lane { font-size: 13px; font-weight: 700; fill: #444444; font-family: ${FONT_MONO}; }`,
    `    .legend { font-size: 12.5px; fill: #444444; }`,
    `    .title { font-size: ${TITLE_SIZE}px; font-weight: 700; }`,
    `    .mono { font-size: ${BODY_SIZE}px; font-family: ${FONT_MONO}; fill: #1a1a1a; }`,
    `    .note { font-size: ${BODY_SIZE}px; fill: #3a3a3a; }`,
    `    .label { font-size: ${BODY_SIZE}px; fill: #333333; text-anchor: middle; font-style: italic; }`,
    `    .step { font-size: 11px; font-weight: 700; fill: #ffffff; text-anchor: middle; }`,
    '    .arrow { fill: none; stroke: #333333; stroke-width: 1.4; }',
    '  </style>',
    '</defs>',
    `<rect width="${picture.width}" height="${height}" fill="#ffffff"/>`,
    ...lanes,
    ...picture.captions.map(drawCaption),
    ...frames.map(drawBox),
    ...boxes.map(drawBox),
    ...picture.arrows.map((arrow) => drawArrow(arrow, placed)),
    '</svg>',
  ].join('\n')}\n`;
}
