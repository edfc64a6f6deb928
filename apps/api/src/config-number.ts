/** A setting that must be a positive number: its value, the fallback when unset, or a start that says what is wrong. */
export const positive = (name: string, v: string | undefined, fallback: number): number => {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got '${v}'`);
  return n;
};
