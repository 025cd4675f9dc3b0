import { HOUR_MS } from '../../time/utc-day.js';
import type { WorldParams } from '../options.js';
import { type Account, deriveAccount } from './accounts.js';
import { type Rng, rng } from './random.js';
import { Timeline } from './timeline.js';

/** How often a subnet burns: every day, on some days, seldom, or never. */
export type BurnProfile = 'daily' | 'occasional' | 'rare' | 'never';

/** A half-open block range [from, to); `to` null = still running. */
export interface BlockWindow {
  from: number;
  to: number | null;
}

/** One registration of a netuid. A netuid reused after deregistration is a new registration. */
export interface SubnetRegistration {
  netuid: number;
  registeredAt: number;
  /** First block at which the subnet no longer exists; null = still registered. */
  deregisteredAt: number | null;
  name: string;
  symbol: string;
  owner: Account;
  ownerHotkey: Account;
  burnProfile: BurnProfile;
  /** Burns through `add_stake_burn` (spec 393 blocks only). */
  buybacks: boolean;
  recycles: boolean;
  /** First block with a pool; before it SubnetTAO/SubnetAlphaIn are absent and the price is unknown. */
  poolFrom: number;
  /** First block at which emission flows (new subnets start with emission off). */
  emissionFrom: number;
  /** Emission suspended (0, SubnetEmissionEnabled false) within these windows, then restored. */
  suspensions: BlockWindow[];
  /** Registered by a tracked coldkey's own `register_network` (network-lock.ts): its events are that call's. */
  registeredByTracked?: true;
  /** A subnet never started and never traded: its pool stays as registration set it. */
  fixedPool?: { tao: bigint; alphaIn: bigint; alphaOut: bigint };
}

/** Initial subnets 1..INITIAL_SUBNETS plus root exist from block 0 (the adversarial world; see initialSubnets). */
export const INITIAL_SUBNETS = 64;

/** Subnets registered at genesis: with the three that appear later, the mainnet world has 128, as Bittensor does. */
export function initialSubnets(params: Pick<WorldParams, 'magnitudes'>): number {
  return params.magnitudes === 'mainnet' ? 125 : INITIAL_SUBNETS;
}

/** More names for the mainnet world's 128 subnets (14 × 10 = 140, none repeated). */
const MAINNET_NAME_HEADS = ['Zenith', 'Pulse', 'Sigma', 'Tensor'];

const NAME_HEADS = ['Apex', 'Nova', 'Cortex', 'Vega', 'Lumen', 'Axon', 'Quanta', 'Helix', 'Nimbus', 'Orbit'];
const NAME_TAILS = ['Net', 'Mind', 'Forge', 'Lab', 'Grid', 'AI', 'Works', 'Hub', 'Flow', 'Core'];

function symbols(): string[] {
  const list: string[] = [];
  const ranges: Array<[number, number]> = [
    [0x3b1, 0x3c9], // Greek
    [0x5d0, 0x5ea], // Hebrew
    [0x10d0, 0x10f0], // Georgian
  ];
  for (const [from, to] of ranges)
    for (let c = from; c <= to; c++) if (c !== 0x3c2) list.push(String.fromCodePoint(c));
  return list;
}

function shuffledNames(random: Rng, heads: readonly string[]): string[] {
  const names = heads.flatMap((head) => NAME_TAILS.map((tail) => `${head}${tail}`));
  for (let i = names.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [names[i], names[j]] = [names[j]!, names[i]!];
  }
  return names;
}

function hoursToBlocks(hours: number, timeline: Timeline): number {
  return Math.round((hours * HOUR_MS) / timeline.blockTimeMs);
}

/** All registrations of the world, in (netuid, registeredAt) order. */
export function buildSubnets(params: WorldParams): SubnetRegistration[] {
  const timeline = new Timeline(params.genesisMs, params.blockTimeMs);
  const random = rng(params.seed, 'subnets');
  const mainnet = params.magnitudes === 'mainnet';
  const names = shuffledNames(random, mainnet ? [...NAME_HEADS, ...MAINNET_NAME_HEADS] : NAME_HEADS);
  const initial = initialSubnets(params);
  // Names of the registrations made during the history: after the initial subnets' in the mainnet world.
  const laterName = (i: number) => (mainnet ? initial + 1 + i : 80 + i);
  const symbolList = symbols();
  const lastDay = Math.max(0, params.historyDays);
  const dayAt = (fraction: number) => Math.min(lastDay, Math.floor(params.historyDays * fraction));
  const blockInDay = (day: number, fromHour: number, toHour: number) =>
    Math.max(1, timeline.firstBlockOfDay(day) + hoursToBlocks(random.int(fromHour, toHour), timeline));
  const NEVER = Number.MAX_SAFE_INTEGER;

  const make = (netuid: number, registeredAt: number, nameIndex: number, symbolIndex: number) => {
    const profileRoll = random.float();
    const burnProfile: BurnProfile =
      profileRoll < 0.35 ? 'daily' : profileRoll < 0.6 ? 'occasional' : profileRoll < 0.75 ? 'rare' : 'never';
    const registration: SubnetRegistration = {
      netuid,
      registeredAt,
      deregisteredAt: null,
      name: names[nameIndex % names.length] ?? `Subnet ${netuid}`,
      symbol: symbolList[symbolIndex % symbolList.length] ?? 'α',
      owner: deriveAccount(params.seed, `owner/${netuid}/${registeredAt}`),
      ownerHotkey: deriveAccount(params.seed, `owner-hotkey/${netuid}/${registeredAt}`),
      burnProfile,
      buybacks: burnProfile !== 'never' && burnProfile !== 'rare' && random.chance(0.4),
      recycles: random.chance(0.2),
      poolFrom: registeredAt,
      emissionFrom: registeredAt,
      suspensions: [],
    };
    return registration;
  };

  const root = make(0, 0, 0, 0);
  Object.assign(root, {
    name: 'root',
    symbol: 'Τ',
    burnProfile: 'never',
    buybacks: false,
    recycles: false,
    emissionFrom: NEVER, // root has no emission of its own
  });
  const all: SubnetRegistration[] = [root];
  for (let netuid = 1; netuid <= initial; netuid++) all.push(make(netuid, 0, netuid, netuid - 1));

  // One netuid is deregistered mid-history and registered again, hours later, under another name.
  const reusedNetuid = random.int(8, INITIAL_SUBNETS - 4);
  const reused = all[reusedNetuid]!;
  const deregisterDay = dayAt(0.4);
  reused.deregisteredAt = blockInDay(deregisterDay, 1, 10);
  const again = make(
    reusedNetuid,
    reused.deregisteredAt + hoursToBlocks(random.int(2, 8), timeline),
    laterName(0),
    90,
  );
  again.burnProfile = 'daily';
  again.buybacks = false;
  // No pool on its registration day and the next: two days without a price.
  again.poolFrom = timeline.firstBlockOfDay(timeline.dayOf(again.registeredAt) + 2);
  again.emissionFrom = again.registeredAt + hoursToBlocks(72, timeline);
  all.push(again);

  // Two new netuids appear during the history, with emission off at first.
  const firstNew = make(initial + 1, blockInDay(dayAt(0.6), 2, 20), laterName(1), 91);
  firstNew.poolFrom = timeline.firstBlockOfDay(timeline.dayOf(firstNew.registeredAt) + 1);
  firstNew.emissionFrom = firstNew.registeredAt + hoursToBlocks(50, timeline);
  firstNew.burnProfile = 'occasional';
  const secondNew = make(initial + 2, blockInDay(dayAt(0.8), 2, 20), laterName(2), 92);
  secondNew.emissionFrom = secondNew.registeredAt + hoursToBlocks(96, timeline);
  all.push(firstNew, secondNew);

  // Suspensions on initial subnets other than the reused one: three restored, one still suspended.
  const candidates = all.filter((s) => s.netuid >= 1 && s.netuid <= initial && s !== reused);
  const plans: Array<[number, number | null]> = [
    [dayAt(0.2), 40],
    [dayAt(0.5), 30],
    [dayAt(0.7), 75],
    [Math.max(0, params.historyDays - 3), null],
  ];
  const chosen = new Set<number>();
  for (const [day, hours] of plans) {
    let subnet = random.pick(candidates);
    while (chosen.has(subnet.netuid)) subnet = random.pick(candidates);
    chosen.add(subnet.netuid);
    const from = blockInDay(day, 0, 20);
    subnet.suspensions.push({ from, to: hours === null ? null : from + hoursToBlocks(hours, timeline) });
  }

  // A subnet registered in the small hours of today, with no pool until tomorrow: the current panel has
  // a subnet without a price (drawn last, so the rest of the world does not depend on it).
  const newest = make(initial + 3, blockInDay(lastDay, 1, 4), laterName(3), 93);
  newest.poolFrom = timeline.firstBlockOfDay(lastDay + 1);
  newest.emissionFrom = newest.registeredAt + hoursToBlocks(96, timeline);
  newest.burnProfile = 'never';
  newest.buybacks = false;
  all.push(newest);
  return all.sort((a, b) => a.netuid - b.netuid || a.registeredAt - b.registeredAt);
}

export function isAlive(subnet: SubnetRegistration, block: number): boolean {
  return subnet.registeredAt <= block && (subnet.deregisteredAt === null || block < subnet.deregisteredAt);
}
