import { freshDir, ms, startServer } from './support.ts';

/** Time from process start to the first answer: on an empty ./data (migrate + demo data), then again. */
export async function benchStartup(): Promise<void> {
  const dataDir = freshDir('startup');
  const first = await startServer({ port: 3941, dataDir, env: { DEMO_PASSWORD: 'Bench#Pass1' } });
  await first.stop();
  const second = await startServer({ port: 3941, dataDir });
  await second.stop();
  console.log(`start-up, empty data dir (migrate + demo data): ${ms(first.readyMs)}`);
  console.log(`start-up, existing data dir:                    ${ms(second.readyMs)}`);
}
