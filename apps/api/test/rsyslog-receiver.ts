import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, until } from './api-process.ts';

export const RSYSLOGD = '/usr/sbin/rsyslogd';

/**
 * Debian's rsyslog as a real syslog receiver for a test: TCP on a loopback port of its own
 * (octet-counted frames, as RFC 6587 allows), every message written raw, one a line, to a file.
 * `stop()` ends it (SIGTERM) and `start()` brings it back on the same port: a receiver cut.
 */
export async function startRsyslog(): Promise<{
  port: number;
  lines(): string[];
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-rsyslog-'));
  const port = await freePort(5300);
  const out = path.join(dir, 'received.log');
  const conf = path.join(dir, 'rsyslog.conf');
  fs.writeFileSync(
    conf,
    [
      `global(workDirectory="${dir}" maxMessageSize="64k")`,
      'module(load="imtcp")',
      `input(type="imtcp" port="${port}" address="127.0.0.1")`,
      'template(name="raw" type="string" string="%rawmsg%\\n")',
      `*.* action(type="omfile" file="${out}" template="raw" flushOnTXEnd="on" asyncWriting="off")`,
      '',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;
  const listening = () =>
    new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
  const start = async () => {
    child = spawn(RSYSLOGD, ['-n', '-f', conf, '-i', path.join(dir, 'pid')], { stdio: 'ignore' });
    await until(listening, 'rsyslogd listening', 20_000, 50);
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    port,
    lines: () => (fs.existsSync(out) ? fs.readFileSync(out, 'utf8').split('\n').filter(Boolean) : []),
    stop,
    start,
    async close() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
