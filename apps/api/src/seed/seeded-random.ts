import { AREA_CODES, LOCATIONS } from './demo-word-lists.ts';

/** sfc32: a small, fast, seedable PRNG; returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

export const DAY = 86_400_000;

/**
 * The draws the demo data is made of, all from one seeded PRNG, with times relative to the
 * seeding time `at`. Every draw advances the one sequence, so the order of the calls is the data.
 */
export function demoDraws(seed: number, at: Date) {
  const rnd = seededRandom(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  /** Skewed towards the front of a frequency-ordered list. */
  const pickCommon = <T>(xs: readonly T[]): T => xs[Math.floor(xs.length * rnd() ** 1.6)]!;
  const chance = (p: number) => rnd() < p;
  const uuid = () => {
    const b = Array.from({ length: 16 }, () => int(256));
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const h = b.map((x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  const docAddress = () => `${pick(['192.0.2', '198.51.100', '203.0.113'])}.${1 + int(254)}`;
  const phone = () => `${pick(AREA_CODES)}55501${String(int(100)).padStart(2, '0')}`;
  const ago = (maxDays: number, minDays = 0) =>
    new Date(at.getTime() - Math.floor((minDays + rnd() * (maxDays - minDays)) * DAY));
  const between = (from: Date, to: Date) =>
    new Date(from.getTime() + Math.floor(rnd() * Math.max(0, to.getTime() - from.getTime())));
  const home = () => ({ location: pick(LOCATIONS), address: docAddress() });
  return { rnd, int, pick, pickCommon, chance, uuid, docAddress, phone, ago, between, home };
}

export type DemoDraws = ReturnType<typeof demoDraws>;
