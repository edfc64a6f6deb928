/**
 * What a start does once the server listens, in order: the demo data (a first start's), then the
 * search warm-up (the embedded database's). The server answers meanwhile: /livez, the console's
 * files, and API calls, which wait for the demo data alone (server.ts), since their answers depend
 * on it and not on the warm-up, which only makes searches faster. /readyz answers 'starting' until
 * both are done, so that a load balancer sends an instance traffic only once it answers at full
 * speed.
 */
export async function finishStart<S, W>(
  ops: { starting: boolean },
  steps: { seed: () => Promise<S>; warmUp: () => Promise<W> },
): Promise<{ seeded: S; warm: W }> {
  ops.starting = true;
  const seeded = await steps.seed();
  const warm = await steps.warmUp();
  ops.starting = false;
  return { seeded, warm };
}
